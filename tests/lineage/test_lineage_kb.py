"""Rule lineages and changes in the KB: graph/lineage, the queries over it,
``rulekb history`` and the ``lineage`` of ``rulekb rule``.

Two invented editions (the fixture and a later one made from it here) pin the
mechanics; the real corpus pins the facts: rule 111.2 of 2011 was 200.5a before
the 2009 restructure and is 112.2 since 2019.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from rulekb.kb.lineage import history
from rulekb.kb.store import queries
from rulekb.kb import service
from rulekb.kb.rdf.lineage import label
from rulekb.kb.store.embedded import EmbeddedStore

from ..helpers import assert_bad_input, edited, invoke_cli, run_cli

FIXTURE = Path(__file__).parents[1] / "fixtures" / "invented-cr-2030-05-05.txt"
OLD, NEW = "en/2030-05-05", "en/2030-08-08"
PREFIX = 'PREFIX rk: <https://w3id.org/rulekb#>\nPREFIX dcterms: <http://purl.org/dc/terms/>\n'


def _later_edition(text: str) -> str:
    """The fixture three months on: a rule inserted before 100.2 (which becomes
    100.3), 101.1 and 200.1 reworded, 200.1c removed."""
    return edited(text, [
        ("May 5, 2030", "August 8, 2030"),
        ("100.2. Each duelist brings one deck of at least forty gadget cards.",
         "100.2. Each duelist brings a score pad to the duel.\n\n"
         "100.3. Each duelist brings one deck of at least forty gadget cards."),
        ("see rule 100.2a.", "see rule 100.3a."),
        ("the duelist who brought it.", "the duelist who brought it to the table."),
        ("A turn has three steps: wind, spin, and rest.", "A turn has two steps: wind and spin."),
        ("\n200.1c The rest step comes last. See rules 101.1 and 101.2.\n", "\n"),
    ])


@pytest.fixture(scope="module")
def two_editions(tmp_path_factory):
    from rulekb.kb.build import build

    root = tmp_path_factory.mktemp("two-editions")
    (root / FIXTURE.name).write_text(FIXTURE.read_text(encoding="utf-8"), encoding="utf-8")
    (root / "invented-cr-2030-08-08.txt").write_text(_later_edition(FIXTURE.read_text(encoding="utf-8")),
                                                     encoding="utf-8")
    store = EmbeddedStore(root / "store")
    report = build([str(root)], store, reasoner="none")
    return store, report


# ---------------------------------------------------------------- invented editions


def test_the_build_reports_lineages_and_changes(two_editions):
    _, report = two_editions
    assert report.editions == [OLD, NEW]
    assert report.changes == 5  # 100.2 added, 100.2->100.3, 101.1 and 200.1 modified, 200.1c removed
    assert report.lineages == 11  # the 10 rules of the first edition, and the one added
    assert report.lineage_seconds >= 0


def test_history_follows_a_renumbered_rule(two_editions):
    store, _ = two_editions
    entries = history.history(store, "100.3")  # default: the newest English edition
    assert [(e["edition"], e["number"]) for e in entries] == [(OLD, "100.2"), (NEW, "100.3")]
    assert entries[0]["kind"] is None  # the oldest edition the KB has
    assert entries[1]["kind"] in ("renumbered", "modified")
    assert "forty gadget cards" in entries[1]["text"]
    assert history.history(store, "100.2", OLD) == entries  # the same lineage from its other end


def test_history_of_an_added_and_of_a_removed_rule(two_editions):
    store, _ = two_editions
    assert [(e["edition"], e["number"], e["kind"]) for e in history.history(store, "100.2", NEW)] == [
        (NEW, "100.2", "added")]
    removed = history.history(store, "200.1c", OLD)
    assert [(e["edition"], e["number"], e["kind"]) for e in removed] == [(OLD, "200.1c", None), (NEW, None, "removed")]
    reworded = history.history(store, "200.1", NEW)
    assert reworded[1]["kind"] == "modified" and reworded[1]["detail"] == "text" and 0 < reworded[1]["similarity"] < 1


def test_rule_output_has_its_lineage(two_editions):
    store, _ = two_editions
    lineage = service.rule(store, NEW, "100.3")["lineage"]
    assert lineage["iri"].endswith(f"/lineage/{OLD}/100.2") and lineage["id"] == f"{OLD}/100.2"
    assert [(n["number"], n["first"], n["last"]) for n in lineage["numbers"]] == [("100.2", OLD, OLD), ("100.3", NEW, NEW)]
    assert service.rule(store, OLD, "200.1c")["lineage"]["ended"] == {"kind": "removed", "edition": NEW}


def test_edition_changes_and_renumbered_rules_queries(two_editions):
    store, _ = two_editions
    changes = service.run(store, "edition-changes", old=OLD, new=NEW)
    assert {(r["kind"], r.get("old_number"), r.get("new_number")) for r in changes} == {
        ("added", None, "100.2"), ("modified", "100.2", "100.3"), ("modified", "101.1", "101.1"),
        ("modified", "200.1", "200.1"), ("removed", "200.1c", None)}
    assert all(0 <= float(r["similarity"]) <= 1 for r in changes)
    renumbered = service.run(store, "renumbered-rules", old=OLD, new=NEW)
    assert [(r["old_number"], r["new_number"]) for r in renumbered] == [("100.2", "100.3")]


def test_lineage_quads_live_in_their_own_graph(two_editions):
    store, _ = two_editions
    assert any(g.endswith("/graph/lineage") for g in store.graphs())
    elsewhere = store.select(PREFIX + """
        SELECT ?g WHERE { VALUES ?p { rk:lineage rk:nextVersion rk:previousVersion rk:changeKind }
                          GRAPH ?g { ?s ?p ?o } FILTER (!STRENDS(STR(?g), "/graph/lineage")) } LIMIT 1""")
    assert elsewhere == []  # an edition's graph stays about that edition


def test_the_invented_kb_conforms_with_its_lineages(two_editions):
    from rulekb.kb.store.validate import validate

    store, _ = two_editions
    result = validate(store, editions=[NEW])
    assert result["conforms"], result["violations"][:5]
    assert "version-link-violation" in result["checks"]


def test_history_cli_text_marks_changed_words_and_json_has_the_design_shape(two_editions):
    store, _ = two_editions
    text = run_cli("history", "200.1", "--store", store.location)
    assert text.returncode == 0, text.stderr
    assert "[-three-]" in text.stdout and "{+two+}" in text.stdout and "modified" in text.stdout
    data = invoke_cli("history", "100.3.", "--store", store.location, "--format", "json").json
    assert all({"edition", "number", "text", "kind"} <= set(e) for e in data)
    assert [e["number"] for e in data] == ["100.2", "100.3"]


@pytest.mark.parametrize("args,message", [
    (["history", "999.9"], "has no rule 999.9"),
    (["history", "100.1", "--edition", "xx/1999-01-01"], "no edition"),
])
def test_history_cli_errors_are_one_line_and_exit_2(two_editions, args, message):
    store, _ = two_editions
    assert_bad_input(invoke_cli(*args, "--store", store.location), message)


def test_partial_editions_are_not_chained():
    from rulekb.ingest.parse import parse_many
    from rulekb.kb.build import chain

    (first,) = parse_many([str(FIXTURE)]).editions
    later = replace(first, id="en/2030-08-08", effective_date="2030-08-08", partial=True)
    found, _ = chain([first, later])
    assert found.editions == [OLD] and not found.alignments
    assert found.of(OLD, "100.1") is not None and found.of("en/2030-08-08", "100.1") is None


def test_lineages_are_cached_by_the_texts_they_come_from(tmp_path):
    from rulekb.ingest.parse import parse_many
    from rulekb.kb.lineage.cache import cached_lineages, digest, from_json, to_json

    (first,) = parse_many([str(FIXTURE)]).editions
    (later,) = parse_many([str(_write(tmp_path, "invented-cr-2030-08-08.txt", _later_edition(FIXTURE.read_text())))]).editions
    computed, hit = cached_lineages([first, later], cache=tmp_path / "cache")
    assert not hit and from_json(to_json(computed)) == computed
    again, hit = cached_lineages([first, later], cache=tmp_path / "cache")
    assert hit and again == computed
    changed = replace(later, rules=later.rules[:-1])
    assert digest([first, changed]) != digest([first, later])
    (tmp_path / "cache" / f"{digest([first, later])}.json").write_text("{not json")
    assert cached_lineages([first, later], cache=tmp_path / "cache") == (computed, False)  # a bad file recomputes


def _write(folder: Path, name: str, text: str) -> Path:
    (folder / name).write_text(text, encoding="utf-8")
    return folder / name


def test_label_word_diff_and_periods():
    assert label({"a": "200.5a", "b": "200.5a", "c": "111.2", "d": "112.2"}) == "200.5a → 111.2 → 112.2"
    assert history.word_diff("A turn has three steps.", "A turn has two steps.") == [
        ("=", "A turn has"), ("-", "three"), ("+", "two"), ("=", "steps.")]
    entries = [{"edition": e, "number": n, "text": "t", "kind": k}
               for e, n, k in (("e1", "1", None), ("e2", "1", "unchanged"), ("e3", "2", "renumbered"), ("e4", "2", "unchanged"))]
    assert [(p["first"], p["last"], p["editions"]) for p in history.periods(entries)] == [("e1", "e2", 2), ("e3", "e4", 2)]


def _dataset(nquads: str) -> EmbeddedStore:
    return EmbeddedStore.in_memory(nquads.encode())


def test_the_version_link_check_flags_a_fork_and_a_link_to_no_rule():
    # the next version is not stored: two rules naming one previous version fork it
    rk, g, e = "https://w3id.org/rulekb#", "<http://x/graph/lineage>", "<http://x/edition/en/2030-01-01>"
    rule = f"<http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <{rk}Rule>"
    quads = "\n".join([
        *(f"<http://x/{n}> {rule} {e} ." for n in "abc"),
        f"<http://x/b> <{rk}previousVersion> <http://x/a> {g} .",
        f"<http://x/c> <{rk}previousVersion> <http://x/a> {g} .",
        f"<http://x/d> <{rk}previousVersion> <http://x/gone> {g} .",
    ]) + "\n"
    rows = _dataset(quads).select(queries.checks()["version-link-violation"].text)
    messages = sorted(r["message"] for r in rows)
    assert any("http://x/a has 2 next versions" in m for m in messages), messages
    assert any("http://x/d has previous version http://x/gone, which is no rule" in m for m in messages), messages
    assert len(messages) == 2, messages


# ---------------------------------------------------------------- the real corpus


def test_history_of_111_2_reaches_through_the_2009_restructure_to_112_2(corpus_kb):
    store, _ = corpus_kb
    result = invoke_cli("history", "111.2", "--edition", "en/2011-09-30", "--store", store.location, "--format", "json")
    assert result.returncode == 0, result.stderr
    entries = result.json
    assert all({"edition", "number", "text", "kind"} <= set(e) for e in entries)
    number = {e["edition"]: e["number"] for e in entries}
    assert entries[0]["edition"] == "en/2003-07-01" and entries[0]["number"] == "200.5a"
    assert number["en/2009-05-01"] == "200.5a" and number["en/2009-07-08"] == "111.2"
    assert number["en/2011-09-30"] == "111.2" and number["en/2019-06-12"] == "111.2"
    assert number["en/2019-07-12"] == "112.2" and entries[-1] == {**entries[-1], "edition": "en/2026-01-16", "number": "112.2"}
    assert {e["number"] for e in entries} == {"200.5a", "111.2", "112.2"}
    restructure = next(e for e in entries if e["edition"] == "en/2009-07-08")
    assert restructure["kind"] in ("renumbered", "modified")
    assert "spell" in restructure["text"].lower()


def test_the_token_owner_lineage(corpus_kb):
    store, _ = corpus_kb
    lineage = service.rule(store, "en/2026-01-16", "111.2")["lineage"]
    assert [n["number"] for n in lineage["numbers"]] == ["200.4a", "110.5a", "111.2"]
    assert lineage["numbers"][1]["first"] == "en/2009-07-08" and lineage["numbers"][2]["first"] == "en/2019-07-12"
    assert lineage["ended"] is None
    cli = run_cli("rule", "en/2026-01-16", "111.2", "--store", store.location)
    assert "lineage: 200.4a (en/2003-07-01..en/2009-05-01) -> 110.5a" in cli.stdout


def test_version_links_are_consistent_over_the_whole_kb(corpus_kb):
    store, report = corpus_kb
    assert report.lineages > 3000 and report.changes > 15000
    assert store.select(queries.checks()["version-link-violation"].text) == []
    counts = store.select(PREFIX + """
        SELECT (COUNT(*) AS ?n) ?p WHERE { ?s ?p ?o VALUES ?p { rk:lineage rk:nextVersion rk:previousVersion } }
        GROUP BY ?p""")
    n = {row["p"].rpartition("#")[2]: int(row["n"]) for row in counts}
    assert "nextVersion" not in n and n["previousVersion"] > 200_000  # the next: its inverse, not stored
    complete = store.select(PREFIX + """
        SELECT (COUNT(?rule) AS ?n) WHERE { ?ed rk:partial false . GRAPH ?ed { ?rule a rk:Rule } }""")
    assert n["lineage"] == int(complete[0]["n"])  # every rule of a complete edition, once
    french = store.select(PREFIX + """
        SELECT ?rule WHERE { ?ed dcterms:language "fr" . GRAPH ?ed { ?rule a rk:Rule } ?rule rk:lineage ?l } LIMIT 1""")
    assert french == []  # the French texts are partial: not chained


def test_the_2009_restructure_in_the_change_queries(corpus_kb):
    store, _ = corpus_kb
    changes = service.run(store, "edition-changes", old="en/2009-05-01", new="en/2009-07-08")
    pairs = {(r.get("old_number"), r.get("new_number")): r for r in changes}
    assert pairs[("200.5a", "111.2")]["kind"] in ("renumbered", "modified")
    assert len(changes) > 1500
    renumbered = {(r["old_number"], r["new_number"]) for r in
                  service.run(store, "renumbered-rules", old="en/2009-05-01", new="en/2026-01-16")}
    assert {("200.5a", "112.2"), ("200.4a", "111.2")} <= renumbered


def test_shapes_hold_for_the_lineages_of_the_restructure(corpus_kb):
    from rulekb.kb.store.validate import _shacl  # SHACL alone: test_kb_corpus runs the whole rulekb validate

    store, _ = corpus_kb
    links = queries.get("edition-lineage-links")
    graph = next(g for g in store.graphs() if g.endswith("/edition/en/2009-07-08"))
    answer = store.query(links.text, links.bindings({"g": graph}), rdf_format="nt")
    assert answer.data.count(b"#Change>") > 1000  # the changes into it are among what SHACL checks
    assert _shacl(store, graph) == []


def test_history_cli_errors_on_the_real_kb(corpus_kb):
    store, _ = corpus_kb
    result = invoke_cli("history", "999.9", "--store", store.location)
    assert result.returncode == 2 and "en/2026-01-16 has no rule 999.9" in result.stderr

"""The knowledge base built from the real corpus: counts, cross-references in
both languages, concepts, validation, and the CLI against that store."""

from __future__ import annotations

import json

import pytest

from rulekb.kb import service

from ..helpers import assert_bad_input, invoke_cli, run_cli

pytestmark = pytest.mark.corpus


def _rule_citing(store, edition: str, words: str) -> dict:
    rows = service.run(store, "search", edition=edition, text=words)
    assert rows, f"no rule of {edition} contains {words!r}"
    return service.rule(store, edition, rows[0]["number"])


def test_every_edition_is_built_once(corpus_kb):
    _, report = corpus_kb
    english = [e for e in report.editions if e.startswith("en/")]
    french = [e for e in report.editions if e.startswith("fr/")]
    dated = [e for e in english if not e.startswith("en/undated-")]
    assert len(dated) == 128  # one per text; the others are English quotes on French glossary pages
    assert len(english) - len(dated) == 4
    assert "fr/2011-02-04" in french and "fr/2008-04-14" in french and len(french) > 25
    assert any("lotusnoir" in s and s.startswith("en/2011-09-30") for s in report.skipped)
    assert len(report.refused) == 4  # the no-rules pages
    assert report.quads > 3_500_000  # (3.81 M since statements say what they say once)


def test_cross_references_resolve_across_the_corpus(corpus_kb):
    store, report = corpus_kb
    assert report.citations > 140_000
    assert report.dangling / report.citations < 0.002
    rows = service.run(store, "dangling-references")
    assert len(rows) == report.dangling


@pytest.mark.parametrize(
    "edition,words,resolved,dangling",
    [
        ("en/2026-01-16", "(See rule 405, “Stack.”)", {"405"}, set()),
        ("en/2009-07-11", "rules 510.1c-d", {"510.1c", "510.1d"}, set()),
        ("en/2009-07-11", "see section 6", {"6"}, set()),
        ("en/2026-01-16", "See rule 613.1c and rule 612", {"613.1c", "612"}, set()),
        ("fr/2011-02-04", "voir section 6", {"6"}, {"601"}),  # 111.1 also cites 601: not on the site's pages
        ("fr/2011-02-04", "règles 510.1 c-d", {"510.1c"}, {"510.1d"}),  # the 510 page stops at 510.1c
        ("fr/2008-04-14", "Voir règle 213", set(), {"213"}),  # the article covers 200-210 only
    ],
)
def test_english_and_french_citations_resolve_in_their_edition(corpus_kb, edition, words, resolved, dangling):
    store, _ = corpus_kb
    rule = _rule_citing(store, edition, words)
    assert resolved <= set(rule["references"])
    assert dangling <= set(rule["dangling"])
    assert not (resolved & set(rule["dangling"]))


def test_rules_know_who_cites_them(corpus_kb):
    store, _ = corpus_kb
    rule = service.rule(store, "en/2026-01-16", "601.2b")
    assert len(rule["referenced_by"]) > 40  # the most cited rule of 2026
    cited = service.rule(store, "en/2026-01-16", "111.2")
    assert "glossary: Owner" in cited["referenced_by"]


def test_concepts_are_bilingual_where_the_ontology_knows_the_french(corpus_kb):
    store, _ = corpus_kb
    rows = service.run(store, "concept", concept="propriétaire")
    assert {r["label"] for r in rows} == {"Owner", "propriétaire"}
    assert any(r["edition"] == "en/2026-01-16" for r in service.run(store, "concept-rules", concept="owner"))
    french = service.rule(store, "fr/2011-02-04", "111.2")
    assert {"Owner", "Spell"} <= {c["label"] for c in french["concepts"]}
    denotes = store.select(
        "SELECT ?t WHERE { <http://localhost:8000/concept/owner> <https://w3id.org/rulekb#denotes> ?t }")
    assert denotes == [{"t": "https://w3id.org/rulekb#owner"}]


def test_a_rule_number_across_editions_spans_the_history(corpus_kb):
    store, _ = corpus_kb
    rows = service.run(store, "rule-across-editions", number="111.2")
    editions = [r["edition"] for r in rows]
    assert editions[0].startswith("en/2009") and "en/2026-01-16" in editions


def test_the_real_kb_conforms_and_warns_about_its_sources(corpus_kb):
    from rulekb.kb.store.validate import validate

    store, report = corpus_kb
    result = validate(store)
    assert result["conforms"], result["violations"][:5]
    assert result["shacl_graphs"][0].endswith("/edition/en/2026-01-16")
    dangling = [w for w in result["warnings"] if w["check"] == "dangling-reference-violation"]
    assert len(dangling) == report.dangling


def test_cli_against_the_real_kb(corpus_kb):
    """``rulekb rule`` as a user starts it; the other commands in this process (tests.helpers.invoke_cli:
    the same parsing and output, without an interpreter and the corpus store opened again for each)."""
    store, _ = corpus_kb
    where = ["--store", store.location]
    rule = run_cli("rule", "en/2026-01-16", "111.2.", *where, "--format", "json")
    assert rule.returncode == 0, rule.stderr
    assert rule.json["text"].startswith("The player who creates a token is its owner.")
    editions = invoke_cli("editions", *where, "--format", "json")
    assert len(editions.json) > 150
    csv = invoke_cli("query", "section-rules", "-p", "edition=en/2026-01-16", "-p", "section=111", "--results", "csv", *where)
    assert csv.returncode == 0 and csv.stdout.startswith("number,text,rule")
    adhoc = invoke_cli("query", "--sparql", "SELECT (COUNT(*) AS ?n) WHERE { ?r a rk:Rule }", *where, "--format", "json")
    assert int(json.loads(adhoc.stdout)["results"]["bindings"][0]["n"]["value"]) > 245_000
    exported = invoke_cli("export", "en/2026-01-16", "--rdf", "nt", *where)
    assert exported.returncode == 0 and exported.stdout.count("\n") > 25_000  # (what its statements say: graph/statements)


@pytest.mark.parametrize(
    "args,message",
    [
        (["query", "--sparql", "SELECT ?x WHERE { ?x ?y }"], "SPARQL syntax error"),
        (["rule", "en/2026-01-16", "999.9"], "has no rule 999.9"),
        (["rule", "xx/1999-01-01", "100.1"], "no edition"),
        (["query", "rule", "-p", "edition=en/2026-01-16"], "needs --param number"),
        (["export", "en/2026-01-16", "--rdf", "docx"], "unknown RDF format"),
    ],
)
def test_cli_errors_on_the_real_kb_are_one_line_and_exit_2(corpus_kb, args, message):
    store, _ = corpus_kb
    assert_bad_input(invoke_cli(*args, "--store", store.location), message)

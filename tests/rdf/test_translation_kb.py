"""French beside English in the KB (kb.rdf.translation, graph/translation): each
French text's base edition, its rules' translationOf links, the translation
report's findings, and the named queries over them.

The invented widget-duel texts (kb/bench/gold/translate) and a later English
edition made from them here pin the mechanics (a stale rule, the cache); the real
corpus pins the facts: the French 2011-02-04 text translates the English edition
of the same date.
"""

from __future__ import annotations

from pathlib import Path
from importlib import resources

import pytest

from rulekb.kb import service
from rulekb.kb.store.embedded import EmbeddedStore
from rulekb.kb.rdf.translation import value_text

FIXTURES = resources.files("rulekb.kb.bench").joinpath("gold", "translate")
EN = FIXTURES / "widget-en-2030-05-05.txt"
FR = FIXTURES / "widget-fr-2030-05-05.txt"
PREFIX = "PREFIX rk: <https://w3id.org/rulekb#>\n"


def _later_english() -> str:
    """The invented English four months on: one number changed in rule 101.6."""
    text = EN.read_text(encoding="utf-8").replace("May 5, 2030", "September 1, 2030")
    old = "more than three cogs, it has three cogs instead"
    assert old in text
    return text.replace(old, "more than four cogs, it has four cogs instead")


@pytest.fixture(scope="module")
def widget_kb(tmp_path_factory):
    from rulekb.kb.build import build

    root = tmp_path_factory.mktemp("translation-kb")
    later = root / "CR-2030-09-01.txt"
    later.write_text(_later_english(), encoding="utf-8")
    sources = [str(EN), str(later), str(FR)]
    env = pytest.MonkeyPatch()
    env.setenv("RULEKB_CACHE", str(root / "cache"))  # a cold cache, then a warm one
    try:  # for these two builds only: the session's corpus build keeps the usual cache
        first = build(sources, EmbeddedStore(root / "store"), reasoner="none")
        again = build(sources, EmbeddedStore(root / "store-again"), reasoner="none")
    finally:
        env.undo()
    return EmbeddedStore(root / "store"), first, again


def test_the_french_edition_records_its_base_edition_with_score(widget_kb):
    store, report, _ = widget_kb
    rows = store.select(PREFIX + """SELECT ?base ?score WHERE {
        ?fr rk:editionId "fr/2030-05-05" ; rk:baseEdition ?b ; rk:baseScore ?score . ?b rk:editionId ?base }""")
    assert [r["base"] for r in rows] == ["en/2030-05-05"]
    assert 0.8 < float(rows[0]["score"]) <= 1.0
    assert report.translations["texts"] == 1


def test_every_french_rule_translates_the_base_rule_of_its_number(widget_kb):
    store, _, _ = widget_kb
    rows = service.run(store, "translation-of", edition="fr/2030-05-05", number="101.6")
    assert [(r["en_edition"], r["en_number"]) for r in rows] == [("en/2030-05-05", "101.6")]
    assert rows[0]["latest_edition"] == "en/2030-09-01" and rows[0]["latest_number"] == "101.6"
    links = store.select(PREFIX + """SELECT ?fr_number ?en_number WHERE {
        ?fr rk:translationOf ?en . ?fr rk:number ?fr_number . ?en rk:number ?en_number }""")
    assert len(links) > 20 and all(r["fr_number"] == r["en_number"] for r in links)


def test_a_rule_changed_after_the_base_is_a_stale_finding(widget_kb):
    store, _, _ = widget_kb
    rows = service.run(store, "translation-findings", edition="fr/2030-05-05")
    assert ("stale", "101.6", "101.6", "101.6") in {
        (r["kind"], r.get("fr_number"), r.get("us_number"), r.get("base_number")) for r in rows}
    assert {r["us_edition"] for r in rows} == {"en/2030-09-01"}
    assert all(r["base_edition"] == "en/2030-05-05" for r in rows)
    assert all(r["finding"].startswith("http://localhost:8000/translation/fr/2030-05-05/") for r in rows)


def test_agreeing_rules_give_no_other_finding(widget_kb):
    """The faithful invented translation: the only finding is the English change."""
    store, _, _ = widget_kb
    kinds = {r["kind"] for r in service.run(store, "translation-findings", edition="fr/2030-05-05")}
    assert kinds == {"stale"}


def test_the_english_rule_finds_its_french_translation_in_any_edition_of_its_lineage(widget_kb):
    store, _, _ = widget_kb
    for edition in ("en/2030-05-05", "en/2030-09-01"):
        rows = service.run(store, "rule-translations", edition=edition, number="101.6")
        assert [(r["fr_edition"], r["fr_number"], r["translates_edition"]) for r in rows] == \
            [("fr/2030-05-05", "101.6", "en/2030-05-05")]


def test_a_rebuild_from_the_same_texts_reads_the_findings_back(widget_kb):
    store, first, again = widget_kb
    assert again.translations["cached"] == again.translations["texts"] == 1
    assert again.translations["findings"] == first.translations["findings"] > 0


def test_a_finding_value_reads_as_one_string():
    assert value_text(["101.2", "300.3"]) == "101.2, 300.3"
    assert value_text({"dégâts": ["1.1"], "blessures": ["2.2", "3.3"]}) == "dégâts: 1.1; blessures: 2.2, 3.3"
    assert value_text(3) == "3" and value_text(None) == ""


# -- the real corpus ------------------------------------------------------------

def test_corpus_french_2011_translates_the_english_2011_edition(corpus_kb):
    store, report = corpus_kb
    rows = store.select(PREFIX + """SELECT ?base ?runner WHERE {
        ?fr rk:editionId "fr/2011-02-04" ; rk:baseEdition ?b ; rk:runnerUpEdition ?r .
        ?b rk:editionId ?base . ?r rk:editionId ?runner }""")
    assert [r["base"] for r in rows] == ["en/2011-02-04"]
    assert rows[0]["runner"] != "en/2011-02-04"
    assert report.translations["texts"] >= 20


def test_corpus_translation_links_point_to_english_rules_of_the_same_number(corpus_kb):
    store, _ = corpus_kb
    links = store.select(PREFIX + """SELECT ?fr_number ?en_number ?en_edition WHERE {
        ?fred rk:editionId "fr/2011-02-04" .
        GRAPH ?fred { ?fr rk:number ?fr_number }
        ?fr rk:translationOf ?en . GRAPH ?ened { ?en rk:number ?en_number } ?ened rk:editionId ?en_edition }""")
    assert len(links) >= 100
    assert {r["en_edition"] for r in links} == {"en/2011-02-04"}
    # the site numbers two sections one ahead of en/2011-02-04 (its 208 power/toughness is
    # the English 207, its 713 ending the turn the English 712): same rule, previous section
    shifted = {"208": "207", "713": "712"}
    for row in links:
        section, _, rest = row["fr_number"].partition(".")
        assert row["en_number"] in (row["fr_number"], f"{shifted.get(section)}.{rest}"), row
    assert sum(r["fr_number"] == r["en_number"] for r in links) >= 100


def test_corpus_queries_answer_on_the_real_kb(corpus_kb):
    store, _ = corpus_kb
    findings = service.run(store, "translation-findings", edition="fr/2011-02-04")
    assert findings and {r["us_edition"] for r in findings} == {"en/2026-01-16"}
    assert service.run(store, "translation-of", edition="fr/2011-02-04", number="110.1")
    rows = service.run(store, "rule-translations", edition="en/2026-01-16", number="110.1")
    assert ("fr/2011-02-04", "110.1") in {(r["fr_edition"], r["fr_number"]) for r in rows}


def test_corpus_french_texts_without_rules_have_no_base_and_no_findings(corpus_kb):
    store, _ = corpus_kb
    rows = store.select(PREFIX + """SELECT ?fr WHERE {
        ?fred rk:editionId "fr/2014-05-01" . { ?fred rk:baseEdition ?fr } UNION { ?f rk:frEdition ?fred } }""")
    assert rows == []


def test_the_translation_graph_conforms_to_the_shapes(widget_kb):
    from rulekb.kb.store.validate import _shacl

    store, _, _ = widget_kb
    graph = "http://localhost:8000/graph/translation"
    assert graph in store.graphs()
    # (the French rules' translationOf links put rule nodes in this graph too: their shapes
    # are checked with their own edition's graph)
    assert [v for v in _shacl(store, graph) if "/translation/fr/" in str(v)] == []

"""The knowledge base on the invented edition: RDF shape, IRIs, links, atomic builds."""

from __future__ import annotations

import json

import pyoxigraph as ox
import pytest

from rulekb.kb import service
from rulekb.kb.build import build
from rulekb.kb.errors import BuildError, KBError, NotFound, QueryError, StoreError
from rulekb.kb.rdf.iris import Minter, slug
from rulekb.kb.store.embedded import EmbeddedStore
from rulekb.kb.store.kind import bind_values

BASE = "http://localhost:8000/"
ED = "en/2030-05-05"
RK = "https://w3id.org/rulekb#"


def test_the_build_reports_what_it_loaded(fixture_kb):
    store, report = fixture_kb
    assert report.editions == [ED]
    assert report.quads > 100
    assert report.citations == 6 and report.dangling == 1  # "rule 100.2a" names nothing
    assert store.exists()


def test_each_edition_is_its_own_named_graph(fixture_kb):
    store, _ = fixture_kb
    graphs = store.graphs()
    assert f"{BASE}edition/{ED}" in graphs
    assert f"{BASE}graph/concepts" in graphs
    assert f"{BASE}graph/ontology" in graphs


def test_a_rule_has_the_design_shape(fixture_kb):
    store, _ = fixture_kb
    data = service.rule(store, ED, "100.1b")
    assert data["iri"] == f"{BASE}edition/{ED}/rule/100.1b"
    assert data["text"] == "A team game uses the team rules (see rules 200.1a-c and section 2)."
    assert data["examples"] == ["Ana and Bo play against Cy and Di. Each team shares one score."]
    assert data["references"] == ["2", "200.1a", "200.1b", "200.1c"]  # in rule-number order
    assert data["dangling"] == []
    assert data["parent"] == "100.1"
    assert set(data) >= {"iri", "edition", "number", "text", "examples", "references", "referenced_by",
                         "concepts", "lineage", "dangling"}


def test_back_references_come_from_rules_and_glossary(fixture_kb):
    store, _ = fixture_kb
    data = service.rule(store, ED, "101.1")
    assert set(data["referenced_by"]) == {"200.1c", "glossary: Gadget"}
    assert service.rule(store, ED, "200.1a")["referenced_by"] == ["100.1b"]


def test_dangling_references_are_kept_and_reported(fixture_kb):
    store, _ = fixture_kb
    data = service.rule(store, ED, "100.2")
    assert data["dangling"] == ["100.2a"]
    rows = service.run(store, "dangling-references")
    assert [(r["edition"], r["cited_in"], r["missing"]) for r in rows] == [(ED, "100.2", "100.2a")]


def test_concepts_come_from_the_glossary_and_are_mentioned_by_rules(fixture_kb):
    store, _ = fixture_kb
    concepts = {c["label"] for c in service.rule(store, ED, "101.1")["concepts"]}
    assert "Gadget" in concepts
    assert [r["label"] for r in service.run(store, "concept", concept="GADGET")] == ["Gadget"]
    rows = service.run(store, "concept-rules", concept="gadget")
    assert {r["defining_rule"] for r in rows} == {"101.1"}
    mentions = service.run(store, "concept-mentions", edition=ED, concept="rusty")
    assert [r["number"] for r in mentions] == ["101.2"]


def test_unknown_edition_and_rule_are_not_found(fixture_kb):
    store, _ = fixture_kb
    with pytest.raises(NotFound, match="no edition"):
        service.rule(store, "en/1901-01-01", "100.1")
    with pytest.raises(NotFound, match="has no rule 999.9"):
        service.rule(store, ED, "999.9")


def test_bad_sparql_is_a_query_error(fixture_kb):
    store, _ = fixture_kb
    with pytest.raises(QueryError, match="syntax"):
        store.select("SELECT ?x WHERE { ?x ?y }")


def test_parameters_are_bound_as_terms_never_pasted_as_text(fixture_kb):
    store, _ = fixture_kb
    hostile = '100.1" } ?s ?p ?o . { "'
    text = bind_values("SELECT ?r WHERE { ?r <https://w3id.org/rulekb#number> ?number }", {"number": hostile})
    assert '\\"' in text and text.count("VALUES") == 1
    assert store.select("SELECT ?r WHERE { ?r <https://w3id.org/rulekb#number> ?number }", {"number": hostile}) == []


def test_export_writes_every_rdf_format(fixture_kb):
    from rulekb.kb.store.export import export

    store, _ = fixture_kb
    turtle = export(store, ED, "turtle")
    assert b"rulekb#Rule" in turtle or b"rk:Rule" in turtle
    assert json.loads(export(store, ED, "jsonld"))
    assert export(store, ED, "nt").count(b"\n") > 100
    assert b"<rdf:RDF" in export(store, ED, "xml")
    assert export(store, None, "nq").count(b"\n") > export(store, ED, "nt").count(b"\n")
    # one edition as N-Quads or TriG keeps its graph names: the edition's IRI, and graph/statements
    # for what its statements say (stored once for every edition that says it)
    edition, statements = Minter.for_base().edition(ED), Minter.for_base().graph("statements")
    quads = list(ox.parse(export(store, ED, "nq"), ox.RdfFormat.N_QUADS))
    assert quads and {q.graph_name.value for q in quads} == {edition, statements}
    assert len(quads) == export(store, ED, "nt").count(b"\n")
    assert {q.graph_name.value for q in ox.parse(export(store, ED, "trig"), ox.RdfFormat.TRIG)} == {edition, statements}
    with pytest.raises(NotFound):
        export(store, "en/1901-01-01", "turtle")


def test_an_edition_exported_alone_carries_what_its_statements_say(fixture_kb):
    """A statement names its content (rk:statementContent, in graph/statements): an edition's
    export holds each content's triples, so the file read alone still says what is stated."""
    from rulekb.kb.store.export import export

    store, _ = fixture_kb
    graph = ox.Store()
    graph.load(export(store, ED, "turtle"), ox.RdfFormat.TURTLE)
    said = {t.object for t in graph.quads_for_pattern(None, ox.NamedNode(RK + "statementContent"), None)}
    assert said
    described = {q.subject for q in graph.quads_for_pattern(None, None, None) if q.subject in said}
    assert described == said


def test_a_missing_store_says_how_to_make_one(tmp_path):
    with pytest.raises(StoreError, match="rulekb build"):
        service.editions(EmbeddedStore(tmp_path / "none"))


def test_a_build_without_editions_leaves_the_previous_store(tmp_path, fixtures):
    store = EmbeddedStore(tmp_path / "kb")
    build([str(fixtures / "invented-cr-2030-05-05.txt")], store)
    junk = tmp_path / "junk"
    junk.mkdir()
    (junk / "a.txt").write_text("not rules at all\n")
    with pytest.raises(BuildError, match="nothing to build"):
        build([str(junk)], store)
    assert [e["edition"] for e in service.editions(EmbeddedStore(tmp_path / "kb"))] == [ED]


def test_an_interrupted_build_leaves_the_previous_store_answering(tmp_path, fixtures):
    store = EmbeddedStore(tmp_path / "kb")
    build([str(fixtures / "invented-cr-2030-05-05.txt")], store)
    before = sorted(p.name for p in (tmp_path / "kb").iterdir())

    def interrupt(message):
        if message.startswith("load"):
            raise KeyboardInterrupt

    other = fixtures / "invented-cr-2030-05-05.txt"
    with pytest.raises(KeyboardInterrupt):
        build([str(other)], EmbeddedStore(tmp_path / "kb"), base="http://example.org/", progress=interrupt)
    assert sorted(p.name for p in (tmp_path / "kb").iterdir()) == before  # no half-written data dir
    reader = EmbeddedStore(tmp_path / "kb")
    assert service.rule(reader, ED, "101.1")["iri"].startswith(BASE)


def test_the_base_iri_is_configurable(tmp_path, fixtures):
    store = EmbeddedStore(tmp_path / "kb")
    build([str(fixtures / "invented-cr-2030-05-05.txt")], store, base="https://rules.example.org/cr")
    assert service.rule(store, ED, "101.1")["iri"] == f"https://rules.example.org/cr/edition/{ED}/rule/101.1"


@pytest.mark.parametrize("base", ["http://bad base/", "no-scheme/", "http://x/<y>/", "http://x/\"/"])
def test_a_base_that_is_not_an_iri_is_refused_before_any_work(tmp_path, fixtures, base):
    with pytest.raises(KBError, match="is not an absolute IRI"):
        build([str(fixtures / "invented-cr-2030-05-05.txt")], EmbeddedStore(tmp_path / "kb"), base=base)
    assert not (tmp_path / "kb").exists()


def test_minted_iris_follow_the_design():
    mint = Minter.for_base("https://x.org")
    assert mint.edition("en/2011-09-30") == "https://x.org/edition/en/2011-09-30"
    assert mint.rule("en/2011-09-30", "111.2") == "https://x.org/edition/en/2011-09-30/rule/111.2"
    assert mint.numbered("en/2011-09-30", "111") == "https://x.org/edition/en/2011-09-30/section/111"
    assert mint.numbered("en/2011-09-30", "1") == "https://x.org/edition/en/2011-09-30/part/1"
    assert mint.concept(slug("Mana Ability")) == "https://x.org/concept/mana-ability"
    assert slug("Contrôleur") == "controleur" and slug("You/Your") == "you-your"

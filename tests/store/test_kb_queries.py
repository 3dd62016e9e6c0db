"""The named-query library: documented, runnable, and answering on the real KB."""

from __future__ import annotations

import pytest

from rulekb.kb.store import queries
from rulekb.kb.errors import NotFound, QueryError
from rulekb.kb.store.embedded import EmbeddedStore

from ..corpus_build import SHARED_ROWS

ALL = {**queries.registry(), **queries.checks()}


_example_params = queries.example_params  # the header example's --param values


def test_the_library_has_the_queries_the_issue_names():
    names = set(queries.registry())
    assert {"editions", "rule", "rule-references", "rule-referenced-by", "section-rules", "glossary-term",
            "search", "dangling-references", "concept-mentions", "rule-across-editions", "concept"} <= names
    assert {"dangling-reference-violation", "rule-without-text-violation", "duplicate-number-violation",
            "glossary-missing-rule-violation"} <= set(queries.checks())


@pytest.mark.parametrize("name", sorted(ALL))
def test_every_query_is_documented(name):
    query = ALL[name]
    assert query.title and query.title != name
    assert len(query.description) > 20
    if not query.check:
        assert query.example.startswith(f"rulekb query {name}")
        assert set(_example_params(query)) == set(query.params), "the example must set every parameter"
        for param, doc in query.params.items():
            assert "e.g." in doc, f"parameter {param} needs an example value"


@pytest.mark.parametrize("name", sorted(queries.registry()))
def test_every_named_query_answers_its_own_example_on_the_real_kb(name, corpus_kb, corpus_rows):
    store, _ = corpus_kb
    query = queries.get(name)
    if name in SHARED_ROWS and not _example_params(query):  # a whole-store SELECT another test asks too: its rows, asked once a run
        assert corpus_rows(name), f"{name}: its example returns nothing"
        return
    answer = store.query(query.text, query.bindings(_example_params(query)))
    assert answer.data
    if answer.kind == "results":
        import json

        rows = json.loads(answer.data)["results"]["bindings"]
        assert rows, f"{name}: its example returns nothing"


def test_missing_and_unknown_parameters_are_clear_errors():
    rule = queries.get("rule")
    with pytest.raises(QueryError, match="needs --param number"):
        rule.bindings({"edition": "en/2026-01-16"})
    with pytest.raises(QueryError, match="no parameter colour"):
        rule.bindings({"edition": "x", "number": "1", "colour": "blue"})
    with pytest.raises(NotFound, match="rulekb query --list"):
        queries.get("no-such-query")


def _dataset(nquads: str) -> EmbeddedStore:
    """An in-memory store holding hand-written quads (checks must flag them)."""
    return EmbeddedStore.in_memory(nquads.encode())


RK = "https://w3id.org/rulekb#"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"


def test_checks_flag_what_they_say_and_nothing_else():
    a, b = "http://x/edition/en/2030-01-01", "http://x/edition/en/2031-01-01"
    quads = f"""
<{a}/rule/100.1> <{RDF_TYPE}> <{RK}Rule> <{a}> .
<{a}/rule/100.1> <{RK}number> "100.1" <{a}> .
<{a}/rule/100.1> <{RK}order> "1"^^<http://www.w3.org/2001/XMLSchema#integer> <{a}> .
<{a}/rule/100.1> <{RK}order> "5"^^<http://www.w3.org/2001/XMLSchema#integer> <{a}> .
<{a}/rule/100.1> <{RK}hasCitation> <{a}/rule/100.1/citation/1> <{a}> .
<{a}/rule/100.1/citation/1> <{RK}citationTarget> <{b}/rule/100.1> <{a}> .
<{b}/rule/100.1> <{RDF_TYPE}> <{RK}Rule> <{b}> .
<{b}/rule/100.1> <{RK}text> "Fine."@en <{b}> .
<{b}/rule/100.1> <{RK}order> "1"^^<http://www.w3.org/2001/XMLSchema#integer> <{b}> .
"""
    store = _dataset(quads)
    found = {name: store.select(check.text) for name, check in queries.checks().items()}
    assert [r["rule"] for r in found["cross-edition-link-violation"]] == [f"{a}/rule/100.1"]
    assert [r["item"] for r in found["duplicate-number-violation"]] == [f"{a}/rule/100.1"]
    assert [r["rule"] for r in found["rule-without-text-violation"]] == [f"{a}/rule/100.1"]
    assert found["rule-outside-edition-violation"] == []
    assert found["dangling-reference-violation"] == []


def test_graph_sizes_counts_every_graph_but_the_manifest():
    store = _dataset(
        "<http://x/a> <http://x/p> <http://x/b> <http://x/edition/en/2030-01-01> .\n"
        "<http://x/a> <http://x/q> \"1\" <http://x/edition/en/2030-01-01> .\n"
        "<http://x/c> <http://x/p> <http://x/d> <http://x/graph/concepts> .\n"
        "<http://x/m> <http://x/p> \"kept\" <urn:rulekb:manifest:build> .\n")
    rows = store.select(queries.get("graph-sizes").text)
    assert rows == [{"graph": "http://x/edition/en/2030-01-01", "triples": "2"},
                    {"graph": "http://x/graph/concepts", "triples": "1"}]

"""`kb.store.validate`: the checks and the SHACL graphs run in a pool of processes on a store
on disk, with the same result as one after the other (a small store in one process unless
asked); the RDF pyshacl reads is the same graph rdflib's own parser makes."""

from __future__ import annotations

import pytest
import rdflib

from rulekb.kb.store.validate import validate
from rulekb.kb.store.validate_rdf import add_ntriples


def test_a_pool_of_processes_finds_what_one_process_finds(fixture_kb):
    store, _ = fixture_kb
    pooled = validate(store, all_graphs=True, jobs=2)
    alone = validate(store, all_graphs=True, jobs=1)
    assert pooled == alone
    assert pooled["conforms"], pooled["violations"][:5]
    assert any(g.endswith("/edition/en/2030-05-05") for g in pooled["shacl_graphs"])
    assert set(pooled["checks"]) >= {"rule-without-text-violation", "dangling-reference-violation"}


def test_a_small_store_is_checked_in_this_process_unless_a_pool_is_asked_for(fixture_kb, monkeypatch):
    """The fixture KB (a few MB): no pool by default, the same result as the pool's."""
    import concurrent.futures

    from rulekb.kb.store import validate as module

    store, _ = fixture_kb
    assert 0 < store.size_bytes() < module.POOL_FROM_BYTES
    pooled = validate(store, jobs=2)

    def no_pool(*args, **kwargs):
        raise AssertionError("a pool was started for a small store")

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", no_pool)
    assert validate(store) == pooled
    monkeypatch.setattr(module, "POOL_FROM_BYTES", 0)  # as if large: the default is the pool
    with pytest.raises(AssertionError, match="a pool was started"):
        validate(store)


def test_a_violation_found_in_a_worker_reaches_the_result(tmp_path):
    """A rule without text, in a store on disk: the check's row comes back from the pool."""
    import pyoxigraph as ox

    from rulekb.kb.store.embedded import EmbeddedStore

    data = tmp_path / "store"
    ox_store = ox.Store(str(data))
    ox_store.load(b"<http://x/edition/en/2030-01-01/rule/1> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> "
                  b"<https://w3id.org/rulekb#Rule> "
                  b"<http://x/edition/en/2030-01-01> .\n", format=ox.RdfFormat.N_QUADS)
    ox_store.flush()
    del ox_store
    result = validate(EmbeddedStore(data), jobs=2)
    assert not result["conforms"]
    assert {v["check"] for v in result["violations"]} >= {"rule-without-text-violation"}
    assert result == validate(EmbeddedStore(data), jobs=1)


def test_oxigraph_parsing_gives_rdflib_the_graph_its_own_parser_makes(fixture_kb):
    store, _ = fixture_kb
    graph = next(g for g in store.graphs() if "/edition/" in g)
    nt = store.export(graph, "nt")
    ours = rdflib.Graph()
    add_ntriples(ours, nt)
    theirs = rdflib.Graph().parse(data=nt, format="nt")
    assert len(ours) == len(theirs) > 100
    assert set(ours) == set(theirs)  # no blank nodes in an edition: the terms compare as they are
    literals = {o for o in ours.objects() if isinstance(o, rdflib.Literal)}
    assert any(o.datatype for o in literals) and any(o.datatype is None and not o.language for o in literals)


def test_blank_nodes_and_language_tags_come_through():
    nt = (b'_:a <http://x/p> "chat"@fr .\n_:a <http://x/q> _:b .\n'
          b'<http://x/s> <http://x/n> "3"^^<http://www.w3.org/2001/XMLSchema#integer> .\n')
    ours = rdflib.Graph()
    add_ntriples(ours, nt)
    theirs = rdflib.Graph().parse(data=nt, format="nt")
    from rdflib.compare import isomorphic

    assert isomorphic(ours, theirs)
    assert rdflib.Literal("chat", lang="fr") in set(ours.objects())


SHAPES = """
@prefix sh: <http://www.w3.org/ns/shacl#> . @prefix ex: <http://x/> .
ex:S a sh:NodeShape ; sh:targetClass ex:T ;
    sh:property [ sh:path ex:p ; sh:minCount 1 ] ;
    sh:property [ sh:path ex:link ; sh:or ( [ sh:class ex:A ] [ sh:class ex:B ] ) ] .
"""

DATA = """
@prefix ex: <http://x/> .
ex:own1 a ex:T .
ex:own2 a ex:T ; ex:p 1 ; ex:link ex:other .
ex:own3 a ex:T ; ex:p 1 ; ex:link ex:fine .
[] a ex:T ; ex:note "a blank node of the graph, without ex:p" .
ex:other a ex:T .
ex:fine a ex:A .
"""


def test_shapes_target_the_graphs_own_nodes_and_still_check_what_they_link_to():
    """The validation limited to a graph's own nodes (the linked ones are there for their
    types) gives the results pyshacl gives for them over everything: a linked node's own
    failures are not reported, but an own node's sh:or over it is still checked, and an own
    blank node is a target too."""
    import pyshacl

    from rulekb.kb.store.validate import _validate_own

    data = rdflib.Graph().parse(data=DATA, format="turtle")
    shapes = rdflib.Graph().parse(data=SHAPES, format="turtle")
    ex = rdflib.Namespace("http://x/")
    own = set(data.subjects()) - {ex.other, ex.fine}
    sh = rdflib.Namespace("http://www.w3.org/ns/shacl#")

    def failures(results):
        return sorted((str(results.value(r, sh.focusNode)), str(results.value(r, sh.sourceConstraintComponent)))
                      for r in results.subjects(rdflib.RDF.type, sh.ValidationResult))

    _, everything, _ = pyshacl.validate(data, shacl_graph=shapes, inference="none")
    conforms, limited, _ = _validate_own(data, shapes, own)
    assert not conforms
    expected = [f for f in failures(everything) if f[0] not in (str(ex.other), str(ex.fine))]
    assert failures(limited) == expected
    assert {f[0] for f in expected} >= {str(ex.own1), str(ex.own2)} and len({f[0] for f in expected}) == 3
    assert (str(ex.own2), str(sh.OrConstraintComponent)) in expected

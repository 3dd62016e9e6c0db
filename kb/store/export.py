"""RDF out of the store: one edition's named graph (with what its statements say), or everything."""

from __future__ import annotations

import pyoxigraph as ox

from ..errors import NotFound, QueryError
from .kind import RDF_FORMATS


def export(store, edition: str | None, rdf_format: str) -> bytes:
    if rdf_format not in RDF_FORMATS:
        raise QueryError(f"unknown RDF format {rdf_format!r} (one of: {', '.join(RDF_FORMATS)})")
    if edition is None:
        return store.export(None, rdf_format)
    graph = _edition_graph(store, edition)
    said = _statement_contents(store, graph)
    if not said:
        return store.export(graph, rdf_format)
    return _with_contents(store.export(graph, "nq"), said, _statements_graph(graph, edition), RDF_FORMATS[rdf_format])


def _edition_graph(store, edition: str) -> str:
    from . import queries

    rows = queries.run(store, "edition-exists", edition=edition)
    if not rows:
        raise NotFound(f"no edition {edition!r} in the knowledge base (rulekb editions lists them)")
    return rows[0]["ed"]


def _statement_contents(store, graph: str) -> bytes:
    """What the edition's statements say, as N-Triples: each content is stored once, in
    graph/statements, for every edition that says it, so an edition's graph alone names
    its statements' contents without their triples."""
    from . import queries

    said = queries.get("statement-contents")
    return store.query(said.text, said.bindings({"g": graph}), rdf_format="nt").data


def _statements_graph(graph: str, edition: str) -> str:
    """graph/statements under the base the edition's IRI was minted with ({base}edition/{id},
    kb.rdf.iris; edition-exists matched that id)."""
    from ..rdf.iris import Minter

    return Minter(graph.removesuffix(f"edition/{edition}")).graph("statements")


def _with_contents(own: bytes, said: bytes, statements_graph: str, fmt: ox.RdfFormat) -> bytes:
    """The edition's quads and its statements' contents in one document: in a dataset format
    the contents keep their graph (graph/statements); in a graph format they join the
    edition's triples."""
    quads = list(ox.parse(own, format=ox.RdfFormat.N_QUADS))
    # the two documents come from two answers: their blank nodes are not the same nodes
    contents = ox.parse(said, format=ox.RdfFormat.N_TRIPLES, rename_blank_nodes=True)
    if fmt.supports_datasets:
        where = ox.NamedNode(statements_graph)
        quads += (ox.Quad(t.subject, t.predicate, t.object, where) for t in contents)
        return ox.serialize(quads, format=fmt)
    triples = [ox.Triple(q.subject, q.predicate, q.object) for q in quads]
    triples += (ox.Triple(t.subject, t.predicate, t.object) for t in contents)
    return ox.serialize(triples, format=fmt)

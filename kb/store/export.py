"""RDF out of the store: one edition's named graph, or everything."""

from __future__ import annotations

from ..errors import NotFound, QueryError
from .kind import RDF_FORMATS


def export(store, edition: str | None, rdf_format: str) -> bytes:
    if rdf_format not in RDF_FORMATS:
        raise QueryError(f"unknown RDF format {rdf_format!r} (one of: {', '.join(RDF_FORMATS)})")
    if edition is None:
        return store.export(None, rdf_format)
    graph = _edition_graph(store, edition)
    return store.export(graph, rdf_format)


def _edition_graph(store, edition: str) -> str:
    from . import queries

    rows = queries.run(store, "edition-exists", edition=edition)
    if not rows:
        raise NotFound(f"no edition {edition!r} in the knowledge base (rulekb editions lists them)")
    return rows[0]["ed"]

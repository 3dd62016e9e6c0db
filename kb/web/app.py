"""The Starlette application of ``rulekb serve``: today the SPARQL endpoint only."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.routing import Route

from .sparql import Limits, SparqlEndpoint


def create_app(store, base_iri: str | None = None, *, max_rows: int = 10_000, timeout: float = 30.0,
               max_body: int = 1_000_000, workers: int = 4) -> Starlette:
    """An app answering the SPARQL 1.1 Protocol at ``/sparql`` over ``store``.

    ``store``: a :class:`kb.store.EmbeddedStore` (or a :class:`kb.remote.RemoteStore`);
    ``base_iri`` resolves relative IRIs in queries (default: the KB's base, see kb.iris).
    """
    from ..iris import base_iri as default_base

    limits = Limits(max_body=max_body, max_rows=max_rows, timeout=timeout, workers=workers)
    endpoint = SparqlEndpoint(store, default_base(base_iri), limits)
    app = Starlette(routes=[Route("/sparql", endpoint.handle, methods=["GET", "POST", "OPTIONS"])])
    app.state.store = store
    app.state.limits = limits
    return app

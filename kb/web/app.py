"""The Starlette application of ``rulekb serve``.

Routes, by concern (each module exposes ``routes(ctx)``):

- ``/sparql``                        the SPARQL 1.1 Protocol (:mod:`.sparql`)
- ``/``, ``/search``                 home and search pages (:mod:`.pages`)
- ``/diff``, ``/translation``        comparisons between editions and languages (:mod:`.compare_pages`)
- ``/query``                         the query editor (:mod:`.editor`)
- ``/api/...``                       JSON mirrors of the pages (:mod:`.api`)
- ``/rule/N``, ``/edition/en/latest/...``, ``/edition/en@DATE/...``, ``/effects/...``,
  ``/feed/...``                      rules over time: permalinks, effects, Atom (:mod:`.timeline_pages`)
- ``/void``                          the VoID description of the dataset (:mod:`.resources`)
- ``/static/...``                    stylesheet and the editor's scripts
- every other path                   the KB's IRIs, dereferenced: HTML or RDF by
                                     Accept or extension, 404 page (:mod:`.resources`)

Errors of every route go through :func:`.errors.handle`; every response carries
the security headers of :mod:`.headers` (CSP, nosniff, Referrer-Policy).
"""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import KBError
from . import api, card_pages, compare_pages, editor, errors, pages, resources, timeline_pages
from .context import Limits, WebContext
from .headers import SecurityHeaders
from .sparql import SparqlEndpoint
from .sparql_fast import FastLookups


class _App(Starlette):
    """Starlette with :class:`.sparql_fast.FastLookups` (``fast``) in front of its own stack: the
    layer catches every error of its own, so a lookup it answers need not pass through
    Starlette's ServerErrorMiddleware; and ``rulekb serve``'s protocol (kb.web.protocol) asks
    it directly, through :attr:`answer_now`, without an ASGI cycle."""

    fast: FastLookups | None = None

    def build_middleware_stack(self):
        stack = super().build_middleware_stack()
        if self.fast is None:
            return stack
        self.fast.app = stack
        return self.fast

    @property
    def answer_now(self):
        return None if self.fast is None else self.fast.answer_now


def create_app(store, base_iri: str | None = None, *, max_rows: int = 10_000, timeout: float = 30.0,
               max_body: int = 1_000_000, workers: int = 4) -> Starlette:
    """The whole endpoint over ``store`` (a :class:`kb.store.embedded.EmbeddedStore` or a
    :class:`kb.store.remote.RemoteStore`); ``base_iri``: the base the KB was built with
    (default: kb.rdf.iris's), which decides which paths are the KB's IRIs."""
    limits = Limits(max_body=max_body, max_rows=max_rows, timeout=timeout, workers=workers)
    ctx = WebContext.create(store, base_iri, limits)
    endpoint = SparqlEndpoint(store, ctx.base, limits)
    routes = [
        Route("/sparql", endpoint.handle, methods=["GET", "POST", "OPTIONS"]),
        Mount("/static", app=StaticFiles(packages=[("rulekb.kb.web", "static")]), name="static"),
        *pages.routes(ctx),
        *compare_pages.routes(ctx),
        *editor.routes(ctx),
        *timeline_pages.routes(ctx),  # before api and resources: /api/effects, /edition/en/latest/...
        *card_pages.routes(ctx),
        *api.routes(ctx),
        *resources.routes(ctx),  # last: it answers for every IRI under the base
    ]
    # every expected error by its class: Starlette re-raises what only the Exception handler
    # catches (a traceback in the log for a deliberate 404)
    handlers = {KBError: errors.handle, errors.WebError: errors.handle, HTTPException: errors.handle,
                Exception: errors.handle}
    # every response, errors included, carries the security headers (kb.web.headers)
    # (FastLookups, in front of everything, sends them itself)
    middleware = [Middleware(SecurityHeaders)]
    app = _App(routes=routes, exception_handlers=handlers, middleware=middleware)
    if store.local_root is not None:  # bounded lookups answered here, not by a query worker (kb.web.sparql_fast)
        app.fast = FastLookups(None, store=store, base_iri=ctx.base, max_rows=max_rows, max_body=max_body)
    app.state.ctx = ctx
    app.state.sparql = endpoint  # (kb.web.readiness starts its query workers before the port opens)
    app.state.store = store
    app.state.limits = limits
    return app

"""The JSON API: the CLI's JSON shapes (DESIGN.md) over HTTP, under ``/api``.

- ``/api/editions``                          ``rulekb editions``
- ``/api/edition/{lang}/{date}``             an edition: its description and table of contents
- ``/api/rule/{lang}/{date}/{number}``       ``rulekb rule`` (kb.service.rule)
- ``/api/history/{number}?edition=``         ``rulekb history`` (kb.lineage.history)
- ``/api/concept/{slug}``                    ``rulekb define`` (kb.define.ask)
- ``/api/search?q=&edition=&lang=&limit=&offset=``  ``rulekb search`` (ranked; kb.service.search)
- ``/api/effects/``, ``/api/as-of/``, ``/api/changes``  rules over time (kb.web.timeline_pages)
- ``/api/openapi.json``                      the OpenAPI 3 document of all of them
- ``/api``                                   a page listing them, with examples

Errors are ``{"error": {"status", "message"}}`` (the error handler answers
JSON under ``/api/``). Every handler calls kb/ functions or named queries.
"""

from __future__ import annotations

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from .. import service
from ..errors import NotFound
from ..service import history
from . import catalog
from .context import WebContext
from .errors import WebError, error_response
from .html import page

MAX_QUERY = 200  # characters of a search
EXAMPLES = {  # path -> what it shows; the /api page links them
    "/api/editions": "every edition",
    "/api/edition/en/2026-01-16": "an edition and its sections",
    "/api/rule/en/2026-01-16/702.19b": "a rule, its references, concepts and lineage",
    "/api/history/111.2?edition=en/2026-01-16": "a rule through the editions",
    "/api/concept/owner": "a concept: labels, definitions, neighbours",
    "/api/search?q=summoning+sickness&edition=en/2026-01-16": "the rules about a question, ranked",
    "/api/effects/en/2009-07-08": "what an edition changed",
    "/api/as-of/111.2?date=2010-03-15": "a rule as in force on a date",
    "/api/changes?from=2009-06-01&to=2009-12-31&lang=en": "the rules changed between two dates",
}


def _edition_id(lang: str, date: str) -> str:
    return f"{lang}/{date}"


def rule_data(ctx: WebContext, edition: str, number: str) -> dict:
    return service.rule(ctx.store, edition, number)


def edition_data(ctx: WebContext, edition: str) -> dict:
    info = service.run(ctx.store, "edition-info", edition=edition)
    if not info:
        raise NotFound(f"no edition {edition!r} in the knowledge base (/api/editions lists them)")
    first = info[0]
    return {
        "edition": edition,
        "iri": ctx.mint.edition(edition),
        "title": first.get("title"),
        "language": first.get("language"),
        "effective_date": first.get("effective_date"),
        "partial": first.get("partial") == "true",
        "sources": [row["source"] for row in info if row.get("source")],
        "sections": [
            {"kind": row["kind"], "number": row["number"], "title": row["title"],
             "iri": ctx.mint.numbered(edition, row["number"])}
            for row in service.run(ctx.store, "edition-sections", edition=edition)
        ],
    }


def concept_data(ctx: WebContext, slug: str) -> dict:
    return catalog.asker(ctx.store).define(slug)


def search_data(ctx: WebContext, text: str, edition: str | None, lang: str | None = None,
                limit: int = 10, offset: int = 0) -> dict:
    """``rulekb search --format json``: ranked, ``edition=all`` every edition (one hit per lineage)."""
    return service.search(ctx.store, text, edition=None if edition == "all" else edition, lang=lang,
                          all_editions=edition == "all", limit=limit, offset=offset)


class Api:
    def __init__(self, ctx: WebContext):
        self.ctx = ctx

    async def call(self, function, *args):
        return JSONResponse(await anyio.to_thread.run_sync(function, self.ctx, *args))

    async def editions(self, request: Request):
        return JSONResponse(await anyio.to_thread.run_sync(service.editions, self.ctx.store))

    def _resolved(self, lang: str, date: str) -> str:
        """``/api/.../en/latest/...``: the newest edition (one resolver, kb.timeline)."""
        from .timeline_pages import resolve

        return resolve(self.ctx, f"{lang}/{date}").edition if date == "latest" else _edition_id(lang, date)

    async def edition(self, request: Request):
        p = request.path_params
        return await self.call(edition_data, self._resolved(p["lang"], p["date"]))

    async def rule(self, request: Request):
        p = request.path_params
        return await self.call(rule_data, self._resolved(p["lang"], p["date"]), p["number"])

    async def history(self, request: Request):
        number = request.path_params["number"]
        edition = request.query_params.get("edition") or None
        if edition:  # an alias or a date: the edition it names (kb.timeline's resolver)
            from .timeline_pages import resolve

            edition = (await anyio.to_thread.run_sync(resolve, self.ctx, edition)).edition
        return JSONResponse(await anyio.to_thread.run_sync(history, self.ctx.store, number, edition))

    async def concept(self, request: Request):
        return await self.call(concept_data, request.path_params["slug"])

    async def search(self, request: Request):
        params = request.query_params
        text = (params.get("q") or "").strip()
        if not text:
            raise WebError(400, "search needs q=WORDS, e.g. /api/search?q=summoning+sickness")
        if len(text) > MAX_QUERY:
            raise WebError(400, f"q is too long (at most {MAX_QUERY} characters)")
        numbers = {}
        for name, default, top in (("limit", 10, 100), ("offset", 0, 10_000)):
            try:
                numbers[name] = int(params.get(name) or default)
            except ValueError:
                raise WebError(400, f"{name} must be a whole number") from None
            if not (0 if name == "offset" else 1) <= numbers[name] <= top:
                raise WebError(400, f"{name} must be between {0 if name == 'offset' else 1} and {top}")
        return await self.call(search_data, text, params.get("edition") or None, params.get("lang") or None,
                               numbers["limit"], numbers["offset"])

    async def openapi(self, request: Request):
        from .openapi import document

        return JSONResponse(document(self.ctx))

    async def index(self, request: Request):
        from .openapi import document

        spec = document(self.ctx)
        endpoints = [{"path": path, "summary": ops["get"]["summary"], "description": ops["get"].get("description", "")}
                     for path, ops in spec["paths"].items()]
        examples = [(path, self.ctx.href(path), what) for path, what in EXAMPLES.items()]
        return page(self.ctx, "api.html", title="JSON API", endpoints=endpoints, examples=examples,
                    openapi=self.ctx.href("api/openapi.json"))

    async def unknown(self, request: Request):
        raise WebError(404, f"no API endpoint {request.url.path} (/api/openapi.json lists them)")


def _answering_errors(handler):
    """A WebError answered as JSON here (app.py routes bare Exceptions to a 500 logger)."""
    async def endpoint(request: Request):
        try:
            return await handler(request)
        except WebError as error:
            return error_response(request, error)

    return endpoint


def routes(ctx: WebContext) -> list:
    api = Api(ctx)
    get = ["GET", "HEAD"]
    return [
        Route("/api", _answering_errors(api.index), methods=get),
        Route("/api/", _answering_errors(api.index), methods=get),
        Route("/api/openapi.json", _answering_errors(api.openapi), methods=get),
        Route("/api/editions", _answering_errors(api.editions), methods=get),
        Route("/api/edition/{lang}/{date}", _answering_errors(api.edition), methods=get),
        Route("/api/rule/{lang}/{date}/{number}", _answering_errors(api.rule), methods=get),
        Route("/api/history/{number}", _answering_errors(api.history), methods=get),
        Route("/api/concept/{slug}", _answering_errors(api.concept), methods=get),
        Route("/api/search", _answering_errors(api.search), methods=get),
        Route("/api/{rest:path}", _answering_errors(api.unknown), methods=get),
    ]

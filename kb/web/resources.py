"""Every IRI the KB mints, dereferenced; and the VoID description at ``/void``.

``/edition/...``, ``/concept/...``, ``/lineage/...``, ``/change/...``,
``/meaning-change/...``, ``/graph/...``: the path names an IRI under the base
(:func:`kb.rdf.iris.parse` says which kind). The format comes from an extension
(``.ttl`` ``.nt`` ``.jsonld`` ``.rdf`` ``.html``, ``.json`` for the kinds the
JSON API has), stripped to get the IRI -- only a known one: rule numbers hold
dots -- else from ``Accept`` (q-values; ``Vary: Accept``; 406 when nothing
fits). HTML is the page :mod:`.pages` has for the kind, else a generic page of
the resource's properties and what links to it; RDF is its description
(:mod:`kb.store.describe`). A well-formed IRI the store knows nothing about is a 404
that says what exists nearby (:mod:`.missing`).
"""

from __future__ import annotations

import functools
import inspect
import logging
import re

import anyio
import pyoxigraph as ox
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from rulekb.ingest import numbers

from ..store import describe as descriptions
from .edition_pages import kept_section
from ..store import void
from ..errors import NotFound
from ..rdf.iris import parse
from . import conneg, killable
from .context import WebContext
from .errors import WebError, error_response
from .html import page
from .missing import not_found

VOID_DEADLINE = 300.0  # seconds the VoID count may take (once per build) before its worker is killed

PREFIXES = ("edition", "concept", "lineage", "change", "meaning-change", "graph", "translation", "consistency",
            "statement", "card")  # statement/{digest}: what a statement says, once for every edition
RDF_MEDIA = {  # media type -> kb.store.kind.RDF_FORMATS key
    "text/turtle": "turtle",
    "application/ld+json": "jsonld",
    "application/n-triples": "nt",
    "application/rdf+xml": "xml",
}
OFFERED = ["text/html", *RDF_MEDIA]
EXTENSIONS = {
    ".ttl": "text/turtle",
    ".nt": "application/n-triples",
    ".jsonld": "application/ld+json",
    ".rdf": "application/rdf+xml",
    ".html": "text/html",
    ".json": "application/json",
}
JSON_KINDS = ("rule", "edition", "concept")  # the kinds /api has a view of
# kinds whose HTML page is tried before the IRI is described (a rule's page finds the rule
# itself and raises NotFound when it is not there; the description was a second look-up)
DIRECT_PAGES = ("rule",)
MAX_PATH = 400
log = logging.getLogger("rulekb.web")


def split_extension(path: str) -> tuple[str, str | None]:
    """``edition/en/2026-01-16/rule/111.2.ttl`` -> (the IRI's path, "text/turtle");
    an extension counts only when what is left is an IRI shape."""
    for extension, media in EXTENSIONS.items():
        if path.endswith(extension) and parse(path[: -len(extension)]):
            return path[: -len(extension)], media
    return path, None


def choose(accept: str | None) -> str | None:
    """The media type a client prefers among HTML and the RDF formats.
    ``application/json`` counts as JSON-LD (a JSON client gets JSON)."""
    if accept:
        accept = re.sub(r"application/json(?![\w+.-])", "application/ld+json", accept)
    return conneg.negotiate(OFFERED, accept)


def rdf_response(triples: list[ox.Triple], media: str, headers: dict | None = None) -> Response:
    body = descriptions.serialize(triples, RDF_MEDIA[media])
    charset = "; charset=utf-8" if media != "application/rdf+xml" else ""
    return Response(body, media_type=media + charset, headers=headers)


class Resources:
    def __init__(self, ctx: WebContext):
        self.ctx = ctx
        self._void = killable.Background("VoID statistics", self._void_statistics)
        # a rule page over the embedded store is a few ms of CPU under the GIL, its queries
        # anchored: it runs in the event loop, since handing it to a thread cost ~0.8 ms of CPU
        # a page (bench pages); over a remote store the page waits on the network: a thread
        self._pages_inline = ctx.store.local_root is not None

    # -- IRIs --------------------------------------------------------------

    def endpoint(self, prefix: str):
        async def dereference(request: Request) -> Response:
            return await self.dereference(request, prefix)

        return dereference

    async def dereference(self, request: Request, prefix: str) -> Response:
        try:
            return await self._dereference(request, prefix)
        except WebError as error:  # answered here: app.py routes bare Exceptions to a 500 logger
            return error_response(request, error)

    async def _dereference(self, request: Request, prefix: str) -> Response:
        path = f"{prefix}/{request.path_params.get('rest', '')}"
        if len(path) > MAX_PATH or "\x00" in path:
            raise WebError(404, "no such resource (the path is too long or holds a NUL)")
        path, media = split_extension(path)
        found = parse(path)
        if found is None and path.endswith("/") and parse(path.rstrip("/")) is not None:
            # ".../rule/111.2/" -> the IRI without the slash (permanent: links should be fixed)
            target = self.ctx.href(self.ctx.iri(path.rstrip("/")))
            query = f"?{request.url.query}" if request.url.query else ""
            return RedirectResponse(target + query, status_code=308)
        typed = _RULE_AS_HEADING.fullmatch(path) if found is None else None
        if typed:  # ".../rule/601": a section number typed for a rule
            section = await anyio.to_thread.run_sync(
                _section_iri, self.ctx, {"edition": typed.group(1), "number": typed.group(2)})
            if section:
                query = f"?{request.url.query}" if request.url.query else ""
                return RedirectResponse(self.ctx.href(section) + query, status_code=308)
        if found is None:
            raise WebError(404, f"no resource of the knowledge base has the path /{path[:120]}",
                           [("all editions", self.ctx.href(""))])
        kind, parts = found
        negotiated = media is None
        if negotiated:
            media = choose(request.headers.get("accept"))
            if media is None:
                return PlainTextResponse(
                    "406 Not Acceptable: this resource is available as " + ", ".join(OFFERED) + "\n",
                    status_code=406, headers={"Vary": "Accept"})
        headers = {"Vary": "Accept"} if negotiated else {}
        iri = self.ctx.iri(path)
        if media == "text/html" and kind == "section" and self._pages_inline:
            kept = kept_section(self.ctx, parts.get("edition"), parts.get("number"))
            if kept is not None:  # kept by this process (kb.web.edition_pages): no thread, no query
                kept.headers.update(headers)
                return kept
        if media == "text/html" and kind in DIRECT_PAGES:
            response = (self.direct_page(kind, parts) if self._pages_inline
                        else await anyio.to_thread.run_sync(self.direct_page, kind, parts))
            if response is not None:
                response.headers.update(headers)
                return response
        triples = await anyio.to_thread.run_sync(descriptions.describe, self.ctx.store, iri, kind, self.ctx.base)
        if not triples:
            error = await anyio.to_thread.run_sync(not_found, self.ctx, kind, parts)
            if media == "text/html" or negotiated:
                raise error  # the error handler: an HTML page with suggestions, or JSON/text by Accept
            return PlainTextResponse(error.message + "\n", status_code=404, headers=headers)
        if media == "application/json":
            return await self.json_view(kind, parts)
        if media in RDF_MEDIA:
            return rdf_response(triples, media, headers)
        response = await self.html(kind, parts, iri, triples)
        response.headers.update(headers)
        return response

    def direct_page(self, kind: str, parts: dict) -> Response | None:
        """The page of a kind in DIRECT_PAGES, without describing the IRI first (the page
        reads what it shows; the description was only its existence check); None when
        the page finds nothing: the caller then takes the usual path (describe, the 404
        with suggestions), so a missing IRI is answered exactly as before."""
        special = _pages().get(kind)
        if special is None or not _takes(special, parts):
            return None
        try:
            result = special(self.ctx, **parts)
        except NotFound:
            return None
        return None if inspect.isawaitable(result) else result

    async def html(self, kind: str, parts: dict, iri: str, triples: list[ox.Triple]) -> Response:
        special = _pages().get(kind)
        if special is not None and not _takes(special, parts):
            log.warning("pages.PAGES[%r] does not take %s: the generic page answers", kind, sorted(parts))
            special = None
        if special is not None:
            result = await anyio.to_thread.run_sync(lambda: special(self.ctx, **parts))
            return await result if inspect.isawaitable(result) else result
        incoming = await anyio.to_thread.run_sync(descriptions.links_here, self.ctx.store, iri)
        return page(self.ctx, "resource.html", **resource_view(self.ctx, kind, iri, triples, incoming))

    async def json_view(self, kind: str, parts: dict) -> Response:
        from . import api

        if kind not in JSON_KINDS:
            raise WebError(404, f"no JSON view of a {kind} (ask for .jsonld: the JSON-LD description)")
        view = {"rule": api.rule_data, "edition": api.edition_data, "concept": api.concept_data}[kind]
        return JSONResponse(await anyio.to_thread.run_sync(lambda: view(self.ctx, **parts)))

    # -- VoID ----------------------------------------------------------------

    def void_graphs(self) -> list[void.GraphInfo]:
        """The per-graph counts, computed once per build (seconds on the full KB: they
        read every quad) in a killable worker with a deadline of VOID_DEADLINE
        (kb.web.killable.Background); a request waits the endpoint's timeout at most,
        then gets a 503 with Retry-After while the count goes on."""
        return self._void.get(self.ctx.store, self.ctx.limits.timeout)

    def _void_statistics(self) -> list[void.GraphInfo]:
        if self.ctx.store.local_root is not None:
            return killable.run_call(self.ctx, "void", timeout=max(VOID_DEADLINE, self.ctx.limits.timeout))
        return void.statistics(self.ctx.store)  # a remote store: its timeout bounds each query

    async def void(self, request: Request) -> Response:
        extension = "." + request.url.path.rsplit(".", 1)[1] if "." in request.url.path.rsplit("/", 1)[-1] else None
        media = EXTENSIONS.get(extension) if extension else choose(request.headers.get("accept"))
        if media is None or media == "application/json":
            return PlainTextResponse("406 Not Acceptable: the VoID description is available as "
                                     + ", ".join(OFFERED) + "\n", status_code=406, headers={"Vary": "Accept"})
        graphs = await anyio.to_thread.run_sync(self.void_graphs)
        headers = {"Vary": "Accept"}
        if media in RDF_MEDIA:
            return rdf_response(void.dataset(self.ctx.base, graphs), media, headers)
        return page(self.ctx, "void.html", headers=headers, title="The dataset (VoID)", graphs=graphs,
                    dataset=descriptions.void_dataset(self.ctx.base), vocabularies=void.VOCABULARIES,
                    total=sum(g.triples for g in graphs), formats=_formats(self.ctx, "void"))


def _pages() -> dict:
    """The HTML pages :mod:`.pages` has, by kind (none while it has none)."""
    try:
        from . import pages
    except ImportError:
        return {}
    return getattr(pages, "PAGES", {}) or {}


def _takes(function, parts: dict) -> bool:
    """Whether a page function accepts ``(ctx, **parts)`` (kb.rdf.iris.parse's names)."""
    return _takes_names(function, tuple(sorted(parts)))


@functools.lru_cache(maxsize=256)
def _takes_names(function, names: tuple[str, ...]) -> bool:  # (inspect.signature: ~0.3 ms a call)
    try:
        inspect.signature(function).bind(None, **dict.fromkeys(names))
    except (TypeError, ValueError):
        return False
    return True


def _formats(ctx: WebContext, path: str) -> list[tuple[str, str]]:
    return [(name, ctx.href(path + ext)) for name, ext in
            (("Turtle", ".ttl"), ("JSON-LD", ".jsonld"), ("N-Triples", ".nt"), ("RDF/XML", ".rdf"))]


def _shown(ctx: WebContext, iri: str) -> str:
    """An IRI as a page prints it: the path under the base, else a CURIE."""
    if iri.startswith(ctx.base) and iri != ctx.base:
        return iri[len(ctx.base):]
    return descriptions.curie(iri)


def _value(ctx: WebContext, term) -> dict:
    if isinstance(term, ox.NamedNode):
        return {"iri": term.value, "text": _shown(ctx, term.value), "href": ctx.href(term.value)}
    if isinstance(term, ox.Literal):
        datatype = term.datatype.value
        shown = None if datatype.endswith(("#string", "#langString")) else descriptions.curie(datatype)
        return {"iri": None, "text": term.value, "language": term.language, "datatype": shown}
    return {"iri": None, "text": str(term), "language": None, "datatype": None}


def _rows(ctx: WebContext, triples: list[ox.Triple], subject: str) -> list[dict]:
    by_property: dict[str, list[dict]] = {}
    for triple in triples:
        if triple.subject.value == subject:
            by_property.setdefault(triple.predicate.value, []).append(_value(ctx, triple.object))
    return [{"property": descriptions.curie(p), "property_href": ctx.href(p), "values": values}
            for p, values in sorted(by_property.items(), key=lambda item: descriptions.curie(item[0]))]


def resource_view(ctx: WebContext, kind: str, iri: str, triples: list[ox.Triple], incoming: list[dict]) -> dict:
    """What ``resource.html`` shows: the resource's properties, the things that
    hang off it (examples, citations, statements), and what links to it."""
    others = list(dict.fromkeys(t.subject.value for t in triples if t.subject.value != iri))
    label = descriptions.label(triples, iri)
    path = iri[len(ctx.base):] if iri.startswith(ctx.base) else iri
    return {
        "title": f"{kind}: {label or path}",
        "kind": kind,
        "iri": iri,
        "label": label,
        "path": path,
        "types": [descriptions.curie(t) for t in descriptions.types(triples, iri)],
        "rows": _rows(ctx, triples, iri),
        "parts": [{"iri": other, "href": ctx.href(other), "label": descriptions.label(triples, other) or other,
                   "rows": _rows(ctx, triples, other)} for other in others],
        "incoming": [{"source": _shown(ctx, row["source"]), "href": ctx.href(row["source"]),
                      "property": descriptions.curie(row["property"])} for row in incoming],
        "incoming_limit": 100,
        "formats": _formats(ctx, path),
    }


def routes(ctx: WebContext) -> list:
    resources = Resources(ctx)
    void_paths = ["/void", "/.well-known/void", *(f"/void{ext}" for ext in EXTENSIONS if ext != ".json")]
    return [
        *(Route(path, resources.void, methods=["GET", "HEAD"]) for path in void_paths),
        *(Route(f"/{prefix}/{{rest:path}}", resources.endpoint(prefix), methods=["GET", "HEAD"]) for prefix in PREFIXES),
    ]


_RULE_AS_HEADING = re.compile(rf"edition/([a-z]{{2}}/[\w.-]+)/rule/({numbers.HEADING})")


def _section_iri(ctx, parts: dict) -> str | None:
    """The section (or part) IRI when a rule IRI's number is a section's of that edition."""
    from ..service import is_heading_number
    from ..service import run

    number, edition = parts.get("number", ""), parts.get("edition", "")
    if not is_heading_number(number) or not run(ctx.store, "heading", edition=edition, number=number):
        return None
    return ctx.mint.numbered(edition, number)

"""``/query``: the SPARQL query editor -- YASGUI, and a plain form that works without JavaScript.

- YASGUI (vendored in ``static/yasgui/``, see its README) talks to ``/sparql`` with
  POST; the named queries of ``queries/`` are offered as examples, each with its
  example parameters bound the way ``rulekb query`` binds them
  (:func:`kb.store.kind.bind_values`: a VALUES block), so an example runs as it is.
- Without JavaScript: ``GET /query?query=TEXT`` runs the text, ``GET
  /query?name=NAME`` a named query's example; the answer is rendered by the server
  as an HTML table (IRIs under the base linked to their pages). The query goes
  through :mod:`kb.web.sparql`'s own checks and evaluation (the limits, then updates
  and SERVICE refused on the parsed query in a worker without network, the row cap,
  the timeout, the client's share of the workers), so the form can do nothing ``/sparql`` cannot;
  a refusal or an error is shown on the page, with its status.
"""

from __future__ import annotations

import difflib
import json
import shlex
from dataclasses import replace
from functools import lru_cache

import anyio
import pyoxigraph as ox
from starlette.requests import Request
from starlette.routing import Route

from ..store import queries
from ..store.kind import bind_values
from . import sparql
from .context import WebContext
from .query_pool import Request as PoolRequest
from .errors import WebError, error_response
from .shares import ClientShares, default_share
from .html import page

SHOWN_ROWS = 1000  # rows an HTML table shows at most (the endpoint's own cap applies first)
XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"
XSD = "http://www.w3.org/2001/XMLSchema#"


# -- the named queries as examples ------------------------------------------------------


def example_values(query: queries.NamedQuery) -> dict[str, str]:
    """The parameters of a query's ``# example:`` line (``--param k=v`` / ``-p k=v``)."""
    try:
        words = shlex.split(query.example)
    except ValueError:
        return {}
    values = {}
    for flag, arg in zip(words, words[1:]):
        if flag in ("--param", "-p") and "=" in arg:
            key, _, value = arg.partition("=")
            values[key] = value
    return values


@lru_cache(maxsize=1)
def examples() -> dict[str, dict]:
    """Every named query (not the QC checks) with its example bound: ready to run."""
    out = {}
    for name, query in queries.registry().items():
        values = example_values(query)
        try:
            text = bind_values(query.text, query.bindings(values)) if query.params else query.text
        except Exception:  # an example that does not bind: offer the query unbound
            text = query.text
        out[name] = {"name": name, "title": query.title, "description": query.description,
                     "params": [{"name": p, "doc": doc, "value": values.get(p, "")} for p, doc in query.params.items()],
                     "text": text}
    return out


# -- results as cells ---------------------------------------------------------------------


def cell(ctx: WebContext, term) -> dict | None:
    """A term as the table shows it: text, a link for IRIs under the base, a language or datatype."""
    if term is None:
        return None
    if isinstance(term, ox.NamedNode):
        return {"kind": "iri", "text": term.value, "href": ctx.href(term.value) if term.value.startswith(ctx.base) else None}
    if isinstance(term, ox.Literal):
        datatype = term.datatype.value if not term.language and term.datatype.value != XSD_STRING else ""
        return {"kind": "literal", "text": term.value, "lang": term.language or "",
                "datatype": datatype.replace(XSD, "xsd:")}
    if isinstance(term, ox.BlankNode):
        return {"kind": "bnode", "text": f"_:{term.value}"}
    return {"kind": "other", "text": str(term)}  # a quoted triple


def _json_cell(ctx: WebContext, term: dict | None) -> dict | None:
    """A SPARQL JSON term (a remote store's answer) as a cell."""
    if term is None:
        return None
    if term.get("type") == "uri":
        return cell(ctx, ox.NamedNode(term["value"]))
    if term.get("type") == "bnode":
        return {"kind": "bnode", "text": f"_:{term['value']}"}
    datatype = term.get("datatype", "")
    return {"kind": "literal", "text": str(term.get("value", "")), "lang": term.get("xml:lang", ""),
            "datatype": "" if datatype == XSD_STRING else datatype.replace(XSD, "xsd:")}


def _remote_table(ctx: WebContext, text: str, limit: int) -> dict:
    """A remote store answers with its own limits; we read at most ``limit`` rows of it."""
    from ..errors import KBError

    try:
        answer = ctx.store.query(text, results_format="json", rdf_format="nt")
    except KBError as exc:
        raise sparql.ProtocolError(exc.status, exc.message) from None
    return _table_of(ctx, answer.kind == "graph", answer.data, limit)


def _table_of(ctx: WebContext, is_graph: bool, data: bytes, limit: int) -> dict:
    """A table of at most ``limit`` rows from SPARQL JSON results or N-Triples."""
    if is_graph:
        triples = list(ox.parse(data, format=ox.RdfFormat.N_TRIPLES))
        rows = [[cell(ctx, t.subject), cell(ctx, t.predicate), cell(ctx, t.object)] for t in triples[:limit]]
        return {"kind": "graph", "columns": ["subject", "predicate", "object"], "rows": rows,
                "truncated": len(triples) > limit}
    data = json.loads(data)
    if "boolean" in data:
        return {"kind": "boolean", "boolean": bool(data["boolean"])}
    names = data.get("head", {}).get("vars", [])
    bindings = data.get("results", {}).get("bindings", [])
    rows = [[_json_cell(ctx, b.get(n)) for n in names] for b in bindings[:limit]]
    return {"kind": "results", "columns": names, "rows": rows, "truncated": len(bindings) > limit}


# -- the page ----------------------------------------------------------------------------


class Editor:
    def __init__(self, ctx: WebContext):
        self.ctx = ctx
        self.limits = replace(ctx.limits, max_rows=min(ctx.limits.max_rows, SHOWN_ROWS))
        self.limiter = anyio.CapacityLimiter(ctx.limits.workers)
        self.shares = ClientShares(ctx.limits.per_client or default_share(ctx.limits.workers))

    def evaluate(self, text: str) -> dict:
        """The same checks and evaluation as ``/sparql``; raises :class:`sparql.ProtocolError`."""
        if len(text.encode()) > self.ctx.limits.max_body:
            raise sparql.ProtocolError(413, f"query over the limit of {self.ctx.limits.max_body} bytes")
        sparql.prescan(text)  # then the worker parses it: SERVICE and updates refused there
        if self.ctx.store.local_root is not None:
            # the endpoint's worker processes: a runaway query is killed at the deadline
            job = PoolRequest(text, (), (), None, "application/sparql-results+json, application/n-triples")
            media, body, truncated = sparql.run_killable(self.ctx.store, self.ctx.base, self.ctx.limits, job)
            table = _table_of(self.ctx, media.startswith("application/n-triples"), body, self.limits.max_rows)
            table["truncated"] = table.get("truncated", False) or truncated
            return table
        sparql.checked(None, self.ctx.base, self.ctx.limits, text)  # parsed by a worker without network
        return _remote_table(self.ctx, text, self.limits.max_rows)

    async def page(self, request: Request):
        try:
            return await self._page(request)
        except WebError as exc:  # answered here: raised, Starlette's last-resort handler logs a traceback
            return error_response(request, exc)

    async def _page(self, request: Request):
        name = (request.query_params.get("name") or "").strip()
        text = request.query_params.get("query")
        known = examples()
        if name and name not in known:
            near = difflib.get_close_matches(name, list(known), n=8, cutoff=0.3)
            shown = name if len(name) <= 60 else name[:57] + "..."
            raise WebError(404, f"no named query {shown!r} (the query page lists them)",
                           [(n, self.ctx.href("query") + "?name=" + n) for n in near])
        if text is None and name:
            text = known[name]["text"]
        table, error, status = None, None, 200
        if text and text.strip():
            try:
                async with self.shares.slot(request.client.host if request.client else None, self.ctx.limits.timeout):
                    table = await anyio.to_thread.run_sync(self.evaluate, text, limiter=self.limiter)
            except sparql.ProtocolError as exc:
                error, status = exc.message, exc.status
        default = known["editions"]["text"] if "editions" in known else queries.prefixes() + "\nSELECT * WHERE { ?s ?p ?o } LIMIT 10\n"
        config = {"endpoint": self.ctx.href("sparql"), "defaultQuery": default, "hasResults": bool(text and text.strip()),
                  "examples": {n: {"title": e["title"], "text": e["text"]} for n, e in known.items()}}
        return page(self.ctx, "query.html", status=status, title="SPARQL query editor", text=text or "",
                    name=name, examples=list(known.values()), table=table, error=error, config=config,
                    max_rows=self.limits.max_rows, timeout=self.ctx.limits.timeout)


def routes(ctx: WebContext) -> list:
    editor = Editor(ctx)
    return [Route("/query", editor.page, methods=["GET"])]

"""The SPARQL 1.1 Protocol at ``/sparql``: read-only, with limits.

- ``GET ?query=``, ``POST`` with an ``application/sparql-query`` body or an
  ``application/x-www-form-urlencoded`` ``query=`` field; ``default-graph-uri``
  and ``named-graph-uri`` choose the dataset (default: the union of every graph).
- SELECT / ASK as SPARQL JSON, XML, CSV or TSV; CONSTRUCT / DESCRIBE as Turtle,
  N-Triples, JSON-LD or RDF/XML: by ``Accept`` (q-values) or ``format=``
  (see :mod:`kb.web.conneg`); 406 when none fits.
- Refused: updates (``update=``, ``application/sparql-update``, INSERT, LOAD...)
  and ``SERVICE`` (no federated calls to arbitrary hosts): 403, decided on the
  parsed query (:mod:`kb.web.sparql_check`), in a query worker that has no network
  (:mod:`kb.web.query_pool`). A query that does not parse: 400 with the parser's
  message; one nested or chained past the limits: 400 before any worker. A body
  over ``max_body``: 413.
- The dataset: the request's (``default-graph-uri`` / ``named-graph-uri``) if it
  names one, else the query's (``FROM`` / ``FROM NAMED``), else the union of
  every graph as the default graph.
- Each client (by address) holds at most ``per_client`` of the ``workers`` at
  once; its other queries wait their turn (503 after the timeout), not others'.
- At most ``max_rows`` rows (or triples): the answer then carries
  ``X-Rulekb-Truncated: true`` (a header only, so the body stays valid SPARQL JSON).
- ``timeout`` seconds per query, really enforced: queries over the embedded
  store run in ``workers`` worker processes (:mod:`kb.web.query_pool`; pyoxigraph
  cannot cancel a query) that check the deadline between rows, and a worker
  still busy at the deadline (a sort, a COUNT over a cross join...) is killed
  and replaced: 503, and the CPU is free again.
- No query: the SPARQL service description (``sd:Service``).

A remote store (:class:`kb.remote.RemoteStore`) is asked for SPARQL JSON or
N-Triples, which is re-read here: same formats, same row cap. Its server does
the work: only its own timeout stops a query there (oxigraph's ``--timeout-s``
does not stop a COUNT over a cross join); ours is how long we wait (503).
"""

from __future__ import annotations

import copy
import math
import time
from dataclasses import dataclass, field
from urllib.parse import parse_qs

import anyio
import pyoxigraph as ox
from starlette.requests import Request
from starlette.responses import Response

from ..errors import KBError
from ..store import EmbeddedStore
from . import conneg, query_pool
from .context import Limits
from .query_pool import Request as PoolRequest
from .shares import ClientShares, default_share
from .sparql_check import Checked, ProtocolError, prescan  # noqa: F401  (ProtocolError: re-exported)
from .sparql_results import RDF_FORMATS, serialize  # noqa: F401  (re-exported)

CORS = {"Access-Control-Allow-Origin": "*"}


class QueryTimeout(ProtocolError):
    def __init__(self, seconds: float):
        super().__init__(503, f"query timed out after {seconds:g} s (the endpoint's limit)")


@dataclass
class Evaluated:
    kind: str  # "results" | "boolean" | "graph"
    variables: list[str] = field(default_factory=list)
    rows: list = field(default_factory=list)  # of lists of terms (None = unbound); of triples for "graph"
    boolean: bool | None = None  # the answer of an ASK
    truncated: bool = False


# -- reading the request ----------------------------------------------------


async def read_body(request: Request, limit: int) -> bytes:
    length = request.headers.get("content-length")
    if length and length.isdigit() and int(length) > limit:
        raise ProtocolError(413, f"request body over the limit of {limit} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise ProtocolError(413, f"request body over the limit of {limit} bytes")
    return bytes(body)


async def request_params(request: Request, limits: Limits) -> dict[str, list[str]]:
    """The protocol's parameters: from the URL, and from a POST's body."""
    params: dict[str, list[str]] = {}
    for key, value in request.query_params.multi_items():
        params.setdefault(key, []).append(value)
    if request.method != "POST":
        return params
    body = await read_body(request, limits.max_body)
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype == "application/sparql-update":
        raise ProtocolError(403, "this endpoint is read-only: SPARQL updates are refused")
    if ctype == "application/sparql-query":
        params.setdefault("query", []).append(_decode(body))
    elif ctype == "application/x-www-form-urlencoded":
        try:
            form = parse_qs(body.decode("utf-8"), keep_blank_values=True, strict_parsing=False)
        except UnicodeDecodeError:
            raise ProtocolError(400, "the form is not UTF-8") from None
        for key, values in form.items():
            params.setdefault(key, []).extend(values)
    else:
        raise ProtocolError(
            415, "POST wants application/sparql-query or application/x-www-form-urlencoded"
        )
    return params


def _decode(body: bytes) -> str:
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolError(400, "the query is not UTF-8") from None


# -- evaluation ---------------------------------------------------------------

def evaluate(store: ox.Store, text: str, dataset: dict, base_iri: str | None, limits: Limits) -> Evaluated:
    """Run a query, reading at most ``max_rows`` rows, before the deadline (see the module doc).

    pyoxigraph's result objects are bound to the thread that made them: they are
    read and dropped here, in the worker thread; only plain terms leave it.
    """
    deadline = time.monotonic() + limits.timeout
    result = _query(store, text, dataset, base_iri)
    try:
        return _read(result, deadline, limits)
    except ProtocolError as exc:  # its traceback holds the result: leave both here
        error = ProtocolError(exc.status, exc.message)
    finally:
        del result
    raise error


def _read(result, deadline: float, limits: Limits) -> Evaluated:
    if isinstance(result, ox.QueryBoolean):
        return Evaluated("boolean", boolean=bool(result))
    if isinstance(result, ox.QuerySolutions):
        out = Evaluated("results", variables=[v.value for v in result.variables])
        names = out.variables
        convert = lambda row: [row[name] for name in names]  # noqa: E731
    else:
        out = Evaluated("graph")
        convert = lambda triple: triple  # noqa: E731
    try:
        for item in result:
            if time.monotonic() > deadline:
                raise QueryTimeout(limits.timeout)
            if len(out.rows) >= limits.max_rows:
                out.truncated = True
                break
            out.rows.append(convert(item))
    except (ValueError, RuntimeError) as exc:
        raise ProtocolError(400, f"query failed: {exc}") from None
    except OSError as exc:
        raise ProtocolError(503, f"the store could not be read: {exc}") from None
    if time.monotonic() > deadline:
        raise QueryTimeout(limits.timeout)
    return out


UNION = {"use_default_graph_as_union": True}


def query_dataset(requested: dict, own: bool) -> dict:
    """pyoxigraph's dataset arguments: the request's dataset (what it does not name is
    empty, SPARQL 1.1 Protocol §2.1.4), else the query's own (``own``: it has FROM or
    FROM NAMED), else the union of every graph as the default graph."""
    if requested:
        return {"default_graph": requested.get("default_graph", []),
                "named_graphs": requested.get("named_graphs", [])}
    return {} if own else dict(UNION)


def _query(store: ox.Store, text: str, dataset: dict, base_iri: str | None):
    try:
        return store.query(text, base_iri=base_iri, **dataset)
    except SyntaxError as exc:
        raise ProtocolError(400, f"SPARQL syntax error: {exc}") from None
    except (ValueError, RuntimeError) as exc:
        raise ProtocolError(400, f"query failed: {exc}") from None
    except OSError as exc:
        raise ProtocolError(503, f"the store could not be read: {exc}") from None


def dataset_of(params: dict[str, list[str]]) -> dict:
    """``default-graph-uri`` / ``named-graph-uri`` as pyoxigraph's query arguments."""
    out = {}
    try:
        if params.get("default-graph-uri"):
            out["default_graph"] = [ox.NamedNode(u) for u in params["default-graph-uri"]]
        if params.get("named-graph-uri"):
            out["named_graphs"] = [ox.NamedNode(u) for u in params["named-graph-uri"]]
    except ValueError as exc:
        raise ProtocolError(400, f"bad graph IRI: {exc}") from None
    return out


# -- the handler ------------------------------------------------------------------


def _error(status: int, message: str) -> Response:
    return Response(message + "\n", status_code=status, media_type="text/plain", headers=CORS)


def choose_media(kind: str, params: dict[str, list[str]], accept: str | None) -> str:
    offered = conneg.RESULT_TYPES if kind in ("results", "boolean") else conneg.RDF_TYPES
    named = (params.get("format") or params.get("output") or [None])[0]
    if named:
        media = conneg.from_format(named, "results" if kind != "graph" else "graph")
        if media is None:
            raise ProtocolError(406, f"format {named!r} is not available for this answer; offered: {', '.join(offered)}")
        return media
    media = conneg.negotiate(offered, accept)
    if media is None:
        raise ProtocolError(406, f"none of the accepted types ({accept}) is available; offered: {', '.join(offered)}")
    return media


def run_killable(store, base_iri: str | None, limits: Limits, job: PoolRequest) -> tuple:
    """The answer of a worker process that is killed at the deadline (blocking: call it
    from a thread): (media type, body, truncated) of a query; the value of a call
    (``job.call``). ``store``: an EmbeddedStore, or None for the store-less checkers of
    a remote store's queries. Raises ProtocolError."""
    root = store.root if isinstance(store, EmbeddedStore) else None
    pool = query_pool.shared(root, limits.workers, base_iri, limits.max_rows, limits.timeout)
    try:
        answer = pool.run(job)
    except TimeoutError:
        raise QueryTimeout(limits.timeout) from None
    except query_pool.WorkerGone as exc:
        raise ProtocolError(503, f"the query could not be answered: {exc}") from None
    if answer[0] == "error":
        raise ProtocolError(answer[1], answer[2])
    return answer[1] if job.call is not None else (answer[1], answer[2], answer[3])


def checked(store, base_iri: str | None, limits: Limits, text: str) -> Checked:
    """:func:`kb.web.sparql_check.check` in a worker (killable, without network): for the
    paths that do not evaluate in a worker (a remote store)."""
    prescan(text)
    return run_killable(None, base_iri, limits, PoolRequest("", (), (), None, None, call=("check", (text,))))


class SparqlEndpoint:
    def __init__(self, store, base_iri: str | None, limits: Limits):
        self.store = store
        self.base_iri = base_iri
        self.limits = limits
        self.limiter = anyio.CapacityLimiter(limits.workers)
        self.shares = ClientShares(limits.per_client or default_share(limits.workers))
        self.pool = None  # the worker processes, started by the first query (embedded store only)
        if isinstance(store, EmbeddedStore):
            self.pool = query_pool.shared(store.root, limits.workers, base_iri, limits.max_rows, limits.timeout)
        else:  # a remote store: we wait for its answers as long as our timeout says
            self.remote = copy.copy(store)
            self.remote.timeout = max(1, math.ceil(limits.timeout))

    def in_pool(self, job: PoolRequest) -> tuple[str, bytes, bool]:
        return run_killable(self.store, self.base_iri, self.limits, job)

    async def handle(self, request: Request) -> Response:
        if request.method == "OPTIONS":
            return Response(status_code=204, headers={
                **CORS, "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
                "Access-Control-Allow-Headers": "Content-Type, Accept"})
        try:
            return await self.answer(request)
        except ProtocolError as exc:
            return _error(exc.status, exc.message)

    async def answer(self, request: Request) -> Response:
        params = await request_params(request, self.limits)
        if "update" in params:
            raise ProtocolError(403, "this endpoint is read-only: SPARQL updates are refused")
        queries = params.get("query")
        if not queries:
            return self.service_description(request)
        if len(queries) > 1:
            raise ProtocolError(400, "give one query= parameter, not several")
        text = queries[0]
        if len(text.encode()) > self.limits.max_body:
            raise ProtocolError(413, f"query over the limit of {self.limits.max_body} bytes")
        named = (params.get("format") or params.get("output") or [None])[0]
        if named and not conneg.known_format(named):
            raise ProtocolError(406, f"unknown format {named!r}")
        prescan(text)  # nesting and chains past the limits: 400 before any worker
        dataset_of(params)  # a bad graph IRI: 400 here, before any worker
        accept = request.headers.get("accept")
        client = request.client.host if request.client else None
        if isinstance(self.store, EmbeddedStore):
            job = PoolRequest(text, tuple(params.get("default-graph-uri", ())),
                              tuple(params.get("named-graph-uri", ())), named, accept)
            async with self.shares.slot(client, self.limits.timeout):
                media, body, truncated = await anyio.to_thread.run_sync(self.in_pool, job, limiter=self.limiter)
            headers = dict(CORS)
            if truncated:
                headers["X-Rulekb-Truncated"] = "true"
            return Response(body, media_type=_with_charset(media), headers=headers)
        # a remote store: checked by a worker, then asked for SPARQL JSON or N-Triples,
        # re-read here (see remote_answer)
        graphs = (params.get("default-graph-uri", []), params.get("named-graph-uri", []))
        async with self.shares.slot(client, self.limits.timeout):
            kind = (await anyio.to_thread.run_sync(checked, None, self.base_iri, self.limits, text,
                                                   limiter=self.limiter)).kind
            media = choose_media(kind, params, accept)
            result = await anyio.to_thread.run_sync(self.remote_answer, text, graphs, limiter=self.limiter)
        headers = dict(CORS)
        if result.truncated:
            headers["X-Rulekb-Truncated"] = "true"
        return Response(serialize(result, media), media_type=_with_charset(media), headers=headers)

    def remote_answer(self, text: str, graphs: tuple[list[str], list[str]]) -> Evaluated:
        """A remote store's answer, parsed: the row cap applies as for the embedded store,
        and an answer cut short (oxigraph's --timeout-s appends a message to a 200) is a
        502, not a broken body. The remote server does the work, so only its own timeout
        can stop it; we stop waiting after ours (the client's socket timeout)."""
        try:
            answer = self.remote.query(text, results_format="json", rdf_format="nt",
                                 default_graphs=graphs[0], named_graphs=graphs[1])
        except KBError as exc:  # the remote server's refusal or failure: one line
            if "timed out" in exc.message:
                raise QueryTimeout(self.limits.timeout) from None
            raise ProtocolError(exc.status, exc.message) from None
        try:
            if answer.kind == "graph":
                parsed = ox.parse(answer.data, format=ox.RdfFormat.N_TRIPLES)
            else:
                parsed = ox.parse_query_results(answer.data, format=ox.QueryResultsFormat.JSON)
            return _read(parsed, math.inf, self.limits)
        except SyntaxError as exc:
            raise ProtocolError(502, "the SPARQL server sent a broken answer (cut short by its timeout?): "
                                     + " ".join(str(exc).split())) from None

    def service_description(self, request: Request) -> Response:
        endpoint = str(request.url.replace(query=""))
        results = "\n".join(f"        <http://www.w3.org/ns/formats/{n}>," for n in
                            ("SPARQL_Results_JSON", "SPARQL_Results_XML", "SPARQL_Results_CSV", "SPARQL_Results_TSV"))
        turtle = f"""@prefix sd: <http://www.w3.org/ns/sparql-service-description#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

<{endpoint}> a sd:Service ;
    rdfs:label "rulekb: the Magic: The Gathering Comprehensive Rules, read-only" ;
    sd:endpoint <{endpoint}> ;
    sd:supportedLanguage sd:SPARQL11Query ;
    sd:feature sd:UnionDefaultGraph ;
    sd:resultFormat
{results}
        <http://www.w3.org/ns/formats/Turtle>,
        <http://www.w3.org/ns/formats/N-Triples>,
        <http://www.w3.org/ns/formats/JSON-LD>,
        <http://www.w3.org/ns/formats/RDF_XML> .
"""
        media = conneg.negotiate(conneg.RDF_TYPES, request.headers.get("accept")) or "text/turtle"
        body = turtle.encode()
        if media != "text/turtle":
            triples = ox.parse(body, format=ox.RdfFormat.TURTLE)
            body = ox.serialize(triples, format=RDF_FORMATS[media])
        return Response(body, media_type=_with_charset(media), headers=dict(CORS))


def _with_charset(media: str) -> str:
    return media if media.endswith("+json") or media.endswith("ld+json") else f"{media}; charset=utf-8"

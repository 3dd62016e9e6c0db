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
- A bounded lookup (constant-subject triple patterns whose quad counts keep every
  join small, :mod:`kb.web.sparql_fast`) is answered by ``GET`` in the server
  process, before this route: it cannot run long, so it needs no worker.
- No query: the SPARQL service description (``sd:Service``).

A remote store (:class:`kb.store.remote.RemoteStore`) is asked for SPARQL JSON or
N-Triples, which is re-read here: same formats, same row cap. Its server does
the work: only its own timeout stops a query there (oxigraph's ``--timeout-s``
does not stop a COUNT over a cross join); ours is how long we wait (503).
"""

from __future__ import annotations

import copy
import math
import threading
from collections import OrderedDict
from importlib import resources
from urllib.parse import parse_qs

import anyio
import pyoxigraph as ox
from starlette.requests import Request
from starlette.responses import Response

from ..errors import KBError
from . import conneg, query_pool
from .context import Limits
from .errors import status_and_message
from .query_pool import Request as PoolRequest
from .shares import ClientShares, default_share
from .sparql_check import Checked, prescan
from .sparql_results import RDF_FORMATS, serialize  # noqa: F401  (re-exported)

from .sparql_eval import (  # noqa: F401  (split out of this module; importable from here as before)
    Evaluated,
    ProtocolError,
    QueryTimeout,
    _read,
    choose_media,
    dataset_of,
    evaluate,
)

CORS = {"Access-Control-Allow-Origin": "*"}


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




# -- the handler ------------------------------------------------------------------


def _error(exc: ProtocolError) -> Response:
    """The protocol's own error answer (plain text, CORS); the status comes from the
    one mapping, :func:`.errors.status_and_message`."""
    status, message, _ = status_and_message(exc)
    retry = getattr(exc, "retry_after", None)
    headers = {**CORS, "Retry-After": str(retry)} if retry else CORS
    return Response(message + "\n", status_code=status, media_type="text/plain", headers=headers)


def run_killable(store, base_iri: str | None, limits: Limits, job: PoolRequest) -> tuple:
    """The answer of a worker process that is killed at the deadline (blocking: call it
    from a thread): (media type, body, truncated) of a query; the value of a call
    (``job.call``). ``store``: an EmbeddedStore, or None for the store-less checkers of
    a remote store's queries. Raises ProtocolError."""
    root = store.local_root if store is not None else None
    pool = query_pool.shared(root, limits.workers, base_iri, limits.max_rows, limits.timeout)
    try:
        answer = pool.run(job)
    except TimeoutError:
        raise QueryTimeout(limits.timeout) from None
    except query_pool.WorkerGone as exc:
        raise ProtocolError(503, f"the query could not be answered: {exc}") from None
    return unpack(answer, job)


def unpack(answer: tuple, job: PoolRequest):
    """A worker's answer: the value of a call, or (media type, body, truncated) of a query; ProtocolError."""
    if answer[0] == "error":
        raise ProtocolError(answer[1], answer[2])
    return answer[1] if job.call is not None else (answer[1], answer[2], answer[3])


class Verdicts:
    """The parsed check's verdict (kind, has_dataset) per query text, as a query worker found
    it (:func:`kb.web.sparql_check.check`: SERVICE and updates refused, so only texts that
    passed are here), kept in the server: a text asked again is sent with its verdict and
    the worker does not parse it again. The verdict is a function of the exact text; the
    refusals are not kept (they are answered again by a worker, without rows)."""

    def __init__(self, entries: int = 4096, longest: int = 16 * 1024):
        self.entries, self.longest = entries, longest
        self._kept: OrderedDict[str, tuple] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, text: str) -> tuple | None:
        with self._lock:
            found = self._kept.get(text)
            if found is not None:
                self._kept.move_to_end(text)
            return found

    def keep(self, text: str, verdict) -> None:
        if verdict is None or len(text) > self.longest:
            return
        with self._lock:
            self._kept[text] = tuple(verdict)
            self._kept.move_to_end(text)
            while len(self._kept) > self.entries:
                self._kept.popitem(last=False)


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
        self.verdicts = Verdicts()
        if store.local_root is not None:
            self.pool = query_pool.shared(store.local_root, limits.workers, base_iri, limits.max_rows, limits.timeout)
        else:  # a remote store: we wait for its answers as long as our timeout says
            self.remote = copy.copy(store)
            self.remote.timeout = max(1, math.ceil(limits.timeout))

    def in_pool(self, job: PoolRequest) -> tuple[str, bytes, bool]:
        return run_killable(self.store, self.base_iri, self.limits, job)

    async def from_pool(self, job: PoolRequest) -> tuple[str, bytes, bool]:
        """A query's answer from a worker, talked to from the event loop (QueryPool.arun:
        no thread hand-off), killed at the deadline as run_killable's; its verdict kept."""
        try:
            answer = await self.pool.arun(job)
        except TimeoutError:
            raise QueryTimeout(self.limits.timeout) from None
        except query_pool.WorkerGone as exc:
            raise ProtocolError(503, f"the query could not be answered: {exc}") from None
        if answer[0] == "ok" and job.verdict is None and len(answer) > 4:
            self.verdicts.keep(job.text, answer[4])
        return unpack(answer, job)

    async def handle(self, request: Request) -> Response:
        if request.method == "OPTIONS":
            return Response(status_code=204, headers={
                **CORS, "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
                "Access-Control-Allow-Headers": "Content-Type, Accept"})
        try:
            return await self.answer(request)
        except ProtocolError as exc:
            return _error(exc)

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
        verdict = self.verdicts.get(text) if self.store.local_root is not None else None
        if verdict is None:
            prescan(text)  # nesting and chains past the limits: 400 before any worker
        dataset_of(params)  # a bad graph IRI: 400 here, before any worker
        accept = request.headers.get("accept")
        client = request.client.host if request.client else None
        if self.store.local_root is not None:
            job = PoolRequest(text, tuple(params.get("default-graph-uri", ())),
                              tuple(params.get("named-graph-uri", ())), named, accept, verdict=verdict)
            async with self.shares.slot(client, self.limits.timeout):
                async with self.limiter:
                    media, body, truncated = await self.from_pool(job)
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
                timeout = QueryTimeout(self.limits.timeout)
                timeout.retry_after = getattr(exc, "retry_after", None)
                raise timeout from None
            error = ProtocolError(*status_and_message(exc)[:2])
            error.retry_after = getattr(exc, "retry_after", None)  # a 502/503 of an endpoint: come back later
            raise error from None
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
        # package data, with the endpoint's IRI put in (Turtle itself has no braces)
        turtle = _SERVICE_DESCRIPTION.replace("{endpoint}", endpoint)
        media = conneg.negotiate(conneg.RDF_TYPES, request.headers.get("accept")) or "text/turtle"
        body = turtle.encode()
        if media != "text/turtle":
            triples = ox.parse(body, format=ox.RdfFormat.TURTLE)
            body = ox.serialize(triples, format=RDF_FORMATS[media])
        return Response(body, media_type=_with_charset(media), headers=dict(CORS))


_SERVICE_DESCRIPTION = resources.files(__package__).joinpath("service_description.ttl").read_text(encoding="utf-8")


def _with_charset(media: str) -> str:
    return media if media.endswith("+json") or media.endswith("ld+json") else f"{media}; charset=utf-8"

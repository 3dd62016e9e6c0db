"""Bounded SPARQL lookups answered in the server process, without a query worker.

The query workers (:mod:`.query_pool`) exist so that a query can be stopped at its
deadline, and the hand-off costs the server far more than a point lookup itself
(about 0.6 ms of CPU a request through Starlette, the pool and a worker, against
0.04 ms for Oxigraph to evaluate and serialise it). A query that provably cannot
run long needs no killing, so ``GET /sparql`` answers it here, before the route:

- Its text must be read by :func:`.sparql_lookup.lookup_of`, a recogniser of a small subset of
  SPARQL -- a whitelist, not a blacklist: ``PREFIX`` declarations, ``SELECT
  [DISTINCT|REDUCED] (?vars | *)`` or ``ASK``, ``WHERE``, one group of triple
  patterns, some of them in ``GRAPH <iri>|?var { ... }`` blocks, ``LIMIT`` /
  ``OFFSET``. Every subject is an absolute IRI; a verb is an IRI, ``a`` or a
  variable; an object is a variable, an IRI or a plain literal. Anything else
  (FILTER, OPTIONAL, UNION, paths, subqueries, BIND, VALUES, SERVICE, FROM, BASE,
  blank nodes, escapes...) goes to a worker, which checks it with rdflib's parser
  and is killed at the deadline. The lexer reads SPARQL's terminals as the
  grammar does (the longest prefixed name, IRIs and strings before comments) and
  refuses whatever it cannot be sure of -- a prefixed name with ``.``, ``:`` or
  ``%`` in its local part or a keyword as its prefix, long strings, any character
  outside ASCII except inside IRIs and strings -- so a text it accepts is the same
  query to Oxigraph's parser, or no query at all.
- Its cost must be bounded by the data: each triple pattern's quads are counted
  (``quads_for_pattern``, constants only, stopping past :data:`BUDGET`), and the
  product of the counts (each taken as at least 1) bounds every intermediate
  result of any join order. Over :data:`BUDGET`, or over the row cap (an answer
  here is never truncated), a worker answers.

Then Oxigraph evaluates the text as a worker would (the union of every graph as
the default graph, the endpoint's base IRI) and serialises the answer itself
(``QuerySolutions.serialize``) -- except a lookup of one pattern in ``GRAPH <iri>``
asked as SPARQL JSON, whose quads :func:`scan` reads and writes as Oxigraph does
(byte for byte), at half the CPU. ``rulekb serve``'s protocol asks this layer
before any ASGI work (:meth:`FastLookups.answer_now`, :mod:`kb.web.protocol`).
Any error, any parameter but ``query`` and ``format``/``output`` (a dataset, an
update), and ``POST`` go the usual way.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from json.encoder import encode_basestring
from urllib.parse import parse_qsl

import pyoxigraph as ox

from .headers import HEADERS
from .sparql_eval import ProtocolError, choose_media
from .sparql_lookup import Lookup, lookup_of

BUDGET = 256  # the product of the patterns' counts a lookup may have (rows, and each join's work)

FORMATS = {
    "application/sparql-results+json": ox.QueryResultsFormat.JSON,
    "application/sparql-results+xml": ox.QueryResultsFormat.XML,
    "text/csv": ox.QueryResultsFormat.CSV,
    "text/tab-separated-values": ox.QueryResultsFormat.TSV,
}


def bounded(store: ox.Store, lookup: Lookup, budget: int) -> bool:
    """Whether the product of the patterns' counts (each at least 1) is within ``budget``."""
    product = 1
    for subject, predicate, obj, graph in lookup.patterns:
        found = sum(1 for _ in islice(store.quads_for_pattern(subject, predicate, obj, graph), budget + 1))
        product *= max(found, 1)
        if product > budget:
            return False
    return True


_XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"


def scan(store: ox.Store, lookup: Lookup) -> bytes | None:
    """The SPARQL JSON answer of a :attr:`Lookup.scanned` lookup, read from the pattern's quads
    (half the CPU of ``store.query`` and its serialiser, which parse and plan the text
    every time); None when a term is one it does not write (a triple term, a directional
    literal): then Oxigraph answers."""
    subject, predicate, obj, graph, names, (p_var, o_var), distinct = lookup.scanned
    quads = store.quads_for_pattern(subject, predicate, obj, graph)
    if lookup.kind == "boolean":
        return b'{"head":{},"boolean":%s}' % (b"true" if next(quads, None) is not None else b"false")
    rows, seen = [], set()
    for quad in quads:
        bound = {}
        if p_var is not None:
            bound[p_var] = quad.predicate
        if o_var is not None:
            bound[o_var] = quad.object
        row = tuple(bound.get(name) for name in names)
        if distinct:
            if row in seen:
                continue
            seen.add(row)
        cells = []
        for name, term in zip(names, row):
            if term is not None:
                cell = _json_term(term)
                if cell is None:
                    return None
                cells.append(f"{_json(name)}:{cell}")
        rows.append("{" + ",".join(cells) + "}")
    head = ",".join(map(_json, names))
    return f'{{"head":{{"vars":[{head}]}},"results":{{"bindings":[{",".join(rows)}]}}}}'.encode()


def _json_term(term) -> str | None:
    if isinstance(term, ox.NamedNode):
        return f'{{"type":"uri","value":{_json(term.value)}}}'
    if isinstance(term, ox.Literal):
        if term.direction is not None:
            return None
        if term.language is not None:
            return f'{{"type":"literal","value":{_json(term.value)},"xml:lang":{_json(term.language)}}}'
        datatype = term.datatype.value
        if datatype == _XSD_STRING:
            return f'{{"type":"literal","value":{_json(term.value)}}}'
        return f'{{"type":"literal","value":{_json(term.value)},"datatype":{_json(datatype)}}}'
    if isinstance(term, ox.BlankNode):
        return f'{{"type":"bnode","value":{_json(term.value)}}}'
    return None


# a JSON string, as json.dumps(text, ensure_ascii=False) writes it, without the encoder's set-up per call
_json = encode_basestring


# -- the ASGI layer ------------------------------------------------------------------------------

_PASSED = frozenset({"query", "format", "output"})  # other protocol parameters go the usual way
_PLANNED = 4096  # requests (query string, Accept) whose plan is kept, per app
_PLANNED_LONGEST = 2048  # bytes of a query string worth keeping


@dataclass(frozen=True)
class Plan:
    text: str
    lookup: Lookup
    format: ox.QueryResultsFormat
    headers: tuple  # the response's headers but its length
    head: bytes  # the same as HTTP/1.1 header lines
    scan: bool  # answered by scan(), not by Oxigraph's evaluator


class FastLookups:
    """ASGI middleware in front of the routes: answers ``GET /sparql`` for a bounded
    lookup (see the module doc), hands everything else to ``app``. What a request
    asks (its query string and Accept: the text, the lookup, the media type) is kept
    per request, and whether a text is bounded per build of the store: both are
    functions of what they are kept under, and the answer is computed every time."""

    def __init__(self, app, store, base_iri: str | None, max_rows: int, max_body: int, path: str = "/sparql"):
        # app: None until kb.web.app's stack is built behind this layer
        self.app, self.store, self.base_iri = app, store, base_iri
        self.budget, self.max_body, self.path = min(BUDGET, max_rows), max_body, path
        self._kept_plan = lru_cache(maxsize=_PLANNED)(self._plan)
        self._bounds: dict[str, bool] = {}  # text -> bounded, for the store object in self._bounds_of
        self._bounds_of = None

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            answer = self.answer(scope)
            if answer is not None:
                plan, body = answer
                await send({"type": "http.response.start", "status": 200,
                            "headers": [*plan.headers, (b"content-length", b"%d" % len(body))]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)

    def answer_now(self, scope) -> tuple[bytes, bytes] | None:
        """For an HTTP server that answers in its own protocol (kb.web.protocol): the response's
        header lines (each ending in CRLF, all but Content-Length) and its body, or None."""
        answer = self.answer(scope)
        return None if answer is None else (answer[0].head, answer[1])

    def answer(self, scope) -> tuple[Plan, bytes] | None:
        """(the plan, the body) of a request this layer answers, or None: the route answers."""
        if scope["method"] != "GET" or scope["path"] != self.path or scope.get("root_path"):
            return None
        query_string = scope["query_string"]
        accept = None
        for name, value in scope["headers"]:  # a loop: a generator costs more than the search
            if name == b"accept":
                accept = value
                break
        plan = (self._kept_plan if len(query_string) <= _PLANNED_LONGEST else self._plan)(query_string, accept)
        if plan is None:
            return None
        try:
            store = self.store.store()  # follows a rebuild (kb.store.embedded.EmbeddedStore.store)
            if store is not self._bounds_of:
                self._bounds, self._bounds_of = {}, store
            fits = self._bounds.get(plan.text)
            if fits is None:
                if len(self._bounds) >= _PLANNED:
                    self._bounds.clear()
                fits = self._bounds[plan.text] = bounded(store, plan.lookup, self.budget)
            if not fits:
                return None
            body = scan(store, plan.lookup) if plan.scan else None
            if body is None:
                body = store.query(plan.text, base_iri=self.base_iri, use_default_graph_as_union=True).serialize(
                    format=plan.format)
        except Exception:  # noqa: BLE001 - any failure is the route's to answer, with its status
            return None
        return plan, body

    def _plan(self, query_string: bytes, accept: bytes | None) -> Plan | None:
        """What the request asks, when it is a lookup this layer answers; else None."""
        text = named = None
        # as Starlette reads the query string for the route (kb.web.sparql.request_params)
        for key, value in parse_qsl(query_string.decode("latin-1"), keep_blank_values=True):
            if key not in _PASSED:
                if key in ("update", "default-graph-uri", "named-graph-uri"):
                    return None
                continue
            if key == "query":
                if text is not None:
                    return None
                text = value
            elif named is not None:
                return None
            else:
                named = value
        if text is None or len(text.encode()) > self.max_body:
            return None
        lookup = lookup_of(text)
        if lookup is None:
            return None
        try:
            media = choose_media(lookup.kind, {"format": [named]} if named else {},
                                 accept.decode("latin-1") if accept is not None else None)
        except ProtocolError:
            return None  # a 406: the route says it
        headers = ((b"content-type", _with_charset(media).encode()), (b"access-control-allow-origin", b"*"), *HEADERS)
        return Plan(text, lookup, FORMATS[media], headers, b"".join(b"%s: %s\r\n" % header for header in headers),
                    scan=lookup.scanned is not None and FORMATS[media] == ox.QueryResultsFormat.JSON)


def _with_charset(media: str) -> str:
    return media if media.endswith("+json") else f"{media}; charset=utf-8"

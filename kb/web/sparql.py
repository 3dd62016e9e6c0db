"""The SPARQL 1.1 Protocol at ``/sparql``: read-only, with limits.

- ``GET ?query=``, ``POST`` with an ``application/sparql-query`` body or an
  ``application/x-www-form-urlencoded`` ``query=`` field; ``default-graph-uri``
  and ``named-graph-uri`` choose the dataset (default: the union of every graph).
- SELECT / ASK as SPARQL JSON, XML, CSV or TSV; CONSTRUCT / DESCRIBE as Turtle,
  N-Triples, JSON-LD or RDF/XML: by ``Accept`` (q-values) or ``format=``
  (see :mod:`kb.web.conneg`); 406 when none fits.
- Refused: updates (``update=``, ``application/sparql-update``, INSERT, LOAD...)
  and ``SERVICE`` (no federated calls to arbitrary hosts): 403. A query that
  does not parse: 400 with the parser's message. A body over ``max_body``: 413.
- At most ``max_rows`` rows (or triples): the answer then carries
  ``X-Rulekb-Truncated: true`` (a header only, so the body stays valid SPARQL JSON).
- ``timeout`` seconds per query, checked between the rows (triples) the store
  streams: a cross join that keeps producing rows is stopped (503). Limit of the
  approach: pyoxigraph cannot be interrupted inside one evaluation step, so
  work done before the first row appears (ORDER BY, GROUP BY / COUNT, ASK,
  a FILTER rejecting every row of a huge join) runs to its end in its worker
  thread; ``workers`` bounds how many such threads run at once.
- No query: the SPARQL service description (``sd:Service``).

The embedded store is queried directly, lazily; a remote store
(:class:`kb.remote.RemoteStore`) through its ``query`` (no row cap or timeout
of ours there: the remote server's own apply).
"""

from __future__ import annotations

import csv
import io
import json
import re
import time
from dataclasses import dataclass, field
from urllib.parse import parse_qs
from xml.sax.saxutils import escape, quoteattr

import anyio
import pyoxigraph as ox
from starlette.requests import Request
from starlette.responses import Response

from ..store import RDF_FORMATS as STORE_RDF_FORMATS
from ..store import RESULT_FORMATS as STORE_RESULT_FORMATS
from . import conneg
from .context import Limits  # noqa: F401  (re-exported: kb.web.sparql.Limits)

CORS = {"Access-Control-Allow-Origin": "*"}
# The formats served, by media type, taken from kb.store's tables (one list of formats);
# SHORT_NAMES gives the short names kb.store / kb.remote take.
_SERVED_RDF = ("turtle", "nt", "jsonld", "xml")
RDF_FORMATS = {STORE_RDF_FORMATS[name].media_type: STORE_RDF_FORMATS[name] for name in _SERVED_RDF}
SHORT_NAMES = {fmt.media_type.split(";")[0]: name for name, fmt in STORE_RESULT_FORMATS.items()} | {
    STORE_RDF_FORMATS[name].media_type: name for name in _SERVED_RDF}
UPDATE_WORDS = {"INSERT", "DELETE", "LOAD", "CLEAR", "CREATE", "DROP", "COPY", "MOVE", "ADD", "WITH"}


class ProtocolError(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


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


# -- read-only checks -------------------------------------------------------

# strings, IRIs and comments: masked before looking for keywords
_OPAQUE = re.compile(
    r'"""(?:[^"\\]|\\.|"(?!""))*"""' r"|'''(?:[^'\\]|\\.|'(?!''))*'''"
    r'|"(?:[^"\\\n]|\\.)*"' r"|'(?:[^'\\\n]|\\.)*'"
    r"|<[^<>\"{}|^`\\\s]*>" r"|#[^\n]*",
    re.DOTALL,
)
_SERVICE = re.compile(r"(?<![\w:?$@-])SERVICE(?![\w:-])", re.IGNORECASE)
_PROLOGUE = re.compile(r"\s*(?:(?:PREFIX\s+[\w.-]*:\s*|BASE\s*)\s*<>\s*)*", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z]+")


def masked(text: str) -> str:
    return _OPAQUE.sub(lambda m: "<>" if m.group(0).startswith("<") else " ", text)


def refuse_writes_and_service(text: str) -> None:
    plain = masked(text)
    if _SERVICE.search(plain):
        raise ProtocolError(403, "SERVICE (federated queries) is refused by this endpoint")
    rest = plain[_PROLOGUE.match(plain).end():]
    word = _WORD.match(rest)
    if word and word.group(0).upper() in UPDATE_WORDS:
        raise ProtocolError(403, f"this endpoint is read-only: SPARQL updates ({word.group(0).upper()}) are refused")


# -- evaluation ---------------------------------------------------------------

_EMPTY = ox.Store()  # parses a query (and tells its kind) without touching the KB


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


def _query(store: ox.Store, text: str, dataset: dict, base_iri: str | None):
    try:
        if dataset:
            return store.query(text, base_iri=base_iri, **dataset)
        return store.query(text, base_iri=base_iri, use_default_graph_as_union=True)
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


# -- serialising ----------------------------------------------------------------


def _json_term(term) -> dict:
    if isinstance(term, ox.NamedNode):
        return {"type": "uri", "value": term.value}
    if isinstance(term, ox.BlankNode):
        return {"type": "bnode", "value": term.value}
    if isinstance(term, ox.Literal):
        out = {"type": "literal", "value": term.value}
        if term.language:
            out["xml:lang"] = term.language
        elif term.datatype.value != "http://www.w3.org/2001/XMLSchema#string":
            out["datatype"] = term.datatype.value
        return out
    # a quoted triple (RDF-star)
    return {"type": "triple", "value": {
        "subject": _json_term(term.subject), "predicate": _json_term(term.predicate), "object": _json_term(term.object)}}


def _xml_term(term) -> str:
    if isinstance(term, ox.NamedNode):
        return f"<uri>{escape(term.value)}</uri>"
    if isinstance(term, ox.BlankNode):
        return f"<bnode>{escape(term.value)}</bnode>"
    if isinstance(term, ox.Literal):
        if term.language:
            return f"<literal xml:lang={quoteattr(term.language)}>{escape(term.value)}</literal>"
        if term.datatype.value != "http://www.w3.org/2001/XMLSchema#string":
            return f"<literal datatype={quoteattr(term.datatype.value)}>{escape(term.value)}</literal>"
        return f"<literal>{escape(term.value)}</literal>"
    return (f"<triple><subject>{_xml_term(term.subject)}</subject><predicate>{_xml_term(term.predicate)}</predicate>"
            f"<object>{_xml_term(term.object)}</object></triple>")


def _csv_term(term) -> str:
    if term is None:
        return ""
    if isinstance(term, ox.BlankNode):
        return f"_:{term.value}"
    if isinstance(term, (ox.NamedNode, ox.Literal)):
        return term.value
    return str(term)


def serialize(result: Evaluated, media: str) -> bytes:
    if result.kind == "boolean":
        word = "true" if result.boolean else "false"
        if media == "application/sparql-results+json":
            return json.dumps({"head": {}, "boolean": result.boolean}).encode()
        if media == "application/sparql-results+xml":
            return ('<?xml version="1.0"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#">\n'
                    f"<head/>\n<boolean>{word}</boolean>\n</sparql>\n").encode()
        return f"{word}\n".encode()  # CSV / TSV have no standard form for ASK
    if result.kind == "graph":
        return ox.serialize(result.rows, format=RDF_FORMATS[media]) or b""
    names, rows = result.variables, result.rows
    if media == "application/sparql-results+json":
        bindings = [{n: _json_term(t) for n, t in zip(names, row) if t is not None} for row in rows]
        return json.dumps({"head": {"vars": names}, "results": {"bindings": bindings}}, ensure_ascii=False).encode()
    if media == "application/sparql-results+xml":
        out = ['<?xml version="1.0"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#">\n<head>']
        out += [f"<variable name={quoteattr(n)}/>" for n in names]
        out.append("</head>\n<results>")
        for row in rows:
            cells = "".join(f"<binding name={quoteattr(n)}>{_xml_term(t)}</binding>" for n, t in zip(names, row) if t is not None)
            out.append(f"<result>{cells}</result>")
        out.append("</results>\n</sparql>\n")
        return "\n".join(out).encode()
    if media == "text/csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\r\n")
        writer.writerow(names)
        writer.writerows([_csv_term(t) for t in row] for row in rows)
        return buffer.getvalue().encode()
    # TSV: terms in their SPARQL / N-Triples syntax
    lines = ["\t".join(f"?{n}" for n in names)]
    lines += ["\t".join("" if t is None else str(t).replace("\t", "\\t") for t in row) for row in rows]
    return ("\n".join(lines) + "\n").encode()


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


def kind_of(text: str, base_iri: str | None) -> str:
    """SELECT / ASK / CONSTRUCT-DESCRIBE, by parsing the query against an empty store."""
    result = _query(_EMPTY, text, {}, base_iri)
    if isinstance(result, ox.QueryBoolean):
        return "boolean"
    return "results" if isinstance(result, ox.QuerySolutions) else "graph"


class SparqlEndpoint:
    def __init__(self, store, base_iri: str | None, limits: Limits):
        self.store = store
        self.base_iri = base_iri
        self.limits = limits
        self.limiter = anyio.CapacityLimiter(limits.workers)

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
        refuse_writes_and_service(text)
        dataset = dataset_of(params)
        accept = request.headers.get("accept")
        from ..store import EmbeddedStore

        if isinstance(self.store, EmbeddedStore):
            ox_store = self.store.store()
            result = await anyio.to_thread.run_sync(
                evaluate, ox_store, text, dataset, self.base_iri, self.limits, limiter=self.limiter)
            media = choose_media(result.kind, params, accept)
            body = serialize(result, media)
            headers = dict(CORS)
            if result.truncated:
                headers["X-Rulekb-Truncated"] = "true"
            return Response(body, media_type=_with_charset(media), headers=headers)
        # a remote store: its own query API, its own limits
        kind = kind_of(text, self.base_iri)
        media = choose_media(kind, params, accept)
        short = SHORT_NAMES[media]
        answer = await anyio.to_thread.run_sync(
            lambda: self.store.query(text, results_format=short, rdf_format=short), limiter=self.limiter)
        return Response(answer.data, media_type=_with_charset(media), headers=dict(CORS))

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

"""Bounded SPARQL lookups answered in the server process, without a query worker.

The query workers (:mod:`.query_pool`) exist so that a query can be stopped at its
deadline, and the hand-off costs the server far more than a point lookup itself
(about 0.6 ms of CPU a request through Starlette, the pool and a worker, against
0.04 ms for Oxigraph to evaluate and serialise it). A query that provably cannot
run long needs no killing, so ``GET /sparql`` answers it here, before the route:

- Its text must be read by :func:`lookup_of`, a recogniser of a small subset of
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

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from json.encoder import encode_basestring
from urllib.parse import parse_qsl

import pyoxigraph as ox

from ..errors import RulekbError
from .headers import HEADERS
from .sparql_eval import ProtocolError, choose_media

BUDGET = 256  # the product of the patterns' counts a lookup may have (rows, and each join's work)
MAX_PATTERNS = 8  # triple patterns of a lookup
LONGEST = 4096  # characters of a text worth recognising (a lookup is short)

FORMATS = {
    "application/sparql-results+json": ox.QueryResultsFormat.JSON,
    "application/sparql-results+xml": ox.QueryResultsFormat.XML,
    "text/csv": ox.QueryResultsFormat.CSV,
    "text/tab-separated-values": ox.QueryResultsFormat.TSV,
}


@dataclass(frozen=True)
class Lookup:
    kind: str  # "results" (SELECT) | "boolean" (ASK)
    patterns: tuple  # of (subject, predicate | None, object | None, graph | None): the constants to count
    # the one pattern of a lookup :func:`scan` answers itself, else None (see there)
    # (subject, predicate | None, object | None, graph, projected names, (predicate's, object's variable), distinct)
    scanned: tuple | None = None


# -- the lexer -----------------------------------------------------------------------------------

_PLX = r"(?:%[0-9A-Fa-f]{2}|\\[_~.!$&'()*+,;=/?#@%-])"
_TOKEN = re.compile(
    r"(?P<ws>[ \t\r\n]+)"
    r"|(?P<comment>#[^\r\n]*)"
    r"|<(?P<iri>[^<>\"{}|^`\\\x00-\x20]*)>"
    r"|\"(?P<dq>[^\"\\\r\n]*)\"|'(?P<sq>[^'\\\r\n]*)'"
    # SPARQL's PNAME_NS / PNAME_LN over ASCII, as long as the grammar reads it (PN_LOCAL may hold
    # '.', ':' and escapes): what is not plain is refused below, not cut short
    rf"|(?P<prefix>(?:[A-Za-z](?:[A-Za-z0-9_.-]*[A-Za-z0-9_-])?)?):"
    rf"(?P<local>(?:[A-Za-z0-9_:]|{_PLX})(?:(?:[A-Za-z0-9_.:-]|{_PLX})*(?:[A-Za-z0-9_:-]|{_PLX}))?)?"
    r"|[?$](?P<var>[A-Za-z0-9_]+)"
    r"|@(?P<lang>[A-Za-z]+(?:-[A-Za-z0-9]+)*)"
    r"|(?P<int>[0-9]+)"
    r"|(?P<word>[A-Za-z][A-Za-z0-9_]*)"
    r"|(?P<punct>\^\^|[{}.,;*])"
)
_RDF_TYPE = ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
_ABSOLUTE = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
# words the grammar may read as a keyword where a prefixed name could stand: never a prefix here
_KEYWORDS = frozenset("""A TRUE FALSE BASE PREFIX SELECT ASK CONSTRUCT DESCRIBE WHERE FROM NAMED GRAPH SERVICE
    OPTIONAL MINUS UNION FILTER BIND VALUES UNDEF NOT EXISTS IN AS BY ORDER GROUP HAVING LIMIT OFFSET DISTINCT
    REDUCED SILENT LATERAL""".split())


_NAMES = frozenset({"var", "word", "int", "pname", "prefix", "local"})  # tokens made of name characters


class _NotALookup(RulekbError):
    """The text is outside the subset (or not SPARQL): a worker answers it. (An internal signal,
    never shown; a RulekbError as every error class of the code.)"""

    def __init__(self):
        super().__init__("not a bounded lookup: a query worker answers it")


def _tokens(text: str) -> list[tuple[str, str]]:
    """(kind, value) for every terminal; kinds: iri, pname, string, var, lang, int, word, and the punctuation itself."""
    out, position, end, glued = [], 0, len(text), False
    while position < end:
        if text.startswith(('"""', "'''"), position):
            raise _NotALookup  # a long string
        match = _TOKEN.match(text, position)
        if match is None:
            raise _NotALookup  # a character outside the subset (a path, an expression, non-ASCII...)
        position = match.end()
        kind = match.lastgroup
        if kind in ("ws", "comment"):
            glued = False
            continue
        previous = out[-1][0] if out and glued else None
        # where the parsers differ (rdflib's, the workers' check, and Oxigraph's): "rk:p?x" is a
        # path to rdflib, a variable to Oxigraph; a tag or a datatype apart from its string is
        # Oxigraph's, not rdflib's
        if kind == "var" and match.group(0)[0] == "?" and previous in ("iri", "pname"):
            raise _NotALookup
        if previous in _NAMES and kind in _NAMES:  # "SELECT$x", "1a": one word to rdflib
            raise _NotALookup
        if (kind == "lang" or match.group(0) == "^^") and previous != "string" or (
                out and out[-1][0] == "^^" and previous is None):
            raise _NotALookup
        glued = True
        if kind == "local" or kind == "prefix":
            prefix, local = match.group("prefix"), match.group("local") or ""
            if "." in prefix or any(c in local for c in ".:%\\") or prefix.upper() in _KEYWORDS:
                raise _NotALookup
            out.append(("pname", f"{prefix}:{local}"))
        elif kind in ("dq", "sq"):
            out.append(("string", match.group(kind)))
        elif kind == "punct":
            out.append((match.group(kind), ""))
        else:
            out.append((kind, match.group(kind)))
    return out


# -- the grammar -------------------------------------------------------------------------------


class _Reader:
    def __init__(self, tokens: list[tuple[str, str]]):
        self.tokens, self.at = tokens, 0
        self.prefixes: dict[str, str] = {}
        self.patterns: list[tuple] = []
        # per pattern: (predicate's variable, object's variable, object is a literal)
        self.shapes: list[tuple] = []

    def peek(self) -> tuple[str, str]:
        return self.tokens[self.at] if self.at < len(self.tokens) else ("end", "")

    def take(self) -> tuple[str, str]:
        token = self.peek()
        self.at += 1
        return token

    def word(self, *words: str) -> str | None:
        """The next token if it is one of ``words`` (case-insensitive keywords), consumed."""
        kind, value = self.peek()
        if kind == "word" and value.upper() in words:
            self.at += 1
            return value.upper()
        return None

    def expect(self, kind: str) -> str:
        found, value = self.take()
        if found != kind:
            raise _NotALookup
        return value

    def iri(self, token: tuple[str, str]) -> ox.NamedNode:
        kind, value = token
        if kind == "pname":
            prefix, _, local = value.partition(":")
            if prefix not in self.prefixes:
                raise _NotALookup
            value = self.prefixes[prefix] + local
        elif kind != "iri" or not _ABSOLUTE.match(value):
            raise _NotALookup  # a relative IRI would be resolved against a base: not counted right
        try:
            return ox.NamedNode(value)
        except ValueError:
            raise _NotALookup from None

    def query(self) -> Lookup:
        while self.word("PREFIX"):
            name = self.expect("pname")
            if not name.endswith(":"):
                raise _NotALookup
            self.prefixes[name[:-1]] = self.iri(("iri", self.expect("iri"))).value
        names, modifier, sliced = None, None, False
        if self.word("ASK"):
            kind = "boolean"
        elif self.word("SELECT"):
            kind = "results"
            modifier = self.word("DISTINCT", "REDUCED")
            if self.peek()[0] == "*":
                self.take()
            else:
                names = [self.expect("var")]
                while self.peek()[0] == "var":
                    names.append(self.take()[1])
                if len(set(names)) < len(names):
                    raise _NotALookup  # Oxigraph refuses a variable projected twice
        else:
            raise _NotALookup
        self.word("WHERE")
        self.group(None, top=True)
        if kind == "results":
            for first, second in (("LIMIT", "OFFSET"), ("OFFSET", "LIMIT")):
                if self.word(first):
                    sliced = True
                    self.expect("int")
                    if self.word(second):
                        self.expect("int")
                    break
        if self.peek()[0] != "end" or not self.patterns or len(self.patterns) > MAX_PATTERNS:
            raise _NotALookup
        return Lookup(kind, tuple(self.patterns), self.scanned(kind, names, modifier, sliced))

    def scanned(self, kind: str, names: list[str] | None, modifier: str | None, sliced: bool) -> tuple | None:
        """:attr:`Lookup.scanned`: one pattern in ``GRAPH <iri>``, its variables apart, no literal
        to match, an ASK or a SELECT of named variables, neither REDUCED nor sliced (the rows a
        slice keeps depend on the evaluator's order)."""
        if len(self.patterns) != 1 or modifier == "REDUCED" or sliced or (kind == "results" and names is None):
            return None
        (subject, predicate, obj, graph), (p_var, o_var, literal) = self.patterns[0], self.shapes[0]
        if literal or graph is None or (p_var is not None and p_var == o_var):  # (None: not in GRAPH <iri>)
            return None
        variables = (p_var, o_var)
        return subject, predicate, obj, graph, tuple(names or ()), variables, modifier == "DISTINCT"

    def group(self, graph: ox.NamedNode | None, top: bool) -> None:
        """``{ triples (GRAPH g { triples })... }``; ``graph``: the block's IRI (None: any)."""
        self.expect("{")
        while True:
            kind, _ = self.peek()
            if kind == "}":
                self.take()
                return
            if top and self.word("GRAPH"):
                token = self.take()
                self.group(None if token[0] == "var" else self.iri(token), top=False)
                if self.peek()[0] == ".":
                    self.take()
                continue
            self.triples(graph)
            if self.peek()[0] == ".":
                self.take()
            elif self.peek()[0] != "}" and not (top and self.peek()[0] == "word"):
                raise _NotALookup

    def triples(self, graph: ox.NamedNode | None) -> None:
        """``subject verb objects (; verb objects)*`` (a trailing or doubled ``;`` as the grammar allows)."""
        subject = self.iri(self.take())
        self.verb_objects(subject, graph)
        while self.peek()[0] == ";":
            self.take()
            kind, value = self.peek()
            if kind in ("iri", "pname", "var") or (kind, value) == ("word", "a"):
                self.verb_objects(subject, graph)

    def verb_objects(self, subject: ox.NamedNode, graph: ox.NamedNode | None) -> None:
        verb = self.take()
        if verb == ("word", "a"):  # case-sensitive, as the grammar has it
            predicate = _RDF_TYPE
        elif verb[0] == "var":
            predicate = None
        else:
            predicate = self.iri(verb)
        p_var = verb[1] if verb[0] == "var" else None
        self.pattern(subject, predicate, p_var, graph)
        while self.peek()[0] == ",":
            self.take()
            self.pattern(subject, predicate, p_var, graph)

    def pattern(self, subject, predicate, p_var: str | None, graph) -> None:
        kind, value = self.peek()
        obj = self.object()
        self.patterns.append((subject, predicate, obj, graph))
        self.shapes.append((p_var, value if kind == "var" else None, obj is None and kind != "var"))

    def object(self) -> ox.NamedNode | None:
        """The object as a constant to count with (an IRI), else None (a variable, a literal)."""
        kind, value = self.take()
        if kind == "var":
            return None
        if kind == "string":
            if self.peek()[0] == "lang":
                try:
                    ox.Literal(value, language=self.take()[1])  # a well-formed tag (BCP 47), as Oxigraph wants
                except ValueError:
                    raise _NotALookup from None
            elif self.peek()[0] == "^^":
                self.take()
                self.iri(self.take())
            return None
        if kind == "int" or (kind == "word" and value in ("true", "false")):
            return None
        return self.iri((kind, value))


@lru_cache(maxsize=4096)
def lookup_of(text: str) -> Lookup | None:
    """The triple patterns of a query inside the subset (see the module doc), else None."""
    if len(text) > LONGEST:
        return None
    try:
        return _Reader(_tokens(text)).query()
    except _NotALookup:
        return None


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

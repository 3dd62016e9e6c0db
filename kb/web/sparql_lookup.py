"""Which SPARQL texts are bounded lookups: a recogniser of a small subset of SPARQL.

A whitelist, not a blacklist (see :mod:`.sparql_fast` for why a lookup is answered in the
server process): ``PREFIX`` declarations, ``SELECT [DISTINCT|REDUCED] (?vars | *)`` or
``ASK``, ``WHERE``, one group of triple patterns, some of them in ``GRAPH <iri>|?var { ... }``
blocks, ``LIMIT`` / ``OFFSET``. Every subject is an absolute IRI; a verb is an IRI, ``a`` or
a variable; an object is a variable, an IRI or a plain literal. The lexer reads SPARQL's
terminals as the grammar does and refuses whatever it cannot be sure of, so a text it accepts
is the same query to Oxigraph's parser, or no query at all. :func:`lookup_of` gives the
:class:`Lookup` (the patterns whose quads bound its cost), or None.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import pyoxigraph as ox

from ..errors import RulekbError

MAX_PATTERNS = 8  # triple patterns of a lookup
LONGEST = 4096  # characters of a text worth recognising (a lookup is short)



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

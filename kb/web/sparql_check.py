"""What a SPARQL query of the endpoint may be, decided before it is evaluated.

Two steps, for ``/sparql``, the ``/query`` editor's form and every other path
that evaluates a client's SPARQL:

- :func:`prescan` (in the server, linear, cheap): the size of the query's
  structure. Oxigraph's parser and evaluator recurse on the query's tree, so
  5,000 nested ``{}`` or parentheses, or 10,000 ``UNION``s (a left-deep tree),
  overflow a worker's stack and kill it. A lexer (strings, IRIs and comments
  read by the SPARQL grammar's terminals, so a ``{`` inside a string is not a
  group) counts the deepest nesting of ``{ ( [`` and the operators that each add
  a level to the algebra (``UNION``, ``OPTIONAL``, ``||``, ``+``, ``/``...):
  over :data:`MAX_DEPTH` or :data:`MAX_OPERATORS`, a 400 that names the limit,
  before any worker is spent. This is a limit, not the security decision.
- :func:`check` (in a query worker: killable at the deadline, without network,
  see :mod:`kb.web.query_pool`): the query parsed by a real SPARQL parser
  (rdflib's), and its parse tree walked for a ``ServiceGraphPattern`` anywhere
  (in a subquery, an EXISTS, a MINUS...): 403. Never by text patterns: the old
  check masked comments and strings with patterns, and an escaped ``\\#`` in a
  prefixed name made it read the rest of the line as a comment. A query the
  parser cannot read is refused (400): what cannot be checked is not run. An
  update (``INSERT``, ``LOAD``...) is 403. The tree also says the query's form
  (SELECT, ASK, CONSTRUCT, DESCRIBE) and whether it names its own dataset
  (``FROM`` / ``FROM NAMED``: then the union default graph is not imposed).
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from functools import lru_cache

MAX_DEPTH = 64  # nesting of { ( [ ; oxigraph's stack overflows near 5,000 in an 8 MB stack
MAX_OPERATORS = 2_000  # operators that each add a level to the algebra (a left-deep chain)
PARSE_STACK = 256 << 20  # bytes of the thread the parser runs in (pyparsing recurses deeply)


from .sparql_eval import ProtocolError  # the protocol's one error (a KBError with its status)


# -- the cheap pre-scan ---------------------------------------------------------------------

# the terminals inside which brackets and operators do not count (SPARQL 1.1 grammar
# §19.8): long strings first, then short ones, IRIREF, comments; an escaped character
# (ECHAR, PN_LOCAL_ESC) is skipped with its backslash
_LEXEME = re.compile(
    r'"""(?:[^"\\]|\\.|"(?!""))*(?:"""|\Z)' r"|'''(?:[^'\\]|\\.|'(?!''))*(?:'''|\Z)"
    r'|"(?:[^"\\\n\r]|\\.)*"?' r"|'(?:[^'\\\n\r]|\\.)*'?"
    r'|<[^<>"{}|^`\\\x00-\x20]*>'
    r"|#[^\n\r]*"
    r"|\\."
    r"|[{(\[]|[})\]]"
    r"|\|\||&&|!=|<=|>=|\^\^"
    r"|[A-Za-z_][A-Za-z0-9_]*"
    r"|[|/^+*!=<>-]",
    re.DOTALL,
)
_CHAIN_WORDS = {"UNION", "OPTIONAL", "MINUS", "BIND", "FILTER", "GRAPH", "SERVICE", "EXISTS", "SELECT", "VALUES"}
_CHAIN_SIGNS = {"||", "&&", "!=", "<=", ">=", "|", "/", "^", "+", "*", "!", "=", "<", ">", "-"}


def prescan(text: str) -> None:
    """Raise a 400 when the query's structure is deeper or longer than the limits (see the module doc)."""
    depth = deepest = operators = 0
    for match in _LEXEME.finditer(text):
        token = match.group(0)
        first = token[0]
        if first in "{([":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_DEPTH:
                    raise ProtocolError(400, f"the query nests groups, brackets or parentheses more than {MAX_DEPTH} deep"
                                             " (this endpoint's limit)")
        elif first in "})]":
            depth = max(0, depth - 1)
        elif token in _CHAIN_SIGNS or (first.isalpha() and token.upper() in _CHAIN_WORDS):
            operators += 1
            if operators > MAX_OPERATORS:
                raise ProtocolError(400, f"the query has more than {MAX_OPERATORS} operators (UNION, OPTIONAL, FILTER, ||,"
                                         " +, /...): this endpoint's limit")


# -- the parsed check --------------------------------------------------------------------


@dataclass(frozen=True)
class Checked:
    kind: str  # "results" (SELECT) | "boolean" (ASK) | "graph" (CONSTRUCT, DESCRIBE)
    has_dataset: bool  # FROM / FROM NAMED in the query


_UPDATE_VERBS = {"InsertData": "INSERT", "DeleteData": "DELETE", "DeleteWhere": "DELETE", "Modify": "DELETE/INSERT",
                 "Load": "LOAD", "Clear": "CLEAR", "Drop": "DROP", "Create": "CREATE", "Add": "ADD", "Move": "MOVE",
                 "Copy": "COPY"}
_KINDS = {"SelectQuery": "results", "AskQuery": "boolean", "ConstructQuery": "graph", "DescribeQuery": "graph"}


def check(text: str) -> Checked:
    """The query's form and dataset, after refusing SERVICE (403), updates (403),
    what the parser cannot read (400); see the module doc. In a thread with a deep
    stack: the parser recurses once per nesting level, and a RecursionError is a 400."""
    prescan(text)
    return _checked(text)


_CACHED_TEXT = 64 * 1024  # longer texts are parsed every time: the cache holds at most ~16 MB of text


def _checked(text: str) -> Checked:
    return _cached_check(text) if len(text) <= _CACHED_TEXT else _check_now(text)


@lru_cache(maxsize=256)  # a worker answers the same text again (a page's query, a retried request)
def _cached_check(text: str) -> Checked:
    return _check_now(text)


def _check_now(text: str) -> Checked:
    box: list = []
    thread = threading.Thread(target=lambda: box.append(_parse(text)), daemon=True)
    old = threading.stack_size(PARSE_STACK)
    try:
        thread.start()
    finally:
        threading.stack_size(old)
    thread.join()
    outcome = box[0] if box else ProtocolError(400, "the query could not be parsed")
    if isinstance(outcome, ProtocolError):
        raise outcome
    return outcome


def _parse(text: str):
    from pyparsing import ParseBaseException
    from rdflib.plugins.sparql.parser import parseQuery, parseUpdate

    # the recursion limit is the process's: a query worker raises it (kb.web.query_pool.main),
    # this thread has the stack for it (PARSE_STACK); elsewhere a deep query is a RecursionError
    try:
        tree = parseQuery(text)
    except RecursionError:
        return ProtocolError(400, "the query is nested too deeply to be parsed")
    except ParseBaseException as exc:
        try:
            update = parseUpdate(text)
        except (ParseBaseException, RecursionError, Exception):  # noqa: BLE001 - not an update either
            return ProtocolError(400, f"SPARQL syntax error: {_one_line(str(exc))}")
        verb = _UPDATE_VERBS.get(getattr(next(iter(update.get("request") or []), None), "name", ""), "")
        return ProtocolError(403, "this endpoint is read-only: SPARQL updates" + (f" ({verb})" if verb else "")
                             + " are refused")
    except Exception as exc:  # noqa: BLE001 - rdflib raises others on odd input (bad IRIs, escapes)
        return ProtocolError(400, f"SPARQL syntax error: {_one_line(str(exc)) or type(exc).__name__}")
    try:
        if _has_service(tree):
            return ProtocolError(403, "SERVICE (federated queries) is refused by this endpoint")
    except RecursionError:
        return ProtocolError(400, "the query is nested too deeply to be checked")
    query = tree[1]
    kind = _KINDS.get(getattr(query, "name", ""))
    if kind is None:
        return ProtocolError(400, "not a SPARQL query (SELECT, ASK, CONSTRUCT or DESCRIBE)")
    return Checked(kind, "datasetClause" in query)  # (CompValue.get answers a missing key with its name)


def _has_service(tree) -> bool:
    """Whether a ServiceGraphPattern occurs anywhere in rdflib's parse tree (iterative:
    the tree is as deep as the query)."""
    from pyparsing import ParseResults
    from rdflib.plugins.sparql.parserutils import CompValue

    stack, seen = [tree], set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, CompValue):
            if node.name == "ServiceGraphPattern":
                return True
            stack.extend(node.values())
        elif isinstance(node, ParseResults):
            stack.extend(node)
        elif isinstance(node, (list, tuple)):
            stack.extend(node)
        elif isinstance(node, dict):
            stack.extend(node.values())
    return False


def _one_line(message: str, limit: int = 300) -> str:
    message = " ".join(message.split())
    return message if len(message) <= limit else message[:limit] + " ..."


# -- the request's dataset over the query's ----------------------------------------------------

# the terminals a dataset clause is made of, and those that may hide a "FROM" (strings, IRIs,
# comments, variables, prefixed names): a lexer, so a FROM inside them is never taken
_DATASET_LEXEME = re.compile(
    r'"""(?:[^"\\]|\\.|"(?!""))*(?:"""|\Z)' r"|'''(?:[^'\\]|\\.|'(?!''))*(?:'''|\Z)"
    r'|"(?:[^"\\\n\r]|\\.)*"?' r"|'(?:[^'\\\n\r]|\\.)*'?"
    r'|(?P<iri><[^<>"{}|^`\\\x00-\x20]*>)'
    r"|#[^\n\r]*"
    r"|[?$][\w\u00b7\u0300-\u036f\u203f-\u2040]+"
    r"|(?P<pname>(?:[^\W\d_][\w.-]*)?:(?:[\w:%.-]|\\.)*)"
    r"|(?P<word>[A-Za-z]+)"
    r"|(?P<space>\s+)"
    r"|\\.|.",
    re.DOTALL,
)


def strip_dataset(text: str) -> str:
    """The query without its FROM / FROM NAMED clauses, when the request names the
    dataset (the protocol's ``default-graph-uri`` / ``named-graph-uri`` override the
    query's, SPARQL 1.1 Protocol §2.1.4; pyoxigraph would keep the query's). The
    clauses are found by a lexer at nesting depth 0, and the result is parsed again:
    it must be the same form with no dataset, else the request is refused (400)."""
    spans, depth, pending = [], 0, None  # pending: [start, saw NAMED]
    for match in _DATASET_LEXEME.finditer(text):
        token = match.group(0)
        if match.group("space") or token.startswith("#"):
            continue
        if pending is not None:
            if match.group("word") and token.upper() == "NAMED" and not pending[1]:
                pending[1] = True
                continue
            if match.group("iri") or match.group("pname"):
                spans.append((pending[0], match.end()))
            pending = None
            continue
        if token in "{([" and len(token) == 1:
            depth += 1
        elif token in "})]" and len(token) == 1:
            depth = max(0, depth - 1)
        elif depth == 0 and match.group("word") and token.upper() == "FROM":
            pending = [match.start(), False]
    out, last = [], 0
    for start, end in spans:
        out += [text[last:start], " "]
        last = end
    stripped = "".join(out) + text[last:]
    before, after = _checked(text), _checked(stripped)
    if after.has_dataset or after.kind != before.kind:
        raise ProtocolError(400, "the query's FROM / FROM NAMED could not be replaced by the request's dataset:"
                                 " give the dataset in one of them")
    return stripped

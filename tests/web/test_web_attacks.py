"""Hostile requests against a real server (loopback only, bounded): SERVICE hidden
every way the grammar allows, deep nesting, the dataset of a query.

After each attack the server must still answer ``ASK {}`` (a functional check: the
time is recorded, not asserted, besides a generous bound).
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
import urllib.parse
from contextlib import contextmanager

import pyoxigraph as ox
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekb.kb.store.embedded import EmbeddedStore
from rulekb.kb.web.app import create_app
from rulekb.kb.web.query_pool import Request as PoolRequest
from rulekb.kb.web.sparql_check import MAX_DEPTH, MAX_OPERATORS, check, prescan, ProtocolError

from ..helpers import WebServer, http

ALIVE_LATENCIES: list[float] = []  # seconds ASK {} took after each attack (for the closing figures)


@pytest.fixture(scope="module", autouse=True)
def _latency_figures():
    """Prints (with -s) how long ASK {} took after the attacks: figures, not assertions."""
    yield
    if ALIVE_LATENCIES:
        ordered = sorted(ALIVE_LATENCIES)
        print(f"\nASK {{}} after attacks: n={len(ordered)} median={ordered[len(ordered) // 2] * 1000:.0f} ms "
              f"max={ordered[-1] * 1000:.0f} ms")


class Listener:
    """A loopback TCP listener that records every connection made to it (the test fails on any)."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self.stop = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.stop:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.connections += 1
            conn.close()

    def close(self):
        self.stop = True
        self.thread.join(2)
        self.sock.close()


@pytest.fixture(scope="module")
def listener():
    sink = Listener()
    yield sink
    sink.close()


@contextmanager
def _network(allowed: bool):
    """Workers started inside this block have (or not) the network: RULEKB_QUERY_NETWORK."""
    old = os.environ.get("RULEKB_QUERY_NETWORK")
    if allowed:
        os.environ["RULEKB_QUERY_NETWORK"] = "allow"
    else:
        os.environ.pop("RULEKB_QUERY_NETWORK", None)
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("RULEKB_QUERY_NETWORK", None)
        else:
            os.environ["RULEKB_QUERY_NETWORK"] = old


def _pool(app):
    route = next(r for r in app.routes if getattr(r, "path", None) == "/sparql")
    return route.endpoint.__self__.pool


def ask(root: str, query: str, method: str = "GET", **params):
    if method == "GET":
        return http(f"{root}sparql?{urllib.parse.urlencode({'query': query, **params}, doseq=True)}",
                    headers={"Accept": "application/sparql-results+json"})
    if method == "FORM":
        return http(root + "sparql", data=urllib.parse.urlencode({"query": query, **params}, doseq=True).encode(),
                    headers={"Content-Type": "application/x-www-form-urlencoded",
                             "Accept": "application/sparql-results+json"})
    return http(root + "sparql", data=query.encode(), headers={"Content-Type": "application/sparql-query",
                                                             "Accept": "application/sparql-results+json"})


def assert_alive(root: str) -> None:
    started = time.monotonic()
    status, _, body = ask(root, "ASK {}")
    elapsed = time.monotonic() - started
    ALIVE_LATENCIES.append(elapsed)
    assert status == 200 and json.loads(body)["boolean"] is True, (status, body[:200])
    assert elapsed < 10, f"ASK {{}} took {elapsed:.1f} s after the attack"


@pytest.fixture(scope="module")
def open_server(fixture_kb):
    """Workers WITH network (RULEKB_QUERY_NETWORK=allow): the parsed check stands alone here."""
    store, _ = fixture_kb
    with _network(True):
        app = create_app(store, timeout=20.5, workers=2)  # its own pool (the key has the timeout)
        with WebServer(app) as root:
            assert_alive(root)  # the workers start now, with the variable set
            yield root, app


@pytest.fixture(scope="module")
def walled_server(fixture_kb):
    """Workers as deployed: in a network namespace of their own."""
    store, _ = fixture_kb
    with _network(False):
        app = create_app(store, timeout=21.5, workers=2)
        with WebServer(app) as root:
            assert_alive(root)
            yield root, app


# -- SERVICE hidden ---------------------------------------------------------------------------

ISSUE_BYPASS = ("PREFIX ex: <http://e/> SELECT * WHERE {{ {{ BIND(ex:a\\{c} AS ?x) }} "
                "SERVICE <http://127.0.0.1:{port}/sparql> {{ ?s ?p ?o }} }}")

# what may stand between tokens: whitespace of every kind, comments (with what fools a
# pattern: quotes, <, escapes), nothing
_GAPS = st.sampled_from([" ", "\n", "\t", "\r\n", "  \n\t ", "#c\n", "# ' \" < \\\n", "#SERVICE <x>\n",
                         " #}\n", "\n#\"\"\"\n"])
# decoys before the SERVICE clause: escapes and strings of every form the grammar has
_DECOYS = st.sampled_from([
    "", "BIND(ex:a\\# AS ?d1)", "BIND(ex:a\\' AS ?d1)", 'BIND(ex:a\\" AS ?d1)', "BIND(ex:a\\~ AS ?d1)",
    "BIND(ex:a%23 AS ?d1)", "BIND(ex:a\\%23 AS ?d1)", "BIND(ex:a\\<b AS ?d1)",
    "BIND('a#b' AS ?d1)", 'BIND("a\\"#" AS ?d1)', "BIND('''a'#'' AS ?d1)", 'BIND("""a""#""" AS ?d1)',
    "BIND('\\'' AS ?d1)", 'BIND("\\\\" AS ?d1)', "BIND('<' AS ?d1)", 'BIND("{" AS ?d1)',
    "BIND(<http://e/#x> AS ?d1)", "BIND(<http://e/'\"> AS ?d1)", "BIND(\"x\"@en AS ?d1)",
    "BIND(\"1\"^^<http://www.w3.org/2001/XMLSchema#integer> AS ?d1)", "?d1 ex:p 'SERVICE' .",
])
_SERVICE_WORD = st.sampled_from(["SERVICE", "service", "Service", "sErViCe", "SERVICE SILENT", "service silent"])
_ENDPOINT = st.sampled_from(["<http://127.0.0.1:{port}/sparql>", "loc:sparql", "loc:", "?svc"])


@st.composite
def hidden_service(draw):
    """A query with a real SERVICE clause, somewhere, behind decoys and gaps."""
    gap = lambda: draw(_GAPS)  # noqa: E731
    service = (f"{draw(_SERVICE_WORD)}{gap()}{draw(_ENDPOINT)}{gap()}{{{gap()}?s ?p ?o{gap()}}}")
    where = draw(st.sampled_from([
        "{S}", "{{ {S} }}", "OPTIONAL {{ {S} }}", "{{ ?a ?b ?c }} UNION {{ {S} }}", "MINUS {{ {S} }}",
        "FILTER EXISTS {{ {S} }}", "FILTER NOT EXISTS {{ {S} }}", "{{ SELECT * WHERE {{ {S} }} }}",
        "GRAPH ?g {{ {S} }}", "BIND(EXISTS {{ {S} }} AS ?e)", "VALUES ?svc {{ <http://127.0.0.1:{port}/> }} {S}",
    ])).replace("{S}", service)
    head = draw(st.sampled_from(["SELECT *", "select *", "ASK", "CONSTRUCT { ?s ?p ?o }", "DESCRIBE ?s",
                                 "SELECT (COUNT(*) AS ?n)"]))
    prologue = "PREFIX ex: <http://e/>" + gap() + "PREFIX loc: <http://127.0.0.1:{port}/>" + gap()
    if draw(st.booleans()):
        prologue = "BASE <http://127.0.0.1:{port}/>" + gap() + prologue
    return (prologue + head + gap() + "WHERE" + gap() + "{" + gap() + draw(_DECOYS) + gap() + where + gap() + "}")


def _refused(status: int) -> bool:
    return status in (400, 403)


def test_the_issue_bypass_is_refused(open_server, listener):
    root, _ = open_server
    for char in "#'":
        query = ISSUE_BYPASS.format(c=char, port=listener.port)
        for method in ("GET", "FORM", "BODY"):
            status, _, body = ask(root, query, method)
            assert _refused(status), (method, query, status, body[:200])
    assert listener.connections == 0
    assert_alive(root)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(template=hidden_service(), method=st.sampled_from(["GET", "FORM", "BODY", "EDITOR"]))
def test_service_hidden_any_way_is_refused_and_never_connects(open_server, listener, template, method):
    root, _ = open_server
    query = template.replace("{port}", str(listener.port))
    if method == "EDITOR":
        status, _, body = http(root + "query?" + urllib.parse.urlencode({"query": query}))
    else:
        status, _, body = ask(root, query, method)
    assert _refused(status), (method, query, status, body[:300])
    assert listener.connections == 0, query


def test_the_check_alone_refuses_the_generated_queries():
    """The parse itself, on many more examples than the HTTP test affords."""
    @settings(max_examples=300, deadline=None)
    @given(template=hidden_service())
    def run(template):
        query = template.replace("{port}", "9")
        with pytest.raises(ProtocolError) as refused:
            check(query)
        assert refused.value.status in (400, 403), query

    run()


@pytest.mark.parametrize("query", [
    'SELECT * WHERE { ?s ?p "SERVICE <http://127.0.0.1:9/> { }" }',
    "SELECT * WHERE { ?s ?p ?o } # SERVICE <http://127.0.0.1:9/> { ?s ?p ?o }",
    "PREFIX service: <http://e/> SELECT * WHERE { ?s service:p ?o }",
    "SELECT ?service WHERE { BIND(<http://e/SERVICE> AS ?service) }",
    "SELECT * WHERE { ?s ?p '''SERVICE <x> {}''' }",
])
def test_service_in_strings_comments_and_names_is_not_a_service(query):
    """Decided by the parse: the word in a string, a comment, a name is no SERVICE clause."""
    assert check(query).kind == "results"


def test_the_wall_stops_a_query_that_got_past_the_check(walled_server, listener, open_server):
    """A SERVICE sent straight to a worker, the check skipped: no connection leaves a walled
    worker; the same job in a worker with network does connect (the listener works)."""
    query = f"SELECT * WHERE {{ SERVICE <http://127.0.0.1:{listener.port}/sparql> {{ ?s ?p ?o }} }}"
    job = PoolRequest(query, (), (), None, None, checked=False)
    walled = _pool(walled_server[1])
    assert all(n.startswith("isolated") for n in walled.network()), walled.network()
    answer = walled.run(job)
    assert answer[0] == "error" and listener.connections == 0, answer
    before = listener.connections
    _pool(open_server[1]).run(job)
    assert listener.connections > before  # without the wall, the worker connects
    listener.connections = 0
    assert_alive(walled_server[0])


def test_the_deployed_server_refuses_service_too(walled_server, listener):
    root, _ = walled_server
    query = ISSUE_BYPASS.format(c="#", port=listener.port)
    status, _, _ = ask(root, query)
    assert _refused(status) and listener.connections == 0
    status, _, body = http(root + "query?" + urllib.parse.urlencode({"query": query}))
    assert _refused(status) and listener.connections == 0


# -- nesting and chains --------------------------------------------------------------------------

TRIPLE = "?s ?p ?o"
DEEP = {
    "5000 nested groups": "SELECT * WHERE { " + "{ " * 5000 + TRIPLE + " }" * 5000 + " }",
    "5000 nested parentheses": "SELECT * WHERE { ?s ?p ?o FILTER(" + "(" * 5000 + "?o" + ")" * 5000 + ") }",
    "10000 UNIONs": "SELECT * WHERE { " + " UNION ".join(["{ ?s ?p ?o }"] * 10000) + " }",
    "10000 ||": "SELECT * WHERE { ?s ?p ?o FILTER(" + " || ".join(["?o"] * 10000) + ") }",
    "10000 +": "SELECT * WHERE { ?s ?p ?o FILTER(" + " + ".join(["1"] * 10000) + " > 0) }",
    "10000 !": "SELECT * WHERE { ?s ?p ?o FILTER(" + "!" * 10000 + "?o) }",
    "10000 BINDs": "SELECT * WHERE { " + " ".join(f"BIND({i} AS ?v{i})" for i in range(10000)) + " }",
    "10000 OPTIONALs": "SELECT * WHERE { ?s ?p ?o " + "OPTIONAL { ?s ?p ?o } " * 10000 + "}",
    "5000 nested subqueries": "SELECT * WHERE { " + "{ SELECT * WHERE " * 5000 + "{ ?s ?p ?o }" + " }" * 5000 + " }",
    "5000 nested EXISTS": "ASK { ?s ?p ?o " + "FILTER EXISTS { " * 5000 + TRIPLE + " }" * 5000 + " }",
    "5000 nested blank nodes": "ASK { ?s ?p " + "[ ?p " * 5000 + "?o" + " ]" * 5000 + " }",
    "5000 nested collections": "ASK { ?s ?p " + "( " * 5000 + "?o" + " )" * 5000 + " }",
    "10000-step path": "ASK { ?s " + "/".join(["<http://e/p>"] * 10000) + " ?o }",
    "5000 nested path groups": "ASK { ?s " + "(" * 5000 + "<http://e/p>" + ")" * 5000 + " ?o }",
    "unclosed 100000 groups": "ASK " + "{" * 100000,
}


@pytest.mark.parametrize("name", list(DEEP))
def test_deep_or_long_queries_are_a_400_before_any_worker(walled_server, name):
    root, app = walled_server
    pool = _pool(app)
    before = set(pool.pids())
    for method in ("GET", "BODY"):
        status, _, body = ask(root, DEEP[name], method)
        assert status == 400, (name, status, body[:200])
        # a GET this long may be refused by the HTTP parser first (its URL limit)
        assert b"limit" in body or (method == "GET" and b"Invalid HTTP request" in body), body[:200]
    assert set(pool.pids()) == before  # no worker died (nor was one spent)
    assert_alive(root)


def test_the_limits_keep_ordinary_queries():
    from rulekb.kb.store import queries

    for name, query in queries.registry().items():
        prescan(query.text)  # every named query of the project passes
    prescan("SELECT * WHERE { " + "{ " * (MAX_DEPTH - 2) + TRIPLE + " }" * (MAX_DEPTH - 2) + " }")
    prescan("SELECT * WHERE { VALUES ?x { " + " ".join(f"<http://e/{i}>" for i in range(50_000)) + " } }")
    with pytest.raises(ProtocolError):
        prescan("ASK { " + " UNION ".join(["{ ?s ?p ?o }"] * (MAX_OPERATORS + 2)) + " }")


def test_a_query_at_the_limits_does_not_kill_a_worker(walled_server):
    """Just under both limits: answered (or refused by the parser), never a dead worker."""
    root, app = walled_server
    pool = _pool(app)
    before = set(pool.pids())
    depth = MAX_DEPTH - 2
    for query in ("SELECT * WHERE { " + "{ " * depth + TRIPLE + " }" * depth + " }",
                  "SELECT * WHERE { ?s ?p ?o FILTER(" + "(" * depth + "?o" + ")" * depth + ") }",
                  "SELECT * WHERE { " + " UNION ".join(["{ ?s ?p ?o }"] * (MAX_OPERATORS // 2)) + " } LIMIT 1"):
        status, _, body = ask(root, query)
        assert status in (200, 400), (status, body[:200])
    assert set(pool.pids()) == before
    assert_alive(root)


# -- the dataset: FROM / FROM NAMED and the protocol's parameters ----------------------------------

G1, G2 = "http://example.org/g1", "http://example.org/g2"


@pytest.fixture(scope="module")
def two_graphs(tmp_path_factory):
    """g1 holds one triple, g2 two."""
    store = EmbeddedStore(tmp_path_factory.mktemp("two-graphs") / "store")
    p = ox.NamedNode("http://example.org/p")
    quads = [ox.Quad(ox.NamedNode("http://example.org/a"), p, ox.Literal("1"), ox.NamedNode(G1)),
             ox.Quad(ox.NamedNode("http://example.org/b"), p, ox.Literal("2"), ox.NamedNode(G2)),
             ox.Quad(ox.NamedNode("http://example.org/c"), p, ox.Literal("3"), ox.NamedNode(G2))]
    store.replace(quads)
    with WebServer(create_app(store, workers=1)) as root:
        yield root


COUNT = "SELECT (COUNT(*) AS ?n) {dataset} WHERE {{ {pattern} }}"
DEFAULT, NAMED = "?s ?p ?o", "GRAPH ?g { ?s ?p ?o }"


@pytest.mark.parametrize("dataset, pattern, params, expected", [
    ("", DEFAULT, {}, 3),  # neither names a dataset: the union default graph
    ("", NAMED, {}, 3),
    (f"FROM <{G1}>", DEFAULT, {}, 1),  # the query's dataset
    (f"FROM <{G1}> FROM <{G2}>", DEFAULT, {}, 3),  # merged default graph
    (f"FROM <{G1}>", NAMED, {}, 0),  # FROM alone: no named graphs
    (f"FROM NAMED <{G1}>", NAMED, {}, 1),
    (f"FROM NAMED <{G1}>", DEFAULT, {}, 0),  # FROM NAMED alone: an empty default graph
    (f"from <{G2}> from named <{G1}>", NAMED, {}, 1),
    ("", DEFAULT, {"default-graph-uri": [G2]}, 2),  # the request's dataset
    ("", NAMED, {"default-graph-uri": [G2]}, 0),  # ...and only it: no named graphs
    ("", NAMED, {"named-graph-uri": [G1]}, 1),
    ("", DEFAULT, {"named-graph-uri": [G1]}, 0),
    ("", DEFAULT, {"default-graph-uri": [G1, G2]}, 3),
    (f"FROM <{G1}>", DEFAULT, {"default-graph-uri": [G2]}, 2),  # the request overrides the query
    (f"FROM NAMED <{G2}>", NAMED, {"named-graph-uri": [G1]}, 1),
    (f"FROM <{G1}> # FROM <{G2}>\n", DEFAULT, {"default-graph-uri": [G2]}, 2),
])
def test_the_dataset_of_a_query(two_graphs, dataset, pattern, params, expected):
    query = COUNT.format(dataset=dataset, pattern=pattern)
    for method in ("GET", "FORM"):
        status, _, body = ask(two_graphs, query, method, **params)
        assert status == 200, (status, body[:300])
        assert int(json.loads(body)["results"]["bindings"][0]["n"]["value"]) == expected, (query, params)


def test_a_graph_named_from_is_not_a_dataset_clause(two_graphs):
    query = ("PREFIX from: <http://example.org/> SELECT (COUNT(*) AS ?n) FROM <http://example.org/g1> "
             "WHERE { ?s from:p ?from }")
    status, _, body = ask(two_graphs, query, "GET", **{"default-graph-uri": [G2]})
    assert status == 200 and json.loads(body)["results"]["bindings"][0]["n"]["value"] == "2"


# -- the W3C SPARQL 1.1 Protocol cases that apply to a read-only endpoint (their intent, our texts) ---


def _raw(root: str, method: str, path: str, body: bytes | None = None, ctype: str | None = None):
    headers = {"Accept": "application/sparql-results+json"}
    if ctype:
        headers["Content-Type"] = ctype
    return http(root + path, data=body, headers=headers, method=method)


@pytest.mark.parametrize("case, method, path, body, ctype, expected", [
    ("query_get", "GET", "sparql?query=ASK%7B%7D", None, None, 200),
    ("query_post_form", "POST", "sparql", b"query=ASK%7B%7D", "application/x-www-form-urlencoded", 200),
    ("query_post_direct", "POST", "sparql", b"ASK {}", "application/sparql-query", 200),
    ("bad_query_method", "PUT", "sparql?query=ASK%7B%7D", None, None, 405),
    ("bad_multiple_queries", "GET", "sparql?query=ASK%7B%7D&query=ASK%7B%7D", None, None, 400),
    ("bad_query_wrong_media_type", "POST", "sparql", b"ASK {}", "text/plain", 415),
    ("bad_query_non_utf8", "POST", "sparql", "ASK { ?s ?p 'é' }".encode("latin-1"), "application/sparql-query", 400),
    ("bad_query_syntax", "GET", "sparql?query=ASK%20%7B", None, None, 400),
    ("bad_update_get", "GET", "sparql?update=CLEAR%20ALL", None, None, 403),
    ("update_post_direct", "POST", "sparql", b"CLEAR ALL", "application/sparql-update", 403),
    ("update_as_query", "POST", "sparql", b"query=CLEAR%20ALL", "application/x-www-form-urlencoded", 403),
])
def test_w3c_protocol_cases(walled_server, case, method, path, body, ctype, expected):
    root, _ = walled_server
    status, _, answer = _raw(root, method, path, body, ctype)
    assert status == expected, (case, status, answer[:200])


def test_w3c_query_dataset_full(two_graphs):
    """default-graph-uri and named-graph-uri together: the dataset is exactly both."""
    query = "SELECT (COUNT(*) AS ?n) WHERE { { ?s ?p ?o } UNION { GRAPH ?g { ?s ?p ?o } } }"
    status, _, body = ask(two_graphs, query, "GET", **{"default-graph-uri": [G1], "named-graph-uri": [G2]})
    assert status == 200 and json.loads(body)["results"]["bindings"][0]["n"]["value"] == "3"

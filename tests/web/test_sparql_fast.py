"""Bounded lookups answered in the server process (kb.web.sparql_fast): which texts are
lookups, that a lookup and the worker give the same answer, and that whatever is not
provably cheap (outside the subset, over the budget, over the row cap) still goes to a
killable worker."""

from __future__ import annotations

import json
import urllib.parse

import pyoxigraph as ox
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekb.kb.web.app import create_app
from rulekb.kb.web.sparql_check import check
from rulekb.kb.web.sparql_fast import BUDGET
from rulekb.kb.web.sparql_lookup import lookup_of

from ..helpers import WebServer, http

RK = "PREFIX rk: <https://w3id.org/rulekb#>\n"
EDITION = "http://localhost:8000/edition/en/2030-05-05"
RULE = f"<{EDITION}/rule/100.1>"  # 9 quads in the fixture KB
POINT = RK + f"SELECT ?text WHERE {{ GRAPH <{EDITION}> {{ {RULE} rk:text ?text }} }}"
JSON = "application/sparql-results+json"

LOOKUPS = [
    POINT,
    RK + f"SELECT * {{ {RULE} rk:text ?t ; rk:number ?n ; a rk:Rule . }}",
    RK + f"ASK {{ {RULE} a rk:Rule }}",
    RK + f"SELECT DISTINCT ?p WHERE {{ {RULE} ?p ?o }} LIMIT 3 OFFSET 1",
    RK + f'select ?x {{ {RULE} rk:number "100.1" , "x"@en , "y"^^rk:t , 3 , true ; ; rk:text ?x ; }}',
    RK + f"SELECT ?o ?g {{ GRAPH ?g {{ {RULE} rk:parent ?o }} {RULE} rk:order ?n }} # a comment: SERVICE\n",
]
NOT_LOOKUPS = [
    "SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }",
    RK + f"SELECT ?s {{ ?s rk:text ?t }}",  # a variable subject
    RK + f"SELECT ?x {{ {RULE} rk:parent/rk:parent ?x }}",  # a path
    RK + f"SELECT ?x {{ {RULE} rk:parent+ ?x }}",
    RK + f"SELECT ?x {{ {RULE} rk:text ?x FILTER(?x != '') }}",
    RK + f"SELECT ?x {{ {RULE} rk:text ?x OPTIONAL {{ {RULE} rk:order ?x }} }}",
    RK + f"SELECT ?x {{ {{ SELECT ?x {{ {RULE} rk:text ?x }} }} }}",
    RK + f"SELECT ?x FROM <{EDITION}> {{ {RULE} rk:text ?x }}",
    RK + f"SELECT ?x {{ {RULE} rk:text ?x }} ORDER BY ?x",
    RK + "SELECT ?x { <rule/100.1> rk:text ?x }",  # relative: resolved against a base
    "BASE <http://localhost:8000/> " + RK + f"SELECT ?x {{ {RULE} rk:text ?x }}",
    RK + f"SELECT ?x {{ {RULE} rk:text.x ?x }}",  # '.' inside a local name
    RK + f"SELECT ?x {{ {RULE} rk:te\\.xt ?x }}",  # an escape
    "PREFIX service: <http://x/> SELECT ?x { service:a <http://x/p> ?x }",  # a keyword as a prefix
    f"PREFIX SERVICE: <http://x/> SELECT ?x {{ {RULE} <http://x/p> ?x . SERVICE:x <http://x/p> ?y }}",
    RK + f'SELECT ?x {{ {RULE} rk:text """x""" }}',  # a long string
    RK + f'SELECT ?x {{ {RULE} rk:text "a\\"b" }}',
    RK + f"SELECT ?x {{ {RULE} rk:text ?x . [] rk:text ?x }}",  # a blank node
    RK + f"SELECT ?x {{ {RULE} rk:text ?x }} VALUES ?x {{ 1 }}",
    RK + f"SELECT ?x {{ {RULE} rk:text ?x }} .",
    RK + f"SELECT ?x {{ {RULE} rk:text ?x . }} LIMIT 1.5",
    RK + f"SELECT (COUNT(*) AS ?n) {{ {RULE} ?p ?o }}",
    RK + f"SELECT ?x {{ {RULE} rk:text ?x }}\u00a0",  # a space SPARQL does not have
    RK + f"SELECT ?x {{ {RULE} rk:text ?x . {RULE} rk:text ?y . {RULE} rk:text ?z . {RULE} rk:text ?a ."
         f" {RULE} rk:text ?b . {RULE} rk:text ?c . {RULE} rk:text ?d . {RULE} rk:text ?e . {RULE} rk:text ?f }}",
    "INSERT DATA { <http://x/a> <http://x/b> <http://x/c> }",
    "CONSTRUCT WHERE { <http://x/a> ?p ?o }",
    RK + "SELECT ?x { undeclared:a rk:text ?x }",
]


def test_what_is_a_lookup():
    for text in LOOKUPS:
        assert lookup_of(text) is not None, text
    for text in NOT_LOOKUPS:
        assert lookup_of(text) is None, text
    lookup = lookup_of(LOOKUPS[1])
    assert lookup.kind == "results" and len(lookup.patterns) == 3
    assert lookup_of(LOOKUPS[2]).kind == "boolean"


# pieces of SPARQL around the subset's edges: whatever the recogniser takes must be a query
# rdflib's parser (the worker's check) reads as the same form, without SERVICE, and Oxigraph parses
_PIECES = st.sampled_from([
    "SELECT", "ASK", "WHERE", "{", "}", "?x", "$y", "*", ".", ";", ",", "a", "GRAPH", "SERVICE", "FILTER", "LIMIT",
    "OFFSET", "1", "1.5", "PREFIX", "rk:", "rk:text", "rk:a.b", "rk:a:b", "SERVICE:x", "a:b", ":x", "<http://x/a>",
    "<x>", '"s"', "'t'", '"""', "@en", "^^", "#", "\n", "(", ")", "/", "+", "[]", "true", "DISTINCT", "FROM",
    "<http://x/a>rk:text", "rk:text?x", "?x.", "OPTIONAL", "UNION", "é",
])


def _same_query_everywhere(text: str) -> None:
    lookup = lookup_of(text)
    if lookup is None:
        return
    checked = check(text)  # rdflib's parse: SERVICE and updates refused, the form
    assert checked.kind == lookup.kind and not checked.has_dataset, text
    ox.Store().query(text, use_default_graph_as_union=True)  # Oxigraph's parse: no SyntaxError


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=16).map(" ".join), st.sampled_from(["", RK, "PREFIX : <http://x/> " + RK]))
def test_a_lookup_is_the_same_query_to_every_parser(body, prologue):
    _same_query_everywhere(prologue + body)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(LOOKUPS), st.integers(0, 400), _PIECES)
def test_a_lookup_spliced_is_still_read_right(text, at, piece):
    """A lookup with one piece put in anywhere: taken only if every parser reads it alike."""
    at = at % (len(text) + 1)
    _same_query_everywhere(text[:at] + piece + text[at:])


# -- over HTTP: answered here, the same answers, the rest to a worker --------------------------------


def _pool(app):
    route = next(r for r in app.routes if getattr(r, "path", None) == "/sparql")
    return route.endpoint.__self__.pool


def _get(root, text, accept=JSON, **params):
    return http(f"{root}sparql?{urllib.parse.urlencode({'query': text, **params})}",
                headers={"Accept": accept} if accept else {})


@pytest.fixture(scope="module")
def served(fixture_kb):
    store, _ = fixture_kb
    app = create_app(store)
    with WebServer(app) as root:
        yield root, app


def test_lookups_are_answered_without_a_worker_and_as_a_worker_would(served, fixture_kb):
    root, app = served
    store, _ = fixture_kb
    pool = _pool(app)
    pool.close()
    for text in LOOKUPS:
        status, headers, body = _get(root, text)
        assert status == 200 and headers["Access-Control-Allow-Origin"] == "*", text
        assert headers["Content-Security-Policy"] and headers["X-Content-Type-Options"] == "nosniff"
        answer = json.loads(body)
        if "boolean" in answer:
            continue
        # the rows the worker gives the same text made a non-lookup (a FILTER that keeps every row)
        end = text.rindex("}")
        worker_text = text[:end] + " FILTER(true) }" + text[end + 1:]
        assert lookup_of(worker_text) is None
        _, _, expected = _get(root, worker_text)
        key = lambda b: json.dumps(b, sort_keys=True)  # noqa: E731
        assert answer["head"] == json.loads(expected)["head"], text
        if "LIMIT" not in text:
            assert sorted(map(key, answer["results"]["bindings"])) == sorted(
                map(key, json.loads(expected)["results"]["bindings"])), text
    assert json.loads(_get(root, LOOKUPS[2])[2])["boolean"] is True
    assert json.loads(_get(root, RK + f"ASK {{ {RULE} a rk:Nothing }}")[2])["boolean"] is False
    # every lookup above was answered in the server: only the FILTER texts started the workers
    assert len(pool.pids()) == app.state.limits.workers
    pool.close()
    for text in LOOKUPS:
        assert _get(root, text)[0] == 200
    assert pool.pids() == []


def test_lookups_in_every_results_format(served):
    root, _ = served
    status, headers, body = _get(root, POINT, "text/csv")
    assert status == 200 and headers["Content-Type"] == "text/csv; charset=utf-8"
    assert body.startswith(b'text\r\n"A widget duel')
    status, headers, body = _get(root, POINT, None, format="tsv")
    assert headers["Content-Type"].startswith("text/tab-separated-values") and body.startswith(b"?text\n\"A widget")
    status, headers, body = _get(root, POINT, "application/sparql-results+xml")
    assert headers["Content-Type"].startswith("application/sparql-results+xml") and b">A widget duel" in body
    assert _get(root, POINT, "image/png")[0] == 406  # refused by the route, as before
    assert _get(root, POINT, format="turtle")[0] == 406


def test_what_is_not_provably_cheap_goes_to_a_worker(fixture_kb):
    store, _ = fixture_kb
    app = create_app(store, max_rows=5)
    pool = _pool(app)
    with WebServer(app) as root:
        pool.close()
        two = RK + f"SELECT * {{ {RULE} ?p ?o . {RULE} ?q ?r }}"  # 8 x 8 or 9 x 9 rows: over the row cap
        status, headers, body = _get(root, two)
        assert status == 200 and headers["X-Rulekb-Truncated"] == "true"
        assert len(json.loads(body)["results"]["bindings"]) == 5
        assert len(pool.pids()) == app.state.limits.workers  # a worker answered
    app = create_app(store)
    pool = _pool(app)
    with WebServer(app) as root:
        pool.close()
        one = json.loads(_get(root, RK + f"SELECT * {{ {RULE} ?p ?o }}")[2])["results"]["bindings"]
        n = len(one)  # the rule's own triples (8 or 9, as the store's shape states rk:references or not)
        assert n * n <= BUDGET < n * n * n
        assert _get(root, RK + f"SELECT * {{ {RULE} ?p ?o . {RULE} ?q ?r }}")[0] == 200
        assert pool.pids() == []  # within the budget: answered here
        three = RK + f"SELECT * {{ {RULE} ?p ?o . {RULE} ?q ?r . {RULE} ?s ?t }}"
        status, _, body = _get(root, three)
        assert status == 200 and len(json.loads(body)["results"]["bindings"]) == n ** 3
        assert pool.pids()  # over the budget: a worker, killable
        # a dataset named by the request, an update, two queries: the route's, as before
        pool.close()
        assert _get(root, POINT, **{"default-graph-uri": EDITION})[0] == 200
        assert pool.pids()
        assert _get(root, POINT, update="CLEAR ALL")[0] == 403
        both = http(f"{root}sparql?{urllib.parse.urlencode([('query', POINT), ('query', POINT)])}")
        assert both[0] == 400


def test_a_lookup_follows_a_rebuild(tmp_path):
    """What is kept per build (whether a text is bounded) starts afresh on a new build."""
    import time
    from pathlib import Path

    from rulekb.kb.build import build
    from rulekb.kb.store.embedded import EmbeddedStore

    fixtures = Path(__file__).parents[1] / "fixtures"
    store = EmbeddedStore(tmp_path / "store")
    build([str(fixtures / "invented-cr-2030-05-05.txt")], store, reasoner="none")
    new_rule = "<http://localhost:8000/edition/en/2031-01-01/rule/100.1>"
    ask, old = RK + f"ASK {{ {new_rule} a rk:Rule }}", RK + f"ASK {{ {RULE} a rk:Rule }}"
    app = create_app(store, timeout=10)
    with WebServer(app) as root:
        assert json.loads(_get(root, ask)[2])["boolean"] is False
        assert json.loads(_get(root, old)[2])["boolean"] is True
        build([str(fixtures / "web" / "invented-hostile-2031-01-01.html")], EmbeddedStore(tmp_path / "store"),
              reasoner="none")
        time.sleep(EmbeddedStore.FOLLOW_EVERY + 0.2)
        assert json.loads(_get(root, ask)[2])["boolean"] is True
        assert json.loads(_get(root, old)[2])["boolean"] is False
        assert _pool(app).pids() == []  # all of it answered in the server

"""The SPARQL 1.1 Protocol at /sparql (``rulekb serve``): a real server on a loopback port,
over the invented fixture edition, asked through SPARQLWrapper and plain HTTP."""

from __future__ import annotations

import csv
import io
import json
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from SPARQLWrapper import CSV, JSON, TSV, TURTLE, XML, SPARQLWrapper

from rulekb.kb.web.app import create_app
from rulekb.kb.web.conneg import negotiate, parse_accept

from ..helpers import WebServer, http

RK = "PREFIX rk: <https://w3id.org/rulekb#>\n"
RULES = RK + "SELECT ?rule ?number WHERE { ?rule a rk:Rule ; rk:number ?number } ORDER BY ?number"
CROSS = "SELECT * WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"


@pytest.fixture(scope="module")
def endpoint(fixture_kb):
    store, _ = fixture_kb
    with WebServer(create_app(store)) as root:
        yield root + "sparql"


@pytest.fixture(scope="module")
def tiny_endpoint(fixture_kb):
    """A cap of 3 rows and a timeout of 2 s."""
    store, _ = fixture_kb
    with WebServer(create_app(store, max_rows=3, timeout=60)) as capped, \
            WebServer(create_app(store, max_rows=10**9, timeout=2)) as hurried:
        yield capped + "sparql", hurried + "sparql"


def get(endpoint, query, accept=None, **params):
    url = f"{endpoint}?{urllib.parse.urlencode({'query': query, **params})}"
    return http(url, headers={"Accept": accept} if accept else {})


def wrapper(endpoint, query, fmt, method="GET"):
    sparql = SPARQLWrapper(endpoint)
    sparql.setQuery(query)
    sparql.setReturnFormat(fmt)
    sparql.setMethod(method)
    return sparql.query()


# -- SPARQLWrapper --------------------------------------------------------------


def test_select_json_through_sparqlwrapper(endpoint):
    data = wrapper(endpoint, RULES, JSON).convert()
    assert data["head"]["vars"] == ["rule", "number"]
    numbers = [b["number"]["value"] for b in data["results"]["bindings"]]
    assert numbers and numbers == sorted(numbers)
    assert all(b["rule"]["type"] == "uri" for b in data["results"]["bindings"])


def test_select_json_by_post(endpoint):
    data = wrapper(endpoint, RULES, JSON, method="POST").convert()
    assert len(data["results"]["bindings"]) == len(wrapper(endpoint, RULES, JSON).convert()["results"]["bindings"])


def test_select_xml_csv_tsv_through_sparqlwrapper(endpoint):
    expected = [b["number"]["value"] for b in wrapper(endpoint, RULES, JSON).convert()["results"]["bindings"]]
    xml = wrapper(endpoint, RULES, XML).convert()  # a DOM document
    ns = "http://www.w3.org/2005/sparql-results#"
    literals = [b.getElementsByTagNameNS(ns, "literal")[0].firstChild.data
                for b in xml.getElementsByTagNameNS(ns, "binding") if b.getAttribute("name") == "number"]
    assert literals == expected
    rows = list(csv.reader(io.StringIO(wrapper(endpoint, RULES, CSV).convert().decode())))
    assert rows[0] == ["rule", "number"] and [r[1] for r in rows[1:]] == expected
    lines = wrapper(endpoint, RULES, TSV).convert().decode().splitlines()
    assert lines[0] == "?rule\t?number"
    assert [line.split("\t")[1] for line in lines[1:]] == [f'"{n}"' for n in expected]


def test_ask_and_construct(endpoint):
    assert wrapper(endpoint, RK + "ASK { ?r a rk:Rule }", JSON).convert()["boolean"] is True
    assert wrapper(endpoint, RK + "ASK { ?r a rk:Nothing }", JSON).convert()["boolean"] is False
    construct = RK + "CONSTRUCT { ?r rk:number ?n } WHERE { ?r a rk:Rule ; rk:number ?n }"
    graph = wrapper(endpoint, construct, TURTLE).convert()
    import rdflib

    parsed = rdflib.Graph().parse(data=graph, format="turtle")
    assert len(parsed) == len(wrapper(endpoint, RULES, JSON).convert()["results"]["bindings"])


# -- content negotiation ------------------------------------------------------------


def test_accept_with_q_values(endpoint):
    status, headers, body = get(endpoint, RULES, "application/sparql-results+json;q=0.5, text/csv;q=0.9")
    assert status == 200 and headers["Content-Type"].startswith("text/csv")
    status, headers, body = get(endpoint, RULES, "text/csv;q=0.1, application/sparql-results+xml")
    assert headers["Content-Type"].startswith("application/sparql-results+xml")
    assert body.startswith(b"<?xml")
    status, headers, body = get(endpoint, RULES, "*/*")
    assert headers["Content-Type"].startswith("application/sparql-results+json")
    construct = RK + "CONSTRUCT { ?r rk:number ?n } WHERE { ?r rk:number ?n }"
    for accept, media in [("application/ld+json", "application/ld+json"), ("application/n-triples", "application/n-triples"),
                          ("text/turtle;q=0.2, application/rdf+xml;q=0.8", "application/rdf+xml"), (None, "text/turtle")]:
        status, headers, body = get(endpoint, construct, accept)
        assert status == 200 and headers["Content-Type"].startswith(media), accept
    status, headers, body = get(endpoint, construct, "application/ld+json")
    assert isinstance(json.loads(body), (list, dict))


def test_format_parameter_wins_and_unknown_is_406(endpoint):
    status, headers, _ = get(endpoint, RULES, "application/sparql-results+json", format="tsv")
    assert status == 200 and headers["Content-Type"].startswith("text/tab-separated-values")
    assert get(endpoint, RULES, format="pdf")[0] == 406
    assert get(endpoint, RULES, "image/png")[0] == 406
    assert get(endpoint, RULES, format="turtle")[0] == 406  # Turtle is for graphs, not results


def test_conneg_unit():
    assert parse_accept("a/b;q=0.3, c/d") == [("c/d", 1.0), ("a/b", 0.3)]
    assert negotiate(["text/turtle", "application/ld+json"], "text/*;q=0.1, application/ld+json;q=0.5") == "application/ld+json"
    assert negotiate(["text/turtle"], "text/turtle;q=0") is None
    assert negotiate(["text/turtle", "application/ld+json"], "*/*;q=0.5, text/turtle;q=0") == "application/ld+json"


# -- refusals and limits -------------------------------------------------------------


def test_updates_are_refused(endpoint):
    for update in ["INSERT DATA { <urn:a> <urn:b> <urn:c> }", "PREFIX x: <urn:x#>\n# comment\nDELETE WHERE { ?s ?p ?o }",
                   "LOAD <http://example.org/x>", "CLEAR ALL", "DROP GRAPH <urn:g>", "CREATE GRAPH <urn:g>"]:
        status, _, body = get(endpoint, update)
        assert status == 403 and b"read-only" in body, update
    form = urllib.parse.urlencode({"update": "CLEAR ALL"}).encode()
    status, _, body = http(endpoint, data=form, headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 403 and b"read-only" in body
    status, _, _ = http(endpoint, data=b"CLEAR ALL", headers={"Content-Type": "application/sparql-update"})
    assert status == 403


def test_service_is_refused(endpoint):
    status, _, body = get(endpoint, "SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }")
    assert status == 403 and b"SERVICE" in body
    # the word inside a string or an IRI is no SERVICE call
    assert get(endpoint, 'SELECT * WHERE { BIND("SERVICE" AS ?x) }')[0] == 200


def test_malformed_query_is_400_with_the_parsers_message(endpoint):
    status, _, body = get(endpoint, "SELECT ?x WHERE { ?x ")
    assert status == 400 and b"syntax error" in body.lower() and len(body) > 30


def test_post_forms_and_bodies(endpoint):
    form = urllib.parse.urlencode({"query": RULES}).encode()
    status, headers, body = http(endpoint, data=form, headers={"Content-Type": "application/x-www-form-urlencoded", "Accept": "text/csv"})
    assert status == 200 and headers["Content-Type"].startswith("text/csv")
    status, _, body = http(endpoint, data=RULES.encode(), headers={"Content-Type": "application/sparql-query"})
    assert status == 200 and json.loads(body)["results"]["bindings"]


def test_body_over_the_limit_is_413(endpoint):
    """Refused on its declared length, before the body is read. (Sending the whole body raced
    with the server closing the connection: a reset instead of the answer, now and then.)"""
    import http.client

    url = urllib.parse.urlsplit(endpoint)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
    try:
        connection.putrequest("POST", url.path)
        connection.putheader("Content-Type", "application/sparql-query")
        connection.putheader("Content-Length", "1100000")
        connection.endheaders(b"ASK {}")
        response = connection.getresponse()
        assert response.status == 413
        assert b"limit" in response.read()
    finally:
        connection.close()


def test_cors_header(endpoint):
    status, headers, _ = get(endpoint, RULES)
    assert headers["Access-Control-Allow-Origin"] == "*"


def test_service_description(endpoint):
    status, headers, body = http(endpoint)
    assert status == 200 and headers["Content-Type"].startswith("text/turtle")
    import rdflib

    graph = rdflib.Graph().parse(data=body, format="turtle")
    sd = rdflib.Namespace("http://www.w3.org/ns/sparql-service-description#")
    assert (rdflib.URIRef(endpoint), sd.endpoint, rdflib.URIRef(endpoint)) in graph
    assert (None, sd.resultFormat, rdflib.URIRef("http://www.w3.org/ns/formats/SPARQL_Results_JSON")) in graph


def test_truncation_header(tiny_endpoint):
    capped, _ = tiny_endpoint
    status, headers, body = get(capped, RULES)
    assert status == 200 and headers["X-Rulekb-Truncated"] == "true"
    assert len(json.loads(body)["results"]["bindings"]) == 3
    status, headers, _ = get(capped, RK + "SELECT * WHERE { ?r a rk:Rule } LIMIT 2")
    assert status == 200 and "X-Rulekb-Truncated" not in headers


def test_timeout_stops_a_cross_join(tiny_endpoint):
    _, hurried = tiny_endpoint
    started = time.monotonic()
    status, _, body = get(hurried, CROSS)
    assert status == 503 and b"timed out" in body
    assert time.monotonic() - started < 20
    # the killed worker's replacement starts meanwhile (imports, opens the store): on a
    # loaded machine the next query may still outlive a 2 s deadline a few times
    for _ in range(20):
        status, _, body = get(hurried, RK + "ASK { ?r a rk:Rule }")
        if status != 503:
            break
        time.sleep(0.5)
    assert status == 200 and json.loads(body)["boolean"] is True


# -- fuzz ---------------------------------------------------------------------------

_PIECES = st.sampled_from(["SELECT", "ASK", "CONSTRUCT", "DESCRIBE", "WHERE", "{", "}", "?x", "?y", "*", "(", ")",
                           "<urn:a>", '"s"', "'t'", "1", ".", ";", ",", "FILTER", "SERVICE", "PREFIX", "a:", "a:b",
                           "#", "\n", "INSERT", "LIMIT", "GRAPH", "OPTIONAL", "UNION", "\"\"\"", "<", ">", "@en", "^^"])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.text(max_size=80), st.lists(_PIECES, max_size=14).map(" ".join)))
def test_fuzz_never_a_server_error(endpoint, text):
    status, _, _ = get(endpoint, text)
    assert status < 500
    status, _, _ = http(endpoint, data=text.encode("utf-8", "surrogatepass"), headers={"Content-Type": "application/sparql-query"})
    assert status < 500


def test_serve_without_a_kb_is_one_line_and_exit_2(tmp_path):
    from typer.testing import CliRunner

    from rulekb.kb.cli import app

    result = CliRunner().invoke(app, ["serve", "--store", str(tmp_path / "none"), "--port", "1"])
    assert result.exit_code == 2
    assert "no knowledge base" in result.output


# -- a timeout that really stops the query (worker processes, kb.web.query_pool) -----------

COUNT_CROSS = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
POINT = RK + 'SELECT ?text WHERE { GRAPH ?ed { ?rule rk:number "100.1" } OPTIONAL { ?rule rk:text ?text } }'


def _pool(app):
    """The endpoint's worker pool (the /sparql route's handler is a bound method)."""
    route = next(r for r in app.routes if getattr(r, "path", None) == "/sparql")
    return route.endpoint.__self__.pool


def _cpu_ticks(pid: int) -> int:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def _alive(pid: int) -> bool:
    import os

    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _runaway_is_killed_while_others_answer(store, point_query):
    app = create_app(store, timeout=2)
    pool = _pool(app)
    with WebServer(app) as root:
        sparql = root + "sparql"
        assert get(sparql, point_query)[0] == 200  # the workers are up
        before = set(pool.pids())
        answer = {}
        runaway = threading.Thread(target=lambda: answer.update(r=get(sparql, COUNT_CROSS)))
        started = time.monotonic()
        runaway.start()
        time.sleep(0.5)
        status, _, body = get(sparql, point_query)  # meanwhile, the server answers others
        assert status == 200 and json.loads(body)["results"]["bindings"]
        assert runaway.is_alive()
        runaway.join(30)
        status, _, body = answer["r"]
        assert status == 503 and b"timed out after 2 s" in body
        assert time.monotonic() - started < 15
        killed = before - set(pool.pids())
        assert len(killed) == 1 and not _alive(killed.pop())  # its worker is gone...
        workers = pool.pids()
        assert len(workers) == len(before)  # ...and replaced
        # the replacement imports and opens the store (CPU for a while on a loaded machine),
        # then idles like the others: no worker keeps running the runaway query
        deadline = time.monotonic() + 60
        while True:
            ticks = {pid: _cpu_ticks(pid) for pid in workers}
            time.sleep(1)
            if all(_cpu_ticks(pid) - ticks[pid] < 20 for pid in workers):
                break
            assert time.monotonic() < deadline, "a worker is still busy"
        status, _, body = get(sparql, point_query)  # and the endpoint goes on
        assert status == 200 and json.loads(body)["results"]["bindings"]


def test_timeout_kills_a_count_over_a_cross_join(fixture_kb):
    """No row ever comes before the end of a COUNT: the worker is killed at the deadline."""
    store, _ = fixture_kb
    _runaway_is_killed_while_others_answer(store, POINT)


def test_timeout_kills_a_count_over_the_whole_corpus(corpus_kb):
    store, _ = corpus_kb
    point = RK + ('SELECT ?text WHERE { ?ed rk:editionId "en/2026-01-16" . GRAPH ?ed { ?rule rk:number "702.9a" }'
                  " OPTIONAL { ?rule rk:text ?text } }")
    _runaway_is_killed_while_others_answer(store, point)


def test_errors_from_a_worker_keep_their_status(fixture_kb):
    store, _ = fixture_kb
    app = create_app(store)
    with WebServer(app) as root:
        status, _, body = get(root + "sparql", "SELECT ?x WHERE { ?x ")
        assert status == 400 and b"syntax error" in body.lower()
        assert get(root + "sparql", RULES, "image/png")[0] == 406
        status, _, body = get(root + "sparql", RULES, **{"default-graph-uri": "not an iri"})
        assert status == 400
        workers = _pool(app).pids()
    _pool(app).close()
    assert not any(_alive(pid) for pid in workers)

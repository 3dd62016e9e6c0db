"""``rulekb serve`` in front of a remote store: a real ``oxigraph serve`` on loopback,
the invented edition built into it (kb.build with a RemoteStore), and the app over
``RemoteStore(url)`` served for real. Its answers are checked against the same app
over the embedded store (``fixture_web``)."""

from __future__ import annotations

import json
import time
import urllib.parse

import pyoxigraph as ox
import pytest
import rdflib
from rdflib.compare import isomorphic
from SPARQLWrapper import CSV, JSON, JSONLD, N3, RDFXML, TSV, TURTLE, XML, SPARQLWrapper

from rulekb.kb.store.remote import RemoteStore
from rulekb.kb.web.app import create_app

from ..helpers import WebServer, http
from ..store.test_remote_store import FIXTURE, _serve, _stop

RK = "PREFIX rk: <https://w3id.org/rulekb#>\n"
RULES = RK + "SELECT ?rule ?number WHERE { ?rule a rk:Rule ; rk:number ?number } ORDER BY ?number"
CONSTRUCT = RK + "CONSTRUCT { ?r rk:number ?n } WHERE { ?r a rk:Rule ; rk:number ?n }"
RULE_PATH = "edition/en/2030-05-05/rule/101.1"
CROSS_COUNT = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"


@pytest.fixture(scope="module")
def remote_url(tmp_path_factory):
    """``oxigraph serve`` (its own query timeout: 3 s) holding the invented edition, built by rulekb."""
    from rulekb.kb.build import build

    process, url = _serve(tmp_path_factory.mktemp("oxigraph-web"), "--union-default-graph", "--timeout-s", "3")
    try:
        report = build([str(FIXTURE)], RemoteStore(url))
        assert report.editions == ["en/2030-05-05"]
        yield url
    finally:
        _stop(process)


@pytest.fixture(scope="module")
def remote_web(remote_url):
    with WebServer(create_app(RemoteStore(remote_url))) as root:
        yield root


def ask(endpoint: str, query: str, fmt: str):
    sparql = SPARQLWrapper(endpoint)
    sparql.setQuery(query)
    sparql.setReturnFormat(fmt)
    return sparql.query()


def get(root: str, path: str, accept: str | None = None):
    return http(root + path, headers={"Accept": accept} if accept else {})


def numbers_of(root: str) -> list[str]:
    return [b["number"]["value"] for b in ask(root + "sparql", RULES, JSON).convert()["results"]["bindings"]]


def test_select_in_each_format_through_sparqlwrapper(remote_web, fixture_web):
    expected = numbers_of(fixture_web)
    assert expected and numbers_of(remote_web) == expected
    ns = "http://www.w3.org/2005/sparql-results#"
    xml = ask(remote_web + "sparql", RULES, XML).convert()
    assert [b.getElementsByTagNameNS(ns, "literal")[0].firstChild.data for b in xml.getElementsByTagNameNS(ns, "binding")
            if b.getAttribute("name") == "number"] == expected
    lines = ask(remote_web + "sparql", RULES, CSV).convert().decode().splitlines()
    assert lines[0] == "rule,number" and [line.split(",")[1] for line in lines[1:]] == expected
    lines = ask(remote_web + "sparql", RULES, TSV).convert().decode().splitlines()
    assert lines[0] == "?rule\t?number" and [line.split("\t")[1] for line in lines[1:]] == [f'"{n}"' for n in expected]
    assert ask(remote_web + "sparql", RK + "ASK { ?r a rk:Rule }", JSON).convert()["boolean"] is True


@pytest.mark.parametrize("fmt, rdf_format", [(TURTLE, ox.RdfFormat.TURTLE), (N3, ox.RdfFormat.TURTLE),
                                             (JSONLD, ox.RdfFormat.JSON_LD), (RDFXML, ox.RdfFormat.RDF_XML)])
def test_construct_in_each_format_through_sparqlwrapper(remote_web, fixture_web, fmt, rdf_format):
    def triples(root):
        body = ask(root + "sparql", CONSTRUCT, fmt).response.read()
        return set(ox.parse(body, format=rdf_format))

    remote = triples(remote_web)
    assert remote and remote == triples(fixture_web)


def test_updates_are_refused_though_the_remote_store_takes_them(remote_web, remote_url):
    insert = "INSERT DATA { GRAPH <urn:x:g> { <urn:x:a> <urn:x:b> <urn:x:c> } }"
    status, _, body = http(remote_web + "sparql?" + urllib.parse.urlencode({"query": insert}))
    assert status == 403 and b"read-only" in body
    form = urllib.parse.urlencode({"update": insert}).encode()
    status, _, _ = http(remote_web + "sparql", data=form, headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 403
    status, _, _ = http(remote_web + "sparql", data=insert.encode(), headers={"Content-Type": "application/sparql-update"})
    assert status == 403
    probe = urllib.parse.urlencode({"query": "ASK { GRAPH ?g { <urn:x:a> ?p ?o } }"})
    status, _, body = http(f"{remote_url}?{probe}", headers={"Accept": "application/sparql-results+json"})
    assert status == 200 and json.loads(body)["boolean"] is False  # nothing reached the server


def test_dataset_and_row_cap_apply_as_over_the_embedded_store(remote_url, remote_web, fixture_web):
    """default-graph-uri reaches the remote server; the row cap is ours."""
    count = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
    edition = "http://localhost:8000/edition/en/2030-05-05"

    def n(root, **params):
        url = "sparql?" + urllib.parse.urlencode({"query": count, **params})
        return json.loads(get(root, url)[2])["results"]["bindings"][0]["n"]["value"]

    one_graph = n(remote_web, **{"default-graph-uri": edition})
    assert one_graph == n(fixture_web, **{"default-graph-uri": edition})
    assert int(one_graph) < int(n(remote_web))
    with WebServer(create_app(RemoteStore(remote_url), max_rows=3)) as capped:
        for query, lines in ((RULES, 4), (CONSTRUCT, 3)):
            url = "sparql?" + urllib.parse.urlencode({"query": query})
            status, headers, body = get(capped, url, "text/tab-separated-values, application/n-triples")
            assert status == 200 and headers["X-Rulekb-Truncated"] == "true"
            assert len(body.decode().strip().splitlines()) == lines


def test_a_rule_iri_dereferences_as_turtle_and_html(remote_web, fixture_web):
    status, headers, body = get(remote_web, RULE_PATH, "text/turtle")
    assert status == 200 and headers["Content-Type"].startswith("text/turtle")
    remote = rdflib.Graph().parse(data=body, format="turtle")
    rule = rdflib.URIRef("http://localhost:8000/" + RULE_PATH)
    assert (rule, rdflib.URIRef("https://w3id.org/rulekb#number"), rdflib.Literal("101.1")) in remote
    embedded = rdflib.Graph().parse(data=get(fixture_web, RULE_PATH, "text/turtle")[2], format="turtle")
    assert isomorphic(remote, embedded)
    status, headers, body = get(remote_web, RULE_PATH, "text/html")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert b"101.1" in body and b"gadget" in body.lower()


def test_rule_pages_over_the_remote_store_are_the_embedded_pages(remote_url, remote_web, fixture_kb, fixture_web):
    """A remote store has no page data (kb.pages): its rule pages ask every query, and are
    the bytes the embedded store's pages give from its page data (the same invented edition)."""
    from rulekb.kb.pages import for_store

    assert for_store(fixture_kb[0]) is not None and for_store(RemoteStore(remote_url)) is None
    numbers = numbers_of(fixture_web)
    assert numbers and numbers == numbers_of(remote_web)
    for number in numbers:
        path = f"edition/en/2030-05-05/rule/{number}"
        remote, embedded = get(remote_web, path, "text/html"), get(fixture_web, path, "text/html")
        assert remote[0] == embedded[0] == 200, path
        assert remote[2] == embedded[2], path


def test_two_replicas_over_one_remote_store_answer_the_same(remote_url, remote_web):
    with WebServer(create_app(RemoteStore(remote_url))) as other:
        for query in (RULES, RK + "SELECT (COUNT(*) AS ?n) WHERE { ?r a rk:Rule }"):
            url = "sparql?" + urllib.parse.urlencode({"query": query})
            first, second = get(remote_web, url), get(other, url)
            assert first[0] == second[0] == 200 and first[2] == second[2]
        for accept in ("text/turtle", "text/html"):
            first, second = get(remote_web, RULE_PATH, accept), get(other, RULE_PATH, accept)
            assert first[0] == second[0] == 200 and first[2] == second[2], accept


def test_a_runaway_query_on_the_remote_store_is_a_503_after_our_timeout(remote_url):
    """We cannot stop the remote server's work (its --timeout-s does not stop a COUNT
    over a cross join either), but we stop waiting: 503 after our timeout. Last in
    this module: the oxigraph server spins until the module stops it."""
    with WebServer(create_app(RemoteStore(remote_url), timeout=2)) as root:
        started = time.monotonic()
        status, _, body = get(root, "sparql?" + urllib.parse.urlencode({"query": CROSS_COUNT}))
        assert status == 503 and b"timed out after 2 s" in body
        assert time.monotonic() - started < 30
        status, _, body = get(root, "sparql?" + urllib.parse.urlencode({"query": RK + "ASK { ?r a rk:Rule }"}))
        assert status == 200 and json.loads(body)["boolean"] is True

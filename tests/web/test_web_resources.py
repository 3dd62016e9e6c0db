"""Every IRI the KB mints dereferences: HTML or RDF by Accept or extension,
helpful 404s, no way out of the static directory; the VoID description.
Real HTTP against a real server (tests/helpers.py)."""

from __future__ import annotations

import json
import socket
from urllib.parse import quote, urlsplit

import pyoxigraph as ox
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekb.kb.store import queries
from rulekb.kb.rdf.iris import Minter, parse

from ..helpers import WebServer, http

FIXTURE_EDITION = "en/2030-05-05"
BASE = "http://localhost:8000/"
RDF_FORMATS = {  # media type -> pyoxigraph format
    "text/turtle": ox.RdfFormat.TURTLE,
    "application/n-triples": ox.RdfFormat.N_TRIPLES,
    "application/ld+json": ox.RdfFormat.JSON_LD,
    "application/rdf+xml": ox.RdfFormat.RDF_XML,
}


def _triples(body: bytes, media: str) -> list[ox.Triple]:
    return list(ox.parse(body, format=RDF_FORMATS[media.split(";")[0].strip()]))


def _subjects(body: bytes, media: str) -> set[str]:
    return {t.subject.value for t in _triples(body, media)}


def _raw_get(root: str, target: str) -> tuple[int, bytes]:
    """A request line sent as written: urllib would normalise ``..`` away."""
    parts = urlsplit(root)
    with socket.create_connection((parts.hostname, parts.port), timeout=30) as sock:
        sock.sendall(f"GET {target} HTTP/1.1\r\nHost: {parts.hostname}\r\nConnection: close\r\n\r\n".encode("latin-1"))
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


# -- kb.rdf.iris.parse -------------------------------------------------------------

MINT = Minter(BASE)
SHAPES = [
    (MINT.edition("en/2026-01-16"), "edition", {"edition": "en/2026-01-16"}),
    (MINT.edition("fr/2011-02-04"), "edition", {"edition": "fr/2011-02-04"}),
    (MINT.edition("fr/undated-forum_t3_old503.10"), "edition", {"edition": "fr/undated-forum_t3_old503.10"}),
    (MINT.part("en/2026-01-16", "1"), "part", {"edition": "en/2026-01-16", "number": "1"}),
    (MINT.section("en/2026-01-16", "111"), "section", {"edition": "en/2026-01-16", "number": "111"}),
    (MINT.rule("en/2026-01-16", "111.2"), "rule", {"edition": "en/2026-01-16", "number": "111.2"}),
    (MINT.rule("en/undated-x", "702.19b"), "rule", {"edition": "en/undated-x", "number": "702.19b"}),
    (MINT.example("en/2026-01-16", "100.1a", 2), "example", {"edition": "en/2026-01-16", "number": "100.1a", "index": 2}),
    (MINT.citation(MINT.rule("en/2026-01-16", "110.2"), 1), "citation",
     {"edition": "en/2026-01-16", "owner": "rule/110.2", "index": 1}),
    (MINT.citation(MINT.glossary("en/2026-01-16", "owner"), 3), "citation",
     {"edition": "en/2026-01-16", "owner": "glossary/owner", "index": 3}),
    (MINT.citation(MINT.example("en/2026-01-16", "704.7", 1), 1), "citation",
     {"edition": "en/2026-01-16", "owner": "rule/704.7/example/1", "index": 1}),
    (MINT.statement("en/2026-01-16", "111.2", 1), "statement", {"edition": "en/2026-01-16", "number": "111.2", "index": 1}),
    (MINT.inferred("en/2026-01-16", 3), "inferred", {"edition": "en/2026-01-16", "index": 3}),
    (MINT.glossary("fr/2011-02-04", "mana-ability"), "glossary", {"edition": "fr/2011-02-04", "slug": "mana-ability"}),
    (MINT.concept("owner"), "concept", {"slug": "owner"}),
    (MINT.concept(""), "concepts", {}),
    (MINT.lineage("en/2003-07-01/200.5a"), "lineage", {"lineage": "en/2003-07-01/200.5a"}),
    (MINT.change("en/2009-07-08", "200.5a", "111.2"), "change", {"edition": "en/2009-07-08", "old": "200.5a", "new": "111.2"}),
    (MINT.change("en/2009-07-08", None, "111.2"), "change", {"edition": "en/2009-07-08", "old": None, "new": "111.2"}),
    (MINT.change("en/2009-07-08", "200.5a", None), "change", {"edition": "en/2009-07-08", "old": "200.5a", "new": None}),
    (MINT.meaning_change("en/2018-07-13", 1), "meaning-change", {"edition": "en/2018-07-13", "index": 1}),
    (MINT.graph("lineage"), "graph", {"name": "lineage"}),
    (MINT.translation_finding("fr/2011-02-04", 7), "translation-finding", {"edition": "fr/2011-02-04", "index": 7}),
    (MINT.consistency_finding("en/2026-01-16", 3), "consistency-finding", {"edition": "en/2026-01-16", "index": 3}),
]


@pytest.mark.parametrize(("iri", "kind", "parts"), SHAPES, ids=[s[0][len(BASE):] for s in SHAPES])
def test_parse_inverts_every_shape_the_minter_makes(iri, kind, parts):
    assert parse(iri[len(BASE):]) == (kind, parts)


@pytest.mark.parametrize("path", [
    "", "edition", "edition/", "edition/en", "edition/../etc/passwd", "edition/en/..", "edition/en/2026-01-16/rule/111.2.ttl",
    "edition/en/2026-01-16/rule/", "edition/en/2026-01-16/rule/111.2/example/0", "change/en/2009-07-08/..",
    "edition/en/2026-01-16/rule/111.2/nonsense/1", "concept/Owner", "graph/", "static/rulekb.css",
    "edition/en/2026-01-16//rule/111.2", "edition/en/2026-01-16/rule/111.2\x00", "edition/" + "a" * 400,
])
def test_parse_refuses_what_is_not_an_iri_shape(path):
    assert parse(path) is None


# -- the invented fixture edition ----------------------------------------------

def test_a_rule_is_html_for_a_browser_and_turtle_for_an_rdf_client(fixture_web):
    url = fixture_web + f"edition/{FIXTURE_EDITION}/rule/101.1"
    status, headers, body = http(url, headers={"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"})
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert "Accept" in headers["Vary"]
    status, headers, body = http(url, headers={"Accept": "text/turtle"})
    assert status == 200 and headers["Content-Type"].startswith("text/turtle")
    iri = BASE + f"edition/{FIXTURE_EDITION}/rule/101.1"
    triples = _triples(body, "text/turtle")
    assert iri in {t.subject.value for t in triples}
    # what hangs off the rule comes with it: its examples
    assert any(t.subject.value.startswith(iri + "/example/") for t in triples)


def test_accept_q_values_choose_the_format(fixture_web):
    url = fixture_web + "concept/gadget"
    status, headers, body = http(url, headers={"Accept": "text/turtle;q=0.5, application/ld+json;q=0.9"})
    assert status == 200 and headers["Content-Type"].startswith("application/ld+json")
    assert BASE + "concept/gadget" in _subjects(body, "application/ld+json")
    status, headers, _ = http(url, headers={"Accept": "text/html;q=0.1, application/n-triples"})
    assert headers["Content-Type"].startswith("application/n-triples")
    status, headers, _ = http(url, headers={"Accept": "application/json"})
    assert headers["Content-Type"].startswith("application/ld+json")


def test_nothing_acceptable_is_406(fixture_web):
    status, headers, body = http(fixture_web + "concept/gadget", headers={"Accept": "image/png"})
    assert status == 406
    assert b"text/turtle" in body


@pytest.mark.parametrize("extension", [".ttl", ".nt", ".jsonld", ".rdf"])
def test_an_extension_chooses_the_format_whatever_the_accept_header(fixture_web, extension):
    path = f"edition/{FIXTURE_EDITION}/rule/100.1b"  # a number with a dot: only the extension is stripped
    status, headers, body = http(fixture_web + path + extension, headers={"Accept": "text/html"})
    assert status == 200
    assert BASE + path in _subjects(body, headers["Content-Type"])


def test_the_html_extension_and_the_json_extension(fixture_web):
    path = f"edition/{FIXTURE_EDITION}/rule/100.1b"
    status, headers, body = http(fixture_web + path + ".html", headers={"Accept": "text/turtle"})
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    status, headers, body = http(fixture_web + path + ".json")
    assert status == 200 and json.loads(body)["number"] == "100.1b"
    status, _, body = http(fixture_web + f"edition/{FIXTURE_EDITION}/rule/100.1b/example/1.json")
    assert status == 404 and b"jsonld" in body


def test_the_generic_page_lists_properties_links_and_what_links_here(fixture_web):
    status, _, body = http(fixture_web + f"edition/{FIXTURE_EDITION}/rule/101.1/example/2", headers={"Accept": "text/html"})
    page = body.decode()
    assert status == 200
    assert "Ana&#39;s Sprocket" in page and "Ana's Sprocket" not in page  # literals escaped
    assert f'href="/edition/{FIXTURE_EDITION}"' in page  # IRI values linked
    assert "Links here" in page and f'href="/edition/{FIXTURE_EDITION}/rule/101.1"' in page


def test_head_answers_like_get_without_a_body(fixture_web):
    status, headers, body = http(fixture_web + f"edition/{FIXTURE_EDITION}", method="HEAD")
    assert status == 200 and body == b"" and headers["Content-Type"].startswith("text/html")


def test_an_edition_is_described_by_its_table_of_contents_not_its_whole_graph(fixture_web):
    status, headers, body = http(fixture_web + f"edition/{FIXTURE_EDITION}.ttl")
    subjects = _subjects(body, "text/turtle")
    assert BASE + f"edition/{FIXTURE_EDITION}/section/101" in subjects
    assert not any("/rule/" in s for s in subjects)


def test_a_missing_rule_is_a_404_page_with_the_nearest_numbers(fixture_web):
    status, headers, body = http(fixture_web + f"edition/{FIXTURE_EDITION}/rule/100.9", headers={"Accept": "text/html"})
    page = body.decode()
    assert status == 404 and headers["Content-Type"].startswith("text/html")
    assert "has no rule 100.9" in page
    assert f'href="/edition/{FIXTURE_EDITION}/rule/100.2"' in page


def test_an_unknown_edition_is_a_404_listing_the_known_ones(fixture_web):
    status, _, body = http(fixture_web + "edition/en/2031-01-01/rule/100.1", headers={"Accept": "text/html"})
    assert status == 404
    assert f'href="/edition/{FIXTURE_EDITION}"' in body.decode()


def test_rdf_and_json_clients_get_a_plain_404(fixture_web):
    url = fixture_web + f"edition/{FIXTURE_EDITION}/rule/100.9"
    status, headers, body = http(url, headers={"Accept": "text/turtle"})
    assert status == 404 and headers["Content-Type"].startswith("text/plain") and b"no rule 100.9" in body
    status, headers, body = http(url + ".ttl")
    assert status == 404 and headers["Content-Type"].startswith("text/plain")
    status, headers, body = http(url, headers={"Accept": "application/json"})
    assert status == 404 and not headers["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("target", [
    "/static/../kb/web/app.py", "/static/%2e%2e/app.py", "/static/..%2fapp.py", "/static/%2e%2e%2f%2e%2e%2fetc/passwd",
    "/static/....//....//etc/passwd", "/static/rulekb.css%00.py", "/edition/%2e%2e/%2e%2e/etc/passwd",
    "/edition/en/2030-05-05/rule/100.1%00", "/static/" + "a" * 5000, "/edition/" + "a/" * 3000,
    "/static/%252e%252e/app.py", "/../../etc/passwd",
])
def test_no_path_reaches_a_file_outside_the_static_directory(fixture_web, target):
    status, body = _raw_get(fixture_web, target)
    assert status in (400, 404, 414), (target, status)
    assert b"import" not in body and b"root:" not in body


def test_the_stylesheet_is_still_served(fixture_web):
    status, body = _raw_get(fixture_web, "/static/rulekb.css")
    assert status == 200 and b"body" in body


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(min_size=0, max_size=80))
def test_no_path_under_edition_is_a_server_error(fixture_web, tail):
    status, _, _ = http(fixture_web + "edition/" + quote(tail, safe="/.%"), headers={"Accept": "text/turtle, text/html"})
    assert status < 500


def test_void_names_the_endpoint_and_every_graph(fixture_web, fixture_kb):
    store, _ = fixture_kb
    for url, accept in ((fixture_web + "void", "text/turtle"), (fixture_web + ".well-known/void", "text/turtle"),
                        (fixture_web + "void.jsonld", "*/*")):
        status, headers, body = http(url, headers={"Accept": accept})
        assert status == 200
        triples = _triples(body, headers["Content-Type"])
        endpoints = {t.object.value for t in triples if t.predicate.value == "http://rdfs.org/ns/void#sparqlEndpoint"}
        assert BASE + "sparql" in endpoints
        subsets = {t.object.value for t in triples if t.predicate.value == "http://rdfs.org/ns/void#subset"}
        assert subsets == set(store.graphs())
        languages = {t.object.value for t in triples if t.subject.value == BASE + f"edition/{FIXTURE_EDITION}"
                     and t.predicate.value == "http://purl.org/dc/terms/language"}
        assert languages == {"en"}
    status, headers, body = http(fixture_web + "void", headers={"Accept": "text/html"})
    assert status == 200 and FIXTURE_EDITION in body.decode()


def test_behind_a_reverse_proxy_iris_and_links_carry_the_base(tmp_path):
    from rulekb.kb.build import build
    from rulekb.kb.store.embedded import EmbeddedStore
    from rulekb.kb.web.app import create_app

    from ..conftest import FIXTURES

    base = "https://example.org/rulekb/"
    store = EmbeddedStore(tmp_path / "store")
    build([str(FIXTURES / "invented-cr-2030-05-05.txt")], store, base=base)
    with WebServer(create_app(store, base)) as root:  # the proxy strips /rulekb/
        path = f"edition/{FIXTURE_EDITION}/rule/101.1"
        status, headers, body = http(root + path + ".ttl")
        assert status == 200 and base + path in _subjects(body, "text/turtle")
        status, _, body = http(root + path + "/example/1", headers={"Accept": "text/html"})
        page = body.decode()
        assert status == 200
        assert f'href="/rulekb/edition/{FIXTURE_EDITION}/rule/101.1"' in page
        assert 'href="/edition/' not in page
        status, _, body = http(root + "void.ttl")
        assert base + "sparql" in {t.object.value for t in _triples(body, "text/turtle")}


# -- the whole corpus: one IRI of every kind ---------------------------------

KINDS = {  # what kb.rdf.iris.parse calls it -> the class of its resources
    "edition": "rk:Edition", "part": "rk:Part", "section": "rk:Section", "rule": "rk:Rule",
    "example": "rk:Example", "citation": "rk:Citation", "statement": "rk:Statement",
    "inferred": "rk:InferredStatement", "glossary": "rk:GlossaryEntry", "concept": "skos:Concept",
    "concepts": "skos:ConceptScheme", "lineage": "rk:Lineage", "change": "rk:Change",
    "meaning-change": "rk:MeaningChange", "translation-finding": "rk:TranslationFinding",
    "consistency-finding": "rk:ConsistencyFinding",
    "statement-content": None,  # what a statement says, once for every edition (untyped: found by its link)
}


@pytest.mark.parametrize("kind", [*KINDS, "graph"])
def test_every_kind_of_iri_in_the_real_kb_dereferences(corpus_kb, corpus_web, kind):
    store, _ = corpus_kb
    if kind == "graph":
        iri = BASE + "graph/lineage"
    else:
        # (a citation's type is implied by rk:hasCitation, a rule's statement's by rk:statedIn: not stored)
        implied = {"citation": "[] rk:hasCitation ?s", "statement": "?s rk:statedIn []",
                   "statement-content": "[] rk:statementContent ?s"}
        pattern = implied.get(kind, f"?s a {KINDS[kind]}")
        rows = store.select(queries.prefixes() + f"SELECT ?s WHERE {{ {pattern} }} LIMIT 1")
        assert rows, f"the KB has no {kind}"
        iri = rows[0]["s"]
    path = iri[len(BASE):]
    assert parse(path)[0] == kind
    status, headers, body = http(corpus_web + quote(path), headers={"Accept": "text/html"})
    assert status == 200, (iri, body[:300])
    assert headers["Content-Type"].startswith("text/html")
    status, headers, body = http(corpus_web + quote(path), headers={"Accept": "text/turtle"})
    assert status == 200
    assert iri in _subjects(body, "text/turtle")


def test_a_rule_missing_in_one_edition_points_to_the_editions_that_have_it(corpus_web):
    status, _, body = http(corpus_web + "edition/en/2026-01-16/rule/217.1a", headers={"Accept": "text/html"})
    assert status == 404
    assert 'href="/edition/en/2008-10-01/rule/217.1a"' in body.decode()


def test_a_trailing_slash_redirects_to_the_iri_without_it(fixture_web):
    from http.client import HTTPConnection
    from urllib.parse import urlsplit

    where = urlsplit(fixture_web)
    connection = HTTPConnection(where.hostname, where.port, timeout=30)
    connection.request("GET", "/edition/en/2030-05-05/rule/100.1/?x=1", headers={"Accept": "text/turtle"})
    response = connection.getresponse()
    assert response.status == 308
    assert response.getheader("Location") == "/edition/en/2030-05-05/rule/100.1?x=1"
    connection.close()
    status, _, body = http(fixture_web + "edition/en/2030-05-05/rule/100.1/", headers={"Accept": "text/turtle"})
    assert status == 200 and b"100.1" in body

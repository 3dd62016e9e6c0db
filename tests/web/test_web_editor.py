"""The query editor at /query: the vendored YASGUI served locally, the named queries as
examples bound to their example parameters, and the plain form that runs without
JavaScript through /sparql's own checks -- over real HTTP."""

from __future__ import annotations

import json
import re
from html import unescape
from urllib.parse import quote


from rulekb.kb.store import queries
from rulekb.kb.web.editor import example_values, examples

from ..helpers import http

INSERT = "PREFIX rk: <https://w3id.org/rulekb#>\nINSERT DATA { <http://x/a> rk:number \"1\" }"
SERVICE = "SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }"


def _get(root: str, path: str):
    status, head, body = http(root + path)
    return status, head, body


def _page(root: str, path: str) -> tuple[int, str]:
    status, _, body = _get(root, path)
    return status, body.decode("utf-8")


def _config(page: str) -> dict:
    found = re.search(r'<script type="application/json" id="editor-config">(.*?)</script>', page, re.S)
    assert found, "the page carries the editor's configuration"
    return json.loads(found.group(1))


def test_the_vendored_yasgui_is_served_locally(fixture_web):
    status, head, body = _get(fixture_web, "static/yasgui/yasgui.min.js")
    assert status == 200 and "javascript" in head["content-type"]
    assert b"Yasgui" in body[:2000] and len(body) > 500_000
    status, head, _ = _get(fixture_web, "static/yasgui/yasgui.min.css")
    assert status == 200 and head["content-type"].startswith("text/css")
    status, head, body = _get(fixture_web, "static/yasgui/rulekb-editor.js")
    assert status == 200 and b"new Yasgui(" in body
    status, _, body = _get(fixture_web, "static/yasgui/LICENSE")
    assert status == 200 and b"MIT License" in body


def test_the_query_page_loads_yasgui_with_the_endpoint_and_the_named_queries(fixture_web):
    status, page = _page(fixture_web, "query")
    assert status == 200
    assert '<script src="/static/yasgui/yasgui.min.js"></script>' in page
    assert '<link rel="stylesheet" href="/static/yasgui/yasgui.min.css">' in page
    assert "cdn" not in page.lower() and "unpkg" not in page
    config = _config(page)
    assert config["endpoint"] == "/sparql"
    assert set(config["examples"]) == set(queries.registry())
    section = config["examples"]["section-rules"]["text"]
    assert 'VALUES (?edition ?section) { ("en/2026-01-16" "111") }' in section  # bound like `rulekb query`
    assert 'data-example="section-rules"' in page and 'href="/query?name=section-rules"' in page


def test_every_example_binds_every_parameter_of_its_query():
    for name, example in examples().items():
        query = queries.get(name)
        assert set(example_values(query)) == set(query.params), name
        if query.params:
            assert "VALUES" in example["text"], name


def test_the_plain_form_runs_a_named_query_into_a_results_table(corpus_web):
    status, page = _page(corpus_web, "query?name=section-rules")
    assert status == 200
    assert '<table class="results">' in page
    assert "<th>number</th>" in page
    assert '<a href="/edition/en/2026-01-16/rule/111.2">http://localhost:8000/edition/en/2026-01-16/rule/111.2</a>' in page
    # the textarea holds the query that ran: submitting it again gives the same table
    text = unescape(re.search(r'<textarea id="query-text" name="query"[^>]*>(.*?)</textarea>', page, re.S).group(1))
    status, again = _page(corpus_web, "query?query=" + quote(text))
    assert status == 200 and '<a href="/edition/en/2026-01-16/rule/111.2">' in again


def test_the_plain_form_shows_ask_and_construct_answers(fixture_web):
    status, page = _page(fixture_web, "query?query=" + quote("ASK { ?s ?p ?o }"))
    assert status == 200 and "ASK: <strong>true</strong>" in page
    status, page = _page(fixture_web, "query?query=" + quote("CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o } LIMIT 3"))
    assert status == 200 and "<th>subject</th><th>predicate</th><th>object</th>" in page


def test_the_plain_form_refuses_updates_and_service_with_the_endpoints_message(fixture_web):
    status, page = _page(fixture_web, "query?query=" + quote(INSERT))
    assert status == 403 and "this endpoint is read-only: SPARQL updates (INSERT) are refused" in page
    status, page = _page(fixture_web, "query?query=" + quote(SERVICE))
    assert status == 403 and "SERVICE (federated queries) is refused" in page
    status, page = _page(fixture_web, "query?query=" + quote("SELEC ?x"))
    assert status == 400 and "SPARQL syntax error" in page
    assert 'name="query"' in page  # the form is still there, with the text to fix


def test_the_plain_form_on_the_fixture_lists_its_edition(fixture_web):
    status, page = _page(fixture_web, "query?name=editions")
    assert status == 200 and "en/2030-05-05" in page and '<table class="results">' in page


def test_markup_in_the_query_or_the_name_comes_back_inert(fixture_web):
    hostile = '</textarea><script>alert(1)</script>'
    status, page = _page(fixture_web, "query?query=" + quote("SELECT * WHERE { ?s ?p '" + hostile + "' }"))
    assert status == 200 and "<script>alert(1)</script>" not in page
    assert "&lt;/textarea&gt;&lt;script&gt;" in page
    status, page = _page(fixture_web, "query?name=" + quote(hostile))
    assert status == 404 and "<script>alert" not in page and "no named query" in page


# -- in a browser ---------------------------------------------------------------------------


def test_yasgui_opens_a_named_query_in_a_tab_and_runs_it_against_the_endpoint(browser, fixture_web):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(fixture_web + "query")
    wait = WebDriverWait(browser, 30)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#yasgui .yasqe_queryButton"))
    assert not browser.find_element(By.ID, "plain").get_attribute("open")  # the plain form folds away
    browser.find_element(By.CSS_SELECTOR, 'a[data-example="editions"]').click()
    wait.until(lambda d: "Editions" in " ".join(e.text for e in d.find_elements(By.CSS_SELECTOR, "#yasgui .tab")))
    browser.find_element(By.CSS_SELECTOR, "#yasgui .tabPanel.active .yasqe_queryButton").click()
    wait.until(lambda d: any("en/2030-05-05" in td.text
                             for td in d.find_elements(By.CSS_SELECTOR, "#yasgui .tabPanel.active .yasr td")))


def test_a_runaway_query_in_the_plain_form_is_stopped_at_the_deadline(fixture_kb):
    """The form runs queries in the endpoint's killable worker processes, like /sparql."""
    from rulekb.kb.web.app import create_app

    from ..helpers import WebServer

    store, _ = fixture_kb
    runaway = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"
    with WebServer(create_app(store, timeout=1.0, workers=1)) as root:
        status, page = _page(root, "query?query=" + quote(runaway))
        assert status == 503 and "timed out" in page
        status, page = _page(root, "query?query=" + quote("ASK { ?s ?p ?o }"))
        assert status == 200

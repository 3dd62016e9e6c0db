"""The JSON API under /api: the CLI's shapes over HTTP, JSON errors, the
OpenAPI document and the page listing the endpoints. Real HTTP, real server."""

from __future__ import annotations

import json

import pytest

from ..helpers import http

EDITION = "en/2030-05-05"


def _json(url: str):
    status, headers, body = http(url)
    assert headers["Content-Type"].startswith("application/json"), (url, status, body[:200])
    return status, json.loads(body)


def test_editions_lists_the_fixture_edition(fixture_web):
    status, data = _json(fixture_web + "api/editions")
    assert status == 200
    assert [e["edition"] for e in data] == [EDITION]
    assert {"edition", "language", "effective_date", "rules", "source"} <= set(data[0])


def test_an_edition_has_its_description_and_sections(fixture_web):
    status, data = _json(fixture_web + f"api/edition/{EDITION}")
    assert status == 200
    assert data["edition"] == EDITION and data["language"] == "en" and data["effective_date"] == "2030-05-05"
    assert [s["number"] for s in data["sections"]] == ["1", "100", "101", "2", "200"]
    assert data["sections"][1]["iri"].endswith(f"edition/{EDITION}/section/100")


def test_a_rule_has_the_shape_of_rulekb_rule(fixture_web):
    status, data = _json(fixture_web + f"api/rule/{EDITION}/101.1")
    assert status == 200
    assert {"iri", "edition", "number", "text", "examples", "references", "referenced_by", "concepts",
            "lineage"} <= set(data)
    assert data["number"] == "101.1" and len(data["examples"]) == 2
    status, data = _json(fixture_web + f"api/rule/{EDITION}/200.1c")
    assert data["references"] == ["101.1", "101.2"]


def test_history_and_concept_and_search(fixture_web):
    status, data = _json(fixture_web + f"api/history/101.1?edition={EDITION}")
    assert status == 200 and data[0]["edition"] == EDITION and data[0]["number"] == "101.1"
    status, data = _json(fixture_web + "api/concept/gadget")
    assert status == 200 and data["concept"].endswith("concept/gadget")
    status, data = _json(fixture_web + f"api/search?q=card+on+the+TABLE&edition={EDITION}")
    assert status == 200 and data["query"] == "card on the TABLE"
    # ranked: the rule holding all three words in the first two (the glossary's Gadget, "a card on the
    # table", may lead by meaning)
    assert "101.1" in [hit.get("rule") for hit in data["results"][:2]]
    status, data = _json(fixture_web + "api/search?q=SPIN+step")  # default edition: the newest English one
    assert status == 200 and data["edition"] == EDITION and data["results"]


@pytest.mark.parametrize(("path", "status"), [
    (f"api/rule/{EDITION}/100.9", 404),
    ("api/rule/en/2031-01-01/100.1", 404),
    ("api/edition/xx/nothing", 404),
    ("api/history/100.9?edition=" + EDITION, 404),
    ("api/concept/no-such-thing-at-all", 404),
    ("api/search", 400),
    ("api/search?q=" + "x" * 300, 400),
    ("api/search?q=widget&edition=en/2031-01-01", 404),
    ("api/no/such/endpoint", 404),
])
def test_errors_are_json_with_status_and_message(fixture_web, path, status):
    got, data = _json(fixture_web + path)
    assert got == status
    assert data["error"]["status"] == status and data["error"]["message"]


def test_the_openapi_document_lists_every_endpoint_and_its_examples_answer(fixture_web):
    status, spec = _json(fixture_web + "api/openapi.json")
    assert status == 200 and spec["openapi"].startswith("3.")
    over_time = {"/api/effects/{lang}/{date}", "/api/as-of/{number}", "/api/changes"}  # answered on dated
    # editions: tests/timeline/test_timeline_web.py runs their examples (the fixture's is in the future)
    assert {"/api/editions", "/api/edition/{lang}/{date}", "/api/rule/{lang}/{date}/{number}",
            "/api/history/{number}", "/api/concept/{slug}", "/api/search"} | over_time == set(spec["paths"])
    for path, operations in spec["paths"].items():
        if path in over_time:
            continue
        operation = operations["get"]
        assert operation["summary"] and "200" in operation["responses"]
        examples = {"lang": "en", "date": "2030-05-05", "number": "101.1", "slug": "gadget"}
        url = path.lstrip("/")
        for name, value in examples.items():
            url = url.replace("{" + name + "}", value)
        required = [p for p in operation["parameters"] if p["in"] == "query" and p["required"]]
        if required:
            url += "?" + "&".join(f"{p['name']}=widget" for p in required)
        got, _ = _json(fixture_web + url)
        assert got == 200, url


def test_the_api_page_lists_the_endpoints_with_examples(fixture_web):
    status, headers, body = http(fixture_web + "api", headers={"Accept": "text/html"})
    page = body.decode()
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert "/api/rule/{lang}/{date}/{number}" in page and 'href="/api/openapi.json"' in page


def test_a_rule_of_the_real_kb_has_its_lineage_and_history(corpus_web):
    status, data = _json(corpus_web + "api/rule/en/2026-01-16/111.2")
    assert status == 200 and data["lineage"]
    status, data = _json(corpus_web + "api/history/111.2?edition=en/2026-01-16")
    assert "200.4a" in [entry["number"] for entry in data]
    status, data = _json(corpus_web + "api/edition/fr/2011-02-04")
    assert status == 200 and data["language"] == "fr"

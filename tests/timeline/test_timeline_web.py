"""Rules over time on the web, over real HTTP: permalinks by date (303/302), errors,
the effects of an edition, Atom feeds read back by feedparser, SVG timelines, the rule
page's wording in force and its schema.org JSON-LD. KB: four real editions (timeline_kb)."""

from __future__ import annotations

import http.client
import json
import re
from urllib.parse import urlsplit

import feedparser
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekb.kb import service

from ..helpers import http as fetch


def raw(root: str, path: str, accept: str = "text/html"):
    """(status, headers, body) without following redirects."""
    parts = urlsplit(root)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    connection.request("GET", "/" + path, headers={"Accept": accept})
    response = connection.getresponse()
    return response.status, response.headers, response.read()


@pytest.mark.parametrize("path, status, target", [
    ("rule/100.2", 303, "/edition/en/2010-02-01/rule/100.2"),
    ("rule/100.2?as-of=2009-08-01", 303, "/edition/en/2009-07-11/rule/100.2"),
    ("rule/100.2?as-of=2009-07-11", 303, "/edition/en/2009-07-11/rule/100.2"),  # the tie: the later edition
    ("edition/en/latest/rule/100.2", 302, "/edition/en/2010-02-01/rule/100.2"),
    ("edition/en/latest", 302, "/edition/en/2010-02-01"),
    ("edition/en@2009-12-01/section/100?x=1", 302, "/edition/en/2009-10-01/section/100?x=1"),
])
def test_permalinks_redirect(timeline_web, path, status, target):
    got, headers, _ = raw(timeline_web, path)
    assert (got, headers["location"]) == (status, target)
    assert headers["x-rulekb-resolved"]


@pytest.mark.parametrize("path, status, words", [
    ("rule/100.2?as-of=2010-13-45", 400, "not a date of the calendar"),
    ("rule/100.2?as-of=yesterday", 400, "write it YYYY-MM-DD"),
    ("rule/100.2?as-of=10/03/2010", 400, "write it YYYY-MM-DD"),
    ("rule/100.2?as-of=1998-01-01", 404, "took effect on 2009-07-11"),
    ("rule/100.2?as-of=2099-01-01", 404, "the newest en edition is en/2010-02-01"),
    ("rule/100.2?lang=de", 404, "no dated de edition"),
    ("rule/999.9", 404, "has no rule 999.9"),
    ("rule/nope", 404, "not a rule number"),
    ("edition/fr/latest/rule/100.2", 404, "no dated fr edition"),
    ("edition/en@2009-02-30/rule/100.2", 400, "not a date of the calendar"),
    ("effects/en@2031-01-01", 404, "in the future"),
    ("feed/rule/999.9", 404, "has no rule 999.9"),
])
def test_bad_dates_and_names_are_4xx(timeline_web, path, status, words):
    got, _, body = raw(timeline_web, path, accept="text/plain")
    assert got == status
    assert words in body.decode() and "Traceback" not in body.decode()


def test_existing_iris_still_dereference(timeline_web):
    for path in ("edition/en/2009-10-01/rule/100.2", "lineage/en/2009-07-08/100.2",
                 "edition/en/2009-10-01", "edition/en/2009-07-08/rule/111.2.ttl"):
        status, _, _ = raw(timeline_web, path)
        assert status == 200, path
    status, _, body = raw(timeline_web, "lineage/en/2009-07-08/100.2/wording/1", accept="text/turtle")
    assert status == 200 and b"inForceFrom" in body


def test_a_superseded_version_says_so_and_links_the_current_one(timeline_web):
    status, _, body = fetch(timeline_web + "edition/en/2009-07-11/rule/100.2", headers={"Accept": "text/html"})
    page = body.decode()
    assert status == 200
    notice = re.search(r'<p class="in-force superseded">(.*?)</p>', page, re.S).group(1)
    assert "until 2009-10-01" in notice and "Superseded by" in notice
    assert 'href="/edition/en/2009-10-01/rule/100.2"' in notice
    assert "Current version" in notice and 'href="/edition/en/2010-02-01/rule/100.2"' in notice
    data = json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', page, re.S).group(1))
    assert data["@type"] == "Legislation" and data["legislationIdentifier"] == "100.2"
    assert data["legislationLegalForce"].endswith("NotInForce") and data["expires"] == "2009-10-01"
    assert data["exampleOfWork"]["@id"].endswith("/lineage/en/2009-07-08/100.2")
    assert "<svg" in page and "in force from 2009-07-11 until 2009-10-01" in page  # the wordings drawn


def test_history_on_the_page_comes_from_the_stored_wordings(timeline_kb, timeline_web):
    store, _ = timeline_kb
    wordings = service.rule_wordings(store, "en/2010-02-01", "100.2")
    _, _, body = fetch(timeline_web + "edition/en/2010-02-01/rule/100.2", headers={"Accept": "text/html"})
    table = body.decode().split('<table class="history">', 1)[1].split("</table>", 1)[0]
    assert table.count("<tr") - 1 == len(wordings)  # a row per wording, not per edition
    assert f"in force {wordings[0]['in_force_from']} – {wordings[0]['in_force_until']}" in table


def test_effects_page_and_json(timeline_kb, timeline_web):
    store, _ = timeline_kb
    status, _, body = fetch(timeline_web + "effects/en/2010-02-01.json")
    data = json.loads(body)
    counted = {r["kind"]: int(r["n"]) for r in service.run(store, "edition-change-counts") if r["edition"] == "en/2010-02-01"}
    assert status == 200 and data["counts"] == counted and data["previous"] == "en/2009-10-01"
    same = json.loads(fetch(timeline_web + "api/effects/en@2010-03-01")[2])
    assert same["counts"] == counted and same["resolved"]["how"] == "date"
    status, _, body = fetch(timeline_web + "effects/en/2010-02-01", headers={"Accept": "text/html"})
    page = body.decode()
    assert status == 200 and "<svg" in page and "Reworded" in page and "Changes of meaning" in page


def test_feed_of_editions_is_valid_atom_with_stable_ids(timeline_web):
    status, headers, body = fetch(timeline_web + "feed/editions")
    assert status == 200 and headers["content-type"].startswith("application/atom+xml")
    feed = feedparser.parse(body)
    assert not feed.bozo, feed.get("bozo_exception")
    assert feed.version == "atom10"
    ids = [entry.id for entry in feed.entries]
    assert ids[0].endswith("/edition/en/2010-02-01") and len(set(ids)) == len(ids) == 4
    assert "reworded" in feed.entries[0].summary
    again = feedparser.parse(fetch(timeline_web + "feed/editions")[2])
    assert [entry.id for entry in again.entries] == ids


def test_feed_of_a_rule_lists_its_changes(timeline_kb, timeline_web):
    store, _ = timeline_kb
    feed = feedparser.parse(fetch(timeline_web + "feed/rule/100.2")[2])
    assert not feed.bozo and feed.version == "atom10"
    changed = [w for w in service.rule_wordings(store, "en/2010-02-01", "100.2") if w["kind"]]
    assert len(feed.entries) == len(changed) >= 1
    assert all("/lineage/" in entry.id for entry in feed.entries)


def test_home_page_draws_every_edition(timeline_web):
    _, _, body = fetch(timeline_web, headers={"Accept": "text/html"})
    page = body.decode()
    svg = page.split("<svg", 1)[1].split("</svg>", 1)[0]
    assert svg.count('class="rules"') == 4  # one bar per complete edition
    assert 'href="/effects/en/2009-10-01"' in svg


@pytest.mark.parametrize("path, target", [
    ("diff?old=en@2009-08-01&new=en/latest", "/diff?old=en%2F2009-07-11&new=en%2F2010-02-01"),
    ("contradictions?old=en/latest&new=en/2010-02-01", "/contradictions?old=en%2F2010-02-01&new=en%2F2010-02-01"),
    ("search?q=owner&edition=en@2009-12-01", "/search?q=owner&edition=en%2F2009-10-01"),
])
def test_edition_parameters_take_aliases_and_dates(timeline_web, path, target):
    status, headers, _ = raw(timeline_web, path)
    assert (status, headers["location"]) == (302, target)


def test_api_takes_aliases_and_dates(timeline_web):
    status, _, body = fetch(timeline_web + "api/rule/en/latest/100.2")
    assert status == 200 and json.loads(body)["edition"] == "en/2010-02-01"
    status, _, body = fetch(timeline_web + "api/history/100.2?edition=en@2009-08-01")
    assert status == 200 and json.loads(body)[0]["number"] == "100.2"
    status, _, body = fetch(timeline_web + "api/history/100.2?edition=en@2009-99-01")
    assert status == 400 and "not a date of the calendar" in json.loads(body)["error"]["message"]


def test_openapi_describes_the_routes_over_time_and_their_examples_answer(timeline_web):
    status, _, body = fetch(timeline_web + "api/openapi.json")
    paths = json.loads(body)["paths"]
    over_time = {"/api/effects/{lang}/{date}", "/api/as-of/{number}", "/api/changes"}
    assert status == 200 and over_time <= set(paths)
    for path in over_time:
        operation = paths[path]["get"]
        url = path.lstrip("/")
        for p in operation["parameters"]:
            if p["in"] == "path":
                url = url.replace("{" + p["name"] + "}", p["example"])
        url += "?" + "&".join(f"{p['name']}={p['example']}" for p in operation["parameters"] if p["in"] == "query")
        got, _, answer = fetch(timeline_web + url)
        assert got == 200, (url, answer[:200])
        data = json.loads(answer)
        schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
        if schema.get("type") == "array":
            assert data and set(data[0]) <= set(json.loads(body)["components"]["schemas"]["Change"]["properties"])
        else:
            name = schema["$ref"].rsplit("/", 1)[1]
            assert set(json.loads(body)["components"]["schemas"][name]["properties"]) <= set(data)


def test_the_json_routes_over_time(timeline_web):
    status, _, body = fetch(timeline_web + "api/as-of/100.2?date=2009-08-01")
    data = json.loads(body)
    assert status == 200 and data["edition"]["edition"] == "en/2009-07-11"
    assert data["superseded_by"]["edition"] == "en/2009-10-01"
    status, _, body = fetch(timeline_web + "api/changes?from=2009-10-01&to=2010-12-31&lang=en")
    assert status == 200 and {r["edition"] for r in json.loads(body)} == {"en/2010-02-01"}
    for path, code, words in (("api/as-of/100.2", 400, "give the date"),
                              ("api/as-of/100.2?date=yesterday", 400, "YYYY-MM-DD"),
                              ("api/as-of/999.9?date=2009-08-01", 404, "no rule 999.9"),
                              ("api/as-of/nope?date=2009-08-01", 404, "not a rule number"),
                              ("api/changes?from=2009-01-01", 400, "give both dates"),
                              ("api/changes?from=2010-01-01&to=2009-01-01", 400, "earlier date first"),
                              ("api/changes?from=2009-01-01&to=2099-01-01", 404, "in the future")):
        got, _, answer = fetch(timeline_web + path)
        error = json.loads(answer)["error"]
        assert (got, error["status"]) == (code, code) and words in error["message"], (path, error)


def test_api_changes_pages_a_long_window_with_the_total_and_a_next_link(timeline_web):
    status, headers, body = fetch(timeline_web + "api/changes?from=1999-01-01&to=2026-12-01&limit=5000")
    everything = json.loads(body)
    assert status == 200 and int(headers["X-Total-Count"]) == len(everything) and "Link" not in headers
    got, path, pages = [], "api/changes?from=1999-01-01&to=2026-12-01&limit=1", 0
    while path:
        status, headers, body = fetch(timeline_web + path)
        assert status == 200 and int(headers["X-Total-Count"]) == len(everything)
        rows = json.loads(body)
        assert len({r["date"] for r in rows}) == 1  # limit=1: one whole date a page
        got += rows
        pages += 1
        link = headers.get("Link")
        if link is None:
            break
        match = re.fullmatch(r'<(/api/changes\?[^>]*after=[0-9-]+[^>]*)>; rel="next"', link)
        assert match, link
        path = match.group(1).lstrip("/")
    assert pages >= 3 and sorted(json.dumps(r, sort_keys=True) for r in got) == \
        sorted(json.dumps(r, sort_keys=True) for r in everything)
    for query, words in (("&limit=0", "between 1 and"), ("&limit=x", "whole number"), ("&after=2030-01-01", "in the future"),
                         ("&after=1998-01-01", "not in the window")):
        got_status, _, answer = fetch(timeline_web + "api/changes?from=1999-01-01&to=2026-12-01" + query)
        error = json.loads(answer)["error"]
        assert got_status in (400, 404) and words in error["message"], (query, error)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.text(max_size=14), st.dates().map(str),
                 st.from_regex(r"\A[0-9]{4}-[0-9]{2}-[0-9]{2}\Z")))
def test_any_date_string_gets_an_answer_or_a_json_4xx(timeline_web, date):
    from urllib.parse import quote

    for path in (f"api/as-of/100.2?date={quote(date)}", f"api/changes?from=2009-01-01&to={quote(date)}"):
        got, _, body = fetch(timeline_web + path)
        assert got in (200, 400, 404), (path, got)
        if got != 200:
            error = json.loads(body)["error"]
            assert error["status"] == got and "\n" not in error["message"] and "Traceback" not in error["message"]

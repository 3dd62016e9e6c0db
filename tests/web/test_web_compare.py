"""The comparison pages of ``rulekb serve``: /diff, /translation, /contradictions, over real
HTTP -- the corpus KB for the real editions, the invented fixture edition for bad input."""

from __future__ import annotations

import json
import re
from urllib.parse import quote

from ..helpers import http

HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>'


def _get(root: str, path: str, **headers):
    status, head, body = http(root + path, headers=headers)
    return status, head, body.decode("utf-8")


def _json(root: str, path: str):
    status, _, body = _get(root, path)
    assert status == 200, body[:300]
    return json.loads(body)


# -- /diff ----------------------------------------------------------------------------------


def test_diff_of_two_recent_editions_lists_the_changes_with_links_to_the_rules(corpus_web):
    data = _json(corpus_web, "diff?old=en/2025-11-14&new=en/2026-01-16&format=json")
    assert data["old"] == "en/2025-11-14" and data["new"] == "en/2026-01-16"
    assert data["counts"]["modified"] > 0 and data["changes"]
    status, head, page = _get(corpus_web, "diff?old=en/2025-11-14&new=en/2026-01-16")
    assert status == 200 and head["content-type"].startswith("text/html")
    for kind, n in data["counts"].items():
        assert f"{n} {kind}" in page  # the summary counts
    modified = next(c for c in data["changes"] if c["kind"] == "modified")
    assert f'href="/edition/en/2025-11-14/rule/{modified["old"]}"' in page
    assert f'href="/edition/en/2026-01-16/rule/{modified["new"]}"' in page
    assert "<ins>" in page or "<del>" in page  # changed words marked
    assert re.search(r'<section id="section-\d{3}">', page)  # grouped by section


def test_diff_hides_unchanged_rules_unless_asked_and_filters_by_kind(corpus_web):
    default = _json(corpus_web, "diff?old=en/2025-11-14&new=en/2026-01-16&format=json")
    assert default["counts"]["unchanged"] > 1000
    assert all(c["kind"] != "unchanged" for c in default["changes"])
    unchanged = _json(corpus_web, "diff?old=en/2025-11-14&new=en/2026-01-16&format=json&kind=unchanged")
    assert len(unchanged["changes"]) == default["counts"]["unchanged"]
    assert {c["kind"] for c in unchanged["changes"]} == {"unchanged"}
    added = _json(corpus_web, "diff?old=en/2025-11-14&new=en/2026-01-16&format=json&kind=added,removed")
    assert {c["kind"] for c in added["changes"]} <= {"added", "removed"}
    assert len(added["changes"]) == default["counts"]["added"] + default["counts"]["removed"]
    status, _, page = _get(corpus_web, "diff?old=en/2025-11-14&new=en/2026-01-16&kind=everything")
    assert status == 400 and "unknown kind" in page


def test_diff_of_the_2009_restructure_shows_renumbered_rules(corpus_web):
    data = _json(corpus_web, "diff?old=en/2009-05-01&new=en/2009-07-08&format=json&kind=all")
    pairs = {(c["old"], c["new"]): c["kind"] for c in data["changes"]}
    assert pairs[("101.3", "103.3")] == "renumbered"
    assert pairs[("200.5a", "111.2")] == "modified"  # renumbered into the token rules, and reworded
    assert data["counts"]["renumbered"] > 300 and data["counts"]["split"] > 0
    status, _, page = _get(corpus_web, "diff?old=en/2009-05-01&new=en/2009-07-08&kind=renumbered")
    assert status == 200
    assert 'href="/edition/en/2009-05-01/rule/101.3"' in page and 'href="/edition/en/2009-07-08/rule/103.3"' in page
    status, _, page = _get(corpus_web, "diff?old=en/2009-05-01&new=en/2009-07-08")
    assert 'href="/edition/en/2009-05-01/rule/200.5a"' in page and 'href="/edition/en/2009-07-08/rule/111.2"' in page
    assert "Term changes" in page and "on the battlefield" in page


def test_diff_without_editions_is_a_form_with_the_two_newest_english_chosen(corpus_web):
    status, _, page = _get(corpus_web, "diff")
    assert status == 200 and '<form class="pick" method="get" action="/diff">' in page
    assert '<option value="en/2025-11-14" selected>' in page
    assert '<option value="en/2026-01-16" selected>' in page
    assert '<option value="en/2009-05-01">' in page


def test_diff_of_an_unknown_edition_is_a_404_listing_the_nearest(corpus_web):
    status, _, page = _get(corpus_web, "diff?old=en/2026-01-15&new=en/2026-01-16")
    assert status == 404 and "no edition &#39;en/2026-01-15&#39;" in page
    assert "/diff?old=en%2F2026-01-16&amp;new=en%2F2026-01-16" in page  # a suggestion, linked
    status, head, body = _get(corpus_web, "diff?old=../../etc/passwd&new=en/2026-01-16&format=json")
    assert status == 404 and head["content-type"] == "application/json"
    assert "no edition '../../etc/passwd'" in json.loads(body)["error"]["message"]


# -- /translation ---------------------------------------------------------------------------


def test_translation_worklist_names_the_detected_base_and_lists_stale_rules(corpus_web):
    status, _, page = _get(corpus_web, "translation?fr=fr/2011-02-04")
    assert status == 200
    assert 'Base detected: <a href="/edition/en/2011-02-04">en/2011-02-04</a>' in page
    assert "runner-up" in page and "score" in page
    assert page.count('<span class="kind stale">stale</span>') > 10
    assert 'href="/edition/fr/2011-02-04/rule/' in page and 'href="/edition/en/2026-01-16/rule/' in page
    data = _json(corpus_web, "translation?fr=fr/2011-02-04&format=json&kind=stale")
    assert data["base_detected"] == "en/2011-02-04" and data["us_edition"] == "en/2026-01-16"
    assert data["items"] and {i["kind"] for i in data["items"]} == {"stale"}


def test_translation_without_a_french_edition_is_a_form_listing_them(corpus_web):
    status, _, page = _get(corpus_web, "translation")
    assert status == 200 and 'action="/translation"' in page
    assert "fr/2011-02-04" in page and "fr/2008-04-14" in page
    status, _, page = _get(corpus_web, "translation?fr=en/2026-01-16")
    assert status == 404 and "French edition" in page


# -- /contradictions --------------------------------------------------------------------------


def test_contradictions_page_answers_for_two_editions(corpus_web):
    status, _, page = _get(corpus_web, "contradictions?old=en/2025-11-14&new=en/2026-01-16")
    assert status == 200 and "Contradictions en/2025-11-14 → en/2026-01-16" in page
    data = _json(corpus_web, "contradictions?old=en/2025-11-14&new=en/2026-01-16&format=json")
    assert data["old"] == "en/2025-11-14" and "items" in data


# -- bad input --------------------------------------------------------------------------------


def test_markup_in_the_parameters_comes_back_inert(fixture_web):
    for path in (f"diff?old={quote(HOSTILE)}&new=en/2030-05-05", f"diff?old=en/2030-05-05&new={quote(HOSTILE)}",
                 f"translation?fr={quote(HOSTILE)}", f"contradictions?old={quote(HOSTILE)}&new=x",
                 f"diff?old=en/2030-05-05&new=en/2030-05-05&kind={quote(HOSTILE)}",
                 f"diff?old=en/2030-05-05&new=en/2030-05-05&format={quote(HOSTILE)}"):
        status, _, page = _get(fixture_web, path)
        assert status in (400, 404), path
        assert "<script>" not in page and "<img" not in page, path
        assert "&lt;script&gt;" in page, path


def test_diff_of_an_edition_with_itself_shows_only_unchanged_rules(fixture_web):
    data = _json(fixture_web, "diff?old=en/2030-05-05&new=en/2030-05-05&format=json")
    assert data["changes"] == [] and data["counts"]["unchanged"] > 5
    status, _, page = _get(fixture_web, "diff?old=en/2030-05-05&new=en/2030-05-05&kind=all")
    assert status == 200 and 'href="/edition/en/2030-05-05/rule/101.1"' in page
    assert "A gadget&#39;s owner is the duelist who brought it." in page  # rule text, escaped

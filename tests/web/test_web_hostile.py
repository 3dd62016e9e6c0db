"""Markup in the rules text stays text on every page (served over real HTTP).

The fixture is an invented rules page whose rule text, examples and glossary
hold <script>, event handlers, a javascript: link, comment and CDATA ends and
template syntax, as literal text once parsed.
"""

from __future__ import annotations

import re

import pytest

from ..helpers import http

EDITION = "en/2031-01-01"
PAGES = [
    f"edition/{EDITION}",
    f"edition/{EDITION}/section/100",
    f"edition/{EDITION}/rule/100.1",
    f"edition/{EDITION}/rule/100.1a",
    f"edition/{EDITION}/rule/100.2",
    f"edition/{EDITION}/rule/100.3",
    f"edition/{EDITION}/glossary/gizmo-em",
    f"search?q=gizmo&edition={EDITION}",
    f"search?q=%3Cscript%3E&edition={EDITION}",
    f"effects/{EDITION}",
    "",
]
# what would be live markup if the text were pasted into the page unescaped
LIVE = [
    re.compile(r"<script>\s*(document\.title|alert)", re.I),
    re.compile(r"<img\b[^>]*onerror", re.I),
    re.compile(r"<svg\b[^>]*onload", re.I),
    re.compile(r"href\s*=\s*[\"']?\s*javascript:", re.I),
    re.compile(r"</textarea>|</title></title>", re.I),
]


@pytest.mark.parametrize("path", PAGES)
def test_markup_in_rule_text_is_rendered_inert(hostile_web, path):
    status, headers, body = http(hostile_web + path, headers={"Accept": "text/html"})
    assert status == 200, (path, status, body[:300])
    assert headers["content-type"].startswith("text/html")
    page = body.decode()
    for pattern in LIVE:
        assert not pattern.search(page), (path, pattern.pattern)


def test_the_escaped_markup_is_shown_as_text(hostile_web):
    status, _, body = http(hostile_web + f"edition/{EDITION}/rule/100.1", headers={"Accept": "text/html"})
    page = body.decode()
    assert status == 200
    assert "&lt;script&gt;document.title=" in page  # the reader sees what the rule says
    status, _, body = http(hostile_web + f"edition/{EDITION}/rule/100.3", headers={"Accept": "text/html"})
    assert "{{ 7*7 }}" in body.decode()  # template syntax is not evaluated


def test_markup_in_a_query_parameter_is_rendered_inert(hostile_web):
    probe = "%3Cscript%3Ealert(3)%3C%2Fscript%3E"
    for path in (f"search?q={probe}&edition={EDITION}", f"search?q=x&edition={probe}",
                 f"edition/{probe}", f"edition/{EDITION}/rule/{probe}"):
        status, _, body = http(hostile_web + path, headers={"Accept": "text/html"})
        assert status < 500, path
        assert "<script>alert(3)" not in body.decode(), path


def test_the_rule_as_turtle_keeps_the_text_exactly(hostile_web):
    import pyoxigraph as ox

    status, headers, body = http(hostile_web + f"edition/{EDITION}/rule/100.1.ttl")
    assert status == 200
    texts = [str(t.object.value) for t in ox.parse(body, ox.RdfFormat.TURTLE)
             if t.predicate.value == "https://w3id.org/rulekb#text"]
    assert any('<script>document.title="pwned"</script>' in text for text in texts)


@pytest.mark.parametrize("path", ["feed/editions", "feed/rule/100.1"])
def test_feeds_stay_valid_atom_over_hostile_text(hostile_web, path):
    import feedparser

    status, headers, body = http(hostile_web + path)
    assert status == 200 and headers["content-type"].startswith("application/atom+xml")
    feed = feedparser.parse(body)
    assert not feed.bozo, feed.get("bozo_exception")
    assert not any(pattern.search(body.decode()) for pattern in LIVE)

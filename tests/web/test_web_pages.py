"""The HTML pages people read (kb/web/pages.py and friends), over real HTTP.

Three stores: the invented fixture edition (``fixture_web``); a small store
built here from invented texts -- the widget game in English and French, and
a later English edition whose rule text holds markup, a dangling citation and
a renumbered rule (``markup_web``); and the whole corpus (``corpus_web``).
"""

from __future__ import annotations

import html
import re
from urllib.parse import quote
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekb.kb.web.context import WebContext
from rulekb.kb.web.html import environment
from rulekb.kb.web.markup import Citation, diff_segments, highlight, link_citations

from ..conftest import FIXTURES
from ..helpers import WebServer, http

HTML = {"Accept": "text/html"}


def get(root: str, path: str) -> tuple[int, str]:
    status, _, body = http(root + path, headers=HTML)
    return status, body.decode("utf-8")


def main(page: str) -> str:
    """The page's own content, without the site's header and footer."""
    return page.split("<main>", 1)[1].split("</main>", 1)[0]


# -- a store with markup in its rule text ---------------------------------------

PADDING = "This paragraph is invented padding for the introduction. " * 70  # markup past the format sniffer's 4 KB


def _later_edition() -> str:
    """The widget game a year later: a new rule 100.2 renumbers 100.2-100.4, and
    rule 101.2 holds markup and cites a rule no edition has."""
    text = (resources.files("rulekb.kb.bench").joinpath("gold", "translate") / "widget-en-2030-05-05.txt").read_text(encoding="utf-8")
    text = text.replace("May 5, 2030", "June 6, 2031")
    text = text.replace("Introduction\n\n", f"Introduction\n\n{PADDING}\n\n", 1)
    for old, new in (("100.4. ", "100.5. "), ("100.3. ", "100.4. "), ("100.2. ", "100.3. ")):
        text = text.replace(f"\n{old}", f"\n{new}")
    text = text.replace("\n100.3. ", "\n100.2. Each duelist sits at the widget table.\n\n100.3. ", 1)
    text = text.replace("101.2. The supertypes are basic, shiny, and rusty. See rule 101.4.",
                        "101.2. The supertypes are basic, shiny, rusty and <script>alert('pwn')</script> "
                        "& \"quoted\" <b>bold</b>. See rule 101.4 and rule 109.9.")
    assert "<script>" in text and text.index("<script>") > 4096
    return text


@pytest.fixture(scope="module")
def markup_web(tmp_path_factory):
    from rulekb.kb.build import build
    from rulekb.kb.store.embedded import EmbeddedStore
    from rulekb.kb.web.app import create_app

    folder = tmp_path_factory.mktemp("markup-sources")
    (folder / "widget-en-2031-06-06.txt").write_text(_later_edition(), encoding="utf-8")
    sources = [str(resources.files("rulekb.kb.bench").joinpath("gold", "translate") / "widget-en-2030-05-05.txt"),
               str(resources.files("rulekb.kb.bench").joinpath("gold", "translate") / "widget-fr-2030-05-05.txt"), str(folder / "widget-en-2031-06-06.txt")]
    store = EmbeddedStore(tmp_path_factory.mktemp("markup-kb") / "store")
    build(sources, store)
    with WebServer(create_app(store)) as root:
        yield root


def test_markup_in_rule_text_is_shown_as_text_never_as_tags(markup_web):
    status, page = get(markup_web, "edition/en/2031-06-06/rule/101.2")
    assert status == 200
    assert "<script>" not in page and "<b>bold" not in page
    assert "&lt;script&gt;alert(" in page and "&lt;b&gt;bold&lt;/b&gt;" in page
    assert "&amp; &#34;quoted&#34;" in page or "&amp; &quot;quoted&quot;" in page


def test_markup_is_escaped_on_every_page_that_shows_the_rule(markup_web):
    for path in ("edition/en/2031-06-06/section/101", "search?q=alert&edition=en/2031-06-06",
                 "edition/en/2030-05-05/rule/101.2", "lineage/en/2030-05-05/101.2"):
        status, page = get(markup_web, path)
        assert status == 200, path
        assert "<script>" not in page, path
    status, page = get(markup_web, "search?q=alert&edition=en/2031-06-06")
    assert "<mark>alert</mark>" in page and "&lt;script&gt;<mark>alert</mark>(" in page


def test_cited_rules_are_links_and_dangling_ones_are_marked(markup_web):
    _, page = get(markup_web, "edition/en/2031-06-06/rule/101.2")
    text = main(page).split('class="rule-text">', 1)[1].split("</p>", 1)[0]
    assert '<a class="cite" href="/edition/en/2031-06-06/rule/101.4">101.4</a>' in text
    assert re.search(r'<span class="dangling"[^>]*>109\.9</span>', text)
    _, section = get(markup_web, "edition/en/2031-06-06/section/101")
    assert '<a class="cite" href="/edition/en/2031-06-06/rule/101.4">101.4</a>' in section
    assert 'id="r-101.2"' in section


def test_a_renumbered_rule_shows_the_number_it_had_before(markup_web):
    _, page = get(markup_web, "edition/en/2031-06-06/rule/100.4")
    body = main(page)
    assert "Known before as" in body and 'href="/edition/en/2030-05-05/rule/100.3"' in body
    assert "renumbered" in body
    assert 'href="/lineage/en/2030-05-05/100.3"' in body
    status, lineage = get(markup_web, "lineage/en/2030-05-05/100.3")
    assert status == 200 and "100.3" in lineage and "100.4" in lineage


def test_a_modified_rule_marks_the_changed_words(markup_web):
    _, page = get(markup_web, "edition/en/2031-06-06/rule/101.2")
    history = main(page).split('class="history"', 1)[1]
    assert "<ins>" in history and "modified" in history


def test_french_shows_beside_english_on_both_rule_pages(markup_web):
    french = "Un gadget est une carte sur la table."
    status, english = get(markup_web, "edition/en/2030-05-05/rule/101.1")
    assert status == 200
    side = main(english).split('class="translations"', 1)[1]
    assert french in html.unescape(side) and 'href="/edition/fr/2030-05-05/rule/101.1"' in side
    _, later = get(markup_web, "edition/en/2031-06-06/rule/101.1")  # the same rule a year on: its lineage
    assert french in html.unescape(main(later))
    status, page = get(markup_web, "edition/fr/2030-05-05/rule/101.1")
    assert status == 200 and 'lang="fr"' in page
    side = main(page).split('class="translations"', 1)[1]
    assert 'href="/edition/en/2030-05-05/rule/101.1"' in side and "A gadget is a card on the table." in html.unescape(side)


def test_an_english_rule_no_french_text_translates_has_no_french_section(markup_web):
    _, page = get(markup_web, "edition/en/2031-06-06/rule/100.2")
    assert 'class="translations"' not in page


# -- the invented fixture edition ------------------------------------------------

def test_home_lists_the_fixture_edition_and_a_search_box(fixture_web):
    status, page = get(fixture_web, "")
    assert status == 200
    assert 'href="/edition/en/2030-05-05"' in page
    assert '<form class="search" action="/search"' in page
    assert 'href="/query"' in page and 'href="/translation"' in page


def test_rule_page_links_its_references_and_back_references(fixture_web):
    status, page = get(fixture_web, "edition/en/2030-05-05/rule/200.1c")
    assert status == 200
    assert '<a class="cite" href="/edition/en/2030-05-05/rule/101.1">101.1</a>' in page
    _, cited = get(fixture_web, "edition/en/2030-05-05/rule/101.1")
    assert '<p class="example">Ana brings a Sprocket.' in cited
    assert 'href="/edition/en/2030-05-05/rule/200.1c">200.1c</a>' in cited
    assert 'href="/edition/en/2030-05-05/glossary/gadget">glossary: Gadget</a>' in cited


def test_edition_section_part_and_glossary_pages(fixture_web):
    status, edition = get(fixture_web, "edition/en/2030-05-05")
    assert status == 200 and 'href="/edition/en/2030-05-05/section/101"' in edition
    assert 'href="/edition/en/2030-05-05/glossary/gadget"' in edition
    status, section = get(fixture_web, "edition/en/2030-05-05/section/100")
    assert status == 200 and 'id="r-100.1b"' in section
    assert "Ana and Bo" in section.split('id="r-100.1b"')[1].split('id="r-100.2"')[0]  # its example, under it
    status, part = get(fixture_web, "edition/en/2030-05-05/part/2")
    assert status == 200 and 'href="/edition/en/2030-05-05/section/200"' in part
    status, entry = get(fixture_web, "edition/en/2030-05-05/glossary/gadget")
    assert status == 200 and '<a class="cite" href="/edition/en/2030-05-05/rule/101.1">101.1</a>' in entry


def test_concept_page_has_labels_definitions_and_defining_rules(fixture_web):
    status, page = get(fixture_web, "concept/gadget")
    assert status == 200
    assert "A card on the table." in page
    assert 'href="/edition/en/2030-05-05/rule/101.1"' in page


@pytest.mark.parametrize("path, message", [
    ("edition/en/2030-05-05/rule/999.9", "has no rule 999.9"),
    ("edition/en/2030-05-05/section/999", "no section 999"),
    ("concept/no-such-thing", "no-such-thing"),
    ("search?q=x&edition=en/1900-01-01", "no edition"),
])
def test_unknown_things_are_a_404_page_saying_what_is_missing(fixture_web, path, message):
    status, page = get(fixture_web, path)
    assert status == 404
    assert "<h1>404" in page and message in html.unescape(page)


def test_search_finds_words_and_jumps_to_a_typed_number(fixture_web):
    status, page = get(fixture_web, "search?q=WIND+step")
    assert status == 200 and "<mark>wind step</mark>" in page and 'href="/edition/en/2030-05-05/rule/200.1a"' in page
    status, headers, _ = _no_redirect(fixture_web + "search?q=101.1")
    assert status == 303 and headers["location"] == "/edition/en/2030-05-05/rule/101.1"
    status, page = get(fixture_web, "search?q=" + quote("x" * 300))
    assert status == 400


def _no_redirect(url: str):
    import urllib.error
    import urllib.request

    class Stop(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(Stop)
    try:
        with opener.open(urllib.request.Request(url, headers=HTML), timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers, err.read()


# -- the whole corpus ------------------------------------------------------------

def test_home_lists_every_edition_of_the_corpus(corpus_web):
    status, page = get(corpus_web, "")
    assert status == 200
    editions = set(re.findall(r'href="/edition/([a-z]{2}/[^"/#]+)"', page.split('class="editions"', 1)[1]))
    assert len(editions) == 163
    assert "en/1999-04-23" in editions and "fr/2011-02-04" in editions


def test_rule_111_2_shows_back_references_and_its_history_under_earlier_numbers(corpus_web):
    status, page = get(corpus_web, "edition/en/2026-01-16/rule/111.2")
    assert status == 200
    body = main(page)
    assert 'href="/edition/en/2026-01-16/rule/110.2">110.2</a>' in body
    assert 'href="/edition/en/2026-01-16/glossary/owner"' in body
    names = body.split('class="names"', 1)[1].split("</p>", 1)[0]
    assert ">200.4a</a>" in names and ">110.5a</a>" in names
    assert "<ins>" in body and "<del>" in body
    assert 'href="/lineage/en/2003-07-01/200.4a"' in body
    assert 'href="/concept/token"' in body
    assert 'href="/edition/en/2026-01-16/rule/111.2.ttl"' in body and 'href="/api/rule/en/2026-01-16/111.2"' in body


def test_a_french_rule_shows_beside_its_english_counterpart(corpus_kb, corpus_web):
    from rulekb.kb.service import run

    store, _ = corpus_kb
    translated = run(store, "rule-translation-of", edition="fr/2011-02-04", number="110.1")
    assert translated, "the build links each French rule to the English rule it translates (rk:translationOf)"
    english_iri = f'href="/edition/{translated[0]["en_edition"]}/rule/{translated[0]["en_number"]}"'
    status, page = get(corpus_web, "edition/fr/2011-02-04/rule/110.1")
    assert status == 200
    side = main(page).split('class="translations"', 1)[1]
    assert english_iri in side and 'lang="en"' in side
    _, english = get(corpus_web, "edition/en/2026-01-16/rule/110.1")
    side = main(english).split('class="translations"', 1)[1]
    assert 'href="/edition/fr/2011-02-04/rule/110.1"' in side and 'lang="fr"' in side


def test_a_rule_links_every_rule_its_text_cites(corpus_web):
    _, page = get(corpus_web, "edition/en/2026-01-16/rule/601.2b")
    text = main(page).split('class="rule-text">', 1)[1].split("</p>", 1)[0]
    for number in ("700.2", "702.47", "118.8", "118.9", "601.2f", "107.3"):
        assert f'<a class="cite" href="/edition/en/2026-01-16/rule/{number}">{number}</a>' in text


def test_a_dangling_citation_is_marked(corpus_web):
    _, page = get(corpus_web, "edition/en/2005-08-01/rule/421.4")
    assert re.search(r'<span class="dangling"[^>]*>102\.6</span>', page)


def test_search_finds_a_known_phrase_in_the_newest_edition(corpus_web):
    status, page = get(corpus_web, "search?q=summoning+sickness")
    assert status == 200
    assert "<mark>summoning sickness</mark>" in page.lower()
    assert re.search(r'href="/edition/en/2026-01-16/rule/302\.6"', page)


def test_unknown_rule_of_a_real_edition_is_a_404_page(corpus_web):
    status, page = get(corpus_web, "edition/en/2026-01-16/rule/999.9")
    assert status == 404 and "<html" in page


def test_edition_page_links_its_neighbours_and_the_diff(corpus_web):
    status, page = get(corpus_web, "edition/en/2025-11-14")
    assert status == 200
    assert 'href="/edition/en/2025-09-19"' in page and 'href="/edition/en/2026-01-16"' in page
    assert 'href="/diff?old=en/2025-09-19&amp;new=en/2025-11-14"' in page


def test_concept_page_shows_both_languages_and_glossary_history(corpus_web):
    status, page = get(corpus_web, "concept/owner")
    assert status == 200
    assert "propriétaire" in page
    assert 'href="/edition/en/2026-01-16/rule/111.2"' in page


# -- the segmenting that keeps text inert ------------------------------------------

_TAG = re.compile(r'<a class="cite" href="[^"<>]*">|</a>|<span class="dangling" title="[^"<>]*">|</span>'
                  r"|</?mark>|</?ins>|</?del>")


def _render(segments) -> str:
    template = environment().from_string('{% from "_segments.html" import segments with context %}{{ segments(x) }}')
    return template.render(href=WebContext.create(None).href, ctx=None, x=segments)


@settings(max_examples=200, deadline=None)
@given(text=st.text(), query=st.text(min_size=1, max_size=5))
def test_highlighted_text_never_yields_an_unescaped_tag(text, query):
    rendered = _render(highlight(text, query))
    assert "<" not in _TAG.sub("", rendered)
    assert html.unescape(_TAG.sub("", rendered)) == text


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("<>&\"' rule.0123abc"))), cited=st.text(max_size=12),
       number=st.sampled_from(["1", "101", "101.2", "101.2a", "<b>"]), dangling=st.booleans())
def test_linked_citations_never_yield_an_unescaped_tag(text, cited, number, dangling):
    target = None if dangling else f"http://localhost:8000/edition/en/x/rule/{number}"
    rendered = _render(link_citations(text + cited, [Citation(cited, {number: target})]))
    assert "<" not in _TAG.sub("", rendered)
    assert html.unescape(_TAG.sub("", rendered)) == text + cited


def test_word_diff_segments_mark_inserted_and_deleted_words():
    rendered = _render(diff_segments([("=", "A"), ("-", "<old>"), ("+", "new & better")]))
    assert rendered == "A <del>&lt;old&gt;</del> <ins>new &amp; better</ins>"

"""HTML pages -> the same layout parsers as text (ingest.formats.html).

Fixtures under tests/fixtures/html/ are invented pages in the shapes rules sites
use (see the README there); the rules in them were written for these tests.
"""

from __future__ import annotations

import time
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekb.ingest import formats, language
from rulekb.ingest.errors import IngestError, NotRulesError
from rulekb.ingest.formats.html import lines
from rulekb.ingest.parse import parse_bytes
from rulekb.ingest.render import round_trip

from ..helpers import run_cli

HTML = Path(__file__).parents[1] / "fixtures" / "html"


def parse(name: str):
    data = (HTML / name).read_bytes()
    return parse_bytes(data, str(HTML / name)), formats.read(data, str(HTML / name))


def numbers_of(edition) -> list[str]:
    return [r.number for r in edition.rules]


def all_text(edition) -> str:
    parts = [*edition.front_matter, *edition.back_matter, *(u.text for u in edition.unplaced)]
    parts += [r.text for r in edition.rules] + [e for r in edition.rules for e in r.examples]
    parts += [s.title for s in edition.sections] + [p.title for p in edition.parts]
    return "\n".join(parts)


# -- fixtures: one page, one or two editions ------------------------------------


def test_site_page_with_numbers_in_their_own_elements():
    [edition], doc = parse("site_fr_page.html")
    assert (edition.id, edition.source.format, edition.source.layout) == ("fr/2031-02-01", "html", "lotusnoir")
    assert numbers_of(edition) == ["960.1", "960.1a", "960.2", "960.3"]
    assert edition.rule("960.1").text.startswith("Une partie de brume se joue")
    assert edition.rule("960.2").examples == [
        "Si la carte révélée est une carte de brouillard épais, aucune créature ne peut attaquer pendant ce tour."
    ]
    assert edition.rule("960.3").text.endswith("jusqu’à la fin du tour, puis elle est mise sous le jeu de brume (cf. règle 960.1a).")
    assert [(s.number, s.title) for s in edition.sections] == [("960", "Partie de brume")]
    assert "960.9" not in doc.text and "Connexion" not in doc.text and "Sommaire" not in doc.text
    assert "Règles US [15/03/2031] Règles FR [01/02/2031]" in doc.lines  # kept from <header>: it dates the rules
    assert round_trip(edition, doc.text).ok


def test_definition_list_page_with_examples_run_into_the_text():
    [edition], doc = parse("site_us_page.html")
    assert (edition.id, edition.language) == ("en/2031-03-15", "en")
    assert numbers_of(edition) == ["960.1", "960.1a", "960.2", "960.3"]
    assert edition.rule("960.2").text == "At the beginning of each turn, the active player reveals the top card of the mist deck."
    assert edition.rule("960.2").examples == ["If the revealed card is a thick fog card, no creature can attack that turn."]
    assert [s.title for s in edition.sections] == ["Mist Games"]
    assert round_trip(edition, doc.text).ok


def test_side_by_side_table_gives_a_french_and_an_english_edition():
    editions, doc = parse("side_by_side_table.html")
    by_lang = {e.language: e for e in editions}
    assert {e.id for e in editions} == {"fr/2031-02-01", "en/2031-03-15"}
    for lang, edition in by_lang.items():
        assert numbers_of(edition) == ["960.1", "960.1a", "960.2"]
        assert all(language.guess(r.text) == lang for r in edition.rules)
        assert "truncated" not in [w.code for w in edition.warnings]
    # emitted one column after the other, never interleaved
    french_end = max(i for i, line in enumerate(doc.lines) if line.startswith("960.") and language.guess(line) == "fr")
    english_start = min(i for i, line in enumerate(doc.lines) if line.startswith("960.") and language.guess(line) == "en")
    assert french_end < english_start


def test_two_language_columns_each_dated_by_their_own_statement():
    editions, _ = parse("two_columns.html")
    assert sorted(e.id for e in editions) == ["en/2031-03-15", "fr/2031-02-01"]
    for edition in editions:
        assert numbers_of(edition) == ["960.1", "960.2"]
        assert edition.source.layout == "forum"


def test_interleaved_grid_is_read_column_by_column():
    editions, doc = parse("interleaved_grid.html")
    assert sorted(e.id for e in editions) == ["en/undated-interleaved_grid", "fr/undated-interleaved_grid"]
    rule_lines = [line for line in doc.lines if line.startswith("960.")]
    assert [language.guess(line) for line in rule_lines] == ["fr"] * 3 + ["en"] * 3
    for edition in editions:
        assert numbers_of(edition) == ["960.1", "960.1a", "960.2"]
        assert "undated" in [w.code for w in edition.warnings]


def test_forum_thread_keeps_the_quoted_rules_and_the_post_date():
    [edition], _ = parse("forum_thread.html")
    assert edition.id == "fr/2009-03-03"  # Zorglub's post, not Bidule's reply
    assert numbers_of(edition) == ["430.1", "430.2", "430.3"]
    assert [(s.number, s.title) for s in edition.sections] == [("430", "Jetons de brume")]
    assert edition.rule("430.3").examples == ["Un effet renvoie un jeton de brume dans la main d'un joueur. Le jeton cesse d'exister."]
    text = " ".join(r.text for r in edition.rules)
    for chatter in ("Salut", "Voilà", "Zorglub", "Merci", "Inscrit"):
        assert chatter not in text


def test_rules_document_as_html_is_read_by_the_official_layout():
    [edition], doc = parse("official_dl.html")
    assert (edition.id, edition.source.layout, edition.title) == ("en/2031-05-05", "official", "Demo Game Comprehensive Rules")
    assert numbers_of(edition) == ["960.1", "960.1a", "960.2", "961.1"]
    assert edition.rule("960.2").examples == ["If the revealed card is a thick fog card, no creature can attack that turn."]
    assert [(g.term, g.refs) for g in edition.glossary] == [("Mist Deck", ["960.1"]), ("Lantern Counter", ["961.1"])]
    assert edition.warnings == []
    assert round_trip(edition, doc.text).ok


def test_article_page_with_byline_and_next_part_footer():
    [edition], doc = parse("article.html")
    assert (edition.id, edition.source.layout) == ("fr/2031-04-02", "article")
    assert edition.front_matter == ["REGLES : 9. BRUME (1/2)", "Écrit par Plume le mercredi 2 avril 2031"]
    assert edition.back_matter == ["Suite (2/2) de la neuvième partie des règles : 9. BRUME"]
    assert edition.rule("960.3").printed == "960.3"
    assert edition.rule("960.3").text.endswith("\nNote : les cartes de brume ne sont jamais mélangées pendant la partie.")
    assert [s.number for s in edition.sections] == ["960", "961"]
    assert round_trip(edition, doc.text).ok


def test_hostile_page_gives_only_its_visible_rules():
    [edition], doc = parse("hostile.html")
    assert numbers_of(edition) == ["430.1", "430.2"]
    assert edition.rule("430.1").text == "Un jeton de brume est un objet qui n'est ni une carte ni un permanent. Il est créé par un effet."
    for hidden in ("430.3", "430.4", "430.5", "430.6", "430.7", "430.8", "430.9", "injecté", "piege", "onload"):
        assert hidden not in doc.text
    assert "pièges & débris" in doc.text  # entities decoded
    assert "profond" in doc.lines and "cellule imbriquée" in doc.lines


def test_ordinary_web_page_is_refused():
    with pytest.raises(NotRulesError, match="no numbered rules"):
        parse("not_rules.html")
    result = run_cli("parse", str(HTML / "not_rules.html"))
    assert result.returncode == 2
    assert result.stderr.startswith("rulekb: error: ") and len(result.stderr.strip().splitlines()) == 1


def test_table_of_contents_page_is_refused():
    with pytest.raises(NotRulesError, match="only a table of contents"):
        parse("toc_only.html")


# -- the reader on small inputs ----------------------------------------------------


def test_blocks_are_lines_and_inline_elements_run_together():
    assert lines("<p>Un <b>sort</b> est <i>une</i> carte.</p><div>Deux</div>") == ["Un sort est une carte.", "", "Deux"]
    assert lines("<p>a<br>b</p>") == ["a", "b"]
    assert lines("<p>a&nbsp;&nbsp; b</p>") == ["a b"]


def test_a_rule_number_in_its_own_element_is_joined_to_its_text():
    assert lines('<span class="num">111.1.</span><p>Texte.</p>') == ["111.1. Texte."]
    assert lines("<dl><dt>111.1a</dt><dd>Texte.</dd></dl>") == ["111.1a Texte."]
    assert lines("<p><b>111.2.</b>Glued text.</p>") == ["111.2. Glued text."]
    assert lines("<table><tr><td>111.3.</td><td>Cell text.</td></tr></table>") == ["111.3. Cell text."]


def test_preformatted_text_keeps_its_lines():
    assert lines("<pre>111.1. a\n111.2. b</pre>") == ["111.1. a", "111.2. b"]


def test_chrome_is_dropped_but_a_rules_date_in_it_is_kept():
    page = "<header><a>Accueil</a><p>Ces règles entrent en vigueur au 1er février 2031.</p></header><p>Corps</p><footer>Pied</footer>"
    assert lines(page) == ["Ces règles entrent en vigueur au 1er février 2031.", "", "Corps"]
    assert lines('<nav role="navigation">111.1. Menu</nav><div role="navigation">111.2. x</div><p>ok</p>') == ["ok"]


def test_same_language_table_is_read_row_by_row():
    page = "<table><tr><td>111.1.</td><td>Un sort est une carte.</td></tr><tr><td>111.2.</td><td>Le sort est la carte.</td></tr></table>"
    assert [line for line in lines(page) if line] == ["111.1. Un sort est une carte.", "111.2. Le sort est la carte."]


def test_deep_nesting_neither_crashes_nor_takes_long():
    for page in ("<div>" * 100_000 + "111.1. profond" + "</div>" * 100_000, "<table><tr><td>" * 2_000 + "x"):
        start = time.monotonic()
        assert "profond" in " ".join(lines(page)) or "x" in lines(page)
        assert time.monotonic() - start < 20


# -- generated hostile HTML ----------------------------------------------------------

LEAK = "LEAKMARK"
_TAGS = ["div", "p", "span", "b", "table", "tr", "td", "th", "dl", "dt", "dd", "ul", "li", "pre", "h1", "header",
         "nav", "footer", "aside", "section", "x-rule", "font", "blockquote", "br", "hr", "form"]
_words = st.sampled_from(["Un sort est une carte.", "A spell is a card.", "Exemple :", "Example:", "Règles FR [04/02/2011]",
                          "Règles US [30/09/2011]", "Ecrit par X le lundi 14 avril 2008", "Glossary", "111. Sorts : Titre",
                          "&amp;", "&#0;", "&bogus;", "&#x1F600;", "<", ">", "]]>", "<!--", "é", " "])
_numbers = st.from_regex(r"\A\d{1,3}\.(\d{1,3}[a-z]?\.?)? ?\Z")
_text = st.lists(st.one_of(_words, _numbers, st.text(max_size=15)), max_size=5).map(" ".join)
_secret = st.sampled_from(["script", "style", "template", "noscript"]).map(
    lambda tag: f"<{tag}>111.1. {LEAK} rule in a {tag}</{tag}>"
) | st.just(f"<!-- 111.2. {LEAK} in a comment -->") | st.just(f'<div hidden>111.3. {LEAK}</div>')


def _element(children):
    def build(tag, attrs, body, closed):
        inner = "".join(body)
        return f"<{tag}{attrs}>{inner}" + (f"</{tag}>" if closed else "")

    return st.builds(
        build, st.sampled_from(_TAGS), st.sampled_from(["", ' class="num"', ' lang="fr"', ' style="x"', " data-x='<'"]),
        st.lists(children, max_size=4), st.booleans(),
    )


_sentences = st.sampled_from([
    "Un sort est une carte sur la pile et le joueur la lance.",
    "A spell is a card on the stack and the player casts it.",
    "Exemple : Le joueur actif choisit une carte de sa main.",
    "Example: The active player chooses a card in his or her hand.",
    "le texte continue ici sans majuscule",
])
_rule = st.builds("{} {}".format, st.from_regex(r"\A\d{3}\.\d{1,2}[a-z]?\.?\Z"), _sentences)
_html = st.recursive(st.one_of(_text, _secret, _rule, _rule), _element, max_leaves=25)
_HEADS = ["", "<p>Règles US [30/09/2011] Règles FR [04/02/2011]</p><h1>111. Concepts du Jeu : Sorts</h1>",
          "<h1>Demo Comprehensive Rules</h1><p>These rules are effective as of May 5, 2031.</p>",
          "<h1>REGLES : 1. TEST</h1><p>Ecrit par X le lundi 14 avril 2008</p><h2>111. Sorts</h2>"]


@settings(
    max_examples=200,
    deadline=timedelta(seconds=5),  # generous for a slow CI machine; a hang fails, a slow parse does not flake
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.booleans(), st.sampled_from(_HEADS), st.lists(_html, min_size=1, max_size=6))
def test_generated_html_is_parsed_or_refused_and_never_leaks_script(wrapped, head, body):
    page = head + "".join(body)
    if wrapped:
        page = f"<!DOCTYPE html><html><head><script>var r = '111.4. {LEAK}';</script></head><body>{page}</body></html>"
    try:
        editions = parse_bytes(page.encode("utf-8"), "fuzz.html")
    except IngestError as exc:
        assert str(exc)
        return
    assert editions
    for edition in editions:
        if edition.source.format == "html":
            assert LEAK not in all_text(edition)

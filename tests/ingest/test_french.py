"""The French corpus (corpus/fr): rules-site pages, the 2008 article, the official
translations' openings, rules quoted in forums, and pages that hold no rules.

Every file either parses to the edition the MANIFEST describes (id, language,
the rule numbers it covers) or, for no-rules/, is refused with a clear reason.
The corpus is read in place, never copied; the date and language helpers at
the end need no corpus.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest

from rulekb.ingest import dates, formats, language, numbers
from rulekb.ingest.errors import NotRulesError
from rulekb.ingest.parse import parse_bytes, parse_path
from rulekb.ingest.render import normalise_words, round_trip

from ..helpers import manifest_rows, run_cli


ROWS = manifest_rows("fr", "path")
RULE_ROWS = [r for r in ROWS if not r["path"].startswith("no-rules/")]
NO_RULE_ROWS = [r for r in ROWS if r["path"].startswith("no-rules/")] or ROWS[:1]

# Forum pages: the rules date or the post's own date, else undated (LANG/undated-<stem>).
FORUM_DATES = {
    "forum_laterredesmillejeux_t739_806_troll": "2013-07-13",  # "MessageSujet: … 13.07.13 13:18"
    "magiccorporation_article_283_mal-d-invocation": "2015-08-20",  # "Posté le 20/08/2015"
    "magiccorporation_forum_3-17025_old310": "2003-12-26",  # the post holding the rules
    "magiccorporation_forum_3-19308_old403-404": "2004-02-27",  # "Envoyé par Cromat le Vendredi 27 Février 2004"
    "smfcorp_lexique_9852_permanent_old214": "2008-11-09",  # "Lexique 09/11/2008"
}


def expected_ids(row: dict) -> dict[str, str]:
    """{language: edition id} the file must parse to."""
    path = row["path"]
    stem = Path(path).stem
    if path.startswith("lotusnoir/") or path.startswith("seeds/000") or path.startswith("seeds/002"):
        lang = row["language"]
        return {lang: f"{lang}/2011-02-04" if lang == "fr" else f"{lang}/2011-09-30"}
    if path.startswith("seeds/001"):
        return {"fr": "fr/2008-04-14"}
    if path.startswith("official/"):
        return {"fr": f"fr/{dates.from_name(stem)}"}
    langs = ["fr", "en"] if row["language"] == "fr+en" else [row["language"]]
    date = FORUM_DATES.get(stem)
    return {lang: f"{lang}/{date}" if date else f"{lang}/undated-{stem}" for lang in langs}


@lru_cache(maxsize=None)
def _parsed(path: str):
    data = Path(path).read_bytes()
    return parse_bytes(data, path), formats.read(data, path)


def parsed(corpus: Path, row: dict):
    return _parsed(str(corpus / "fr" / row["path"]))


def _range_ends(segment: str) -> tuple[str, str] | None:
    m = re.match(r"\s*(\d{3}\.\d+[a-z]?)(?:\s*-\s*(\d{3}\.\d+[a-z]?))?", segment)
    return (m.group(1), m.group(2) or m.group(1)) if m else None


def covered(row: dict) -> dict[str | None, list[tuple[str, str]]]:
    """The MANIFEST's "rules it covers" as (first, last) ranges, per language
    when it says so ("702.10a-702.10d (FR), 702.10a-702.10c (EN, truncated)")."""
    text = row["approx_rule_numbers_covered"]
    out: dict[str | None, list[tuple[str, str]]] = {}
    for segment in re.split(r",\s*(?=\d)", text):
        ends = _range_ends(segment)
        if ends:
            lang = "fr" if "(FR)" in segment else "en" if "(EN" in segment else None
            out.setdefault(lang, []).append(ends)
    return out


def _base(number: str) -> str:
    return number[:-1] if number[-1].isalpha() else number


def _within(number: str, ranges: list[tuple[str, str]]) -> bool:
    key = numbers.sort_key(number)
    return any(numbers.sort_key(_base(a)) <= key <= numbers.sort_key(b) for a, b in ranges)


def check_rule_numbers(edition, row: dict) -> None:
    ranges = covered(row)
    ranges = ranges.get(edition.language) or ranges.get(None) or []
    got = [r.number for r in edition.rules]
    if "numbers missing" in row["approx_rule_numbers_covered"] or not ranges:
        assert got == [], f"{row['path']}: expected no numbered rules, got {got}"
        return
    for first, last in ranges:
        assert first in got and last in got, f"{row['path']}: {first}-{last} not both in {got}"
    mentioned = set(re.findall(r"\d{3}\.\d+[a-z]?", row["approx_rule_numbers_covered"]))
    truncated = {w.message for w in edition.warnings if w.code == "truncated"}
    for i, number in enumerate(got):
        cut_last = i == len(got) - 1 and any(number in message for message in truncated)
        assert _within(number, ranges) or number in mentioned or cut_last, f"{row['path']}: unexpected rule {number}"


def occurs_in_order(edition, source_text: str) -> list[str]:
    """Rules whose text is not found, in page order, in the source's words."""
    words = normalise_words(source_text)
    joined = " " + " ".join(words) + " "
    position, missing = 0, []
    for rule in edition.rules:
        needle = " " + " ".join(normalise_words(rule.text)) + " "
        found = joined.find(needle, position)
        if found < 0:
            missing.append(rule.number)
        else:
            position = found + len(needle) - 1
    return missing


# -- every file --------------------------------------------------------------


@pytest.mark.corpus
@pytest.mark.parametrize("row", RULE_ROWS, ids=lambda r: r["path"])
def test_each_french_file_parses_to_its_edition_and_language(corpus, row):
    editions, _ = parsed(corpus, row)
    assert {e.language: e.id for e in editions} == expected_ids(row)
    for edition in editions:
        assert edition.partial
        assert edition.source.location.endswith(row["path"])


@pytest.mark.corpus
@pytest.mark.parametrize("row", RULE_ROWS, ids=lambda r: r["path"])
def test_each_french_file_holds_the_rules_its_manifest_lists(corpus, row):
    editions, _ = parsed(corpus, row)
    for edition in editions:
        check_rule_numbers(edition, row)


@pytest.mark.corpus
@pytest.mark.parametrize(
    "row", [r for r in RULE_ROWS if not r["path"].startswith("forums/")] or ROWS[:1], ids=lambda r: r["path"]
)
def test_whole_pages_round_trip_word_for_word(corpus, row):
    editions, doc = parsed(corpus, row)
    [edition] = editions
    result = round_trip(edition, "\n".join(doc.lines))
    assert result.ok, str(result)


@pytest.mark.corpus
@pytest.mark.parametrize(
    "row", [r for r in RULE_ROWS if r["path"].startswith("forums/")] or ROWS[:1], ids=lambda r: r["path"]
)
def test_forum_rules_occur_in_order_in_the_page(corpus, row):
    editions, doc = parsed(corpus, row)
    for edition in editions:
        assert edition.source.layout == "forum"
        assert occurs_in_order(edition, "\n".join(doc.lines)) == []


@pytest.mark.corpus
@pytest.mark.parametrize("row", NO_RULE_ROWS, ids=lambda r: r["path"])
def test_pages_with_only_a_table_of_contents_are_refused(corpus, row):
    path = corpus / "fr" / row["path"]
    with pytest.raises(NotRulesError, match="only a table of contents"):
        parse_bytes(path.read_bytes(), str(path))


@pytest.mark.corpus
def test_refusals_exit_2_with_one_line(corpus):
    for path in (corpus / "fr" / "no-rules" / "magicville_702.34_TOC.txt", corpus / "other" / "Rulings-Summaries-1999-04-21.txt"):
        result = run_cli("parse", str(path))
        assert result.returncode == 2
        assert result.stderr.startswith("rulekb: error: ")
        assert len(result.stderr.strip().splitlines()) == 1
    assert "table of contents" in run_cli("parse", str(corpus / "fr" / "no-rules" / "magicville_702.34_TOC.txt")).stderr
    assert "rulings summary" in run_cli("parse", str(corpus / "other" / "Rulings-Summaries-1999-04-21.txt")).stderr


# -- the rules site (lotusnoir) ----------------------------------------------


def _one(corpus: Path, relative: str):
    path = corpus / "fr" / relative
    [edition] = parse_bytes(path.read_bytes(), str(path))
    return edition


@pytest.mark.corpus
def test_site_pages_of_one_edition_combine_into_one_edition_per_language(corpus):
    result = parse_path(corpus / "fr" / "lotusnoir")
    assert result.failures == []
    by_id = {e.id: e for e in result.editions}
    assert sorted(by_id) == ["en/2011-09-30", "fr/2011-02-04"]
    french, english = by_id["fr/2011-02-04"], by_id["en/2011-09-30"]
    fr_pages = sorted((corpus / "fr" / "lotusnoir").glob("*_FR.txt"))
    assert len(fr_pages) == 17 and len(french.sources) == 17
    page_rules = [r.number for page in fr_pages for r in _one(corpus, f"lotusnoir/{page.name}").rules]
    assert [r.number for r in french.rules] == sorted(page_rules, key=numbers.sort_key)
    assert french.rule("702.2e") is not None  # read back from the page's misprinted second "702.2d"
    assert len(english.sources) == 32 and english.language == "en"
    assert {s.number for s in french.sections} >= {"110", "119", "702", "903"}
    assert [u.text[:27] for u in english.unplaced] == ["The color indicator is prin", "An object with a color indi"]


@pytest.mark.corpus
def test_site_page_title_gives_part_and_section(corpus):
    edition = _one(corpus, "seeds/000_4742dacff0dcd688.txt")
    assert [(p.number, p.title) for p in edition.parts] == [("1", "Concepts du Jeu")]
    assert [(s.number, s.title) for s in edition.sections] == [("111", "Sorts")]
    assert edition.title == "Règles complètes de Magic: The Gathering"
    assert edition.front_matter[1] == "Règles US [30/09/2011] Règles FR [04/02/2011]"
    rule = edition.rule("111.4")
    assert rule.examples and rule.examples[0].startswith("Si un effet modifie la couleur")
    assert rule.parent == "111"


@pytest.mark.corpus
def test_english_site_pages_split_examples_run_into_the_text(corpus):
    edition = _one(corpus, "lotusnoir/lotusnoir_c101_US.txt")
    rule = edition.rule("101.2")
    assert "Example" not in rule.text
    assert rule.examples[0].startswith("If one effect reads")


@pytest.mark.corpus
def test_a_page_cut_mid_rule_warns_truncated(corpus):
    edition = _one(corpus, "lotusnoir/lotusnoir_c110_FR.txt")
    warning = next(w for w in edition.warnings if w.code == "truncated")
    assert "110.4a" in warning.message
    complete = _one(corpus, "lotusnoir/lotusnoir_c407_FR.txt")
    assert "truncated" not in [w.code for w in complete.warnings]


@pytest.mark.corpus
def test_introduction_page_is_a_warning_not_a_refusal(corpus):
    edition = _one(corpus, "lotusnoir/lotusnoir_c1_US.txt")
    assert edition.id == "en/2011-09-30" and edition.rules == []
    assert [w.code for w in edition.warnings] == ["no-rules"]
    assert any(line.startswith("This document is designed") for line in edition.front_matter)


@pytest.mark.corpus
def test_page_without_rule_numbers_is_english_and_keeps_its_text_unplaced(corpus):
    edition = _one(corpus, "lotusnoir/lotusnoir_c204_noV_mixed.txt")
    assert (edition.id, edition.language) == ("en/2011-09-30", "en")
    assert edition.rules == [] and edition.sections == []  # no invented numbers, no French headings
    assert [u.text[:19] for u in edition.unplaced] == ["The color indicator", "An object with a co"]
    codes = [w.code for w in edition.warnings]
    assert "mixed-language" in codes and codes.count("unnumbered") == 2


@pytest.mark.corpus
def test_a_cross_reference_the_site_cut_into_a_fake_rule_stays_text(corpus):
    edition = _one(corpus, "lotusnoir/lotusnoir_c616_US.txt")
    assert [r.number for r in edition.rules].count("616.1d") == 1
    assert edition.rule("616.1c").text.endswith("proceed to rule 616.1d .")
    assert "split-reference" in [w.code for w in edition.warnings]


# -- the 2008 article --------------------------------------------------------


@pytest.mark.corpus
def test_article_is_named_by_its_publication_date_and_keeps_old_numbers(corpus):
    edition = _one(corpus, "seeds/001_4995f1f7639ca1f2.txt")
    assert edition.id == "fr/2008-04-14" and edition.source.layout == "article"
    assert [s.number for s in edition.sections] == [str(n) for n in range(200, 211)]
    assert (edition.rules[0].number, edition.rules[-1].number) == ("200.1", "210.1c")
    assert edition.rule("201.1").printed == "201.1"  # printed without its dot
    assert edition.rule("200.1a").printed == "200.1a."
    assert edition.rule("202.2a").examples[0].startswith("un capacité a pour texte")
    assert "publication-date" in [w.code for w in edition.warnings]


@pytest.mark.corpus
def test_article_byline_and_footer_are_not_rules(corpus):
    edition = _one(corpus, "seeds/001_4995f1f7639ca1f2.txt")
    assert edition.front_matter == ["REGLES: 2. CARTES (1/2)", "Ecrit par Toutenkarton le lundi 14 avril 2008"]
    assert edition.back_matter == ["Suite (2/2) de la deuxième partie des règles : 2. CARTES"]
    everything = " ".join(r.text + " ".join(r.examples) for r in edition.rules)
    assert "Toutenkarton" not in everything and "Suite (2/2)" not in everything
    assert edition.rule("210.1c").text.endswith("suivant immédiatement le texte légal.")


# -- official translations ----------------------------------------------------


@pytest.mark.corpus
@pytest.mark.parametrize(
    "name, title",
    [
        ("official_fr_2006-05-01_excerpt.txt", "Magic : L'Assemblée ® – Règles Complètes"),
        ("official_fr_2010-02-01_excerpt.txt", "Les règles complètes de Magic: The Gathering"),
        ("official_fr_2014-05-01_excerpt.txt", "Les règles complètes de Magic: The Gathering"),
        ("scribd_fr_2019-01-25_excerpt.txt", "Les règles complètes de Magic : The Gathering"),
        ("thegandalf_fr_2004-06-01_excerpt.txt", "Magic : L'Assemblée® Règles Complètes"),
    ],
)
def test_official_openings_are_named_editions_with_a_no_rules_warning(corpus, name, title):
    edition = _one(corpus, f"official/{name}")
    assert edition.source.layout == "official"
    assert edition.language == "fr" and edition.effective_date == dates.from_name(name)
    assert edition.title == title  # not the stray "59" or the viewer's "page 1 sur 197"
    assert [w.code for w in edition.warnings] == ["no-rules"]


# -- forums ------------------------------------------------------------------


@pytest.mark.corpus
def test_forum_extraction_keeps_the_quoted_rules_and_drops_the_chatter(corpus):
    edition = _one(corpus, "forums/magiccorporation_forum_3-19308_old403-404.txt")
    assert edition.id == "fr/2004-02-27"
    assert [r.number for r in edition.rules] == ["403.1", "403.2", "404.1", "404.2", "404.3"]
    assert [(s.number, s.title) for s in edition.sections] == [("403", "Capacités activées"), ("404", "Capacités déclenchées")]
    assert "Cromat" not in " ".join(r.text for r in edition.rules)
    chatty = _one(corpus, "forums/duelcorp_forum_t3p25_old301-302.txt")
    assert [r.number for r in chatty.rules] == ["301.1", "302.1", "302.2", "302.3"]  # not the "139.99 €" price
    text = " ".join(r.text for r in chatty.rules)
    assert "Revenir en haut" not in text and "Admin" not in text


@pytest.mark.corpus
def test_forum_rule_continued_on_following_lines_is_joined(corpus):
    edition = _one(corpus, "forums/magicville_faq62_mal-d-invocation_302.6.txt")
    rule = edition.rule("302.6")
    assert "symbole d'engagement ( ) ou de dégagement ( ) dans son coût" in rule.text
    assert "On remarque" not in rule.text  # the commentary after it is not the rule
    layered = _one(corpus, "forums/magiccorporation_forum_3-79767_old418.5a.txt")
    assert "Au sein des couches 1 à 5" in layered.rule("418.5a").text  # between the rule and its example
    assert layered.rule("418.5a").examples[0].startswith("Croisade est un enchantement")


@pytest.mark.corpus
def test_bilingual_forum_page_gives_a_french_and_an_english_edition(corpus):
    path = corpus / "fr" / "forums" / "smfcorp_lexique_9896_vigilance.txt"
    french, english = parse_bytes(path.read_bytes(), str(path))
    assert (french.id, english.id) == ("fr/undated-smfcorp_lexique_9896_vigilance", "en/undated-smfcorp_lexique_9896_vigilance")
    assert [r.number for r in french.rules] == [r.number for r in english.rules] == ["702.18", "702.18a", "702.18b", "702.18c"]
    assert all(language.guess(r.text) in ("fr", None) for r in french.rules)
    assert all(language.guess(r.text) in ("en", None) for r in english.rules)
    assert english.rule("702.18a").text.startswith("Vigilance is a static ability")
    for edition in (french, english):
        assert edition.effective_date is None
        [warning] = [w for w in edition.warnings if w.code == "undated"]
        assert "translation-report" in warning.message


@pytest.mark.corpus
def test_forum_keyword_title_rule_goes_with_the_language_of_its_subrules(corpus):
    path = corpus / "fr" / "forums" / "smfcorp_lexique_9909_vol.txt"
    french, english = parse_bytes(path.read_bytes(), str(path))
    assert (french.rule("702.9").text, english.rule("702.9").text) == ("Vol", "Flying")


@pytest.mark.corpus
def test_forum_date_is_the_date_of_the_post_holding_the_rules(corpus):
    edition = _one(corpus, "forums/magiccorporation_forum_3-17025_old310.txt")
    assert edition.effective_date == "2003-12-26"
    [warning] = [w for w in edition.warnings if w.code == "publication-date"]
    assert "2003-12-26" in warning.message


# -- dates and language (no corpus needed) -------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Ecrit par Toutenkarton le lundi 14 avril 2008", "2008-04-14"),
        ("Envoyé par Cromat le Vendredi 27 Février 2004 à 15:13", "2004-02-27"),
        ("Posté le 20/08/2015 par Pleykorn", "2015-08-20"),
        ("MessageSujet: Règles officielles du troll   13.07.13 13:18", "2013-07-13"),
        ("Lexique 09/11/2008", "2008-11-09"),
        ("Date d'inscription : 07/03/2007", None),  # a registration date is not a post date
        ("Inscrit le 16/11/2003", None),
        ("MessageSujet: Re: LES REGLES   Jeu 8 Mar - 12:18", None),  # no year
    ],
)
def test_french_byline_dates(text, expected):
    assert dates.french_byline_date(text) == expected


def test_rules_date_prefers_the_language_asked_for():
    text = "Ces règles entrent en vigueur au 1er février 2031.\nThese rules are effective as of March 15, 2031."
    assert dates.stated_rules_date(text, "fr") == "2031-02-01"
    assert dates.stated_rules_date(text, "en") == "2031-03-15"
    assert dates.stated_rules_date("Rien ici.", "fr") is None


def test_language_guess_abstains_without_evidence():
    assert language.guess("Vigilance") is None
    assert language.guess("Célérité") == "fr"
    assert language.guess("Flying is an evasion ability.") == "en"

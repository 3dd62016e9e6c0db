"""The official CR layout parser, on an invented rules text (tests/fixtures)."""

from __future__ import annotations

import textwrap

import pytest

from rulekb.ingest.errors import NotRulesError
from rulekb.ingest.parse import parse_bytes
from rulekb.ingest.render import render, round_trip

FIXTURE = "invented-cr-2030-05-05.txt"


@pytest.fixture(scope="module")
def text(fixtures) -> str:
    return (fixtures / FIXTURE).read_text(encoding="ascii")


def parse_text(text: str, name: str = FIXTURE, encoding: str = "utf-8"):
    [edition] = parse_bytes(text.encode(encoding), name)
    return edition


def test_edition_is_named_by_language_and_date(text):
    edition = parse_text(text)
    assert edition.id == "en/2030-05-05"
    assert edition.effective_date == "2030-05-05"
    assert edition.title == "Widget Duel Comprehensive Rules"
    assert edition.source.layout == "official"


def test_parts_sections_and_rules_are_read_in_order(text):
    edition = parse_text(text)
    assert [p.number for p in edition.parts] == ["1", "2"]
    assert [(s.number, s.title) for s in edition.sections] == [
        ("100", "General"), ("101", "Gadgets"), ("200", "General")]
    assert [r.number for r in edition.rules] == [
        "100.1", "100.1a", "100.1b", "100.2", "101.1", "101.2", "200.1", "200.1a", "200.1b", "200.1c"]


def test_rule_numbers_are_normalised_and_know_their_parent(text):
    edition = parse_text(text)
    assert edition.rule("100.1").parent == "100"
    assert edition.rule("100.1b").parent == "100.1"
    assert all(not r.number.endswith(".") for r in edition.rules)


def test_example_paragraphs_belong_to_their_rule(text):
    edition = parse_text(text)
    assert edition.rule("101.1").examples == [
        "Ana brings a Sprocket. Ana owns the Sprocket.",
        "Bo borrows Ana's Sprocket. Ana still owns it.",
    ]
    assert edition.rule("101.1").text.startswith("A gadget is a card on the table.")
    assert "Example" not in edition.rule("101.1").text


def test_an_indented_paragraph_continues_its_rule(text):
    edition = parse_text(text)
    assert edition.rule("100.2").text == (
        "Each duelist brings one deck of at least forty gadget cards.\n"
        "Decks with fewer cards are not legal; see rule 100.2a."
    )


def test_glossary_entries_keep_every_cited_rule(text):
    edition = parse_text(text)
    terms = {g.term: g for g in edition.glossary}
    assert set(terms) == {"Gadget", "Rusty"}
    assert terms["Gadget"].refs == ["101.1"]
    assert terms["Rusty"].definition.endswith('Older decks called it "oxidized."')


def test_table_of_contents_and_credits_are_kept_outside_the_rules(text):
    edition = parse_text(text)
    assert "Contents" in edition.front_matter
    assert edition.back_matter[0] == "Credits"
    assert not edition.warnings


def test_rendered_edition_round_trips_to_the_source(text):
    edition = parse_text(text)
    assert round_trip(edition, text).ok


def test_round_trip_notices_a_lost_word(text):
    edition = parse_text(text)
    edition.rule("101.2").text = edition.rule("101.2").text.replace("shiny, ", "")
    result = round_trip(edition, text)
    assert not result.ok
    assert "shiny" in result.differences[0]


def _hard_wrap(text: str, width: int = 50) -> str:
    out = []
    for line in text.split("\n"):
        out.extend(textwrap.wrap(line, width, break_long_words=False) if line.strip() else [""])
    return "\n".join(out)


def test_hard_wrapped_text_gives_the_same_rules(text):
    plain = parse_text(text)
    wrapped_text = _hard_wrap(text)
    assert wrapped_text.count("\n") > text.count("\n") + 10
    wrapped = parse_text(wrapped_text)
    assert [r.number for r in wrapped.rules] == [r.number for r in plain.rules]
    for a, b in zip(plain.rules, wrapped.rules):
        assert a.text.split() == b.text.split()
        assert [e.split() for e in a.examples] == [e.split() for e in b.examples]
    assert round_trip(wrapped, wrapped_text).ok


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "cp1252"])
@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_every_encoding_and_line_ending_reads_the_same(text, encoding, newline):
    fancy = text.replace('"Gadgets."', "\u201cGadgets.\u201d").replace("Ana's", "Ana\u2019s")
    data = fancy.replace("\n", newline).encode(encoding)
    [edition] = parse_bytes(data, FIXTURE)
    assert edition.rule("100.1").text.endswith("\u201cGadgets.\u201d")
    assert len(edition.rules) == 10
    if encoding in ("utf-16-le", "utf-16-be"):
        assert edition.source.encoding == encoding  # no BOM: recognised by its NUL bytes


def test_malformed_numbers_are_read_with_a_warning(text):
    bad = text.replace("200.1b The spin", "200.b The spin").replace("101.2. The", "101. 2 The")
    edition = parse_text(bad)
    assert edition.rule("200.1b").printed == "200.b"
    assert edition.rule("101.2").text.startswith("The supertypes")
    codes = [w.code for w in edition.warnings]
    assert codes.count("malformed-number") == 2
    assert round_trip(edition, bad).ok


def test_a_stray_line_is_kept_unplaced_with_a_warning(text):
    bad = text.replace("200.1a The wind step comes first.\n", "200.1a The wind step comes first.\nq\n")
    edition = parse_text(bad)
    assert [u.text for u in edition.unplaced] == ["q"]
    assert "unknown-line" in [w.code for w in edition.warnings]
    assert edition.rule("200.1a").text == "The wind step comes first."
    assert round_trip(edition, bad).ok


def test_truncated_text_parses_what_is_there_and_warns(text):
    cut = text[: text.index("Rusty\n")]
    edition = parse_text(cut)
    assert edition.partial
    assert [g.term for g in edition.glossary] == ["Gadget"]
    assert any(w.code == "truncated" for w in edition.warnings)
    cut_in_rules = text[: text.index("200.1b")]
    edition = parse_text(cut_in_rules)
    assert edition.partial and edition.rules[-1].number == "200.1a"


def test_a_text_with_no_date_is_named_by_its_file_name(text):
    undated = text.replace("These rules are effective as of May 5, 2030.", "")
    edition = parse_text(undated, name="rules-2031-01-02.txt")
    assert edition.id == "en/2031-01-02"
    assert any(w.code == "no-date" for w in edition.warnings)
    with pytest.raises(NotRulesError, match="no effective date"):
        parse_text(undated, name="rules.txt")


def test_a_file_name_date_that_disagrees_with_the_text_is_a_warning(text):
    edition = parse_text(text, name="CR-2030-05-09.txt")
    assert edition.id == "en/2030-05-09"
    assert edition.effective_date == "2030-05-05"
    assert [w.code for w in edition.warnings] == ["date-mismatch"]


def test_render_writes_the_modern_layout(text):
    rendered = render(parse_text(text))
    assert "\n\n100.1. A widget duel" in rendered
    assert "\n\n100.1a A two-duelist" in rendered
    assert "\n\nExample: Ana brings a Sprocket." in rendered

"""A publisher's small changes, by class: the same rules whatever bytes carry them.

The invented edition ``tests/fixtures/numbers/invented-cr-2021-04-01.txt`` (its rule 101.1 has
subrules a .. z, aa, ab) is re-encoded with a UTF-8 BOM and CRLF, its blank lines made of
any Unicode space, a rule's second paragraph joined by a Unicode line or paragraph separator,
zero-width characters dropped into words and numbers -- and must parse to the same rules.
A line that opens with a rule number and ends up inside another rule's text is a warning."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekb.ingest.decode import decode
from rulekb.ingest.parse import parse_bytes
from rulekb.ingest.render import round_trip

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "numbers"
TEXT = (FIXTURES / "invented-cr-2021-04-01.txt").read_text(encoding="utf-8")
# the text with one rule in two paragraphs, the way an edition prints it on two lines
SECOND = "Gadgets painted teal are teal gadgets."
TWO_PARAGRAPHS = TEXT.replace(f"{SECOND}\n", f"{SECOND}\nA teal gadget is never repainted.\n", 1)

SPACES = ["\u00a0", "\u2007", "\u202f", "\u3000", "\u2003", "\u2009", " \u00a0\t", "\u1680"]
SEPARATORS = ["\u2028", "\u2029", "\u0085", "\u2028  ", "\u2029\u00a0 ", "\r\u2028"]
ZERO_WIDTH = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"]


def _parse(text: str, data: bytes | None = None):
    [edition] = parse_bytes(data if data is not None else text.encode("utf-8"), "invented-cr-2021-04-01.txt")
    return edition


def _rules(edition) -> list[tuple]:
    return [(r.number, r.text, tuple(r.examples), r.parent) for r in edition.rules]


CLEAN = _parse(TEXT)
CLEAN_TWO = _parse(TWO_PARAGRAPHS)


def test_the_clean_text_has_its_two_letter_subrules():
    numbers = [r.number for r in CLEAN.rules]
    assert numbers[numbers.index("101.1z"):][:4] == ["101.1z", "101.1aa", "101.1ab", "101.2"]
    assert CLEAN.rule("101.1aa").text.startswith("Azure is a paint colour.")
    assert CLEAN.rule("101.1z").text == "Zinc is a paint colour. Gadgets painted zinc are zinc gadgets."
    assert CLEAN_TWO.rule("101.1t").text == f"Teal is a paint colour. {SECOND}\nA teal gadget is never repainted."
    assert not CLEAN.warnings


def test_a_bom_with_crlf_reads_the_same():
    data = b"\xef\xbb\xbf" + TEXT.replace("\n", "\r\n").encode("utf-8")
    edition = _parse(TEXT, data)
    assert edition.source.encoding == "utf-8-sig" and edition.source.line_endings == "CRLF"
    assert _rules(edition) == _rules(CLEAN)
    assert round_trip(edition, decode(data).text).ok


@pytest.mark.parametrize("space", SPACES, ids=[f"U+{ord(s[0]):04X}" for s in SPACES])
def test_blank_lines_of_any_unicode_space_are_blank(space):
    edition = _parse(TEXT.replace("\n\n", f"\n{space}\n"))
    assert _rules(edition) == _rules(CLEAN)
    assert not edition.warnings and not edition.unplaced


@pytest.mark.parametrize("separator", SEPARATORS, ids=[repr(s) for s in SEPARATORS])
def test_a_unicode_line_separator_inside_a_rule_is_a_paragraph_break(separator):
    joined = TWO_PARAGRAPHS.replace(f"{SECOND}\n", f"{SECOND}{separator}", 1)
    edition = _parse(joined)
    assert _rules(edition) == _rules(CLEAN_TWO)
    assert round_trip(edition, decode(joined.encode("utf-8")).text).ok


@pytest.mark.parametrize("mark", ZERO_WIDTH, ids=[f"U+{ord(m):04X}" for m in ZERO_WIDTH])
def test_zero_width_characters_vanish_from_words_and_numbers(mark):
    text = TEXT.replace("101.1aa Azure", f"101.1{mark}aa Az{mark}ure").replace("rules 101.1z-aa", f"rules 101.1z{mark}-aa")
    edition = _parse(text)
    assert _rules(edition) == _rules(CLEAN)


_LINES = TEXT.split("\n")
_variant = st.tuples(
    st.sampled_from(["bom", "none"]),
    st.sampled_from(["\n", "\r\n", "\r"]),
    st.lists(st.tuples(st.integers(0, len(_LINES) - 1), st.sampled_from(SPACES)), max_size=6),  # blank lines
    st.lists(st.tuples(st.integers(0, len(_LINES) - 1), st.integers(0, 40), st.sampled_from(ZERO_WIDTH)), max_size=6),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_variant)
def test_any_mix_of_the_classes_parses_to_the_same_rules(variant):
    bom, newline, spaces, marks = variant
    lines = list(_LINES)
    for index, space in spaces:
        if not lines[index].strip():
            lines[index] = space
    for index, at, mark in marks:
        line = lines[index]
        lines[index] = line[:at] + mark + line[at:]
    data = newline.join(lines).encode("utf-8")
    edition = _parse(TEXT, (b"\xef\xbb\xbf" if bom == "bom" else b"") + data)
    assert _rules(edition) == _rules(CLEAN)


# -- a line opening with a rule number, kept as text -------------------------------------------

WRAPPED = """Widget Duel Comprehensive Rules

These rules are effective as of April 1, 2021.

Introduction

This invented text is hard-wrapped, the way the oldest editions were printed.

1. Basics

100. General

100.1. A widget duel is played by two or more duelists, each
with one deck of gadget cards. Decks follow the paint rules; see rule
101.1ab. Colours not named there are not allowed in a widget
duel.

100.2. Each duelist starts with a hand of seven gadget cards and
shuffles the rest of the deck before the first turn begins. Any
duelist may look at the order of turns at any time.

101. Paint

101.1. Each gadget has one paint colour, chosen before the duel
starts, and it keeps that colour for the whole duel.

101.1ab Bronze is a paint colour. Gadgets painted bronze are bronze
gadgets, and bronze gadgets are never repainted by anyone.

Glossary

Paint
A gadget's colour. See rule 101.1.

Credits

Invented by the rulekb test suite. Not a real game.
"""


def test_a_line_opening_with_a_rule_number_kept_as_text_is_a_warning():
    edition = _parse(WRAPPED)
    assert [r.number for r in edition.rules] == ["100.1", "100.2", "101.1", "101.1ab"]
    assert "see rule 101.1ab. Colours not named" in edition.rule("100.1").text
    [warning] = [w for w in edition.warnings if w.code == "swallowed-number"]
    assert "101.1ab" in warning.message and "rule 100.1" in warning.message
    assert warning.line == WRAPPED.split("\n").index("101.1ab. Colours not named there are not allowed in a widget") + 1

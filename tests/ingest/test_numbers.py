"""The rule-number grammar (ingest/numbers.py): its parse/format round trip, its
fragments against its functions, and that no other module spells a rule number's shape."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulekb.ingest import numbers, refs

ROOT = Path(__file__).resolve().parents[2]
GRAMMAR = ROOT / "ingest" / "numbers.py"

# What a rule-number regex looks like in source: a three-digit section, a rule's one to
# three digits, a 100-999 section, a dotted number with a letter (in a plain or an f-string).
_TELLTALE = re.compile(
    r"\\d\{3\}|\\d\{\{3\}\}|\\d\{1,3\}|\\d\{\{1,3\}\}|\[1-9\]\\d\{2\}|\[1-9\]\\d\{\{2\}\}"
    r"|\\d\+\\\.\\d\+\[a-z\]|\\d\+\(\?:\\\.\\d\+\[a-z\]"
)


def _sources():
    for folder in ("ingest", "kb"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path != GRAMMAR and ".venv" not in path.parts:
                yield path


def test_the_telltale_finds_rule_number_regexes():
    for written in (r're.compile(r"\d{3}\.\d+")', r'rf"(?P<s>[1-9]\d{{2}})"', r'r"\d+\.\d+[a-z]*"',
                    r'r"(\d{1,3})\."', r'r"\d+(?:\.\d+[a-z]?)?"'):
        assert _TELLTALE.search(written), written
    assert _TELLTALE.search(GRAMMAR.read_text(encoding="utf-8"))  # the grammar itself has them
    for other in (r'r"\d{4}-\d{2}-\d{2}"', r'r"[1-9]\d{0,8}"', r'r"^\s*[A-Z]\.\d+(?:\.\d+)*\b"'):
        assert not _TELLTALE.search(other), other


def test_no_rule_number_regex_outside_the_grammar():
    found = []
    for path in _sources():
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _TELLTALE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{lineno}: {line.strip()}")
    assert not found, ("rule-number shapes belong in ingest/numbers.py (use its fragments or functions):\n"
                       + "\n".join(found))


_sections = st.integers(100, 999).map(str)
_parts = st.integers(1, 9).map(str)
_rules = st.integers(1, 999).map(str)
_letters = st.sampled_from(numbers.SUBRULE_LETTERS)
_valid = st.one_of(  # (st.builds would fill a NamedTuple's defaulted fields with any text)
    st.tuples(_parts, st.just(""), st.just("")),
    st.tuples(_sections, st.just(""), st.just("")),
    st.tuples(_sections, _rules, st.just("")),
    st.tuples(_sections, _rules, _letters),
).map(lambda t: numbers.Parts(*t))


@given(_valid)
def test_format_then_parse_is_the_identity(parts):
    number = numbers.format(parts)
    assert numbers.parse(number) == parts
    assert numbers.is_valid(number)
    assert numbers.normalise(f" {number}. ") == number
    assert numbers.is_heading(number) == (not parts.rule)
    assert numbers.is_section(number) == (not parts.rule and len(parts.head) == 3)
    assert numbers.is_part(number) == (len(parts.head) == 1)
    assert numbers.is_subrule(number) == bool(parts.letter)


@given(st.text(alphabet="0123456789.abclo ", max_size=12))
def test_parse_accepts_what_is_valid_and_round_trips(text):
    parts = numbers.parse(text)
    assert (parts is not None) == numbers.is_valid(text)
    if parts is not None:
        assert numbers.format(parts) == text


@given(_valid)
def test_the_fragments_agree_with_parse(parts):
    number = numbers.format(parts)
    rule, letter = bool(parts.rule), bool(parts.letter)
    assert bool(re.fullmatch(numbers.CITED, number)) == (len(parts.head) == 3)
    assert bool(re.fullmatch(numbers.CITED_IN_TEXT, number)) == (len(parts.head) == 3)
    assert bool(re.fullmatch(numbers.RULE, number)) == (rule and not letter)
    assert bool(re.fullmatch(numbers.SUBRULE, number)) == letter
    assert bool(re.fullmatch(numbers.RULE_OR_SUBRULE, number)) == rule
    assert bool(re.fullmatch(numbers.LAX_CITED, number))
    assert bool(re.fullmatch(numbers.LAX_NUMBER, number))
    m = re.fullmatch(numbers.RULE_NUMBER, number)
    assert (m.groups() == tuple(parts)) if rule else m is None


@given(_valid)
def test_a_number_sorts_after_its_parent(parts):
    number = numbers.format(parts)
    parent = numbers.parent(number)
    assert (parent is None) == (len(number) == 1)
    if parent is not None:
        assert numbers.parse(parent) is not None
        assert numbers.sort_key(parent) < numbers.sort_key(number)


@given(_valid, _valid)
def test_sort_key_orders_sections_then_rules_then_letters(a, b):
    key_a, key_b = numbers.sort_key(numbers.format(a)), numbers.sort_key(numbers.format(b))
    if len(a.head) == len(b.head) == 3 and a.head != b.head:
        assert (key_a < key_b) == (int(a.head) < int(b.head))
    elif a.head == b.head and a.rule and b.rule and a.rule != b.rule:
        assert (key_a < key_b) == (int(a.rule) < int(b.rule))
    elif a[:2] == b[:2] and a.letter and b.letter:
        assert (key_a < key_b) == (a.letter < b.letter)


@given(_sections, _rules, st.lists(_letters, min_size=2, max_size=2, unique=True).map(sorted))
def test_citation_ranges_expand_through_the_grammar(section, rule, letters):
    first, last = letters
    expected = [f"{section}.{rule}{x}" for x in numbers.letter_range(first, last)]
    assert refs.cited_numbers(f"See rules {section}.{rule}{first}-{last}.") == expected
    assert refs.cited_numbers(f"See rules {section}.{rule}{first}-{section}.{rule}{last}.") == expected


@pytest.mark.parametrize("text,expected", [  # each shape refs expands through the grammar (as before it did)
    ("rules 510.1c-d", ["510.1c", "510.1d"]),
    ("règles 510.1 c-d", ["510.1c", "510.1d"]),
    ("rules 702.19b-702.19d", ["702.19b", "702.19c", "702.19d"]),
    ("rules 212-215", ["212", "213", "214", "215"]),
    ("rules 100.1-100.5", ["100.1", "100.2", "100.3", "100.4", "100.5"]),
    ("rules 100.1a-100.2c", ["100.1a", "100.2c"]),  # two rules: their ends only
    ("rules 100.5-100.1", ["100.5", "100.1"]),  # backwards: the two numbers
    ("sections 1-3", ["1", "3"]),  # parts are not expanded
    ("rule 601-a", ["601"]),  # not a letter range
    ("rules 60.1a-b", []),  # no such number
])
def test_citation_ranges_of_every_shape(text, expected):
    assert refs.cited_numbers(text) == expected

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
# a subrule's letters: one (a .. z) or more (aa, ab ... after z): any string over the CR's letters
_letters = st.text(alphabet=numbers.SUBRULE_LETTERS, min_size=1, max_size=3)
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
    elif a[:2] == b[:2] and a.letter and b.letter:  # fewer letters first: z < aa
        assert (key_a < key_b) == ((len(a.letter), a.letter) < (len(b.letter), b.letter))


@given(_sections, _rules, st.lists(_letters, min_size=2, max_size=2, unique=True).map(
    lambda pair: sorted(pair, key=lambda x: (len(x), x))))
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


# -- subrules past z, printed variants, ranges, French forms ---------------------------------


@given(_sections, _rules, _letters)
def test_next_and_previous_subrule_are_inverse_and_in_order(section, rule, letters):
    number = f"{section}.{rule}{letters}"
    following = numbers.next_subrule(number)
    assert numbers.is_subrule(following) and numbers.parent(following) == numbers.parent(number)
    assert numbers.sort_key(number) < numbers.sort_key(following)
    assert numbers.previous_subrule(following) == number
    before = numbers.previous_subrule(number)
    assert (before is None) == (letters == "a")
    if before is not None:
        assert numbers.next_subrule(before) == number
        assert numbers.sort_key(before) < numbers.sort_key(number)


def test_subrules_go_on_past_z_with_two_letters():
    assert numbers.next_subrule("704.5y") == "704.5z"
    assert numbers.next_subrule("704.5z") == "704.5aa"
    assert numbers.next_subrule("704.5aa") == "704.5ab"
    assert numbers.next_subrule("704.5ak") == "704.5am"  # no l, as for one letter
    assert numbers.next_subrule("704.5az") == "704.5ba"
    assert numbers.next_subrule("704.5zz") == "704.5aaa"
    assert numbers.next_subrule("704.5") == "704.5a"
    assert numbers.next_subrule("704") is None
    assert numbers.previous_subrule("704.5aa") == "704.5z"
    assert numbers.previous_subrule("704.5a") is None
    ordered = ["704", "704.5", "704.5a", "704.5y", "704.5z", "704.5aa", "704.5ab", "704.5ba", "704.6", "705"]
    assert sorted(reversed(ordered), key=numbers.sort_key) == ordered
    assert numbers.parse("704.5aa") == numbers.Parts("704", "5", "aa")
    assert numbers.parent("704.5aa") == "704.5"
    assert numbers.is_subrule("704.5aa") and numbers.is_valid("704.5aa")


@pytest.mark.parametrize("printed,number", [
    ("704.5aa", "704.5aa"), ("704.5aa.", "704.5aa"), (" 111.1. ", "111.1"), ("702. 37a", "702.37a"),
    ("704.5 aa", "704.5aa"), ("704.5AA", "704.5aa"), ("704.5\u200baa", "704.5aa"), ("111\u00a0", "111"),
])
def test_printed_variants_normalise(printed, number):
    assert numbers.normalise(printed) == number
    assert numbers.is_valid(number)


@pytest.mark.parametrize("text,expected", [
    ("rules 704.5w-z", ["704.5w", "704.5x", "704.5y", "704.5z"]),
    ("rules 704.5z-aa", ["704.5z", "704.5aa"]),
    ("rules 704.5y-704.5ab", ["704.5y", "704.5z", "704.5aa", "704.5ab"]),
    ("rules 704.5z–aa.", ["704.5z", "704.5aa"]),  # an en dash, a full stop after
    ("See rule 704.5aa.", ["704.5aa"]),
    ("voir règle 704.5aa", ["704.5aa"]),
    ("Cf. règles 704.5z-aa", ["704.5z", "704.5aa"]),
    ("règles 704.5 z-aa", ["704.5z", "704.5aa"]),  # the French space before the letters
    ("rules 704.5aa and 704.5ab", ["704.5aa", "704.5ab"]),
    ("rule 704.5aaa", ["704.5aaa"]),
])
def test_two_letter_subrules_in_citations(text, expected):
    assert refs.cited_numbers(text) == expected


@given(_sections, _rules, _letters, _letters)
def test_expand_range_is_the_letters_between(section, rule, first, last):
    rule_number = f"{section}.{rule}"
    got = numbers.expand_range(rule_number + first, last)
    walk = [first]
    while walk[-1] != last and len(walk) <= 201:
        walk.append(numbers.next_letter(walk[-1]))
    if (len(first), first) > (len(last), last) or len(walk) > 201:  # backwards, or too long to be one
        assert got == []
        return
    assert got == [rule_number + x for x in walk]
    assert all(numbers.next_subrule(a) == b for a, b in zip(got, got[1:]))
    assert got == numbers.expand_range(rule_number + first, rule_number + last)


def test_the_grammar_finds_two_letter_subrules_where_text_holds_them():
    """Each consumer's pattern, built from the grammar, reads 704.5aa whole."""
    from rulekb.kb.align.normalise import CITED
    from rulekb.kb.compare import cite_check

    assert CITED.findall("as rule 704.5aa says") == ["704.5aa"]
    assert re.fullmatch(numbers.RULE_OR_SUBRULE, "704.5aa") and re.fullmatch(numbers.SUBRULE, "704.5aa")
    assert re.fullmatch(numbers.CITED, "704.5aa") and re.fullmatch(numbers.LAX_CITED, "704.5aa")
    assert re.match(numbers.RULE_NUMBER, "704.5aa Text").groups() == ("704", "5", "aa")
    assert re.match(numbers.RULE_OR_SUBRULE, "704.5aa").group(0) == "704.5aa"  # greedy, not 704.5a
    assert [m.group(1) for m in cite_check._BARE_SUBRULE.finditer("per 704.5aa and 704.5z")] == ["704.5aa", "704.5z"]
    from rulekb.kb.search.understand import understand

    assert understand("what does rule 704.5aa say?", "en").numbers == ["704.5aa"]
    assert understand("que dit la règle 704.5AA ?", "fr").numbers == ["704.5aa"]
    from rulekb.kb.web.timeline_pages import _number

    assert _number("704.5aa.") == "704.5aa"


def test_the_kb_shape_of_a_rule_number_is_the_grammar():
    """SHACL (ontology/shapes.ttl) checks a rule's rk:number with a pattern of its own: it must
    accept what the grammar prints (704.5aa included) and refuse sections and parts."""
    shapes = (ROOT / "ontology" / "shapes.ttl").read_text(encoding="utf-8")
    [pattern] = [p.replace("\\\\", "\\") for p in re.findall(r'sh:pattern "(\^\[0-9\]\{3\}\\\\\.[^"]*)"', shapes)]
    for number in ("111.2", "111.2a", "704.5z", "704.5aa", "704.5ab", "999.999zz"):
        assert re.search(pattern, number) and numbers.is_valid(number), number
    for other in ("111", "1", "111.2.", "111.2A"):
        assert not re.search(pattern, other), other


@given(st.text(alphabet="0123456789.abyz -–,rulesègandet()", max_size=60))
def test_citations_in_any_text_expand_to_valid_numbers_only(text):
    for citation in refs.find(text):
        assert citation.numbers and all(numbers.is_valid(n) for n in citation.numbers), citation
        assert text[citation.start:citation.end] == citation.text

"""Rule numbers: the one place that knows their shape (the rule-number grammar).

Normalised forms (DESIGN.md): ``1`` (part), ``111`` (section), ``111.2`` (rule),
``111.2a`` (subrule) -- no trailing dot. Subrule letters skip ``l`` and ``o``
(the CR says so, to avoid confusion with 1 and 0).

Every reader of rule numbers -- the layouts and formats that read them at the start
of a line, :mod:`ingest.refs` (citations in the rules), ``kb.compare.cite_check``,
the aligner's citation masking, search's number understanding, the web's typed
numbers, permalinks and IRIs -- builds its patterns from the fragments below
(regex source, no groups unless said) or calls the functions; no other module
spells a rule number's shape (``tests/ingest/test_numbers.py`` fails when one does).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

# -- the pieces ---------------------------------------------------------------
PART = r"\d"  # 1 .. 9
SECTION = r"\d{3}"  # 100 .. 999 as printed (and 000 .. 099, which no edition has)
SECTION_IN_TEXT = r"[1-9]\d{2}"  # a section cited in running text: "20 life" or "0300" are not one
DIGITS = r"\d{1,3}"  # a rule's number inside its section: the "2" of 111.2
LETTER = r"[a-z]"  # a subrule's letter: the "a" of 111.2a
HEADING = rf"{SECTION}|{PART}"  # a section or a part (an alternation: group it)
LEADING = r"\d{1,3}"  # what a numbered line starts with before its dot: a part, a section (or a slip between)

# -- numbers ------------------------------------------------------------------
RULE = rf"{SECTION}\.{DIGITS}"  # 111.2
SUBRULE = rf"{RULE}{LETTER}"  # 111.2a
RULE_OR_SUBRULE = rf"{RULE}{LETTER}?"  # 111.2, 111.2a
CITED = rf"{SECTION}(?:\.{DIGITS}{LETTER}?)?"  # a section, rule or subrule: 702, 702.19, 702.19b
CITED_IN_TEXT = rf"{SECTION_IN_TEXT}(?:\.{DIGITS}{LETTER}?)?"  # the same, found in rules text
# A rule or subrule number as printed at the start of a line: "111.2.", "111.2a";
# groups: section, rule, letter (the layouts add the trailing dot's group).
RULE_NUMBER = rf"({SECTION})\.({DIGITS})({LETTER}?)"
# Laxer shapes, for text that is already known to hold numbers and where the store,
# not the shape, says whether one exists: IRI paths and permalinks (any digits,
# any letters), a citation's numbers as the KB stores the citation.
LAX_RULE = r"\d+\.\d+[a-z]*"  # an IRI's rule: edition/en/x/rule/702.19b
LAX_NUMBER = rf"\d+(?:\.\d+[a-z]*)?"  # an IRI's part, section or rule (change/…/702.19..702.20)
LAX_CITED = r"\d+(?:\.\d+[a-z]?)?"  # each number inside a citation as written ("rules 118.8 and 118.9")

_NUMBER = re.compile(rf"^{RULE_NUMBER}$|^({SECTION})$|^({PART})$")
_PARTS = re.compile(rf"({SECTION}|{PART})(?:\.({DIGITS})({LETTER})?)?")
_HEADING = re.compile(HEADING)
_SORTABLE = re.compile(r"^(\d+)(?:\.(\d+)([a-z]?))?$")

SUBRULE_LETTERS = "abcdefghijkmnpqrstuvwxyz"  # no l, no o


def normalise(number: str) -> str:
    """``" 111.2a. "`` -> ``"111.2a"``; ``"702. 37a"`` -> ``"702.37a"``."""
    number = re.sub(r"\s+", "", number).rstrip(".")
    return number


def is_valid(number: str) -> bool:
    return bool(_NUMBER.match(number))


def parent(number: str) -> str | None:
    """The rule this one is a child of: 111.2a -> 111.2 -> 111 -> 1 -> None."""
    if number[-1].isalpha():
        return number[:-1]
    if "." in number:
        return number.split(".", 1)[0]
    if len(number) == 3:
        return number[0]
    return None


def section_of(number: str) -> str:
    return number[:3]


class Parts(NamedTuple):
    """A valid number cut at its dots: ``111.2a`` -> ("111", "2", "a");
    ``111`` -> ("111", "", ""); ``1`` -> ("1", "", "")."""

    head: str  # the section, or the part
    rule: str = ""
    letter: str = ""


def parse(number: str) -> Parts | None:
    """The parts of a normalised number, None when it is not one (:func:`is_valid`)."""
    m = _PARTS.fullmatch(number)
    if not m or (m.group(2) is not None and len(m.group(1)) != 3):
        return None
    return Parts(m.group(1), m.group(2) or "", m.group(3) or "")


def format(parts: Parts) -> str:
    """The normalised number of its parts: the inverse of :func:`parse`."""
    head, rule, letter = parts
    if not rule:
        return head
    return f"{head}.{rule}{letter}"


def is_subrule(number: str) -> bool:
    """A subrule (``111.2a``): a rule number with a letter."""
    parts = parse(number)
    return bool(parts and parts.letter)


def is_heading(number: str) -> bool:
    """A section (``601``) or a part (``6``) number."""
    return bool(_HEADING.fullmatch(number))


def is_section(number: str) -> bool:
    return len(number) == 3 and is_heading(number)


def is_part(number: str) -> bool:
    return len(number) == 1 and is_heading(number)


@lru_cache(maxsize=65536)
def sort_key(number: str) -> tuple[int, int, int]:
    """Document order of rule numbers: 100 < 100.1 < 100.1a < 100.1b < 100.2 < 101."""
    m = _SORTABLE.match(number)
    if not m:
        return (10**6, 0, 0)
    section = int(m.group(1))
    if len(m.group(1)) == 1:  # a part: before its first section
        section = section * 100 - 1
    rule = int(m.group(2)) if m.group(2) else 0
    letter = ord(m.group(3)) - 96 if m.group(3) else 0
    return (section, rule, letter)


def next_letter(letter: str) -> str | None:
    i = SUBRULE_LETTERS.find(letter)
    if i < 0 or i + 1 >= len(SUBRULE_LETTERS):
        return None
    return SUBRULE_LETTERS[i + 1]


def letter_range(first: str, last: str) -> list[str]:
    """Letters from first to last inclusive, the CR's way (l and o skipped)."""
    a, b = SUBRULE_LETTERS.find(first), SUBRULE_LETTERS.find(last)
    if a < 0 or b < 0 or b < a:
        return [first] if first == last else []
    return list(SUBRULE_LETTERS[a : b + 1])

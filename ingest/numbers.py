"""Rule numbers: the one place that knows their shape.

Normalised forms (DESIGN.md): ``1`` (part), ``111`` (section), ``111.2`` (rule),
``111.2a`` (subrule) -- no trailing dot. Subrule letters skip ``l`` and ``o``
(the CR says so, to avoid confusion with 1 and 0).
"""

from __future__ import annotations

import re
from functools import lru_cache

# A rule or subrule number as printed at the start of a line: "111.2.", "111.2a",
# "111.2a." (rare). Group 4 is the trailing dot, if any.
RULE_NUMBER = r"(\d{3})\.(\d{1,3})([a-z]?)"
_NUMBER = re.compile(rf"^{RULE_NUMBER}$|^(\d{{3}})$|^(\d)$")
# The same shapes as cited in prose (regex fragments, no groups), for the readers of
# citations (kb.compare.cite_check, the web's number search; ingest.refs reads the laxer forms
# the rules themselves print, "510.1 c", ranges, part numbers).
SECTION = r"\d{3}"
RULE = rf"{SECTION}\.\d{{1,3}}"
SUBRULE = rf"{RULE}[a-z]"
CITED = rf"{SECTION}(?:\.\d{{1,3}}[a-z]?)?"  # a section, rule or subrule: 702, 702.19, 702.19b

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


@lru_cache(maxsize=65536)
def sort_key(number: str) -> tuple[int, int, int]:
    """Document order of rule numbers: 100 < 100.1 < 100.1a < 100.1b < 100.2 < 101."""
    m = re.match(r"^(\d+)(?:\.(\d+)([a-z]?))?$", number)
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

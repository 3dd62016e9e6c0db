"""Cross-references in rule and glossary text, English and French.

Finds citations such as "See rule 601", "(see rule 405, "Stack.")", "rules
510.1c-d", "rules 103.2a-e", "see section 6", "rule 702.19b and rule 702.19c",
"rules 601.2b and 601.2f–h", "cf. règle 601", "Cf. règles 510.1 c-d", "voir
section 6", and expands them into the normalised rule numbers they name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from . import numbers

_TRIGGER = re.compile(
    r"\b(rules?|subrules?|sections?|règles?|sous-règles?)\s+(?=\d)", re.IGNORECASE
)
# One cited number: 6 | 601 | 601.2 | 601.2b | "510.1 c" (French spacing)
_NUM = (rf"{numbers.LEADING}(?:\.{numbers.DIGITS}"
        rf"(?:{numbers.LETTER}(?![a-zA-Z])|\s{numbers.SPACED_LETTER}(?=[-–—,.;)]))?)?")
_ITEM = re.compile(
    rf"({_NUM})(?:\s*[-–—]\s*({_NUM}|{numbers.LETTER}(?![a-zA-Z])))?"
)
_SEP = re.compile(
    r"(?:\s*,\s*(?:and\s+|or\s+|et\s+|ou\s+)?|\s+(?:and|or|et|ou)\s+)"
    r"(?:(?:rules?|règles?|sections?)\s+)?(?=\d)",
    re.IGNORECASE,
)
_MAX_EXPANSION = 60


@dataclass(frozen=True, slots=True)
class Citation:
    text: str  # as written, e.g. "rules 510.1c-d"
    start: int
    end: int
    numbers: tuple[str, ...]  # expanded, normalised


def _clean(number: str) -> str:
    return numbers.normalise(number)


def _expand(first: str, last: str | None) -> list[str]:
    first = _clean(first)
    if not last:
        return [first]
    last = _clean(last)
    a, b = numbers.parse(first), numbers.parse(last)
    if a and a.letter and (re.fullmatch(numbers.LETTER, last) or (b and b.letter and a[:2] == b[:2])):
        return numbers.expand_range(first, last)  # 510.1c-d, 704.5z-aa, 702.19b-702.19d
    if a and b and numbers.is_section(first) and numbers.is_section(last):  # 212-215
        lo, hi = int(first), int(last)
        if 0 <= hi - lo <= _MAX_EXPANSION:
            return [str(n) for n in range(lo, hi + 1)]
    if a and b and a.rule and b.rule and not a.letter and not b.letter and a.head == b.head:  # 100.1-100.5
        lo, hi = int(a.rule), int(b.rule)
        if 0 <= hi - lo <= _MAX_EXPANSION:
            return [numbers.format(a._replace(rule=str(n))) for n in range(lo, hi + 1)]
    return [first, last]


def find(text: str) -> list[Citation]:
    """Every citation in ``text``, in order of appearance."""
    return list(_find(text))


# A build reads the same text in edition after edition (an unchanged rule, a glossary entry:
# 18,664 distinct texts among 334,689 over the corpus): each is searched once a process.
@lru_cache(maxsize=1 << 16)
def _find(text: str) -> tuple[Citation, ...]:
    found: list[Citation] = []
    pos = 0
    while True:
        trigger = _TRIGGER.search(text, pos)
        if not trigger:
            return tuple(found)
        at = trigger.end()
        expanded: list[str] = []
        while True:
            item = _ITEM.match(text, at)
            if not item:
                break
            first, last = item.group(1), item.group(2)
            if last and not re.search(r"\d", last) and "." not in first:
                last = None  # "rule 601-a" is not a letter range
            expanded.extend(_expand(first, last))
            at = item.end()
            sep = _SEP.match(text, at)
            if not sep:
                break
            at = sep.end()
        end = at
        # a trailing dot belongs to the sentence, not the number
        cited = text[trigger.start() : end].rstrip(" ,.")
        if expanded:
            unique = tuple(dict.fromkeys(n for n in expanded if numbers.is_valid(n)))
            if unique:
                found.append(Citation(cited, trigger.start(), trigger.start() + len(cited), unique))
        pos = max(end, trigger.end())


def cited_numbers(text: str) -> list[str]:
    """The distinct rule numbers ``text`` cites, in order."""
    seen: dict[str, None] = {}
    for citation in find(text):
        for number in citation.numbers:
            seen.setdefault(number, None)
    return list(seen)

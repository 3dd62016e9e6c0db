"""Cross-references in rule and glossary text, English and French.

Finds citations such as "See rule 601", "(see rule 405, "Stack.")", "rules
510.1c-d", "rules 103.2a-e", "see section 6", "rule 702.19b and rule 702.19c",
"rules 601.2b and 601.2f–h", "cf. règle 601", "Cf. règles 510.1 c-d", "voir
section 6", and expands them into the normalised rule numbers they name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import numbers

_TRIGGER = re.compile(
    r"\b(rules?|subrules?|sections?|règles?|sous-règles?)\s+(?=\d)", re.IGNORECASE
)
# One cited number: 6 | 601 | 601.2 | 601.2b | "510.1 c" (French spacing)
_NUM = r"\d{1,3}(?:\.\d{1,3}(?:[a-z](?![a-zA-Z])|\s[a-z](?=[-–—,.;)]))?)?"
_ITEM = re.compile(
    rf"({_NUM})(?:\s*[-–—]\s*({_NUM}|[a-z](?![a-zA-Z])))?"
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
    m = re.fullmatch(r"(\d{3}\.\d+)([a-z])", first)
    if m and re.fullmatch(r"[a-z]", last):  # 510.1c-d
        return [m.group(1) + x for x in numbers.letter_range(m.group(2), last)]
    m2 = re.fullmatch(r"(\d{3}\.\d+)([a-z])", last)
    if m and m2 and m.group(1) == m2.group(1):  # 702.19b-702.19d
        return [m.group(1) + x for x in numbers.letter_range(m.group(2), m2.group(2))]
    if re.fullmatch(r"\d{3}", first) and re.fullmatch(r"\d{3}", last):  # 212-215
        a, b = int(first), int(last)
        if 0 <= b - a <= _MAX_EXPANSION:
            return [str(n) for n in range(a, b + 1)]
    m = re.fullmatch(r"(\d{3})\.(\d+)", first)
    m2 = re.fullmatch(r"(\d{3})\.(\d+)", last)
    if m and m2 and m.group(1) == m2.group(1):  # 100.1-100.5
        a, b = int(m.group(2)), int(m2.group(2))
        if 0 <= b - a <= _MAX_EXPANSION:
            return [f"{m.group(1)}.{n}" for n in range(a, b + 1)]
    return [first, last]


def find(text: str) -> list[Citation]:
    """Every citation in ``text``, in order of appearance."""
    found: list[Citation] = []
    pos = 0
    while True:
        trigger = _TRIGGER.search(text, pos)
        if not trigger:
            return found
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

"""Rule numbers: the one place that knows their shape (the rule-number grammar).

Normalised forms (DESIGN.md): ``1`` (part), ``111`` (section), ``111.2`` (rule),
``111.2a`` (subrule) -- no trailing dot. Subrule letters skip ``l`` and ``o``
(the CR says so, to avoid confusion with 1 and 0). After ``z`` the letters go on
two at a time, as a spreadsheet's columns do: ``704.5z``, ``704.5aa``, ``704.5ab``
... ``704.5az``, ``704.5ba`` (any number of letters: ``zz`` is followed by ``aaa``).

Printed variants the corpus shows are read by :func:`normalise` (a trailing dot, a
space inside: ``702. 37a``); ranges (``510.1c-d``, ``704.5w-z``, ``704.5z-aa``) by
:func:`expand_range` and :mod:`ingest.refs`.

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
LETTER = r"[a-z]+"  # a subrule's letters: the "a" of 111.2a, the "aa" of 704.5aa
SPACED_LETTER = r"[a-z]{1,2}"  # letters printed apart from their rule ("510.1 c-d"): short, or a word is one
OPT_LETTER = rf"(?:{LETTER})?"  # a rule's letters if it has some (greedy: never {LETTER}?, which is lazy)
HEADING = rf"{SECTION}|{PART}"  # a section or a part (an alternation: group it)
LEADING = r"\d{1,3}"  # what a numbered line starts with before its dot: a part, a section (or a slip between)

# -- numbers ------------------------------------------------------------------
RULE = rf"{SECTION}\.{DIGITS}"  # 111.2
SUBRULE = rf"{RULE}{LETTER}"  # 111.2a
RULE_OR_SUBRULE = rf"{RULE}{OPT_LETTER}"  # 111.2, 111.2a
CITED = rf"{SECTION}(?:\.{DIGITS}{OPT_LETTER})?"  # a section, rule or subrule: 702, 702.19, 702.19b
CITED_IN_TEXT = rf"{SECTION_IN_TEXT}(?:\.{DIGITS}{OPT_LETTER})?"  # the same, found in rules text
# A rule or subrule number as printed at the start of a line: "111.2.", "111.2a";
# groups: section, rule, letter (the layouts add the trailing dot's group).
RULE_NUMBER = rf"({SECTION})\.({DIGITS})({OPT_LETTER})"
# Laxer shapes, for text that is already known to hold numbers and where the store,
# not the shape, says whether one exists: IRI paths and permalinks (any digits,
# any letters), a citation's numbers as the KB stores the citation.
LAX_RULE = r"\d+\.\d+[a-z]*"  # an IRI's rule: edition/en/x/rule/702.19b
LAX_NUMBER = rf"\d+(?:\.\d+[a-z]*)?"  # an IRI's part, section or rule (change/…/702.19..702.20)
LAX_CITED = r"\d+(?:\.\d+[a-z]*)?"  # each number inside a citation as written ("rules 118.8 and 118.9")

_NUMBER = re.compile(rf"^{RULE_NUMBER}$|^({SECTION})$|^({PART})$")
_PARTS = re.compile(rf"({SECTION}|{PART})(?:\.({DIGITS})({LETTER})?)?")
_HEADING = re.compile(HEADING)
_SORTABLE = re.compile(r"^(\d+)(?:\.(\d+)([a-z]*))?$")

SUBRULE_LETTERS = "abcdefghijkmnpqrstuvwxyz"  # no l, no o


_SPACE = re.compile(r"[\s\u200b\u200c\u200d\u2060\ufeff]+")


def normalise(number: str) -> str:
    """``" 111.2a. "`` -> ``"111.2a"``; ``"702. 37a"`` -> ``"702.37a"``; ``"704.5AA"`` -> ``"704.5aa"``."""
    number = _SPACE.sub("", number).rstrip(".")
    head, dot, tail = number.partition(".")
    return head + dot + tail.lower()


def is_valid(number: str) -> bool:
    return bool(_NUMBER.match(number))


def parent(number: str) -> str | None:
    """The rule this one is a child of: 111.2a -> 111.2 -> 111 -> 1 -> None; 704.5aa -> 704.5."""
    if number[-1].isalpha():
        return number.rstrip("abcdefghijklmnopqrstuvwxyz")
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


def letters_key(letters: str) -> int:
    """The place of a subrule's letters in document order: a=1 ... z=26, aa=27 ... (0: none).

    Counted over the whole alphabet (so a misprinted ``l`` or ``o`` still sorts where it
    was printed): fewer letters first, then alphabetical -- ``z`` < ``aa`` < ``ab`` < ``ba``."""
    value = 0
    for ch in letters:
        value = value * 26 + ord(ch) - 96
    return value


@lru_cache(maxsize=65536)
def sort_key(number: str) -> tuple[int, int, int]:
    """Document order of rule numbers: 100 < 100.1 < 100.1a < 100.1b < 100.2 < 101;
    704.5z < 704.5aa < 704.5ab < 704.6."""
    m = _SORTABLE.match(number)
    if not m:
        return (10**6, 0, 0)
    section = int(m.group(1))
    if len(m.group(1)) == 1:  # a part: before its first section
        section = section * 100 - 1
    rule = int(m.group(2)) if m.group(2) else 0
    letter = letters_key(m.group(3)) if m.group(3) else 0
    return (section, rule, letter)


_BASE = len(SUBRULE_LETTERS)


def _letters_index(letters: str) -> int | None:
    """1 for a, 24 for z, 25 for aa ... (the CR's letters, bijective base 24); None if
    ``letters`` holds an l, an o or anything else the CR does not use."""
    value = 0
    for ch in letters:
        i = SUBRULE_LETTERS.find(ch)
        if i < 0 or len(ch) != 1:
            return None
        value = value * _BASE + i + 1
    return value or None


def _letters_at(index: int) -> str:
    out = []
    while index > 0:
        index, rest = divmod(index - 1, _BASE)
        out.append(SUBRULE_LETTERS[rest])
    return "".join(reversed(out))


def next_letter(letter: str) -> str | None:
    """The letters of the next subrule: a -> b, k -> m (no l), z -> aa, az -> ba."""
    i = _letters_index(letter)
    return None if i is None else _letters_at(i + 1)


def previous_letter(letter: str) -> str | None:
    """The letters of the subrule before: b -> a, aa -> z; None before a."""
    i = _letters_index(letter)
    return None if i is None or i == 1 else _letters_at(i - 1)


def next_subrule(number: str) -> str | None:
    """The subrule after this one (704.5z -> 704.5aa), or a rule's first subrule
    (704.5 -> 704.5a); None for a section, a part or what is not a number."""
    parts = parse(number)
    if parts is None or not parts.rule:
        return None
    if not parts.letter:
        return format(parts._replace(letter="a"))
    letter = next_letter(parts.letter)
    return None if letter is None else format(parts._replace(letter=letter))


def previous_subrule(number: str) -> str | None:
    """The subrule before this one (704.5aa -> 704.5z); None for a first subrule (``a``)
    or what is not a subrule."""
    parts = parse(number)
    if parts is None or not parts.letter:
        return None
    letter = previous_letter(parts.letter)
    return None if letter is None else format(parts._replace(letter=letter))


_MAX_RANGE = 200  # letters a range may name before it is read as its two ends


def letter_range(first: str, last: str) -> list[str]:
    """Letters from first to last inclusive, the CR's way (l and o skipped; z, aa, ab ...)."""
    a, b = _letters_index(first), _letters_index(last)
    if a is None or b is None or b < a or b - a > _MAX_RANGE:
        return [first] if first == last else []
    return [_letters_at(i) for i in range(a, b + 1)]


def expand_range(first: str, last: str) -> list[str]:
    """The subrules a letter range names: ("510.1c", "d") and ("510.1c", "510.1d") ->
    [510.1c, 510.1d]; ("704.5z", "aa") -> [704.5z, 704.5aa]; [] when it is no letter range."""
    a = parse(normalise(first))
    if a is None or not a.letter:
        return []
    last = normalise(last)
    if re.fullmatch(LETTER, last):
        end = last
    else:
        b = parse(last)
        if b is None or not b.letter or b[:2] != a[:2]:
            return []
        end = b.letter
    return [format(a._replace(letter=x)) for x in letter_range(a.letter, end)]

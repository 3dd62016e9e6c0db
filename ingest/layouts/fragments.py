"""Pieces the web-page layouts share (lotusnoir, article, forum): reading a rule
number as a site prints it, example labels, "was the text cut off?", and
deciding which language each rule of a bilingual page is in.

Sites print rule numbers with and without the CR's trailing dot ("111.1.",
"111.1", "806.3a", "200.1a."); the number is normalised and the printed form
kept when it differs from the CR's, so rendering gives back the page's text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import language, numbers
from ..model import Rule
from ..textdoc import EXAMPLE, is_blank

# "111.1." / "111.1a" alone on a line (the number in its own element or paragraph)
NUMBER_ONLY = re.compile(rf"^[ \t]*{numbers.RULE_NUMBER}(\.?)[ \t]*$")
# "111.1. text" / "806.3a text" / "201.1 text": a rule number opening a line
NUMBER_TEXT = re.compile(rf"^[ \t]*{numbers.RULE_NUMBER}(\.?)[ \t]+(\S.*?)[ \t]*$")
# "806. Variante du Troll à deux têtes": a section heading (short, no sentence)
SECTION = re.compile(rf"^[ \t]*({numbers.SECTION})\.[ \t]+(\S.{{0,99}}?)[ \t]*$")
# An example run into its rule's paragraph ("… takes precedence. Example: If …"),
# as the English pages of lotusnoir print them: split after the sentence.
INLINE_EXAMPLE = re.compile(r"(?<=[.!?»”\"')])[ \t]+(?=(?:Examples?|Exemples?)[ \t]?:[ \t])")
WORD = re.compile(r"[A-Za-zÀ-ÿ]{2}")
_TERMINAL = re.compile(r"[.!?”\"')\]»:]$")


def number_of(m: re.Match) -> tuple[str, str | None]:
    """(normalised number, printed form or None when printed the CR's way)."""
    number = f"{m.group(1)}.{m.group(2)}{m.group(3)}"
    canonical_dot = "" if m.group(3) else "."
    printed = None if m.group(4) == canonical_dot else number + m.group(4)
    return number, printed


def split_examples(text: str) -> tuple[str, list[str]]:
    """A paragraph that runs its examples in: (rule text, [example texts])."""
    parts = INLINE_EXAMPLE.split(text)
    examples = [EXAMPLE.match(p).group(1) for p in parts[1:]]
    return parts[0], examples


def looks_cut(text: str) -> bool:
    """Does the text stop mid-sentence (a page excerpt cut at N characters)?"""
    return bool(text.strip()) and not _TERMINAL.search(text.strip())


def last_text(rule: Rule) -> str:
    return rule.examples[-1] if rule.examples else rule.text


def rule_languages(texts: list[str], default: str) -> list[str]:
    """The language of each rule of a page, in page order.

    Each rule is judged by its own words; a rule that gives no evidence (a
    keyword title such as "702.18. Vigilance") takes the language of the next
    rule that does -- a title comes before its subrules -- else of the previous.
    """
    guesses = [language.guess(t) for t in texts]
    out: list[str] = []
    for i, guess in enumerate(guesses):
        if guess is None:
            after = next((g for g in guesses[i + 1 :] if g), None)
            before = next((g for g in reversed(guesses[:i]) if g), None)
            guess = after or before or default
        out.append(guess)
    return out


@dataclass(slots=True)
class Item:
    """One non-blank line of quoted rules, classified."""

    kind: str  # rule | section | example | text
    line: int  # 1-based line number in the document
    text: str  # the rule's or example's text, the section's title, or the whole line
    number: str | None = None
    printed: str | None = None
    source: str = ""  # the line as it stands, stripped


def classify(lines: list[str], start: int = 0, end: int | None = None) -> list[Item]:
    """The non-blank lines in ``lines[start:end]`` as rules, section headings,
    examples and other text. A number alone on its line is a rule with empty
    text: the caller gives it the next text line."""
    items: list[Item] = []
    for i in range(start, len(lines) if end is None else end):
        line = lines[i]
        if is_blank(line):
            continue
        s = line.strip()
        m = NUMBER_ONLY.match(s) or NUMBER_TEXT.match(s)
        if m and (m.re is NUMBER_ONLY or WORD.search(m.group(5))):  # "139.99 € 179.99 €" is a price
            number, printed = number_of(m)
            text = m.group(5) if m.re is NUMBER_TEXT else ""
            items.append(Item("rule", i + 1, text, number, printed, s))
        elif (m := SECTION.match(s)) and _heading_title(m.group(2)):
            items.append(Item("section", i + 1, m.group(2), m.group(1), None, s))
        elif m := EXAMPLE.match(s):
            items.append(Item("example", i + 1, m.group(1), source=s))
        else:
            items.append(Item("text", i + 1, s, source=s))
    return items


def _heading_title(title: str) -> bool:
    """"Généralités", "STRUCTURE DU TOUR" -- not a sentence, not a number."""
    return len(title) <= 80 and not title[0].isdigit() and not title.endswith((".", ",", ";", ":"))


def is_sentence(text: str) -> bool:
    """Rule text proper, not a keyword title or a table-of-contents entry."""
    return len(text.split()) >= 4

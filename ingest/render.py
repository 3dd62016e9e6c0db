"""Edition -> text, and the round-trip check that proves the parser lost nothing.

:func:`render` writes an edition back out in the modern CR layout: front matter,
parts and sections, rules (``100.1.`` / ``100.1a``) each followed by its
``Example:`` paragraphs, the glossary, back matter. Text the parser kept as
unplaced goes back where it was found. A part and a section heading that share
one ``order`` were printed as one line, the way rules web sites title a page
("111. Concepts du Jeu : Sorts"), and are written back that way.

:func:`normalise` turns a source text into the same canonical form without using
the parser: it drops blank and separator lines, undoes hard wrapping by comparing
words rather than lines, strips the trailing dot of a leading rule number, and
writes example labels one way. :func:`round_trip` compares the two word by word;
any word lost, invented, duplicated or moved shows up as a difference.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from . import numbers
from .model import Edition
from .textdoc import EXAMPLE_WORD, SEPARATOR

EXAMPLE_LABEL = {"en": "Example:", "fr": "Exemple :"}
# Example labels written any way ("EXAMPLE:", "Exemple :", the doubled
# "Example:Example:" of 2014-2015) and a rule number glued to its text
# ("901.4.All", 2022-2025) are normalised word by word.
_LABEL = re.compile(rf"^{EXAMPLE_WORD}:(.*)$")
_LABEL_WORD = re.compile(rf"^{EXAMPLE_WORD}$")
_GLUED_NUMBER = re.compile(rf"^({numbers.RULE_OR_SUBRULE}\.?)([A-Z“\"(].*)$")


def rule_label(number: str, printed: str | None = None) -> str:
    """How a rule number is written: as printed if it was unusual, else 100.1. / 100.1a"""
    if printed:
        return printed
    return number if number[-1].isalpha() else number + "."


def render(edition: Edition) -> str:
    label = EXAMPLE_LABEL.get(edition.language, "Example:")
    out: list[str] = list(edition.front_matter)
    items: list[tuple[int, list[str]]] = []
    paired = {s.order: s for s in edition.sections if s.order in {p.order for p in edition.parts}}
    for part in edition.parts:
        if (section := paired.get(part.order)) is not None:  # "111. Part : Section", one line
            items.append((part.order, [f"{section.number}. {part.title} : {section.title}"]))
        else:
            items.append((part.order, [f"{part.number}. {part.title}"]))
    for section in edition.sections:
        if section.order not in paired:
            items.append((section.order, [f"{section.number}. {section.title}"]))
    inside: dict[int, list] = {}
    for block in edition.unplaced:
        if block.region == "body" and block.slot is not None:
            inside.setdefault(block.order, []).append(block)
        elif block.region == "body":
            items.append((block.order, [block.text]))
    for rule in edition.rules:
        lines = [f"{rule_label(rule.number, rule.printed)} {rule.text}".rstrip()]
        blocks = inside.get(rule.order, [])
        for k, example in enumerate(rule.examples):
            lines += [b.text for b in blocks if b.slot == k]
            lines.append(f"{label} {example}")
        lines += [b.text for b in blocks if b.slot >= len(rule.examples)]
        items.append((rule.order, lines))
    for _, lines in sorted(items, key=lambda item: item[0]):
        out.extend(lines)
    glossary_text = [block.text for block in edition.unplaced if block.region == "glossary"]
    if edition.glossary_heading or edition.glossary or glossary_text:
        out.append(edition.glossary_heading or "Glossary")
        out.extend(glossary_text)
        for entry in edition.glossary:
            out.append(entry.term)
            if entry.definition:
                out.append(entry.definition)
    out.extend(edition.back_matter)
    return "\n\n".join(out) + "\n"


def normalise_words(text: str) -> list[str]:
    """The words of a rules text, independent of wrapping and label style."""
    words: list[str] = []
    for line in text.split("\n"):
        if SEPARATOR.match(line):
            continue
        for word in line.split():
            if word == ":" and words and _LABEL_WORD.match(words[-1]):  # "Exemple :"
                words[-1] = "Example:"
                continue
            if _LABEL.match(word):
                while m := _LABEL.match(word):
                    word = m.group(1)
                if not (words and words[-1] == "Example:"):  # a doubled label counts once
                    words.append("Example:")
                if not word:
                    continue
            elif m := _GLUED_NUMBER.match(word):
                words.append(m.group(1))
                word = m.group(2)
            words.append(word)
    return words


@dataclass
class RoundTrip:
    ok: bool
    source_words: int
    rendered_words: int
    differences: list[str]

    def __str__(self) -> str:
        if self.ok:
            return f"round trip ok ({self.source_words} words)"
        return "round trip differs:\n" + "\n".join(self.differences)


def round_trip(edition: Edition, source_text: str, limit: int = 10) -> RoundTrip:
    """Compare the rendered edition with the normalised source text."""
    expected = normalise_words(source_text)
    got = normalise_words(render(edition))
    if expected == got:
        return RoundTrip(True, len(expected), len(got), [])
    # diff only the region between the common prefix and suffix: fast on big texts
    start = 0
    while start < min(len(expected), len(got)) and expected[start] == got[start]:
        start += 1
    end = 0
    while end < min(len(expected), len(got)) - start and expected[-1 - end] == got[-1 - end]:
        end += 1
    a_mid = expected[start : len(expected) - end][:5000]
    b_mid = got[start : len(got) - end][:5000]
    matcher = difflib.SequenceMatcher(None, a_mid, b_mid, autojunk=False)
    diffs = []
    for op, a1, a2, b1, b2 in matcher.get_opcodes():
        if op == "equal":
            continue
        a1, a2, b1, b2 = a1 + start, a2 + start, b1 + start, b2 + start
        context = " ".join(expected[max(0, a1 - 6) : a1])
        diffs.append(
            f"{op} at word {a1} (after …{context}): source {' '.join(expected[a1:a2])[:200]!r}"
            f" -> rendered {' '.join(got[b1:b2])[:200]!r}"
        )
        if len(diffs) >= limit:
            break
    return RoundTrip(False, len(expected), len(got), diffs)

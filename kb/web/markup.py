"""Text from the store cut into segments a template prints one by one, escaped.

Rule text is data, never markup: instead of building HTML strings, a page
hands the template a list of :class:`Segment` -- plain text, a link to a cited
rule, a dangling citation, a search match, an inserted or deleted word run --
and the template escapes each segment's text and wraps it in the one tag its
kind names (``_segments.html``). Nothing here returns HTML.

The citations come from the KB (``rule-references``, ``section-references``,
``glossary-entry``: the citation as written and the numbers it names); this
module only finds those strings in the text again to put the links on them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulekb.ingest import numbers

# a rule, section or part number inside a citation as written ("rules 118.8 and 118.9")
_NUMBER = re.compile(numbers.LAX_CITED)


@dataclass(frozen=True, slots=True)
class Segment:
    text: str
    kind: str = "text"  # text | link | dangling | mark | ins | del
    target: str | None = None  # link: the IRI (or path) it goes to


@dataclass
class Citation:
    """A citation as the KB stores it: its text as written, and each number it
    names with the IRI it resolves to (None: dangling)."""

    text: str
    numbers: dict[str, str | None]


def citations_from_rows(rows: list[dict], mint_numbered=None, edition: str | None = None) -> list[Citation]:
    """Rows of ``rule-references`` / ``glossary-entry`` (cited, cited_number,
    target) or of ``section-references`` (cited, cited_number, dangling) folded
    into one :class:`Citation` per citation text."""
    by_text: dict[str, Citation] = {}
    dangling_of: dict[str, set[str]] = {}
    for row in rows:
        cited, number = row.get("cited"), row.get("cited_number")
        if not cited or not number:
            continue
        citation = by_text.setdefault(cited, Citation(cited, {}))
        if "dangling" in row:
            dangling_of.setdefault(cited, set()).add(row["dangling"])
        target = row.get("target")
        if target is None and mint_numbered is not None and "target" not in row:
            target = mint_numbered(edition, number)
        if target or number not in citation.numbers:
            citation.numbers[number] = target or citation.numbers.get(number)
    for cited, dangling in dangling_of.items():
        for number in dangling:
            by_text[cited].numbers[number] = None
    return list(by_text.values())


def link_citations(text: str, citations: list[Citation]) -> list[Segment]:
    """``text`` with every number of each citation linked where the citation
    occurs (only inside the citation as written: "section 6" links its 6, not
    every 6 of the text); dangling numbers become ``dangling`` segments."""
    spans: list[tuple[int, int, str | None]] = []
    for citation in citations:
        if not citation.text:
            continue
        start = text.find(citation.text)
        while start >= 0:
            end = start + len(citation.text)
            for match in _NUMBER.finditer(text, start, end):
                number = match.group()
                if number in citation.numbers:
                    spans.append((match.start(), match.end(), citation.numbers[number]))
            start = text.find(citation.text, end)
    return _cut(text, spans)


def _cut(text: str, spans: list[tuple[int, int, str | None]]) -> list[Segment]:
    out: list[Segment] = []
    position = 0
    for start, end, target in sorted(spans, key=lambda s: (s[0], -s[1])):
        if start < position:  # overlaps a span already taken
            continue
        if start > position:
            out.append(Segment(text[position:start]))
        out.append(Segment(text[start:end], "link", target) if target else Segment(text[start:end], "dangling"))
        position = end
    if position < len(text) or not out:
        out.append(Segment(text[position:]))
    return out


def highlight(text: str, query: str) -> list[Segment]:
    """``text`` with every case-insensitive occurrence of ``query`` marked."""
    if not query:
        return [Segment(text)]
    out: list[Segment] = []
    position = 0
    for match in re.finditer(re.escape(query), text, re.IGNORECASE):
        if match.start() > position:
            out.append(Segment(text[position:match.start()]))
        out.append(Segment(match.group(), "mark"))
        position = match.end()
    if position < len(text) or not out:
        out.append(Segment(text[position:]))
    return out


def diff_segments(ops: list[tuple[str, str]]) -> list[Segment]:
    """:func:`kb.lineage.history.word_diff` output as segments: kept words plain,
    deleted ``del``, inserted ``ins``, separated by spaces."""
    out: list[Segment] = []
    for index, (op, words) in enumerate(ops):
        if index:
            out.append(Segment(" "))
        out.append(Segment(words, {"=": "text", "-": "del", "+": "ins"}[op]))
    return out

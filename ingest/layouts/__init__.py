"""Layout parsers: TextDoc (lines) -> Edition, one module per source shape.

The registry is an explicit, ordered list; more specific shapes come first:

1. ``lotusnoir`` -- a rules site's section page whose header dates its French
   and English rules ("Règles US [30/09/2011] Règles FR [04/02/2011]");
2. ``article`` -- an article quoting rules in CR layout under a title and a
   dated byline ("Ecrit par X le lundi 14 avril 2008");
3. ``official`` -- Wizards' rules text (English, and the French translations);
4. ``forum`` -- rules quoted inside any other page (forum posts, glossaries):
   the numbered rules are extracted, the rest is dropped.

The first layout whose ``looks`` check accepts the lines parses them, and its
answer is final: a text that looks like Wizards' document but names no edition
is refused, not re-read as a forum quote.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from .. import numbers
from ..errors import NotRulesError
from ..model import Edition
from ..textdoc import TextDoc
from . import article, forum, lotusnoir, official


@dataclass(frozen=True)
class Layout:
    name: str
    looks: Callable[[list[str]], bool]
    parse: Callable[[TextDoc], "Edition | list[Edition]"]  # several when a page is bilingual


REGISTRY: list[Layout] = [
    Layout(lotusnoir.LAYOUT, lotusnoir.looks, lotusnoir.parse),
    Layout(article.LAYOUT, article.looks, article.parse),
    Layout(official.LAYOUT, official.looks_official, official.parse),
    Layout(forum.LAYOUT, forum.looks, forum.parse),
]


def parse(doc: TextDoc) -> list[Edition]:
    """The editions in a document: one, or one per language for a bilingual page."""
    for layout in REGISTRY:
        if layout.looks(doc.lines):
            doc.source.layout = layout.name
            parsed = layout.parse(doc)
            return parsed if isinstance(parsed, list) else [parsed]
    raise NotRulesError(refusal_reason(doc.lines))


_TOC_ENTRY = re.compile(rf"(?:^|\s)(?:[-•*]\s*)?{numbers.SECTION}\.\s+[A-ZÀ-Ýa-zà-ÿ]")
_OUTLINE = re.compile(r"^\s*[A-Z]\.\d+(?:\.\d+)*\b")


def refusal_reason(lines: list[str]) -> str:
    """Say what the text looks like instead, so the refusal is useful."""
    # section titles one per line, or run together on one line ("100. Généralités 101. Règles d'or …")
    toc = sum(len(_TOC_ENTRY.findall(line)) for line in lines)
    outline = sum(1 for line in lines if _OUTLINE.match(line))
    if toc >= 5:
        return "no rules found: only a table of contents (section titles, no rule text)"
    if outline >= 5:
        return "not a Comprehensive Rules document: no numbered rules (found A.1-style outline numbering, as in a rulings summary)"
    return "not a Comprehensive Rules document: no numbered rules found"

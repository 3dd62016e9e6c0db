"""Layout parsers: TextDoc (lines) -> Edition, one module per source shape.

The registry is an explicit, ordered list: the first layout whose ``looks``
check accepts the lines parses them. More specific shapes come first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..errors import NotRulesError
from ..model import Edition
from ..textdoc import TextDoc
from . import official


@dataclass(frozen=True)
class Layout:
    name: str
    looks: Callable[[list[str]], bool]
    parse: Callable[[TextDoc], "Edition | list[Edition]"]  # several when a page is bilingual


REGISTRY: list[Layout] = [
    Layout(official.LAYOUT, official.looks_official, official.parse),
]


def parse(doc: TextDoc) -> list[Edition]:
    """The editions in a document: one, or one per language for a bilingual page."""
    for layout in REGISTRY:
        if layout.looks(doc.lines):
            doc.source.layout = layout.name
            parsed = layout.parse(doc)
            return parsed if isinstance(parsed, list) else [parsed]
    raise NotRulesError(refusal_reason(doc.lines))


def refusal_reason(lines: list[str]) -> str:
    """Say what the text looks like instead, so the refusal is useful."""
    import re

    toc = sum(1 for line in lines if re.match(r"^\s*(?:[-•*]\s*)?\d{3}\.\s+\S", line))
    outline = sum(1 for line in lines if re.match(r"^\s*[A-Z]\.\d+(?:\.\d+)*\b", line))
    if toc >= 5:
        return "no rules found: only a table of contents (section titles, no rule text)"
    if outline >= 5:
        return "not a Comprehensive Rules document: no numbered rules (found A.1-style outline numbering, as in a rulings summary)"
    return "not a Comprehensive Rules document: no numbered rules found"

"""The text layer between a file format and a layout parser.

Every format reader (txt, html, pdf, docx) produces a :class:`TextDoc`: the
document as lines of text, in reading order, with page furniture removed. Layout
parsers only ever see lines, so the same parser reads a rules text whether it
came as plain text, a web page, a PDF or a Word file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .model import SourceInfo

SEPARATOR = re.compile(r"^\s*[-=_*~]{3,}\s*$")
# The example label, however a source writes it: "Example:", "EXAMPLE:", "Exemple :"
EXAMPLE_WORD = r"(?:Examples?|EXAMPLES?|Exemples?|EXEMPLES?)"
EXAMPLE = re.compile(rf"^[ \t]*{EXAMPLE_WORD}[ \t]*:[ \t]*(.*)$")


@dataclass(slots=True)
class TextDoc:
    lines: list[str]
    source: SourceInfo

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def is_blank(line: str) -> bool:
    return not line.strip() or bool(SEPARATOR.match(line))


def indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def paragraphs(lines: list[str]) -> list[str]:
    """Blank-line separated paragraphs, each with its lines joined by a space."""
    out: list[str] = []
    current: list[str] = []
    for line in lines:
        if is_blank(line):
            if current:
                out.append(" ".join(current))
                current = []
        else:
            current.append(line.strip())
    if current:
        out.append(" ".join(current))
    return out

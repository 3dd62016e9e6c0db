"""DOCX -> lines: one line per paragraph, in document order.

python-docx opens the package; this module walks the body itself so that
paragraphs inside tables and content controls come out where they stand, and
reads each paragraph's runs wherever Word put them (hyperlinks, content
controls, tracked insertions, fields). Deleted text (tracked deletions) and
text boxes anchored in a paragraph are not part of its text.

A soft line break (Shift+Enter) starts a new line without starting a new
paragraph: the layout parser sees a continuation line, as in the official
plain-text editions (glossary senses "1. ..." / "2. ..." are set this way).
A blank paragraph becomes a blank line. Whitespace runs (tabs, non-breaking
spaces) become one space.

A damaged package (truncated zip, corrupt XML, missing parts) raises
:class:`UnsupportedFormatError` with one clear line.
"""

from __future__ import annotations

import io

from ..errors import UnsupportedFormatError

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_P, _R = _W + "p", _W + "r"
# the copy of newer markup kept for older readers: reading it too would say things twice
_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
# inside a paragraph, what is not its text: properties, deleted and moved-away runs,
# fallbacks, and paragraphs of text boxes anchored in it
_NOT_TEXT = {_W + "pPr", _W + "del", _W + "moveFrom", _FALLBACK, _P}


def lines(data: bytes) -> list[str]:
    import docx

    try:
        body = docx.Document(io.BytesIO(data)).element.body
        out: list[str] = []
        for paragraph in _paragraphs(body):
            text = "".join(run.text for run in _runs(paragraph))
            out.extend(" ".join(line.split()) for line in text.split("\n"))
    except Exception as exc:  # zipfile, lxml and python-docx each raise their own types
        raise UnsupportedFormatError(f"a damaged Word (DOCX) document ({_reason(exc)})") from None
    return out


def _paragraphs(element):
    """Every paragraph in block order, looking into tables (rows, cells) and
    content controls, but not into paragraphs (text boxes live in runs)."""
    for child in element:
        if child.tag == _P:
            yield child
        elif child.tag != _FALLBACK:
            yield from _paragraphs(child)


def _runs(element):
    for child in element:
        if child.tag == _R:
            yield child
        elif child.tag not in _NOT_TEXT:
            yield from _runs(child)


def _reason(exc: Exception) -> str:
    message = " ".join(str(exc).split())[:120]
    return message or type(exc).__name__

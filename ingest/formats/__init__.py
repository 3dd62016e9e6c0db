"""File formats -> TextDoc: sniff the bytes, then hand them to one reader.

Detection looks at content, never at the file extension alone: ``%PDF-`` is a
PDF, a zip holding ``word/document.xml`` is DOCX, decoded text that opens with
markup is HTML, anything else that decodes is plain text.
"""

from __future__ import annotations

import hashlib
import io
import re
import zipfile

from ..decode import clean, decode, lines
from ..errors import UnsupportedFormatError
from ..model import SourceInfo
from ..textdoc import TextDoc

_HTML = re.compile(
    r"<\s*(?:!doctype\s+html|html|head|body|div|p|table|span|h[1-6]|dl|ul|ol|section|article|main|header|nav|pre|blockquote|script|style|title|meta)\b",
    re.IGNORECASE,
)


def sniff(data: bytes) -> str:
    if data.startswith(b"%PDF-"):
        return "pdf"
    if data.startswith(b"PK\x03\x04"):
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                names = set(archive.namelist())
        except zipfile.BadZipFile:
            raise UnsupportedFormatError("a damaged or truncated zip archive (not a readable DOCX)") from None
        if "word/document.xml" in names:
            return "docx"
        raise UnsupportedFormatError("a zip archive that is not a Word (DOCX) document")
    return "text"


def _clean(found: list[str]) -> list[str]:
    return lines(clean("\n".join(found)))


def read(data: bytes, location: str) -> TextDoc:
    """Bytes of any supported format -> lines of text."""
    kind = sniff(data)
    digest = hashlib.sha256(data).hexdigest()
    if kind == "pdf":
        from . import pdf

        return TextDoc(_clean(pdf.lines(data)), SourceInfo(location, "pdf", sha256=digest))
    if kind == "docx":
        from . import docx

        return TextDoc(_clean(docx.lines(data)), SourceInfo(location, "docx", sha256=digest))
    decoded = decode(data)
    if _HTML.search(decoded.text[:4096]):
        from . import html

        return TextDoc(
            html.lines(decoded.text),
            SourceInfo(location, "html", decoded.encoding, decoded.line_endings, sha256=digest),
        )
    return TextDoc(
        lines(decoded.text),
        SourceInfo(location, "txt", decoded.encoding, decoded.line_endings, sha256=digest),
    )

"""Bytes -> text: the one place that decides an encoding.

The corpus has ASCII, UTF-8 (with and without BOM), cp1252 and UTF-16 (BE/LE,
with BOM). The order of the checks matters:

1. A BOM is authoritative.
2. UTF-16 without a BOM is recognised by its NUL bytes (ASCII text in UTF-16 has
   a NUL in every other byte). We never *try* UTF-16 on an 8-bit file: a cp1252
   file with an even number of bytes "decodes" as UTF-16 into garbage.
3. Other NUL bytes or many control characters mean binary input: refused.
4. Strict UTF-8 (ASCII is its subset); literal U+FFFD characters in the file are
   kept as they are.
5. Otherwise cp1252, the Windows codepage the older archive copies use; the five
   bytes cp1252 leaves undefined are read as their Latin-1 code points.

Line endings (LF, CRLF, CR, and files that mix CR with CRLF) become ``\\n``. Zero-width
characters (U+200B-U+200D, U+2060, a byte-order mark inside the text) go: they are invisible
in print and would split or glue words and numbers (:func:`clean`). :func:`lines` cuts a text
at every way Unicode ends a line or a paragraph -- U+2028, U+2029, NEL, vertical tab, form
feed as well as ``\\n`` -- so a rule's second paragraph joined to the first by a line
separator is a paragraph, as the editions that print it on a line of its own have it. (A line
of nothing but spaces, any Unicode space, is blank to the layouts: ``textdoc.is_blank``.)
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from .errors import BinaryInputError, EmptyInputError

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_NEWLINES = re.compile(r"\r\n|\r|\n")
_LINE_ENDS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"  # where str.splitlines cuts
_ZERO_WIDTH_CHARS = "\u200b\u200c\u200d\u2060\ufeff"
_ZERO_WIDTH = re.compile(f"[{_ZERO_WIDTH_CHARS}]")
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")


@dataclass(frozen=True, slots=True)
class Decoded:
    text: str  # newlines normalised to "\n"
    encoding: str
    line_endings: str | None


def _cp1252_fallback(err: UnicodeDecodeError):
    # 0x81, 0x8D, 0x8F, 0x90, 0x9D are undefined in cp1252: keep them as Latin-1.
    bad = err.object[err.start : err.end]
    return bad.decode("latin-1"), err.end


codecs.register_error("rulekb-cp1252", _cp1252_fallback)


def _utf16_without_bom(data: bytes) -> str | None:
    sample = data[:4096]
    if len(sample) < 4:
        return None
    even, odd = sample[0::2], sample[1::2]
    even_nul = even.count(0) / len(even)
    odd_nul = odd.count(0) / len(odd)
    if odd_nul > 0.4 and even_nul < 0.05:
        return "utf-16-le"
    if even_nul > 0.4 and odd_nul < 0.05:
        return "utf-16-be"
    return None


def line_endings(raw: str) -> str | None:
    crlf = raw.count("\r\n")
    cr = raw.count("\r") - crlf
    lf = raw.count("\n") - crlf
    kinds = [name for name, n in (("CRLF", crlf), ("CR", cr), ("LF", lf)) if n]
    return "+".join(kinds) if kinds else None


def decode(data: bytes) -> Decoded:
    """Decode a text file's bytes; raise on empty or binary input."""
    if not data.strip():
        raise EmptyInputError("empty input: no text to read")
    encoding = None
    body = data
    for bom, name in _BOMS:
        if data.startswith(bom):
            encoding, body = name, data[len(bom) :]
            break
    if encoding is None:
        encoding = _utf16_without_bom(data)
    if encoding is not None:
        codec = "utf-8" if encoding == "utf-8-sig" else encoding
        try:
            raw = body.decode(codec)
        except UnicodeDecodeError as exc:
            raise BinaryInputError(
                f"not valid {encoding} text (byte {exc.start}); is the file truncated or binary?"
            ) from None
    else:
        if b"\x00" in data:
            raise BinaryInputError("binary input: NUL bytes in an 8-bit file")
        try:
            raw = data.decode("utf-8")
            encoding = "ascii" if raw.isascii() else "utf-8"
        except UnicodeDecodeError:
            raw = data.decode("cp1252", errors="rulekb-cp1252")
            encoding = "cp1252"
    controls = len(_CONTROL.findall(raw[:65536]))
    if controls > max(8, len(raw[:65536]) // 100):
        raise BinaryInputError(
            f"binary input: {controls} control characters in the first 64 KiB ({encoding})"
        )
    endings = line_endings(raw)
    return Decoded(clean(_NEWLINES.sub("\n", raw)), encoding, endings)


def clean(text: str) -> str:
    """``text`` without zero-width characters (tested one by one with ``in``: five scans, each
    faster than one regular-expression scan; nearly every file has none and is not copied)."""
    if any(char in text for char in _ZERO_WIDTH_CHARS):
        return _ZERO_WIDTH.sub("", text)
    return text


def lines(text: str) -> list[str]:
    """``text`` cut at every Unicode line or paragraph end, as ``text.split("\\n")`` cuts a text
    whose only line end is ``\\n`` (a final line end gives a final empty line)."""
    out = text.splitlines()
    if text and text[-1] in _LINE_ENDS:
        out.append("")
    return out

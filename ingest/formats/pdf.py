"""PDF -> lines: the text in reading order, one line per paragraph.

pypdf decodes the text; this module adds what a rules parser needs on top:

* geometry: each piece of text pypdf reports comes with its place on the page,
  and each text-showing operator is measured with its font's widths, so every
  printed line gets a left edge, a right edge and a baseline;
* page furniture is dropped: lines repeated at the top or bottom of many pages
  (running headers and footers), and bare page numbers there;
* paragraphs are rebuilt: a printed line continues the paragraph above when the
  line above was full, i.e. this line's first word would not have fitted on it
  (across page breaks too), unless it opens with an example label ("Example:"),
  which always starts a paragraph. A line broken after a hyphen or dash is
  joined without a space (the hyphen goes only if the document spells the word
  whole elsewhere); a blank line, or a wider gap between lines, ends a
  paragraph and is kept as one blank line. Lines come in content-stream order,
  which is pypdf's reading order;
* ligature glyphs (ﬁ, ﬂ) become letters, and the wrong character maps Word 2007
  writes for curly quotes are repaired from the embedded font (see
  :func:`_font_fixes`). Curly quotes are otherwise kept as printed.

Damaged, encrypted or image-only PDFs raise :class:`UnsupportedFormatError`
with one clear line; no pypdf exception escapes.
"""

from __future__ import annotations

import io
import logging
import re
import struct
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass

from ..errors import IngestError, UnsupportedFormatError

_LIGATURES = str.maketrans({"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st"})
_SOFT_HYPHEN = "\u00ad"
_BREAK_AFTER = ("-", "–", "—", _SOFT_HYPHEN)  # a line may end in these, the word going on below
# labels that always open a paragraph, however full the line above ("Example:" lines
# follow their rule with no blank line and often after a full last line)
_LABEL = re.compile(r"^(?:Examples?|EXAMPLES?|Exemples?|EXEMPLES?)\s?:")
_PAGE_NUMBER = re.compile(r"^(?:page\s+)?[-–—]?\s*\d{1,4}\s*[-–—]?(?:\s*(?:of|/)\s*\d{1,4})?$", re.IGNORECASE)
_MAX_ENTRIES = 0x10000  # a font table with more entries than a font has codes is damaged (or hostile)


@dataclass(slots=True)
class _Line:
    """One printed line of a page."""

    page: int
    y: float  # baseline (PDF space: up is positive)
    x0: float
    x1: float  # where the ink ends (trailing spaces left out)
    size: float  # font size
    text: str
    lead: float  # width of the first word: the room a line above would have needed
    space: float  # width of a space at the end of the line


def lines(data: bytes) -> list[str]:
    with _quiet_pypdf():
        try:
            printed = _read(data)
        except IngestError:
            raise
        except Exception as exc:  # pypdf raises many types on damaged input
            raise UnsupportedFormatError(f"a damaged or truncated PDF ({_reason(exc)})") from None
    if not any(line.text.strip() for line in printed):
        raise UnsupportedFormatError("a PDF with no text layer (scanned pages?): there is no text to read without OCR")
    return _paragraphs(_drop_furniture(printed))


# -- reading ---------------------------------------------------------------


def _read(data: bytes) -> list[_Line]:
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    if reader.is_encrypted:
        try:
            opened = reader.decrypt("")  # often only an owner password: opens with an empty one
        except Exception as exc:
            raise UnsupportedFormatError(f"an encrypted PDF that cannot be decrypted ({_reason(exc)})") from None
        if not opened:
            raise UnsupportedFormatError("an encrypted PDF: its text cannot be read without its password")
    if len(reader.pages) == 0:
        raise UnsupportedFormatError("a PDF with no pages")
    fonts: dict[int, tuple[object, _Font | None]] = {}
    out: list[_Line] = []
    for number, page in enumerate(reader.pages, start=1):
        out.extend(_page_lines(page, number, fonts))
    return out


def _page_lines(page, number: int, fonts: dict) -> list[_Line]:
    """Let pypdf extract the page, watching where each piece of text goes."""
    resources = page.get("/Resources")
    resources = resources.get_object() if resources is not None else {}
    named = resources.get("/Font")
    named = named.get_object() if named is not None else {}
    named = named if isinstance(named, dict) else {}
    state = {"font": None, "size": 0.0, "Tc": 0.0, "Tw": 0.0, "Tz": 1.0}
    saved: list[dict] = []
    right: dict[int, float] = {}  # rounded baseline -> where the text drawn on it ends
    chunks: list[tuple[float, float, float, str, _Font | None]] = []

    def font_of(font_dict) -> _Font | None:
        if font_dict is None:
            return None
        if id(font_dict) not in fonts:  # (the dict is kept, so its id stays its own)
            try:
                fonts[id(font_dict)] = (font_dict, _Font(font_dict))
            except Exception:  # an odd font is only measured less well
                fonts[id(font_dict)] = (font_dict, None)
        return fonts[id(font_dict)][1]

    def before(op, args, cm, tm):  # operators: text state and widths
        try:
            measure(op, args, cm, tm)
        except Exception:  # an odd operand only leaves a line measured less well
            pass

    def measure(op, args, cm, tm):
        if op == b"q":
            saved.append(dict(state))
        elif op == b"Q" and saved:
            state.update(saved.pop())
        elif op == b"Tf" and len(args) >= 2:
            entry = named.get(args[0])
            state["font"] = font_of(entry.get_object()) if entry is not None else None
            state["size"] = float(args[1])
        elif op in (b"Tc", b"Tw", b"Tz") and args:
            state[op.decode()] = float(args[0]) / (100 if op == b"Tz" else 1)
        elif op in (b"TJ", b"Tj") and args and state["font"] is not None:
            items = args[0] if op == b"TJ" else [args[0]]
            width = state["font"].advance(items, state["size"], state["Tc"], state["Tw"]) * state["Tz"]
            x, y = _point(cm, tm)
            end = x + width * tm[0] * cm[0]
            right[round(y)] = max(right.get(round(y), end), end)

    def visit(text, cm, tm, font_dict, size):  # decoded text, where it starts
        if not text or text == "\n":
            return
        font = font_of(font_dict)
        if font is not None:
            text = text.translate(font.fixes)
        x, y = _point(cm, tm)
        scale = abs(tm[3] * cm[3]) or 1.0
        chunks.append((x, y, size * scale, text.strip("\n").replace("\n", " "), font))

    page.extract_text(visitor_operand_before=before, visitor_text=visit)
    return _group(chunks, right, number)


def _point(cm, tm) -> tuple[float, float]:
    """The text origin in page space (text matrix, then current transformation)."""
    x, y = tm[4], tm[5]
    return x * cm[0] + y * cm[2] + cm[4], x * cm[1] + y * cm[3] + cm[5]


def _group(chunks, right: dict[int, float], page: int) -> list[_Line]:
    """Chunks on one baseline, one after the other, form a printed line.
    Lines keep the content stream's order: pypdf's reading order."""
    groups: list[list[tuple]] = []
    for chunk in chunks:
        first = groups[-1][0] if groups else None
        if first is not None and abs(first[1] - chunk[1]) <= 0.4 * max(first[2], chunk[2], 1.0):
            groups[-1].append(chunk)
        else:
            groups.append([chunk])
    out: list[_Line] = []
    for parts in groups:
        text = "".join(part[3] for part in parts).translate(_LIGATURES)
        x0, y, size = min(part[0] for part in parts), parts[0][1], max(part[2] for part in parts)
        ends = [right[k] for k in (round(y) - 1, round(y), round(y) + 1) if k in right]
        font, font_size = parts[-1][4], parts[-1][2]
        space = font.measure(" ", font_size) if font else 0.25 * size
        x1 = max(ends) if ends else x0 + 0.5 * size * len(text)  # unmeasured: half an em a character
        x1 -= space * (len(text) - len(text.rstrip()))  # Word lets trailing spaces hang in the margin
        out.append(_Line(page, y, x0, x1, size, text, _lead(parts), space))
    return out


def _lead(parts) -> float:
    """The printed width of a line's first word, up to its first break
    opportunity (a space, or just after a hyphen or dash inside the word).
    Fonts can change inside a word, so it may span several chunks."""
    width = 0.0
    for _, _, size, text, font in parts:
        for ch in text:
            if ch.isspace():
                if width:
                    return width
                continue
            started = bool(width)
            width += font.measure(ch, size) if font else 0.5 * size
            if started and ch in _BREAK_AFTER:
                return width
    return width


# -- fonts -----------------------------------------------------------------


class _Font:
    """One PDF font: glyph widths (to measure lines) and character repairs."""

    def __init__(self, font) -> None:
        self.two_byte = font.get("/Subtype") == "/Type0"
        self.widths: dict[int, float] = {}  # code -> width in 1/1000 em
        self.default = 500.0
        if self.two_byte:
            descendant = font["/DescendantFonts"][0].get_object()
            self.default = float(descendant.get("/DW", 1000))
            _cid_widths(descendant.get("/W", []), self.widths)
        else:
            first = int(font.get("/FirstChar", 0))
            for code, width in enumerate(font.get("/Widths", []) or [], start=first):
                self.widths[code] = float(width)
        stated = _to_unicode(font["/ToUnicode"].get_object().get_data()) if "/ToUnicode" in font else {}
        try:
            self.fixes = _font_fixes(font, stated) if self.two_byte else {}
        except Exception:  # a font program we cannot read: keep the text pypdf gave
            self.fixes = {}
        # character -> code, to measure decoded text: /ToUnicode reversed, else Windows' encoding
        self.codes = {chr(self.fixes.get(char, char)): code for code, char in reversed(stated.items())}
        if not self.two_byte:
            for code in range(32, 256):
                self.codes.setdefault(bytes([code]).decode("cp1252", errors="ignore") or chr(code), code)

    def measure(self, text: str, size: float) -> float:
        """The printed width of decoded text (kerning aside)."""
        return sum(self.widths.get(self.codes.get(ch, -1), self.default) for ch in text) / 1000 * size

    def advance(self, items, size: float, char_space: float, word_space: float) -> float:
        """How far showing ``items`` (a TJ array, or one string) moves the pen."""
        total = 0.0
        for item in items:
            if isinstance(item, (int, float)):  # a TJ adjustment, in 1/1000 em
                total -= float(item) / 1000 * size
                continue
            raw = item.get_original_bytes() if hasattr(item, "get_original_bytes") else bytes(item)
            if self.two_byte:
                codes = [raw[i] << 8 | raw[i + 1] for i in range(0, len(raw) - 1, 2)]
            else:
                codes = list(raw)
                total += word_space * codes.count(32)
            total += sum(self.widths.get(c, self.default) for c in codes) / 1000 * size
            total += char_space * len(codes)
        return total


def _cid_widths(w, widths: dict[int, float]) -> None:
    """A CID font's /W array: ``c [w1 w2 ...]`` or ``c_first c_last w``."""
    w = [item.get_object() for item in w]
    i = 0
    while i < len(w) - 1 and len(widths) < _MAX_ENTRIES:
        if isinstance(w[i + 1], list):
            for offset, width in enumerate(w[i + 1][:_MAX_ENTRIES]):
                widths[int(w[i]) + offset] = float(width)
            i += 2
        elif i + 2 < len(w):
            for cid in range(int(w[i]), min(int(w[i + 1]) + 1, int(w[i]) + _MAX_ENTRIES)):
                widths[cid] = float(w[i + 2])
            i += 3
        else:
            break


def _to_unicode(cmap: bytes) -> dict[int, int]:
    """Code -> character of a /ToUnicode CMap (single characters only)."""
    text = cmap.decode("latin-1")
    out: dict[int, int] = {}
    for block in re.findall(r"beginbfchar(.*?)endbfchar", text, re.S):
        for src, dst in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]{4})>", block):
            out[int(src, 16)] = int(dst, 16)
    for block in re.findall(r"beginbfrange(.*?)endbfrange", text, re.S):
        for lo, hi, dst in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]{4})>", block):
            lo, hi, dst = int(lo, 16), int(hi, 16), int(dst, 16)
            for code in range(lo, min(hi + 1, lo + _MAX_ENTRIES)):
                out[code] = dst + code - lo
            if len(out) > _MAX_ENTRIES:
                return out
    return out


def _font_fixes(font, stated: dict[int, int]) -> dict[int, int]:
    """Characters to correct in text shown with a Word-written TrueType font.

    Word 2007 writes /ToUnicode ranges as if glyphs with consecutive ids were
    consecutive characters; for punctuation they are not, so “ ” ‘ ’ come out
    as ― ‖ ‗ ‘ (or ‘ ’ as „ ‟). The embedded font program has its own, right,
    character map: where the two disagree, trust the font. Only for fonts
    whose codes are glyph ids (Identity CIDToGIDMap) and only for characters
    that one glyph alone is said to show, so the correction is unambiguous.
    """
    descendant = font["/DescendantFonts"][0].get_object()
    if descendant.get("/CIDToGIDMap", "/Identity") != "/Identity":
        return {}
    program = descendant["/FontDescriptor"].get_object().get("/FontFile2")
    if program is None or not stated:
        return {}
    truth = _truetype_chars(program.get_object().get_data())
    uses = Counter(stated.values())
    fixes = {}
    for gid, char in stated.items():
        right = truth.get(gid)
        if right and char not in right and uses[char] == 1:
            fixes[char] = min(right)
    return fixes


def _truetype_chars(program: bytes) -> dict[int, set[int]]:
    """Glyph id -> characters, from a TrueType font's Windows Unicode cmap."""
    for i in range(struct.unpack(">H", program[4:6])[0]):
        tag, _, table, _ = struct.unpack(">4sIII", program[12 + 16 * i : 28 + 16 * i])
        if tag == b"cmap":
            break
    else:
        return {}
    for i in range(struct.unpack(">H", program[table + 2 : table + 4])[0]):
        platform, encoding, sub = struct.unpack(">HHI", program[table + 4 + 8 * i : table + 12 + 8 * i])
        if (platform, encoding) == (3, 1):
            return _cmap_format4(program, table + sub)
    return {}


def _cmap_format4(data: bytes, at: int) -> dict[int, set[int]]:
    """A format-4 (segmented) cmap subtable: characters -> glyph ids, reversed."""
    if struct.unpack(">H", data[at : at + 2])[0] != 4:
        return {}
    n = struct.unpack(">H", data[at + 6 : at + 8])[0] // 2
    ends_at = at + 14
    starts_at = ends_at + 2 * n + 2  # (2 reserved bytes)
    deltas_at = starts_at + 2 * n
    offsets_at = deltas_at + 2 * n
    ends = struct.unpack(f">{n}H", data[ends_at : ends_at + 2 * n])
    starts = struct.unpack(f">{n}H", data[starts_at : starts_at + 2 * n])
    deltas = struct.unpack(f">{n}h", data[deltas_at : deltas_at + 2 * n])
    offsets = struct.unpack(f">{n}H", data[offsets_at : offsets_at + 2 * n])
    out: dict[int, set[int]] = {}
    budget = _MAX_ENTRIES  # segments may overlap in a damaged font: do not loop for ever
    for i in range(n):
        for char in range(starts[i], min(ends[i], 0xFFFE, starts[i] + budget) + 1):
            budget -= 1
            if offsets[i] == 0:
                gid = (char + deltas[i]) & 0xFFFF
            else:  # the offset is relative to where it is stored
                where = offsets_at + 2 * i + offsets[i] + 2 * (char - starts[i])
                gid = struct.unpack(">H", data[where : where + 2])[0]
                gid = (gid + deltas[i]) & 0xFFFF if gid else 0
            if gid:
                out.setdefault(gid, set()).add(char)
    return out


# -- page furniture --------------------------------------------------------


def _drop_furniture(printed: list[_Line]) -> list[_Line]:
    """Drop running headers and footers, and page numbers, from page edges:
    the two lines nearest the top and the bottom of each page."""
    pages: dict[int, list[_Line]] = {}
    for line in printed:
        if line.text.strip():
            pages.setdefault(line.page, []).append(line)
    edges: dict[tuple[str, int], list[_Line]] = {}  # text with numbers blanked, height -> lines
    furniture: set[int] = set()
    for on_page in pages.values():
        by_height = sorted(on_page, key=lambda line: -line.y)
        for line in by_height[:2] + by_height[2:][-2:]:
            edges.setdefault((re.sub(r"\d+", "#", " ".join(line.text.split())), round(line.y)), []).append(line)
            if _PAGE_NUMBER.match(line.text.strip()):
                furniture.add(id(line))
    for found in edges.values():
        if len(found) >= max(3, 0.3 * len(pages)) and _running(found):
            furniture.update(id(line) for line in found)
    return [line for line in printed if id(line) not in furniture]


def _running(found: list[_Line]) -> bool:
    """Lines at one place on many pages are a running header or footer if they
    say the same on every page, or differ only by a number that counts pages
    (text that differs otherwise, like rules 100.1 and 100.3, is content)."""
    if len({line.text.strip() for line in found}) == 1:
        return True
    numbers = [[int(n) for n in re.findall(r"\d+", line.text)] for line in found]
    return any(len({row[k] - line.page for row, line in zip(numbers, found)}) == 1 for k in range(len(numbers[0])))


# -- paragraphs ------------------------------------------------------------


def _paragraphs(printed: list[_Line]) -> list[str]:
    margin = _right_margin(printed)
    vocabulary = {word for line in printed for word in _words(line.text)}
    out: list[str] = []
    para: list[_Line] = []

    def close() -> None:
        if para:
            text = para[0].text
            for line in para[1:]:
                text = _join(text, line.text, vocabulary)
            # a soft hyphen is only printed where a word was split: the word is whole again
            out.append(" ".join(text.replace(_SOFT_HYPHEN, "").split()))
            para.clear()

    def blank() -> None:
        if out and out[-1]:
            out.append("")

    for line in printed:
        if not line.text.strip():
            close()
            blank()
            continue
        if para and not _continues(para, line, margin):
            gap = _gap_before(para[-1], line)
            close()
            if gap:
                blank()
        para.append(line)
    close()
    return out


def _right_margin(printed: list[_Line]) -> float:
    """Where full lines end: a high percentile of the lines' right edges, so
    that one line running into the margin does not move it."""
    edges = sorted(line.x1 for line in printed if line.text.strip())
    return edges[round(0.99 * (len(edges) - 1))] if edges else 0.0


def _continues(para: list[_Line], line: _Line, margin: float) -> bool:
    """Does ``line`` go on with the paragraph above? Only if the line above was
    full, i.e. this line's first word would not have fitted on it: then the
    break was the page's doing, not the author's. Geometry cannot tell a
    paragraph that ends on a full line from one that goes on, so the one label
    that opens paragraphs in the rules without a blank line is known here."""
    prev = para[-1]
    if _gap_before(prev, line) or _LABEL.match(line.text.lstrip()):
        return False
    # after a paragraph's first line (which may be indented, or hang) its lines line up
    if len(para) > 1 and abs(line.x0 - prev.x0) > 1:
        return False
    space = 0.0 if prev.text.endswith(_BREAK_AFTER) else prev.space
    return prev.x1 + space + line.lead > margin - 0.2 * prev.size


def _gap_before(prev: _Line, line: _Line) -> bool:
    """More space between two lines than between the lines of a paragraph."""
    return prev.page == line.page and prev.y - line.y > 1.6 * max(prev.size, line.size)


def _join(text: str, line: str, vocabulary: set[str]) -> str:
    """Join a paragraph's next printed line to it."""
    line = line.strip()
    if not text.endswith(_BREAK_AFTER) or text[-2:-1].isspace():
        return f"{text.rstrip()} {line}"  # broken at a space
    if text.endswith("-") and text[-2:-1].isalpha() and line[:1].islower():
        # a hyphen at a line break stays, unless the document spells the word unbroken
        before, after = text.split()[-1], line.split()[0]
        whole = _words(before[:-1] + after)
        if whole and whole[0] in vocabulary and not set(_words(before + after)) & vocabulary:
            return text[:-1] + line
    return text + line  # "two-" + "player", "cards—" + "even"


def _words(text: str) -> list[str]:
    return [w.lower() for w in re.findall(r"[^\W\d_](?:[\w’'-]*\w)?", text)]


@contextmanager
def _quiet_pypdf():
    """pypdf logs what it repairs on the way; the caller needs only the verdict."""
    logger = logging.getLogger("pypdf")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


def _reason(exc: Exception) -> str:
    message = " ".join(str(exc).split())[:120]
    return message or type(exc).__name__

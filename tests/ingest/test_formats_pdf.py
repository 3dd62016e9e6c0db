"""The PDF reader, and the PDF and Word forms of the corpus read like the plain text.

The real files (the same rules as PDF and DOCX) come from the corpus and must
parse like the plain-text edition of the same date. Layout cases and bad input
use PDFs made here, byte by byte, with invented text (Word files: test_formats_docx.py).
"""

from __future__ import annotations

import io
import re
import struct
import textwrap
from functools import lru_cache
from pathlib import Path

import pytest

from rulekb.ingest import formats, layouts
from rulekb.ingest.errors import UnsupportedFormatError
from rulekb.ingest.formats import pdf as pdf_reader
from rulekb.ingest.parse import parse_bytes, parse_file
from rulekb.ingest.render import round_trip

from ..helpers import assert_one_clear_line

SAME_RULES = ["CR-2011-09-30.pdf", "CR-2013-07-11.docx", "CR-2026-01-16.docx"]


# -- the real files --------------------------------------------------------


@lru_cache(maxsize=None)
def _read(path: str):
    doc = formats.read(Path(path).read_bytes(), path)
    [edition] = layouts.parse(doc)
    return doc, edition


@lru_cache(maxsize=None)
def _txt_edition(path: str):
    [edition] = parse_file(path)
    return edition


@pytest.fixture(params=SAME_RULES)
def pair(request, corpus):
    """(the PDF/DOCX file's TextDoc and edition, the .txt edition of its date)"""
    path = corpus / "en-formats" / request.param
    doc, edition = _read(str(path))
    return doc, edition, _txt_edition(str(corpus / "en" / (path.stem + ".txt")))


_TYPOGRAPHY = str.maketrans(
    {"“": '"', "”": '"', "‘": "'", "’": "'", "–": "-", "—": " -- ", "©": "(C)", "®": "(R)", "™": "(TM)"}
)


def _plain(text: str) -> str:
    """Text as the ASCII archive copies print it: straight quotes, "--" for a
    dash, no _italics_ marks or <links>, whitespace normalised."""
    text = text.translate(_TYPOGRAPHY).replace("_", "")
    text = re.sub(r"<([^<>\s]+\.[^<>\s]+)>", r"\1", text)
    return " ".join(text.split())


@pytest.mark.corpus
def test_pdf_and_docx_have_the_same_rule_numbers_as_the_txt_of_their_date(pair):
    _, edition, txt = pair
    assert [r.number for r in edition.rules] == [r.number for r in txt.rules]


@pytest.mark.corpus
def test_pdf_and_docx_name_the_same_edition_with_the_same_sections_and_glossary(pair):
    doc, edition, txt = pair
    assert (edition.id, edition.effective_date, edition.title) == (txt.id, txt.effective_date, txt.title)
    assert doc.source.format in ("pdf", "docx") and doc.source.encoding is None
    for headings, theirs in ((edition.sections, txt.sections), (edition.parts, txt.parts)):
        assert [(h.number, _plain(h.title)) for h in headings] == [(h.number, _plain(h.title)) for h in theirs]
    assert [_plain(g.term) for g in edition.glossary] == [_plain(g.term) for g in txt.glossary]
    assert [_plain(g.definition) for g in edition.glossary] == [_plain(g.definition) for g in txt.glossary]
    assert not edition.unplaced and not edition.partial


@pytest.mark.corpus
def test_pdf_and_docx_round_trip_everything_the_reader_gave_the_parser(pair):
    doc, edition, _ = pair
    result = round_trip(edition, "\n".join(doc.lines))
    assert result.ok, str(result)


# The 2013-07-11 .txt is a cp1252 copy that lost two characters ("Dandân" came
# out as "Dandƒn", "Æther" as "'ther"); the Word file has them right.
TXT_DAMAGE = {"CR-2013-07-11.docx": {"700.5a", "700.5c"}}


@pytest.mark.corpus
def test_pdf_and_docx_rules_and_examples_read_as_in_the_txt_but_for_typography(pair):
    doc, edition, txt = pair
    theirs = {r.number: r for r in txt.rules}
    differ = {
        r.number
        for r in edition.rules
        if _plain(r.text) != _plain(theirs[r.number].text)
        or [_plain(e) for e in r.examples] != [_plain(e) for e in theirs[r.number].examples]
    }
    name = Path(doc.source.location).name
    assert differ == TXT_DAMAGE.get(name, set())


@pytest.mark.corpus
def test_pdf_curly_quotes_come_out_right_despite_word_2007s_character_maps(corpus):
    doc, edition = _read(str(corpus / "en-formats" / "CR-2011-09-30.pdf"))
    text = doc.text
    assert not set("―‖‗‟„") & set(text)  # what pypdf alone gives for “ ” ‘ ’
    assert text.count("“") == text.count("”") > 1000
    assert "can’t" in edition.rule("101.2").text


# -- PDFs made here --------------------------------------------------------
# 10pt Courier: every character is 6pt wide, so a line of at most 60
# characters ends by x = 72 + 360. Codes 0x81/0x82 show the ligatures ﬁ/ﬂ.

_LIGATURE_CMAP = b"""/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
1 begincodespacerange
<00> <FF>
endcodespacerange
2 beginbfchar
<81> <FB01>
<82> <FB02>
endbfchar
endcmap
end
end"""


def _pdf(objects: list[bytes]) -> bytes:
    """A PDF file of these objects (numbered from 1; object 1 is the catalog)."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def _stream(data: bytes) -> bytes:
    return b"<< /Length %d >>\nstream\n%s\nendstream" % (len(data), data)


def _courier_pdf(pages: list[list[tuple[float, float, str]]]) -> bytes:
    """Pages of (x, y, text) lines in 10pt Courier."""
    widths = b" ".join([b"600"] * 224)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"",  # the page tree, below
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding"
        b" /FirstChar 32 /LastChar 255 /Widths [%s] /ToUnicode 4 0 R >>" % widths,
        _stream(_LIGATURE_CMAP),
    ]
    kids = []
    for lines in pages:
        ops = [b"BT /F1 10 Tf"]
        for x, y, text in lines:
            raw = text.replace("ﬁ", "\0").replace("ﬂ", "\1").encode("cp1252")
            raw = raw.replace(b"\0", b"\x81").replace(b"\1", b"\x82")
            raw = raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
            ops.append(b"1 0 0 1 %.2f %.2f Tm (%s) Tj" % (x, y, raw))
        ops.append(b"ET")
        objects.append(_stream(b"\n".join(ops)))
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >>"
            b" /Contents %d 0 R >>" % (len(objects))
        )
        kids.append(len(objects))
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % k for k in kids), len(kids))
    return _pdf(objects)


def _typeset(paragraphs: list[str], *, per_page: int = 12, header: str | None = None, page_numbers=False) -> bytes:
    """Lay paragraphs out as a word processor does: lines of at most 60
    characters broken at spaces or after hyphens, ``per_page`` lines a page,
    a blank line between paragraphs; optionally a running header and page
    numbers. A paragraph may hold "\\n": lines set with no blank between."""
    lines: list[str | None] = []
    for paragraph in paragraphs:
        for part in paragraph.split("\n"):
            lines.extend(textwrap.wrap(part, 60, break_on_hyphens=True, break_long_words=False))
        lines.append(None)  # blank
    pages = []
    for start in range(0, len(lines), per_page):
        page = [(72, 720 - 12 * i, text) for i, text in enumerate(lines[start : start + per_page]) if text]
        if header:
            page.insert(0, (72, 760, header))
        if page_numbers:
            page.append((300, 40, str(len(pages) + 1)))
        pages.append(page)
    return _courier_pdf(pages)


LONG_RULE = (
    "100.1. This invented rule runs on for several printed lines so that the "
    "reader has to put it back together: first across the lines of one page, then "
    "across the break between two pages, where a careless reader would cut it in "
    "two and leave the second half without its number at all, which a rules "
    "parser would then keep as unplaced text."
)


def test_pdf_paragraph_wrapped_across_lines_and_pages_becomes_one_line():
    # six lines of the long rule, the page breaking after its second
    data = _typeset(["Invented Rules", "100. General", LONG_RULE, "100.2. A short rule."], per_page=6)
    assert len(textwrap.wrap(LONG_RULE, 60)) == 6
    assert pdf_reader.lines(data) == ["Invented Rules", "", "100. General", "", LONG_RULE, "", "100.2. A short rule."]


def test_pdf_running_header_and_page_numbers_are_dropped():
    rules = [
        f"100.{n}. Rule number {n} of this invented handbook says something true, and then "
        "goes on long enough to need a second printed line, and a third one too."
        for n in range(1, 10)
    ]
    data = _typeset(rules, per_page=5, header="Invented Rules Handbook", page_numbers=True)
    assert b"(Invented Rules Handbook)" in data and b"(8)" in data
    out = pdf_reader.lines(data)
    assert [line for line in out if line] == rules


@pytest.mark.parametrize("printed,joined", [
    pytest.param([
        "100.3. The line breaks of this paragraph fall right after a two-",
        "player compound, then after an em dash in the words many cards—",
        "even these, and a reader must join them with no space at all.",
    ], "100.3. The line breaks of this paragraph fall right after a two-player compound, "
       "then after an em dash in the words many cards—even these, and a reader must join them with no space at all.",
        id="broken-after-a-hyphen-or-dash-joined-without-a-space"),
    pytest.param([
        "100.6. To determine the winner, a player must first deter-",
        "mine who is still in the game; a two-player game needs two.",
    ], "100.6. To determine the winner, a player must first determine who is still in the game;"
       " a two-player game needs two.",
        id="hyphen-splitting-a-word-the-document-spells-whole-elsewhere-dropped"),
    pytest.param(["A hyphenated word at the end of this first line is repre\xad", "sented here."],
                 "A hyphenated word at the end of this first line is represented here.",
                 id="soft-hyphen-at-a-line-end-dropped"),
])
def test_pdf_lines_broken_mid_paragraph_are_joined(printed, joined):
    data = _courier_pdf([[(72, 720 - 12 * i, line) for i, line in enumerate(printed)]])
    assert pdf_reader.lines(data) == [joined]


def test_pdf_short_line_ends_its_paragraph_even_with_no_blank_line_after_it():
    # a glossary: the term, then its definition on the next line
    definition = "A made-up definition that takes more than one line to say what the term means, see rule 100.1."
    data = _typeset(["Invented Term\n" + definition, "Other Term\nShort."])
    assert pdf_reader.lines(data) == [
        "Invented Term",
        definition,
        "",
        "Other Term",
        "Short.",
    ]


def test_pdf_example_after_a_full_line_starts_a_line_of_its_own():
    rule = (
        "100.4. An invented rule whose last printed line is nearly as long as the lines above it,"
        " so no room is left on it."
    )
    printed = textwrap.wrap(rule, 60)
    assert len(printed[-1]) + len(" Example:") > max(map(len, printed))  # "Example:" would not fit after it
    data = _typeset([rule + "\nExample: An invented example."])
    assert pdf_reader.lines(data) == [rule, "Example: An invented example."]


def test_pdf_ligatures_become_letters():
    data = _typeset(["100.5. The ﬁrst ﬂight."])
    assert pdf_reader.lines(data) == ["100.5. The first flight."]


# A Word 2007 PDF: a Type0 TrueType font whose codes are glyph ids in Apple's
# standard order, and the /ToUnicode map Word writes for it (one range running
# from – over “ ” ‘ ’ as if they were consecutive characters).
_GLYPHS = {" ": 3, **{chr(c): c - 29 for c in range(0x41, 0x5B)}, **{chr(c): c - 29 for c in range(0x61, 0x7B)}}
_GLYPHS.update({"–": 177, "—": 178, "“": 179, "”": 180, "‘": 181, "’": 182})
_WORD_2007_CMAP = b"""/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
1 begincodespacerange
<0000> <FFFF>
endcodespacerange
1 beginbfchar
<0003> <0020>
endbfchar
3 beginbfrange
<0024> <003D> <0041>
<0044> <005D> <0061>
<00B1> <00B6> <2013>
endbfrange
endcmap
end
end"""


def _truetype_cmap_only() -> bytes:
    """A TrueType font program with just its character map (format 4)."""
    segments = [(0x20, 0x20), (0x41, 0x5A), (0x61, 0x7A), (0x2013, 0x2014), (0x2018, 0x2019), (0x201C, 0x201D)]
    deltas = [(_GLYPHS[chr(first)] - first) & 0xFFFF for first, _ in segments] + [1]
    segments.append((0xFFFF, 0xFFFF))
    n = len(segments)
    sub = struct.pack(">7H", 4, 16 + 8 * n, 0, 2 * n, 0, 0, 0)
    sub += struct.pack(f">{n}H", *(last for _, last in segments)) + b"\0\0"
    sub += struct.pack(f">{n}H", *(first for first, _ in segments))
    sub += struct.pack(f">{n}H", *deltas) + struct.pack(f">{n}H", *[0] * n)
    cmap = struct.pack(">HHHHI", 0, 1, 3, 1, 12) + sub
    return struct.pack(">IHHHH", 0x10000, 1, 16, 0, 0) + struct.pack(">4sIII", b"cmap", 0, 28, len(cmap)) + cmap


def _word_2007_pdf(text: str) -> bytes:
    codes = b"".join(b"%04X" % _GLYPHS[ch] for ch in text)
    return _pdf([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]"
        b" /Resources << /Font << /F1 4 0 R >> >> /Contents 8 0 R >>",
        b"<< /Type /Font /Subtype /Type0 /BaseFont /TimesNewRoman /Encoding /Identity-H"
        b" /DescendantFonts [5 0 R] /ToUnicode 7 0 R >>",
        b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /TimesNewRoman /CIDSystemInfo"
        b" << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >>"
        b" /CIDToGIDMap /Identity /DW 500 /FontDescriptor 6 0 R >>",
        b"<< /Type /FontDescriptor /FontName /TimesNewRoman /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0"
        b" /Ascent 891 /Descent -216 /CapHeight 693 /StemV 80 /FontFile2 9 0 R >>",
        _stream(_WORD_2007_CMAP),
        _stream(b"BT /F1 10 Tf 1 0 0 1 72 700 Tm <%s> Tj ET" % codes),
        _stream(_truetype_cmap_only()),
    ])


def test_pdf_word_2007_quote_maps_are_repaired_from_the_embedded_font():
    text = "It’s “quoted” – ‘single’ — done"
    assert pdf_reader.lines(_word_2007_pdf(text)) == [text]


# -- bad PDFs --------------------------------------------------------------


def _blank_pdf(pages: int = 1, password: str | None = None) -> bytes:
    from pypdf import PdfWriter

    writer = PdfWriter()
    for _ in range(pages):
        writer.add_blank_page(612, 792)
    if password is not None:
        writer.encrypt(user_password=password, owner_password="owner", algorithm="AES-256")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


@pytest.mark.parametrize(
    "make",
    [
        lambda real: real[: len(real) // 2],
        lambda real: real[:-3000],
        lambda real: b"%PDF-1.4\n" + b"junk " * 200,
        lambda real: b"%PDF-1.7\n",
    ],
    ids=["cut-in-half", "end-cut-off", "header-then-junk", "header-only"],
)
def test_damaged_pdf_is_refused_with_one_clear_line(make):
    real = _typeset([LONG_RULE] * 6)
    with pytest.raises(UnsupportedFormatError) as caught:
        parse_bytes(make(real), "damaged.pdf")
    assert_one_clear_line(caught.value, "damaged.pdf", "damaged or truncated PDF")


def test_encrypted_pdf_is_refused_with_one_clear_line():
    with pytest.raises(UnsupportedFormatError) as caught:
        parse_bytes(_blank_pdf(password="secret"), "locked.pdf")
    assert_one_clear_line(caught.value, "locked.pdf", "encrypted", "password")


@pytest.mark.parametrize("pages", [1, 3])
def test_pdf_without_a_text_layer_is_refused_with_one_clear_line(pages):
    with pytest.raises(UnsupportedFormatError) as caught:
        parse_bytes(_blank_pdf(pages), "scan.pdf")
    assert_one_clear_line(caught.value, "scan.pdf", "no text layer")


def test_pdf_with_no_pages_is_refused_with_one_clear_line():
    with pytest.raises(UnsupportedFormatError) as caught:
        parse_bytes(_blank_pdf(0), "empty.pdf")
    assert_one_clear_line(caught.value, "empty.pdf", "no pages")


def test_pdf_with_an_empty_user_password_is_read():
    encrypted = _blank_pdf(password="")
    with pytest.raises(UnsupportedFormatError, match="no text layer"):  # opened, and found blank
        pdf_reader.lines(encrypted)

"""The Word reader: paragraphs, tables, line breaks, hyperlinks and tracked changes, and
damaged files refused with one clear line; Word files made here with invented text."""

from __future__ import annotations

import io
import zipfile

import docx
import pytest
from docx.oxml import OxmlElement
from lxml import etree

from rulekb.ingest.errors import UnsupportedFormatError
from rulekb.ingest.parse import parse_bytes
from rulekb.ingest.formats import docx as docx_reader

from ..helpers import assert_one_clear_line

# -- Word files made here --------------------------------------------------


def _docx(build) -> bytes:
    document = docx.Document()
    build(document)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def _run(tag: str, text: str, text_tag: str = "w:t"):
    """``<tag><w:r><w:t>text</w:t></w:r></tag>`` (``tag`` prefixed, or in {namespace} form)"""
    outer = etree.Element(tag) if tag.startswith("{") else OxmlElement(tag)
    run, t = OxmlElement("w:r"), OxmlElement(text_tag)
    t.text = text
    run.append(t)
    outer.append(run)
    return outer


def test_docx_gives_one_line_per_paragraph_in_document_order_with_table_cells():
    def build(d):
        d.add_paragraph("100. General")
        d.add_paragraph("")
        d.add_paragraph("100.1. The first invented rule.")
        table = d.add_table(rows=1, cols=2)
        table.cell(0, 0).text = "Cell one"
        table.cell(0, 1).text = "Cell two"
        d.add_paragraph("100.2. After the table.")

    lines = docx_reader.lines(_docx(build))
    assert lines == [
        "100. General", "", "100.1. The first invented rule.", "Cell one", "Cell two", "100.2. After the table."
    ]


def test_docx_soft_line_break_starts_a_new_line_of_the_same_paragraph():
    def build(d):
        d.add_paragraph("Invented Term")
        run = d.add_paragraph("1. A first sense.").add_run()
        run.add_break()
        run.add_text("2. A second sense.\tWith a tab.")

    assert docx_reader.lines(_docx(build)) == ["Invented Term", "1. A first sense.", "2. A second sense. With a tab."]


def test_docx_reads_hyperlinks_and_tracked_insertions_but_not_deletions_moves_or_fallbacks():
    def build(d):
        p = d.add_paragraph("See ")
        p._p.append(_run("w:hyperlink", "the website"))
        p._p.append(_run("w:ins", " for more"))
        p._p.append(_run("w:del", " (deleted words)", "w:delText"))
        p._p.append(_run("w:moveFrom", " (words moved away)"))
        mc = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
        alternate = etree.SubElement(p._p, mc + "AlternateContent")
        alternate.append(_run(mc + "Choice", " now"))
        alternate.append(_run(mc + "Fallback", " now (again, for old readers)"))
        p.add_run(".")

    assert docx_reader.lines(_docx(build)) == ["See the website for more now."]


def _rezip(data: bytes, replace: dict[str, bytes | None]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for item in source.infolist():
            if item.filename not in replace:
                target.writestr(item, source.read(item.filename))
            elif replace[item.filename] is not None:
                target.writestr(item.filename, replace[item.filename])
    return out.getvalue()


@pytest.mark.parametrize(
    "damage",
    [
        lambda good: good[: len(good) // 2],
        lambda good: _rezip(good, {"word/document.xml": b"<w:document><w:body><w:p>"}),
        lambda good: _rezip(good, {"word/document.xml": b"\x00\x01 not xml"}),
        lambda good: _rezip(good, {"[Content_Types].xml": None}),
    ],
    ids=["zip-cut-in-half", "document-xml-corrupt", "document-xml-not-xml", "content-types-missing"],
)
def test_damaged_docx_is_refused_with_one_clear_line(damage):
    good = _docx(lambda d: d.add_paragraph("100.1. A rule."))
    bad = damage(good)
    for read in (lambda: parse_bytes(bad, "damaged.docx"), lambda: docx_reader.lines(bad)):
        with pytest.raises(UnsupportedFormatError) as caught:
            read()
        assert_one_clear_line(caught.value, "damaged")

"""The official schemas (vendored in ``schemas/``, see its README) and lxml's validators:
XLIFF 1.2 against the OASIS XSD (strict), TMX against the TMX 1.4b DTD, TBX v2 against
the TBX core structure DTD. Used by the writers (nothing invalid is handed out) and by
the tests."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from lxml import etree

from ...errors import RulekbError

SCHEMAS = Path(__file__).resolve().parent / "schemas"
W3C_XML_XSD = "http://www.w3.org/2001/xml.xsd"


class InvalidDocument(RulekbError):
    """A document the official schema rejects (a bug of the writer, never the user's): an
    internal error, so the CLI and the web report it as one."""

    status = 500


@cache
def xliff_schema() -> etree.XMLSchema:
    text = (SCHEMAS / "xliff-core-1.2-strict.xsd").read_bytes()
    # the schema imports xml.xsd from the W3C: read the copy beside it instead
    text = text.replace(W3C_XML_XSD.encode(), (SCHEMAS / "xml.xsd").as_uri().encode())
    return etree.XMLSchema(etree.fromstring(text, base_url=(SCHEMAS / "x.xsd").as_uri()))


@cache
def dtd(name: str) -> etree.DTD:
    return etree.DTD(str(SCHEMAS / name))


def _parse(document: str | bytes) -> etree._Element:
    data = document.encode("utf-8") if isinstance(document, str) else document
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    return etree.fromstring(data, parser)


def errors(document: str | bytes, kind: str) -> list[str]:
    """The schema's complaints about ``document`` (``kind``: xliff, tmx or tbx); empty when valid."""
    root = _parse(document)
    validator = {"xliff": xliff_schema, "tmx": lambda: dtd("tmx14.dtd"),
                 "tbx": lambda: dtd("TBXcoreStructV02.dtd")}[kind]()
    if validator.validate(root):
        return []
    return [f"line {e.line}: {e.message}" for e in validator.error_log]


def check(document: str, kind: str) -> str:
    """``document`` itself when the official schema accepts it."""
    found = errors(document, kind)
    if found:
        raise InvalidDocument(f"the {kind.upper()} written fails its schema: {found[0]}")
    return document

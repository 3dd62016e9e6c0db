"""Encoding detection: BOM first, UTF-16 by its NUL bytes, never by trial."""

from __future__ import annotations

import pytest

from rulekb.ingest.decode import decode
from rulekb.ingest.errors import BinaryInputError, EmptyInputError


def test_a_cp1252_file_with_an_even_byte_count_is_not_read_as_utf16():
    text = "The card\u2019s owner \u2014 \u201cthe player\u201d.\n" * 20
    data = text.encode("cp1252")
    assert len(data) % 2 == 0
    # the trap: these bytes also "decode" as UTF-16, into garbage
    data.decode("utf-16-le")
    decoded = decode(data)
    assert decoded.encoding == "cp1252"
    assert decoded.text == text


def test_literal_replacement_characters_are_kept_not_invented():
    data = "a \ufffdcard\ufffd here\n".encode("utf-8")
    decoded = decode(data)
    assert decoded.encoding == "utf-8"
    assert decoded.text.count("\ufffd") == 2


def test_bytes_undefined_in_cp1252_are_kept_as_latin1():
    decoded = decode(b"caf\xe9 \x81 ok\n")
    assert decoded.encoding == "cp1252"
    assert decoded.text == "caf\xe9 \x81 ok\n"


@pytest.mark.parametrize(
    "bom,encoding",
    [(b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")],
)
def test_a_bom_decides_the_encoding(bom, encoding):
    codec = "utf-8" if encoding == "utf-8-sig" else encoding
    decoded = decode(bom + "100.1. R\u00e8gle\n".encode(codec))
    assert decoded.encoding == encoding
    assert decoded.text == "100.1. R\u00e8gle\n"


def test_line_endings_are_reported_and_normalised():
    decoded = decode(b"a\r\nb\rc\r\nd")
    assert decoded.text == "a\nb\nc\nd"
    assert decoded.line_endings == "CRLF+CR"


def test_empty_input_is_refused():
    with pytest.raises(EmptyInputError):
        decode(b"")
    with pytest.raises(EmptyInputError):
        decode(b"  \n\r\n ")


def test_binary_input_is_refused():
    with pytest.raises(BinaryInputError):
        decode(bytes(range(256)) * 4)
    with pytest.raises(BinaryInputError):
        decode(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")


def test_odd_length_utf16_is_refused_cleanly():
    with pytest.raises(BinaryInputError, match="utf-16"):
        decode(b"\xff\xfe" + "ab".encode("utf-16-le") + b"\x00")

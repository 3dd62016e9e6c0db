"""Parsed documents kept on disk (rulekb.ingest.cache, parse_many's ``cache``): the same bytes,
place and code are read back instead of parsed, anything else is parsed again, and a damaged
entry costs a parse, never a wrong edition."""

from __future__ import annotations

import gc
import shutil
from dataclasses import fields

import pytest

from rulekb.ingest import parse as parse_module
from rulekb.ingest.cache import ParsedDocuments
from rulekb.ingest.model import Edition, GlossaryEntry, Rule, SourceInfo
from rulekb.ingest.parse import parse_many

from ..helpers import manifest_rows

CODE = "a" * 64


@pytest.fixture
def documents(fixtures, tmp_path):
    """A directory of two documents (our invented edition, and a copy with a later date)."""
    folder = tmp_path / "docs"
    folder.mkdir()
    shutil.copy(fixtures / "invented-cr-2030-05-05.txt", folder / "CR-2030-05-05.txt")
    text = (fixtures / "invented-cr-2030-05-05.txt").read_text(encoding="utf-8")
    (folder / "CR-2031-01-01.txt").write_text(text.replace("May 5, 2030", "January 1, 2031"), encoding="utf-8")
    return folder


def _no_parsing(monkeypatch):
    def refuse(*_args, **_kwargs):
        raise AssertionError("parsed although the cache holds it")

    monkeypatch.setattr(parse_module, "parse_bytes", refuse)


def test_a_second_parse_reads_every_document_back(documents, tmp_path, monkeypatch):
    cache = ParsedDocuments.open(tmp_path / "cache", CODE)
    first = parse_many([str(documents)], cache=cache)
    assert first.cached == 0 and len(first.editions) == 2
    assert len(list(cache.folder.glob("*.pickle"))) == 2
    _no_parsing(monkeypatch)
    again = parse_many([str(documents)], cache=cache, workers=2)
    assert again.cached == 2
    assert again.editions == first.editions  # the same model, field for field


def test_changed_bytes_another_place_or_other_code_is_parsed_again(documents, tmp_path):
    cache = ParsedDocuments.open(tmp_path / "cache", CODE)
    parse_many([str(documents)], cache=cache)
    later = documents / "CR-2031-01-01.txt"
    later.write_text(later.read_text(encoding="utf-8").replace("January 1, 2031", "February 2, 2031"),
                     encoding="utf-8")
    changed = parse_many([str(documents)], cache=cache)
    assert changed.cached == 1 and changed.editions[-1].effective_date == "2031-02-02"
    moved = documents.parent / "moved"
    shutil.copytree(documents, moved)
    elsewhere = parse_many([str(moved)], cache=cache)
    assert elsewhere.cached == 0  # the place is in the model (the edition's source)
    assert all(str(moved) in edition.source.location for edition in elsewhere.editions)
    other = ParsedDocuments.open(tmp_path / "cache", "b" * 64)
    assert parse_many([str(documents)], cache=other).cached == 0
    assert not cache.folder.exists()  # opening the cache for other code removed this code's entries


def test_a_damaged_entry_is_a_miss_and_is_replaced(documents, tmp_path):
    cache = ParsedDocuments.open(tmp_path / "cache", CODE)
    first = parse_many([str(documents)], cache=cache)
    for entry in cache.folder.glob("*.pickle"):
        entry.write_bytes(entry.read_bytes()[:100])  # truncated
    again = parse_many([str(documents)], cache=cache)
    assert again.cached == 0 and again.editions == first.editions
    assert parse_many([str(documents)], cache=cache).cached == 2  # written anew
    (next(cache.folder.glob("*.pickle"))).write_bytes(b"\x80\x05not a pickle at all")
    assert parse_many([str(documents)], cache=cache).editions == first.editions


def test_failures_are_reported_as_without_a_cache(documents, tmp_path):
    (documents / "notes.txt").write_text("a shopping list, not the rules\n", encoding="utf-8")
    cache = ParsedDocuments.open(tmp_path / "cache", CODE)
    plain = parse_many([str(documents)])
    for _ in range(2):  # cold, then warm
        cached = parse_many([str(documents)], cache=cache)
        assert [str(f) for f in cached.failures] == [str(f) for f in plain.failures] != []
        assert cached.editions == plain.editions


def _one_of_each_kind(corpus) -> list[str]:
    """English editions, one of each kind of file the corpus manifest names (encoding, line
    endings, whole or truncated: eleven kinds), the first hard-wrapped edition (1999-04-23, the
    first of its kind), both sides of the 2009 restructure and the newest; every French text
    (their whole folder: pages combined into texts, pages with no rules refused); and a Word
    document. The cache pickles the same model objects whatever the text they come from; these
    are what a text can make of them (the test checks that every field of the model is filled
    in some edition of these). The whole corpus goes through the cache in every corpus build."""
    rows = manifest_rows("en", "file")
    first_of_kind = {}
    for row in rows:  # (oldest first)
        first_of_kind.setdefault((row["encoding"], row["line_endings"], row["ending"]), row["file"])
    english = sorted({*first_of_kind.values(), "CR-2009-05-01.txt", "CR-2009-07-08.txt", rows[-1]["file"]})
    return [*(str(corpus / "en" / name) for name in english), str(corpus / "fr"),
            str(corpus / "en-formats" / "CR-2013-07-11.docx")]


def _filled(objects) -> set[str]:
    return {f"{type(o).__name__}.{field.name}" for o in objects for field in fields(o) if getattr(o, field.name)}


def test_the_corpus_reads_back_equal(corpus, tmp_path):
    """A sample of every kind of corpus text (:func:`_one_of_each_kind`), parsed, kept and read
    back: the same model, field for field (parsing the whole corpus into a cache of its own, to
    read it back, cost 18 s of CPU; the same documents again add no kind of object)."""
    sources = _one_of_each_kind(corpus)
    cache = ParsedDocuments.open(tmp_path / "cache", CODE)
    cold = parse_many(sources, cache=cache, workers=2)
    warm = parse_many(sources, cache=cache, workers=2)
    assert warm.cached == len(list(cache.folder.glob("*.pickle"))) > 90
    assert warm.editions == cold.editions
    assert [str(f) for f in warm.failures] == [str(f) for f in cold.failures] != []
    editions = warm.editions
    filled = _filled(editions) | _filled(r for e in editions for r in e.rules) \
        | _filled(g for e in editions for g in e.glossary) | _filled(s for e in editions for s in e.sources)
    assert filled >= {f"{cls.__name__}.{field.name}" for cls in (Edition, Rule, GlossaryEntry, SourceInfo)
                      for field in fields(cls)}
    assert {e.sources[0].format for e in editions} >= {"txt", "docx"}


def test_a_build_raises_the_collectors_thresholds_and_puts_them_back(fixtures, tmp_path, monkeypatch):
    from rulekb.kb import build as build_module
    from rulekb.kb.allocator import BUILD_THRESHOLDS
    from rulekb.kb.store.embedded import EmbeddedStore

    seen = []
    real = build_module.parse_many

    def watching(*args, **kwargs):
        seen.append(gc.get_threshold())
        return real(*args, **kwargs)

    monkeypatch.setattr(build_module, "parse_many", watching)
    monkeypatch.setenv("RULEKB_CACHE", str(tmp_path / "cache"))
    before = gc.get_threshold()
    report = build_module.build([str(fixtures / "invented-cr-2030-05-05.txt")], EmbeddedStore(tmp_path / "kb"),
                                reasoner="owlrl")
    assert seen == [BUILD_THRESHOLDS] and gc.get_threshold() == before
    assert report.parse_cached == 0
    again = build_module.build([str(fixtures / "invented-cr-2030-05-05.txt")], EmbeddedStore(tmp_path / "kb"),
                               reasoner="owlrl")
    assert again.parse_cached == 1 and again.quads == report.quads

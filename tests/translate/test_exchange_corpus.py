"""The translators' files over the real corpus: every French text's XLIFF worklist
validates against the XLIFF 1.2 schema with one unit per rule it covers and the report's
findings unchanged, its TMX validates and reads back; the TBX's renamed terms changed name
in the editions it says; and OmegaT opens a few French texts' files and fills their
unchanged rules from the memory (a few, not all: each run starts a Java program)."""

from __future__ import annotations

from collections import Counter

import pytest
from lxml import etree

from rulekb.kb import service
from rulekb.kb.translate.exchange.tbx import RENAMES
from rulekb.kb.translate.exchange.validate import errors

from .omegat import run_project

pytestmark = pytest.mark.corpus

X = "{urn:oasis:names:tc:xliff:document:1.2}"
OMEGAT_TEXTS = ("fr/2008-04-14", "fr/2011-02-04")  # an old numbering and a later one


@pytest.fixture(scope="module")
def bases(corpus_rows):
    """French edition -> the English edition the build found it translates."""
    found: dict[str, str] = {}
    for row in corpus_rows("translation-links"):  # (every French text's: asked once a run)
        found.setdefault(row["edition"], row["en_edition"])
    assert len(found) >= 10, found
    return found


def test_every_french_text_makes_a_valid_worklist_and_memory(corpus_kb, bases):
    from translate.storage.tmx import tmxfile
    from translate.storage.xliff import xlifffile

    from rulekb.kb.translate.exchange.xliff import to_xliff
    from rulekb.kb.translate.from_kb import translation_parts

    store, _ = corpus_kb
    for french, base in sorted(bases.items()):
        data, fr, english, base_edition = translation_parts([french], None, base, store)
        document, cleaner = to_xliff(data, fr, english, base_edition)
        assert errors(document, "xliff") == [], french
        root = etree.fromstring(document.encode())
        kinds = Counter(n.get("from").removeprefix("rulekb:") for n in root.iter(f"{X}note")
                        if (n.get("from") or "").startswith("rulekb:"))
        assert kinds == Counter(i["kind"] for i in data["items"]), french
        units = list(root.iter(f"{X}trans-unit"))
        # one unit per French rule (the aligned ones, the stale, the extra), each once
        french_numbers = set(data["pairs"]) | {i["fr"] for i in data["items"] if i.get("fr")}
        with_french = [u for u in units if u.find(f"{X}target") is not None and u.find(f"{X}target").text]
        assert len(with_french) == len(french_numbers), french
        assert len(units) == len({u.get("id") for u in units})
        read = [u for u in xlifffile.parsestring(document.encode()).units if not u.isheader()]
        assert len(read) == len(units)
        memory, _ = service.translation_memory([french], None, store)
        assert errors(memory, "tmx") == [], french
        assert all(u.source and u.target for u in tmxfile.parsestring(memory.encode()).units)


def test_renamed_terms_changed_name_in_the_edition_the_termbase_says(corpus_kb):
    store, _ = corpus_kb
    english = sorted(e["edition"] for e in service.editions(store) if e["language"] == "en"
                     and not e["partial"] and e["edition"][3:4].isdigit())
    for rename in RENAMES:
        first = next(e for e in english if e[3:] >= rename.since)
        before = [e for e in english if e[3:] < rename.since][-1]

        def uses(edition: str, term: str) -> bool:
            text = " ".join(r.text.lower() for r in service.stored_edition(store, edition).rules)
            return term in text

        assert uses(first, rename.en_new) and not uses(before, rename.en_new), rename


def test_omegat_opens_a_few_french_texts(corpus_kb, bases, tmp_path):
    from translate.storage.xliff import xlifffile

    store, _ = corpus_kb
    terms, _ = service.termbase([], store)
    for french in OMEGAT_TEXTS:
        assert french in bases
        work, _ = service.translation_xliff([french], None, "auto", store, copy_source=True)
        report, _, _ = service.translation([french], None, "auto", store)
        memory, _ = service.translation_memory([french], report["us_edition"], store)
        result = run_project(tmp_path / french.replace("/", "-"), {
            "source/fr.xlf": work, "tm/auto/rulekb.tmx": memory, "glossary/rulekb.tbx": terms})
        root = etree.fromstring(work.encode())
        states = Counter(u.find(f"{X}target").get("state") for u in root.iter(f"{X}trans-unit")
                         if u.find(f"{X}target") is not None)
        assert result["segments"] == sum(states.values()), french
        assert result["segments"] - result["remaining"] == states["translated"] > 0, french
        french_of = {u.get("id"): next(n.text for n in u.findall(f"{X}note") if n.get("from") == "french")
                     for u in root.iter(f"{X}trans-unit")
                     if u.find(f"{X}target") is not None and u.find(f"{X}target").get("state") == "translated"}
        back = {u.xmlelement.get("id"): u.target for u in xlifffile.parsestring(result["target"]["fr.xlf"].encode()).units
                if u.xmlelement.get("id") in french_of}
        assert back == french_of, french

"""``--base auto`` reads its candidate English editions from the build's page data (each
distinct wording's text once, the examples in one query) instead of reading each edition back
from the store: on invented texts (the widget-duel fixtures and two later invented English
editions, one adding examples to a rule whose text stays), the candidates hold what the store
holds, the base chosen and its figures are the same either way, and without page data (or
with an edition it lacks) the store is read as before. A choice made once is kept per build,
French text and candidates, and read back."""

from __future__ import annotations

from importlib import resources

import pytest

from rulekb.kb.rdf.stored_edition import stored_edition
from rulekb.kb.store.embedded import EmbeddedStore
from rulekb.kb.translate.candidates import candidate_editions
from rulekb.kb.translate.from_kb import english_rows, translation_parts

from ..helpers import edited

FIXTURES = resources.files("rulekb.kb.bench").joinpath("gold", "translate")
EN = FIXTURES / "widget-en-2030-05-05.txt"
FR = FIXTURES / "widget-fr-2030-05-05.txt"


def _later(text: str, date: str) -> str:
    return text.replace("May 5, 2030", date)


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    from rulekb.kb.build import build

    root = tmp_path_factory.mktemp("candidate-sources")
    july = edited(_later(EN.read_text(encoding="utf-8"), "July 1, 2030"), [
        ("A shiny gadget can be wound twice each turn.", "A shiny gadget can be wound two times each turn."),
    ])
    # the same text, one example more: a wording is one number and one text, its examples may change
    september = july.replace("July 1, 2030", "September 1, 2030").replace(
        "A shiny gadget can be wound two times each turn.",
        "A shiny gadget can be wound two times each turn.\n\n"
        "Example: A shiny gadget wound once this turn can be wound once more.")
    (root / "CR-2030-07-01.txt").write_text(july, encoding="utf-8")
    (root / "CR-2030-09-01.txt").write_text(september, encoding="utf-8")
    location = tmp_path_factory.mktemp("candidate-store") / "store"
    build([str(EN), str(root / "CR-2030-07-01.txt"), str(root / "CR-2030-09-01.txt"), str(FR)],
          EmbeddedStore(location), reasoner="none")
    return EmbeddedStore(location)


def _content(edition) -> dict:
    return {rule.number: (rule.text, list(rule.examples)) for rule in edition.rules}


def test_the_candidates_hold_what_the_store_holds(store):
    rows = english_rows(store)
    assert [row["edition"] for row in rows] == ["en/2030-05-05", "en/2030-07-01", "en/2030-09-01"]
    candidates = candidate_editions(store, rows)
    assert candidates is not None and [c.id for c in candidates] == [row["edition"] for row in rows]
    for candidate in candidates:
        assert _content(candidate) == _content(stored_edition(store, candidate.id, rules_only=True)), candidate.id
        assert candidate.language == "en" and candidate.effective_date == candidate.id[3:]
    july, september = (_content(c) for c in candidates[1:])
    changed = [n for n in july if july[n][0] == september[n][0] and july[n][1] != september[n][1]]
    assert len(changed) == 1  # the example added under an unchanged text: read per edition, not per wording


def test_the_examples_are_read_from_the_page_data_and_else_from_the_store(store, monkeypatch):
    """The build keeps every rule's examples in the page data (kb.pages.examples): the candidates
    read them there, with no query; a file written before it kept them: from the store, alike."""
    from rulekb.kb.pages.reading import PageData
    from rulekb.kb.translate import candidates as module

    rows = english_rows(store)
    expected = [_content(stored_edition(store, row["edition"], rules_only=True)) for row in rows]

    def asked(*args):
        raise AssertionError("the examples were asked of the store")

    with monkeypatch.context() as patched:
        patched.setattr(module, "_examples", asked)
        patched.setattr(module, "_batched", asked)
        assert [_content(c) for c in candidate_editions(store, rows)] == expected
        assert [_content(c) for c in candidate_editions(store, rows, {"101"})] == \
            [{n: c for n, c in e.items() if n.startswith("101.")} for e in expected]
    monkeypatch.setattr(PageData, "examples", lambda self, editions, sections=None: None)
    assert [_content(c) for c in candidate_editions(store, rows)] == expected


def test_the_build_keeps_every_english_rules_features_and_scoring_reads_them(store, monkeypatch):
    """The build computes each English rule version's evidence once and keeps it in the page data
    (kb.translate.kept): scoring reads it there -- the same rules, the features of their texts,
    the same scores, nothing computed -- unless other code computed it (then the texts, as before)."""
    from rulekb.kb.translate import kept
    from rulekb.kb.translate.base import edition_scores
    from rulekb.kb.translate.evidence import features
    from rulekb.kb.translate.from_kb import load_french

    rows = english_rows(store)
    texts = candidate_editions(store, rows)
    editions, cache = kept.scoring_candidates(store, rows)
    assert [e.id for e in editions] == [e.id for e in texts]
    for read, full in zip(editions, texts):
        assert [r.number for r in read.rules] == [r.number for r in full.rules]
        assert all(cache.get(read, r.number) == features(r.text, r.examples, "en") for r in full.rules)
    some, _ = kept.scoring_candidates(store, rows, {"101"})
    assert {r.number for e in some for r in e.rules} == {r.number for e in texts for r in e.rules
                                                         if r.number.startswith("101.")}
    fr = load_french(["fr/2030-05-05"], store)
    expected = edition_scores(fr, texts)

    def computed(*args):
        raise AssertionError("an English rule's features were computed")

    with monkeypatch.context() as patched:
        patched.setattr("rulekb.kb.translate.align.features", computed)
        assert edition_scores(fr, editions, cache) == expected
    kept_parts, *_ = translation_parts(["fr/2030-05-05"], None, "auto", store, candidates="kept")
    text_parts, *_ = translation_parts(["fr/2030-05-05"], None, "auto", store, candidates="page data")
    for parts in (kept_parts, text_parts):
        parts["base"].pop("seconds")
    assert kept_parts == text_parts
    monkeypatch.setattr(kept, "computed_by", lambda: "other code")
    assert kept.scoring_candidates(store, rows) is None
    # an edition the file keeps no features of: none of them from it
    monkeypatch.undo()
    assert kept.scoring_candidates(store, [*rows, {"edition": "en/2030-12-01", "effective_date": "2030-12-01"}]) is None


def test_only_the_sections_scoring_reads_and_the_same_scores(store):
    from rulekb.kb.translate.base import edition_scores
    from rulekb.kb.translate.candidates import scored_sections
    from rulekb.kb.translate.from_kb import load_french

    assert scored_sections(["101.4", "702.1a", "A.1"]) == {"100", "101", "102", "701", "702", "703", "A"}
    rows = english_rows(store)
    fr = load_french(["fr/2030-05-05"], store)
    whole = candidate_editions(store, rows)
    some = candidate_editions(store, rows, {"101"})
    assert [len(e.rules) for e in some] and all(r.number.startswith("101.") for e in some for r in e.rules)
    for part, full in zip(some, whole):
        assert _content(part) == {n: c for n, c in _content(full).items() if n.startswith("101.")}
    assert edition_scores(fr, candidate_editions(store, rows, scored_sections(r.number for r in fr.rules))) \
        == edition_scores(fr, whole)


def test_the_base_and_its_figures_are_the_same_from_the_page_data_and_from_the_store(store):
    fast, fr, english, base = translation_parts(["fr/2030-05-05"], None, "auto", store, candidates="page data")
    slow, *_, slow_base = translation_parts(["fr/2030-05-05"], None, "auto", store, candidates="store")
    assert fast["base"].pop("candidates_from") == "page data" and slow["base"].pop("candidates_from") == "store"
    fast["base"].pop("seconds"), slow["base"].pop("seconds")
    assert fast["base"] == slow["base"] and fast["base"]["candidates"] == 3
    assert fast["base_detected"] == slow["base_detected"] == "en/2030-05-05"
    assert fast["items"] == slow["items"]
    # the base reported against is the edition as the store holds it (order, parents), not the scoring copy
    assert base.id == "en/2030-05-05" and [r.order for r in base.rules] == [r.order for r in slow_base.rules]
    assert [r.parent for r in base.rules] == [r.parent for r in slow_base.rules]


def test_without_page_data_the_candidates_are_read_from_the_store(store, monkeypatch):
    rows = english_rows(store)
    # an edition the page data does not hold: none of them from it (a partial answer would score differently)
    assert candidate_editions(store, [*rows, {"edition": "en/2030-12-01", "effective_date": "2030-12-01"}]) is None
    from rulekb.kb.pages import reading

    monkeypatch.setattr(reading, "for_store", lambda _store: None)  # a remote store, an older page data layout
    assert candidate_editions(store, rows) is None
    data, *_ = translation_parts(["fr/2030-05-05"], None, "auto", store, candidates="page data")
    assert data["base"]["candidates_from"] == "store" and data["base_detected"] == "en/2030-05-05"


def test_a_choice_made_once_is_read_back_for_the_same_texts(store, tmp_path, monkeypatch):
    monkeypatch.setenv("RULEKB_CACHE", str(tmp_path))
    first, *_ = translation_parts(["fr/2030-05-05"], None, "auto", store)
    again, *_ = translation_parts(["fr/2030-05-05"], None, "auto", store)
    assert first["base"].pop("candidates_from") == "page data" and again["base"].pop("candidates_from") == "cache"
    first["base"].pop("seconds"), again["base"].pop("seconds")
    assert first == again
    # another candidate window (all the English editions) is another detection
    every, *_ = translation_parts(["fr/2030-05-05"], None, "all", store)
    assert every["base"]["candidates_from"] == "page data"
    # a store in memory names no build: nothing kept
    from rulekb.kb.translate.from_kb import choice_key

    assert choice_key(type("Memory", (), {"build_id": lambda self: None})(), None, "auto", []) is None


def test_a_text_no_wording_holds_is_asked_from_the_store(store, monkeypatch):
    """A rule version whose wording the page data cannot place (several lineages, none): its text
    (and examples) from the store, rule by rule."""
    from rulekb.kb.pages.reading import PageData

    rows = english_rows(store)
    monkeypatch.setattr(PageData, "wording_texts", lambda self, editions, sections=None: {})
    for candidate in candidate_editions(store, rows):
        assert _content(candidate) == _content(stored_edition(store, candidate.id, rules_only=True)), candidate.id


def test_a_rebuild_reads_the_evidence_earlier_builds_computed(store, tmp_path, monkeypatch):
    """The evidence of a text is kept in the cache under the code's digest: a second build computes
    none of it and keeps the same rows; other code (another digest) computes it again."""
    import shutil
    import sqlite3

    from rulekb.kb.pages.reading import companion
    from rulekb.kb.translate import kept

    monkeypatch.setenv("RULEKB_CACHE", str(tmp_path / "cache"))

    def keep_into(name: str) -> list:
        path = tmp_path / name
        shutil.copy(companion(store.data_dir()), path)
        db = sqlite3.connect(path)
        assert kept.keep(db, store) > 0
        db.commit()
        rows = db.execute("SELECT edition, section, rules FROM section_features ORDER BY edition, section").fetchall()
        sets = db.execute("SELECT id, data FROM feature_sets ORDER BY id").fetchall()
        db.close()
        return [rows, sets]

    first = keep_into("first.sqlite")
    assert list((tmp_path / "cache" / "base-evidence").glob("*.json"))

    def computed(*args):
        raise AssertionError("evidence computed again")

    with monkeypatch.context() as patched:
        patched.setattr(kept, "features", computed)
        assert keep_into("second.sqlite") == first
    monkeypatch.setattr(kept, "computed_by", lambda: "other code")
    assert keep_into("third.sqlite") == first  # computed again, the same

"""The translation report against the KB carries the base rules to the newest English
edition through the lineages the build stored (graph/lineage) instead of aligning the two
editions again: on invented texts (the widget-duel fixtures and two later invented English
editions, one renumbering a rule and changing another, the next changing a third), the
stored correspondence is the build's own chaining, and the report's findings are the same
either way; an English edition read from a file (no lineage in the KB) is aligned."""

from __future__ import annotations

from importlib import resources

import pytest

from rulekb.ingest.parse import parse_file
from rulekb.kb.align import lineages
from rulekb.kb.store.embedded import EmbeddedStore
from rulekb.kb.translate.from_kb import stored_successors, translation_parts

from ..helpers import edited, run_cli

FIXTURES = resources.files("rulekb.kb.bench").joinpath("gold", "translate")
EN = FIXTURES / "widget-en-2030-05-05.txt"
FR = FIXTURES / "widget-fr-2030-05-05.txt"


def _middle() -> str:
    """July: a rule inserted before 100.4 (the base's 100.4 becomes 100.5, same text) and
    101.4 reworded."""
    return edited(EN.read_text(encoding="utf-8").replace("May 5, 2030", "July 1, 2030"), [
        ("100.4. The Oracle reference is the final word on a gadget's text.",
         "100.4. Each duelist shuffles their deck before the game.\n\n"
         "100.5. The Oracle reference is the final word on a gadget's text."),
        ("A shiny gadget can be wound twice each turn.", "A shiny gadget can be wound two times each turn."),
    ])


def _newest() -> str:
    return edited(_middle().replace("July 1, 2030", "September 1, 2030"), [
        ("more than three cogs, it has three cogs instead", "more than four cogs, it has four cogs instead"),
    ])


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    root = tmp_path_factory.mktemp("lineage-sources")
    middle, newest = root / "CR-2030-07-01.txt", root / "CR-2030-09-01.txt"
    middle.write_text(_middle(), encoding="utf-8")
    newest.write_text(_newest(), encoding="utf-8")
    return [str(EN), str(middle), str(newest), str(FR)]


@pytest.fixture(scope="module")
def store(sources, tmp_path_factory):
    from rulekb.kb.build import build

    location = tmp_path_factory.mktemp("lineage-store") / "store"
    build(sources, EmbeddedStore(location), reasoner="none")
    return EmbeddedStore(location)


def test_stored_successors_are_the_builds_chaining(store, sources):
    english = [edition for source in sources[:3] for edition in parse_file(source)]
    chained = lineages(english)
    expected = {}
    for rule in english[0].rules:
        lineage = chained.of("en/2030-05-05", rule.number)
        if lineage and "en/2030-09-01" in lineage.numbers:
            expected[rule.number] = lineage.numbers["en/2030-09-01"]
    found = stored_successors(store, "en/2030-05-05", "en/2030-09-01")
    assert found == expected
    assert found["100.4"] == "100.5" and found["101.6"] == "101.6"
    assert stored_successors(store, "en/2030-05-05", "fr/2030-05-05") is None  # no lineage joins them
    assert stored_successors(store, "en/2030-05-05", "en/2031-01-01") is None  # not in the KB


def test_stored_successors_read_each_editions_lineages_once_per_build(store, sources, monkeypatch):
    """The rows of an edition's lineages are kept per build: the report of every French text
    reads the newest edition's; a store of another build (another directory) reads its own."""
    from rulekb.kb.store import queries
    from rulekb.kb.store.memo import BuildMemo
    from rulekb.kb.translate import from_kb

    first = stored_successors(store, "en/2030-05-05", "en/2030-09-01")
    asked = []
    real = queries.run
    monkeypatch.setattr(queries, "run", lambda s, name, **params: asked.append(params) or real(s, name, **params))
    assert stored_successors(store, "en/2030-05-05", "en/2030-09-01") == first and asked == []
    other = EmbeddedStore.in_memory()  # no build to keep them for: asked every time
    assert stored_successors(other, "en/2030-05-05", "en/2030-09-01") is None
    assert stored_successors(other, "en/2030-05-05", "en/2030-09-01") is None
    assert asked == [{"edition": "en/2030-05-05"}] * 2
    monkeypatch.setattr(from_kb, "_lineages_kept", BuildMemo(from_kb._LINEAGES_KEPT, copies=False))  # (a new process)
    assert stored_successors(store, "en/2030-05-05", "en/2030-09-01") == first and len(asked) == 4


def test_findings_through_the_lineages_are_the_aligners(store):
    data, *_ = translation_parts(["fr/2030-05-05"], "en/2030-09-01", "en/2030-05-05", store)
    aligned, *_ = translation_parts(["fr/2030-05-05"], "en/2030-09-01", "en/2030-05-05", store, lineages=False)
    assert data["items"] == aligned["items"] and data["successors"] == aligned["successors"]
    stale = {item["base_rule"]: item for item in data["items"] if item["kind"] == "stale"}
    assert set(stale) == {"101.4", "101.6"}  # reworded in July, in September
    assert data["successors"]["100.4"] == "100.5" and "100.4" not in stale  # renumbered, same text


def test_auto_base_through_the_lineages(store):
    data, *_ = translation_parts(["fr/2030-05-05"], None, "auto", store)
    aligned, *_ = translation_parts(["fr/2030-05-05"], None, "auto", store, lineages=False)
    assert data["base_detected"] == "en/2030-05-05" and data["us_edition"] == "en/2030-09-01"
    assert data["items"] == aligned["items"]


def test_an_english_edition_from_a_file_is_aligned(store, sources):
    """No lineage of the KB holds a file's edition: the aligner pairs it, and says the same."""
    from_file, *_ = translation_parts(["fr/2030-05-05"], sources[2], "en/2030-05-05", store)
    from_kb, *_ = translation_parts(["fr/2030-05-05"], "en/2030-09-01", "en/2030-05-05", store)
    assert from_file["items"] == from_kb["items"]


def test_cli_report_and_worklist_carry_the_stored_changes(store):
    location = str(store.root)
    result = run_cli("translation-report", "fr/2030-05-05", "--store", location, "--format", "json")
    assert result.returncode == 0, result.stderr
    assert sorted(i["base_rule"] for i in result.json["items"] if i["kind"] == "stale") == ["101.4", "101.6"]
    xliff = run_cli("translation-report", "fr/2030-05-05", "--store", location, "--report", "xliff")
    assert xliff.returncode == 0 and 'resname="100.5"' in xliff.stdout, xliff.stderr

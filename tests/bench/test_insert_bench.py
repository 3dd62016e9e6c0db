"""``rulekb bench insert`` (kb.bench.insert): an older edition inserted into a built KB, timed
from outside against a warm rebuild of the same texts, in scratch stores and caches."""

from __future__ import annotations

import json

import pytest

from rulekb.kb.bench.build import stage_seconds
from rulekb.kb.bench.insert import split_sources, summarise
from rulekb.kb.errors import BuildError

from ..helpers import run_cli
from ..test_update import _write


def test_the_stages_of_an_insertion_and_of_a_build_are_read_alike():
    lines = ["rulekb build --add: parse 177/177 done in 5.4 s", "rulekb build: load 162/162 done in 60.7 s",
             "rulekb build --add: splice 3/9 splice lineages … 2.0 s", "rulekb build --add: splice 9/9 done in 7.5 s"]
    assert stage_seconds(lines) == {"parse": 5.4, "load": 60.7, "splice": 7.5}


def test_the_edition_to_insert_is_taken_out_of_the_sources(tmp_path):
    corpus = tmp_path / "corpus"
    (corpus / "no-rules").mkdir(parents=True)
    for name in ("CR-2001-01-01.txt", "CR-2002-01-01.txt", "CR-2003-01-01.txt", "no-rules/toc.txt"):
        (corpus / name).write_text("x", encoding="utf-8")
    other = tmp_path / "other.txt"
    other.write_text("x", encoding="utf-8")
    rest, chosen = split_sources([str(corpus), str(other)], "CR-2002-01-01.txt", tmp_path / "links")
    assert chosen == str((corpus / "CR-2002-01-01.txt").resolve())
    # the directory that held it is given as links to its other documents, as a directory still
    assert rest == [str(tmp_path / "links"), str(other)]
    assert sorted(str(p.relative_to(tmp_path / "links")) for p in (tmp_path / "links").rglob("*.txt")) == [
        "CR-2001-01-01.txt", "CR-2003-01-01.txt", "no-rules/toc.txt"]
    assert (tmp_path / "links" / "no-rules" / "toc.txt").resolve() == (corpus / "no-rules" / "toc.txt").resolve()
    with pytest.raises(BuildError, match="no edition CR-2009"):
        split_sources([str(corpus)], "CR-2009-01-01.txt", tmp_path / "more")


def test_the_summary_gives_medians_and_the_ratios_in_the_same_run():
    def run(code, kind, wall, cpu):
        return {"code": code, "kind": kind, "wall_s": wall, "cpu_s": cpu, "stages": {"load": wall / 2},
                "peak_rss_mb": 100.0}

    runs = [run("this", "insert", 30.0, 20.0), run("this", "full", 60.0, 80.0), run("this", "insert", 34.0, 22.0),
            run("this", "full", 64.0, 84.0), run("this", "insert", 32.0, 21.0), run("this", "full", 62.0, 82.0),
            run("baseline", "insert", 64.0, 90.0)]
    figures = summarise(runs, judge=True)
    assert figures["medians"]["this"]["insert"]["wall_s"] == 32.0
    assert figures["ratios"]["this insert/full"] == {"wall_s": round(32 / 62, 3), "cpu_s": round(21 / 82, 3)}
    assert figures["ratios"]["insert this/baseline"]["wall_s"] == 0.5
    assert figures["targets"]["insert"]["met"] is True
    assert summarise(runs, judge=False)["targets"] == {}


def test_bench_insert_times_an_insertion_and_a_warm_rebuild(fixtures, tmp_path):
    from .. import test_update

    later = test_update._later_edition(fixtures, tmp_path).read_text(encoding="utf-8")
    third = later.replace("effective as of August 1, 2030", "effective as of November 1, 2030").replace(
        "101.1. A gadget is a card on the table.", "101.1. A gadget is a card on the play table.")
    folder = tmp_path / "sources"
    folder.mkdir()
    (folder / "a.txt").write_text((fixtures / "invented-cr-2030-05-05.txt").read_text(encoding="utf-8"), encoding="utf-8")
    _write(folder, "b.txt", later)
    _write(folder, "c.txt", third)
    result = run_cli("bench", "insert", str(folder), "--edition", "b.txt", "--runs", "1", "--reasoner", "none",
                     "--workdir", str(tmp_path), "--quiet", "--format", "json", timeout=900)
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert figures["inserted"].endswith("b.txt") and len(figures["sources"]) == 1  # a directory of links to a and c
    insert, full = figures["medians"]["this"]["insert"], figures["medians"]["this"]["full"]
    assert insert["runs"] == full["runs"] == 1 and insert["cpu_s"] > 0 and full["wall_s"] > 0
    assert "splice" in insert["stages"] and "store" in full["stages"]  # written by difference; a build loads
    assert set(figures["ratios"]) == {"this insert/full"} and figures["targets"] == {}  # not the corpus: no verdict
    assert not list(tmp_path.glob("rulekb-bench-insert-*"))  # the scratch is removed

"""``rulekb bench build`` (kb.bench.build): builds timed from outside, in their own processes,
into scratch stores and caches; medians, ratios against a baseline checkout, targets."""

from __future__ import annotations

from rulekb.kb.bench.build import Run, built_seconds, stage_seconds, summarise

from ..helpers import PROJECT, run_cli

STAGES = {"parse", "definitions", "reason", "align", "meanings", "translations", "consistency", "load", "store",
          "index", "pages"}


def test_the_stage_seconds_come_from_the_lines_that_end_a_stage():
    lines = [
        "rulekb build: parse 37/213 CR-2009-10-05.txt … 10.0 s\n",  # a heartbeat: not an end
        "rulekb build: parse 213/213 done in 3.6 s\n",
        "rulekb build: reason 40/123 reasoned about en/2010-01-01 (40/123 axiom sets) … 20.3 s",
        "rulekb build: reason 123/123 done in 42.9 s",
        "rulekb build: store 1/2 loaded; compacting … 10.5 s",
        "rulekb build: store 2/2 done in 13.8 s",
        "some other line: done in 9.9 s",
    ]
    assert stage_seconds(lines) == {"parse": 3.6, "reason": 42.9, "store": 13.8}
    assert built_seconds(["search index: 12 documents", "built 163 editions, 1438 concepts, 3,811,461 quads in "
                          "54.8 s (69,506 quads/s) -> /x (1,288 MB)"]) == 54.8
    assert built_seconds(["nothing here"]) is None


def test_the_summary_gives_medians_ratios_and_the_targets():
    def run(code, kind, wall, load):
        return Run(code, kind, wall, wall - 1, {"parse": 3.0, "load": load}, 3000.0)

    runs = [run("this", "first", 110.0, 20.0), run("baseline", "first", 125.0, 25.0),
            run("this", "warm", 55.0, 16.0), run("this", "warm", 62.0, 18.0), run("this", "warm", 57.0, 17.0),
            run("baseline", "warm", 66.0, 20.0), run("baseline", "warm", 64.0, 19.0), run("baseline", "warm", 65.0, 21.0)]
    figures = summarise(runs)
    warm = figures["medians"]["this"]["warm"]
    assert (warm["runs"], warm["wall_s"], warm["wall_min_s"], warm["wall_max_s"]) == (3, 57.0, 55.0, 62.0)
    assert warm["stages"] == {"parse": 3.0, "load": 17.0}
    assert figures["ratios"]["warm"]["wall_s"] == round(57.0 / 65.0, 3)
    assert figures["ratios"]["warm"]["stages"]["load"] == round(17.0 / 20.0, 3)
    assert figures["ratios"]["first"]["wall_s"] == round(110.0 / 125.0, 3)
    assert figures["targets"] == {"first": {"limit_s": 120.0, "median_s": 110.0, "met": True},
                                  "warm": {"limit_s": 60.0, "median_s": 57.0, "met": True}}
    slow = summarise([run("this", "warm", 61.0, 17.0)])
    assert slow["targets"] == {"warm": {"limit_s": 60.0, "median_s": 61.0, "met": False}} and not slow["ratios"]
    assert summarise(runs, judge=False)["targets"] == {}  # a fixture's builds say nothing of the corpus's targets


def test_bench_build_times_this_code_and_a_baseline_in_turns(fixtures, tmp_path):
    result = run_cli("bench", "build", str(fixtures / "invented-cr-2030-05-05.txt"), "--first", "1", "--warm", "1",
                     "--reasoner", "owlrl", "--baseline", str(PROJECT), "--workdir", str(tmp_path), "--format", "json")
    assert result.returncode == 0, result.stderr
    figures = result.json
    assert [(run["code"], run["kind"]) for run in figures["runs"]] == [
        ("this", "first"), ("baseline", "first"), ("this", "warm"), ("baseline", "warm")]  # in turns
    for run in figures["runs"]:
        assert set(run["stages"]) == STAGES, run
        assert run["wall_s"] > 0 and run["build_s"] > 0 and run["peak_rss_mb"] > 10
    assert set(figures["ratios"]) == {"first", "warm"} and figures["ratios"]["warm"]["wall_s"] > 0
    assert figures["targets"] == {}  # not the corpus
    assert "bench build: warm rebuild 1/1 baseline: rulekb build: load 1/1 done in" in result.stderr  # relayed
    assert list(tmp_path.iterdir()) == []  # the scratch stores and caches are gone


def test_a_build_that_fails_is_one_line_and_leaves_no_scratch(tmp_path):
    junk = tmp_path / "junk.txt"
    junk.write_text("not the rules at all\n")
    work = tmp_path / "work"
    work.mkdir()
    result = run_cli("bench", "build", str(junk), "--first", "1", "--warm", "0", "--workdir", str(work), "--quiet")
    assert result.returncode == 2
    assert "a first build of this code failed (exit 2): rulekb: error:" in result.stderr
    assert "Traceback" not in result.stderr and list(work.iterdir()) == []


def test_a_baseline_that_is_not_a_checkout_or_cannot_run_is_refused(tmp_path):
    result = run_cli("bench", "build", "--baseline", str(tmp_path), "--warm", "0")
    assert result.returncode == 2 and "is not a rulekb checkout" in result.stderr and "Traceback" not in result.stderr
    broken = tmp_path / "broken"
    (broken / "kb").mkdir(parents=True)
    (broken / "ingest").mkdir()
    (broken / "kb" / "build.py").write_text("")
    (broken / "kb" / "__init__.py").write_text("raise ImportError('half a checkout')\n")
    result = run_cli("bench", "build", "--baseline", str(broken), "--warm", "0", "--workdir", str(tmp_path))
    assert result.returncode == 2, result.stderr
    assert "the baseline code at" in result.stderr and "half a checkout" in result.stderr
    assert "Traceback" not in result.stderr
    result = run_cli("bench", "build", "--first", "0", "--warm", "0")
    assert result.returncode != 0 and "nothing to time" in result.stderr
    result = run_cli("bench", "build", "--warm", "0", "--workdir", str(tmp_path / "missing" / "here"))
    assert result.returncode == 2 and "no scratch directory in" in result.stderr and "Traceback" not in result.stderr

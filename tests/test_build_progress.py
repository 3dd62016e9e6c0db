"""Progress of a build: plain stage lines on stderr when it is not a terminal
(kb.progress.LineReporter), and the same-answers check of two stores (kb.footprint)."""

from __future__ import annotations

import io
import re
import threading
import time

from rulekb.kb.build import build
from rulekb.kb.footprint import compare_answers, measure
from rulekb.kb.progress import LineReporter, Stages
from rulekb.kb.store.embedded import EmbeddedStore

from .helpers import run_cli

STAGES = ("parse", "definitions", "reason", "align", "meanings", "translations", "consistency", "load", "store",
          "index", "pages")


def test_a_build_whose_stderr_is_not_a_terminal_prints_a_line_per_stage(fixtures, tmp_path):
    result = run_cli("build", str(fixtures / "invented-cr-2030-05-05.txt"), "--store", str(tmp_path / "kb"),
                     "--reasoner", "owlrl")
    assert result.returncode == 0, result.stderr
    # a stage's end (on a loaded machine a stage may also print heartbeats: "reason 0/1 … 10.2 s")
    lines = [line for line in result.stderr.splitlines() if line.startswith("rulekb build: ") and " done in " in line]
    ended = [line.split()[2] for line in lines]
    assert sorted(ended) == sorted(STAGES)
    # the reasoner runs beside align .. consistency (which waits for it): only it may end out of order
    assert [name for name in ended if name != "reason"] == [name for name in STAGES if name != "reason"]
    assert ended.index("definitions") < ended.index("reason") < ended.index("consistency")
    assert all(re.fullmatch(r"rulekb build: \w+ \d+/\d+ done in \d+\.\d s", line) for line in lines), lines
    assert "rulekb build: parse 1/1 done in" in result.stderr and "rulekb build: load 1/1 done in" in result.stderr


def test_a_long_stage_gets_a_line_at_least_every_period():
    out = io.StringIO()
    reporter = LineReporter(out, prefix="x: ", every=0.05)
    stages = Stages(reporter)
    heard = []
    with stages.stage("reason", total=3) as stage:
        stage.advance("set 1")
        deadline = time.monotonic() + 30
        while out.getvalue().count("\n") < 2 and time.monotonic() < deadline:  # heartbeats, no step needed
            time.sleep(0.01)
        heard.append(out.getvalue())
    reporter.close()
    assert re.search(r"^x: reason 1/3 set 1 … \d+\.\d s$", heard[0], re.M), heard[0]
    assert out.getvalue().splitlines()[-1].startswith("x: reason 3/3 done in")


def test_stages_that_overlap_each_get_their_lines():
    out = io.StringIO()
    reporter = LineReporter(out, prefix="x: ", every=0.05)
    stages = Stages(reporter)
    with stages.stage("reason", total=2) as reason:
        reason.advance("set 1")
        with stages.stage("align", total=3) as align:
            align.advance("pair 1")
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and not (re.search(r"^x: reason 1/2 set 1 … ", out.getvalue(), re.M)
                                                       and re.search(r"^x: align 1/3 pair 1 … ", out.getvalue(), re.M)):
                time.sleep(0.01)
        text = out.getvalue()
    reporter.close()
    # both running stages show where they are, each with its own count
    assert re.search(r"^x: reason 1/2 set 1 … \d+\.\d s$", text, re.M), text
    assert re.search(r"^x: align 1/3 pair 1 … \d+\.\d s$", text, re.M), text
    assert "x: align 3/3 done in" in text
    assert out.getvalue().splitlines()[-1].startswith("x: reason 2/2 done in")
    assert tuple(stages.seconds) == ("align", "reason")


def test_the_old_progress_callback_still_hears_every_step(fixtures, tmp_path):
    messages = []
    report = build([str(fixtures / "invented-cr-2030-05-05.txt")], EmbeddedStore(tmp_path / "kb"), reasoner="none",
                   progress=messages.append)
    assert any(m.startswith("parse ") for m in messages) and "load en/2030-05-05" in messages
    assert tuple(report.stages) == STAGES and all(s >= 0 for s in report.stages.values())  # the JSON's stage seconds
    assert tuple(report.stage_cpu) == STAGES and sum(report.stage_cpu.values()) > 0
    assert len(report.load_average) == 3


def test_every_named_query_answers_alike_on_two_builds_and_a_missing_graph_shows(fixtures, tmp_path):
    source = [str(fixtures / "invented-cr-2030-05-05.txt")]
    one, two = EmbeddedStore(tmp_path / "one"), EmbeddedStore(tmp_path / "two")
    build(source, one, reasoner="owlrl")
    build(source, two, reasoner="owlrl")
    same = compare_answers(one, two)
    assert same["differences"] == [] and same["queries"] >= 40
    graph = next(g for g in two.graphs() if g.endswith("/graph/concepts"))

    def drop(store):
        store.clear_graph(__import__("pyoxigraph").NamedNode(graph))

    two.update(drop)
    found = compare_answers(one, two)
    assert found["differences"], "dropping the concept graph must change some answers"
    figures = measure(two)
    assert figures["quads"] == len(two.store()) and figures["graphs"]["edition"]["graphs"] == 1
    assert figures["bytes_per_quad"] > 0

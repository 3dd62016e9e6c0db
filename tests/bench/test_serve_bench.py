"""`rulekb bench serve`: a one-second run over the invented edition prints its figures (never timed).

Every scenario runs for one second (the load scenario too, instead of its 30 s default) and the
cache is primed once: the tests check the shape of the figures, not the speed."""

from __future__ import annotations

import shutil

import pytest

from ..helpers import need, run_cli

SCENARIOS = ("rule page", "rule turtle", "sparql point", "sparql join")


@pytest.fixture(scope="module")
def wrk():
    if shutil.which("wrk") is None:
        need("wrk is not installed (apt-get install wrk)")


def test_bench_serve_prints_each_scenario_with_throughput_latency_and_targets(fixture_kb, wrk):
    store, _ = fixture_kb
    result = run_cli("bench", "serve", "--store", str(store.root), "--duration", "1", "--warmup", "0",
                     "--prime", "1", "--load-duration", "1", "--format", "json", timeout=600)
    assert result.returncode == 0, result.stderr
    figures = result.json
    ours = {(row["scenario"], row["server"]): row for row in figures["rows"]}
    for scenario in SCENARIOS:
        for server in ("rulekb", "rulekb no-cache"):
            row = ours[(scenario, server)]
            assert row["requests"] > 0, row
            assert row["errors"] == 0, row
            assert set(row) >= {"req_per_s", "p50_ms", "p99_ms", "rss_mb_before", "rss_mb_after", "cpu_ms_per_request"}
    assert figures["answers_differ"] == {}
    assert {t["target"].split(" ")[0] for t in figures["targets"]} >= {"rule", "sparql", "zero", "memory"}
    # the peers run when installed, on the SPARQL scenarios only, with ratios against ours
    for row in figures["rows"]:
        if not row["server"].startswith("rulekb"):
            assert row["scenario"].startswith("sparql")
            assert set(row["ratios"]) == {"rulekb", "rulekb no-cache"}
            assert set(row["cpu_ratios"]) <= {"rulekb", "rulekb no-cache"}


def test_bench_serve_text_output_is_a_table_with_targets_met_or_missed(fixture_kb, wrk):
    store, _ = fixture_kb
    result = run_cli("bench", "serve", "--store", str(store.root), "--duration", "1", "--warmup", "0",
                     "--prime", "1", "--load-duration", "1", "--no-peers", "--no-uncached", timeout=600)
    assert result.returncode == 0, result.stderr
    for scenario in SCENARIOS:
        assert scenario in result.stdout
    assert "req/s" in result.stdout and "p99 ms" in result.stdout
    assert "met" in result.stdout or "MISSED" in result.stdout
    assert "load average" in result.stdout


def test_bench_serve_refuses_an_unknown_edition_in_one_line(fixture_kb, wrk):
    store, _ = fixture_kb
    result = run_cli("bench", "serve", "--store", str(store.root), "--edition", "en/1900-01-01", "--duration", "1")
    assert result.returncode != 0
    assert "en/1900-01-01" in result.stderr and "Traceback" not in result.stderr


def test_bench_serve_runs_only_the_scenarios_asked_for(fixture_kb, wrk):
    store, _ = fixture_kb
    result = run_cli("bench", "serve", "--store", str(store.root), "--duration", "1", "--warmup", "0", "--prime", "0",
                     "--load-connections", "0", "--no-peers", "--no-uncached", "--scenario", "sparql point",
                     "--format", "json", timeout=600)
    assert result.returncode == 0, result.stderr
    assert {row["scenario"] for row in result.json["rows"]} == {"sparql point"}
    result = run_cli("bench", "serve", "--store", str(store.root), "--scenario", "nothing", "--duration", "1")
    assert result.returncode != 0 and "nothing" in result.stderr and "Traceback" not in result.stderr

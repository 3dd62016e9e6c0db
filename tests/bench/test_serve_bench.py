"""`rulekb bench serve`: a one-second run over the invented edition prints its figures (never timed).

Every scenario runs for one second (the load scenario too, instead of its 30 s default) and the
cache is primed once: the tests check the shape of the figures, not the speed."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rulekb.kb.bench.serve_servers import tree_pids

from ..helpers import PROJECT, need, run_cli

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
    # each of the two server processes' share of the server's CPU (both listen: both get connections)
    shares = ours[("rule page", "rulekb no-cache")]["cpu_shares"]
    assert len(shares) == 2 and shares[1] > 0 and abs(sum(shares) - 1) <= 0.02, shares
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
    # (two scenarios, a page and a query: the table's lines are the same for the others, which the
    # JSON test above runs; each scenario run costs a second of load on both cores)
    shown = ("rule page", "sparql join")
    result = run_cli("bench", "serve", "--store", str(store.root), "--duration", "1", "--warmup", "0",
                     "--prime", "1", "--no-peers", "--no-uncached", *(a for s in shown for a in ("--scenario", s)),
                     timeout=600)
    assert result.returncode == 0, result.stderr
    for scenario in SCENARIOS:
        assert (scenario in result.stdout) == (scenario in shown), scenario
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


def _stat(pid: int) -> tuple[str, int, str] | None:
    """(state, process group, start time) of ``pid``, None once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return fields[0], int(fields[2]), fields[19]


def _group_alive(group: int) -> list[int]:
    """The running processes (zombies left out) of process group ``group``."""
    return [int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit()
            and (stat := _stat(int(entry.name))) is not None and stat[1] == group and stat[0] not in "ZX"]


def test_bench_serve_stops_its_servers_and_their_workers_when_it_gets_sigterm(fixture_kb, wrk, tmp_path):
    """CI's timeout or `kill` sends SIGTERM: no server (nor a worker process of one, in the server's own
    process group) is left running. Bounds are generous hang guards, not speed checks."""
    store, _ = fixture_kb
    log = tmp_path / "stderr.txt"
    with log.open("wb") as errors:
        bench = subprocess.Popen(
            [sys.executable, "-m", "rulekb.kb.cli", "bench", "serve", "--store", str(store.root), "--workers", "2",
             "--no-peers", "--no-uncached", "--scenario", "sparql point", "--prime", "0", "--warmup", "0",
             "--load-connections", "0", "--duration", "600", "--connections", "1", "--threads", "1"],
            stdout=subprocess.DEVNULL, stderr=errors, cwd=PROJECT, start_new_session=True)
    recorded: dict[int, str] = {}  # pid -> start time (a reused pid is another process)
    groups: set[int] = set()
    try:
        deadline = time.monotonic() + 300
        while "sparql point: rulekb" not in log.read_text(errors="replace"):  # the servers answer, wrk starts
            assert bench.poll() is None, log.read_text(errors="replace")
            assert time.monotonic() < deadline, log.read_text(errors="replace")
            time.sleep(0.2)
        for pid in tree_pids(bench.pid)[1:]:
            if (stat := _stat(pid)) is not None:
                recorded[pid] = stat[2]
                groups.add(stat[1])
        groups.discard(os.getpgid(bench.pid))  # the bench's own group: wrk (and the bench itself)
        assert len(groups) == 1, (groups, recorded)  # rulekb serve, in its own session
        assert len(_group_alive(next(iter(groups)))) >= 3, recorded  # uvicorn's parent and its 2 workers
        bench.send_signal(signal.SIGTERM)
        returncode = bench.wait(timeout=120)
        deadline = time.monotonic() + 60
        while True:
            left = [pid for pid, started in recorded.items()
                    if (stat := _stat(pid)) is not None and stat[2] == started and stat[0] not in "ZX"]
            left += [pid for group in groups for pid in _group_alive(group)]
            if not left:
                break
            assert time.monotonic() < deadline, f"still running after SIGTERM: {sorted(set(left))}"
            time.sleep(0.2)
        assert returncode == 143, log.read_text(errors="replace")  # SystemExit(143): its cleanup ran
    finally:  # never leave them behind, even when the test fails
        for group in {*groups, bench.pid}:
            if _group_alive(group):
                os.killpg(group, signal.SIGKILL)
        bench.wait()


def test_bench_serve_as_a_user_also_loads_the_engine_started_with_cache_0_only(fixture_kb, wrk):
    """As a user starts it: `rulekb serve` with no option, and `rulekb serve --cache 0` (the uncached
    engine) with that option only, both loaded from the moment they answer; RSS sampled through
    each load, its growth over the second half reported (judged only on a load of a minute or more)."""
    store, _ = fixture_kb
    result = run_cli("bench", "serve", "--store", str(store.root), "--as-user", "--duration", "2", "--no-peers",
                     "--scenario", "rule page", "--load-duration", "1", "--format", "json", timeout=600)
    assert result.returncode == 0, result.stderr
    figures = result.json
    options = {name: server["argv"][server["argv"].index("serve") + 1:] for name, server in figures["servers"].items()}
    assert [o for o in options["rulekb"] if o.startswith("--")] == ["--port", "--store"]
    assert [o for o in options["rulekb no-cache"] if o.startswith("--")] == ["--port", "--store", "--cache"]
    assert options["rulekb no-cache"][-2:] == ["--cache", "0"]
    rows = {row["server"]: row for row in figures["rows"]}
    assert set(rows) == {"rulekb", "rulekb no-cache"}
    for row in rows.values():
        assert row["requests"] > 0 and row["errors"] == 0, row
        assert len(row["rss_samples"]) >= 2 and all(mb > 0 for _, mb in row["rss_samples"])
    memory = [t for t in figures["targets"] if t["target"].startswith("memory flat")]
    assert len(memory) == 2 and all(t["met"] is None and "not judged" in t["value"] for t in memory)


def test_growth_over_the_second_half_is_from_the_middle_sample_to_the_last():
    from rulekb.kb.bench.serve_servers import second_half_growth

    filling_then_flat = [(t, min(600.0 + 10 * t, 800.0) + (t % 2)) for t in range(0, 61)]
    assert second_half_growth(filling_then_flat) == 0.0  # full by 20 s: 800 at 30 s and at 60 s
    still_filling = [(t, 600.0 + 2 * t) for t in range(0, 61)]
    assert second_half_growth(still_filling) == 60.0
    assert second_half_growth([(0, 1.0), (1, 2.0)]) is None

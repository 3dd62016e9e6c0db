"""Replicas behind a real HAProxy (Debian ``haproxy``), with the shipped docs/deploy/haproxy.cfg.

Two ``rulekb serve`` replicas over a published snapshot, HAProxy in front, a bounded
client loading it over loopback: one replica killed (SIGKILL, its whole process group)
mid-run -> zero failed requests; started again -> HAProxy sees it healthy and sends it
requests again; then a rolling update to a new snapshot, one replica at a time -> zero
failed requests and both replicas serve the new build. Also ``/healthz`` and
``rulekb publish`` on their own.
"""

from __future__ import annotations

import csv
import http.client
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from ..helpers import need, run_cli
from ..helpers import free_port

PROJECT = Path(__file__).resolve().parents[2]
CONFIG = PROJECT / "docs" / "deploy" / "haproxy.cfg"
FIXTURE = Path(__file__).parents[1] / "fixtures" / "invented-cr-2030-05-05.txt"
PATHS = ["/edition/en/2030-05-05/rule/100.1", "/edition/en/2030-05-05/rule/101.2", "/edition/en/2030-05-05",
         "/sparql?query=SELECT%20%3Fo%20WHERE%20%7B%20%3Chttp%3A%2F%2Flocalhost%3A8000%2Fedition%2Fen%2F2030-05-05"
         "%2Frule%2F100.1%3E%20%3Fp%20%3Fo%20%7D", "/healthz"]


class Replica:
    def __init__(self, store: str, port: int, log: Path):
        self.store, self.port, self.log = store, port, log
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "rulekb.kb.cli", "serve", "--store", self.store, "--port", str(self.port),
                 "--workers", "1", "--query-workers", "1"],
                stdout=out, stderr=subprocess.STDOUT, start_new_session=True, cwd=PROJECT)

    def health(self) -> tuple[int, dict]:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=2) as answer:
                return answer.status, json.load(answer)
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read() or b"{}")
        except OSError:
            return 0, {}

    def wait_ready(self, timeout: float = 120) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log.read_text(errors="replace")[-2000:]
            status, body = self.health()
            if status == 200:
                return body
            time.sleep(0.2)
        raise AssertionError(f"replica on {self.port} not ready: {self.log.read_text(errors='replace')[-2000:]}")

    def kill(self) -> None:
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        """As an operator (or systemd) stops it: SIGTERM, in-flight requests finish."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


class Load:
    """``clients`` threads, each on its own kept-alive connection to the balancer, GETting PATHS in turn,
    ``pause`` seconds between an answer and the next request: requests are in flight on most
    connections at any moment (a page takes a millisecond or more through HAProxy) without six threads
    spinning flat out (12 s of the test's CPU, and the replicas' beside it, unpaced)."""

    def __init__(self, port: int, clients: int = 6, pause: float = 0.001):
        self.port, self.clients, self.pause = port, clients, pause
        self.ok = 0
        self.failed: list[str] = []
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._threads = [threading.Thread(target=self._run, args=(i,), daemon=True) for i in range(clients)]

    def _run(self, i: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        n = i
        while not self._stop.is_set():
            path = PATHS[n % len(PATHS)]
            n += 1
            accept = "application/sparql-results+json" if path.startswith("/sparql") else "text/html"
            try:
                connection.request("GET", path, headers={"Accept": accept})
                answer = connection.getresponse()
                answer.read()
                good = answer.status == 200
                outcome = f"{answer.status} {path}"
                if answer.getheader("connection", "").lower() == "close":
                    connection.close()
            except (OSError, http.client.HTTPException) as exc:
                good, outcome = False, f"{type(exc).__name__} {path}"
                connection.close()
            with self._lock:
                if good:
                    self.ok += 1
                else:
                    self.failed.append(outcome)
            self._stop.wait(self.pause)

    def __enter__(self):
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=60)


def _stats(port: int) -> dict[str, dict]:
    """HAProxy's view of the replicas (its stats page as CSV); empty while it is not listening."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/stats;csv", timeout=5) as answer:
            text = answer.read().decode().lstrip("# ")
    except OSError:
        return {}
    return {row["svname"]: row for row in csv.DictReader(io.StringIO(text)) if row["pxname"] == "replicas"}


def _wait(predicate, timeout: float, what):
    """``what``: words for the failure, or a function giving them then (the state seen at the end)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = predicate()
        if found:
            return found
        time.sleep(0.25)
    raise AssertionError(f"timed out waiting for {what() if callable(what) else what}")


@pytest.fixture
def snapshots(fixture_kb, tmp_path):
    store, _ = fixture_kb
    result = run_cli("publish", str(tmp_path / "snapshots"), "--store", store.location, "--format", "json")
    assert result.returncode == 0, result.stderr
    return tmp_path / "snapshots", result.json


def test_publish_writes_a_read_only_snapshot_of_every_file_of_the_build(fixture_kb, snapshots):
    store, _ = fixture_kb
    folder, info = snapshots
    stamp = info["build"]
    built = {p.name for p in Path(store.location).iterdir() if stamp in p.name}
    assert {"data-" + stamp, "pages-" + stamp + ".sqlite", "search-" + stamp} <= built
    snapshot = folder / stamp
    assert set(info["entries"]) == built and {p.name for p in snapshot.iterdir()} == built | {"current", "SNAPSHOT.json"}
    assert os.readlink(folder / "latest") == stamp and os.readlink(snapshot / "current") == "data-" + stamp
    assert not any(p.stat().st_mode & 0o222 for p in snapshot.rglob("*") if not p.is_symlink())
    # the snapshot is a store: the same rule as the source
    rules = [run_cli("rule", "en/2030-05-05", "100.1", "--store", s, "--format", "json").json
             for s in (store.location, str(folder / "latest"))]
    assert rules[0] == rules[1]
    again = run_cli("publish", str(folder), "--store", store.location, "--format", "json")
    assert again.returncode == 0 and again.json["already"] is True


def test_publish_refuses_what_it_cannot_snapshot(tmp_path):
    result = run_cli("publish", str(tmp_path / "out"), "--store", str(tmp_path / "nothing"))
    assert result.returncode == 2 and "no built knowledge base" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and not (tmp_path / "out").exists()
    remote = run_cli("publish", str(tmp_path / "out"), "--store", "http://127.0.0.1:9/sparql")
    assert remote.returncode == 2 and "embedded store" in remote.stderr


def test_healthz_says_starting_then_ready_with_build_and_newest_edition(snapshots, tmp_path):
    folder, info = snapshots
    replica = Replica(str(folder / "latest"), free_port(), tmp_path / "replica.log")
    replica.start()
    try:
        body = replica.wait_ready()
        assert body["status"] == "ready" and body["build"] == "data-" + info["build"]
        assert body["newest_edition"] == "en/2030-05-05"
        with urllib.request.urlopen(f"http://127.0.0.1:{replica.port}/edition/en/2030-05-05/rule/100.1") as page:
            assert page.status == 200  # the port opened once warm: the first page answers at once
    finally:
        replica.stop()


def test_two_replicas_behind_haproxy_lose_no_request(fixture_kb, snapshots, tmp_path):
    haproxy = shutil.which("haproxy")
    if haproxy is None:
        need("HAProxy is missing (apt-get install haproxy)")
    folder, info = snapshots
    replicas = [Replica(str(folder / "latest"), free_port(), tmp_path / f"replica{i}.log") for i in (1, 2)]
    front, stats = free_port(), free_port()
    env = {**os.environ, "RULEKB_FRONT": f"127.0.0.1:{front}", "RULEKB_STATS": f"127.0.0.1:{stats}",
           "RULEKB_REPLICA1": f"127.0.0.1:{replicas[0].port}", "RULEKB_REPLICA2": f"127.0.0.1:{replicas[1].port}"}
    balancer = None
    try:
        for replica in replicas:
            replica.start()
        for replica in replicas:
            replica.wait_ready()
        with (tmp_path / "haproxy.log").open("wb") as out:
            balancer = subprocess.Popen([haproxy, "-db", "-f", str(CONFIG)], env=env, stdout=out,
                                        stderr=subprocess.STDOUT, start_new_session=True)
        _wait(lambda: [_stats(stats).get(name, {}).get("status") for name in ("r1", "r2")] == ["UP", "UP"],
              30, "both replicas UP in HAProxy")

        # (the load runs where something happens: a second before the kill, half a second after
        # HAProxy marks the replica down; each second of it is about 1.5 s of CPU, the replicas' and
        # the load's)
        with Load(front) as load:  # one replica dies mid-run
            _wait(lambda: load.ok > 20, 10, "requests answered through HAProxy")
            time.sleep(1)
            before = load.ok
            replicas[0].kill()
            _wait(lambda: _stats(stats)["r1"]["status"].startswith("DOWN"), 15,
                  lambda: f"r1 marked DOWN: HAProxy says {_stats(stats).get('r1', {}).get('status')!r}, "
                          f"its port {replicas[0].port} answers /healthz with {replicas[0].health()}")
            time.sleep(0.5)
            assert load.ok > before  # the other one kept answering
            replicas[0].start()  # it comes back
            replicas[0].wait_ready()
            _wait(lambda: _stats(stats)["r1"]["status"] == "UP", 30, "r1 UP again")
            served = int(_stats(stats)["r1"]["stot"])
            _wait(lambda: int(_stats(stats)["r1"]["stot"]) > served + 20, 30, "r1 serving again")
        assert load.failed == [] and load.ok > 100, (load.failed[:10], load.ok)

        # a rolling update: a new build published, each replica moved to it in turn
        rebuilt = tmp_path / "rebuilt"
        built = run_cli("build", str(FIXTURE), "--store", str(rebuilt), timeout=600)
        assert built.returncode == 0, built.stderr
        new = run_cli("publish", str(folder), "--store", str(rebuilt), "--format", "json").json
        assert new["build"] != info["build"]
        with Load(front) as load:
            time.sleep(1)
            for i, replica in enumerate(replicas):
                replica.stop()
                replica.store = str(folder / new["build"])
                replica.start()
                assert replica.wait_ready()["build"] == "data-" + new["build"]
                _wait(lambda name=f"r{i + 1}": _stats(stats)[name]["status"] == "UP", 30, f"r{i + 1} UP")
            time.sleep(1)
        assert load.failed == [] and load.ok > 50, (load.failed[:10], load.ok)
    finally:
        if balancer is not None:
            balancer.terminate()
            balancer.wait(timeout=10)
        for replica in replicas:
            replica.stop()


def test_healthz_is_503_with_retry_after_until_warm_then_200(fixture_kb):
    """The app itself, driven through the ASGI lifespan as uvicorn drives it: 503 (starting)
    before the startup, 200 with the build once warm; the warm-up answered real requests."""
    import asyncio

    from rulekb.kb.cli.serve_commands import build_app

    store, _ = fixture_kb
    app = build_app(store, None, max_rows=100, timeout=10.0, cache=16, query_workers=1)

    async def get(path):
        sent = []

        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message):
            sent.append(message)

        scope = {"type": "http", "method": "GET", "path": path, "raw_path": path.encode(), "query_string": b"",
                 "headers": [(b"host", b"localhost")], "http_version": "1.1", "scheme": "http", "root_path": ""}
        await app(scope, receive, send)
        head = next(m for m in sent if m["type"] == "http.response.start")
        body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
        return head["status"], dict(head["headers"]), json.loads(body)

    async def lifespan():
        messages = asyncio.Queue()
        await messages.put({"type": "lifespan.startup"})
        said = []

        async def send(message):
            said.append(message["type"])
            if message["type"] == "lifespan.startup.complete":
                await messages.put({"type": "lifespan.shutdown"})

        await app({"type": "lifespan"}, messages.get, send)
        return said

    async def scenario():
        before = await get("/healthz")
        said = await lifespan()
        return before, said

    (status, headers, body), said = asyncio.run(scenario())
    assert status == 503 and body["status"] == "starting" and headers[b"retry-after"] == b"5"
    assert said == ["lifespan.startup.complete", "lifespan.shutdown.complete"]
    warmed = app.warmed
    assert warmed["newest_edition"] == "en/2030-05-05" and warmed["query_workers"] == 1
    assert set(warmed["requests"].values()) == {200}, warmed["requests"]  # home, a rule page, a lookup, a search
    assert warmed["gc_frozen"] > 0  # start-up's objects out of the collector's sight
    import gc

    gc.unfreeze()
    app.ready = True  # (the shutdown above set it back)
    status, _, body = asyncio.run(get("/healthz"))
    assert status == 200 and body["status"] == "ready" and body["newest_edition"] == "en/2030-05-05"

"""The servers ``rulekb bench serve`` loads: ours and two peers, each a subprocess on a free loopback port.

- ``rulekb serve`` over the whole store (``--workers N`` processes);
- ``oxigraph serve-read-only`` over one edition, loaded from its N-Quads (the
  edition's named graph) into a temporary Oxigraph store (the ``oxigraph``
  binary of the PyPI package ``oxigraph``);
- rdflib-endpoint over the same edition: an rdflib Dataset in memory behind its
  FastAPI app, under uvicorn (the optional extra ``bench``: ``pip install -e '.[bench]'``).

Memory is read from /proc (VmRSS), summed over the server's process tree, so a
server with several worker processes counts them all.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from ..errors import KBError

# rdflib-endpoint's app: the edition's graph in an rdflib Dataset, queried at /sparql
RDFLIB_ENDPOINT_APP = """
import sys, rdflib, uvicorn
from rdflib_endpoint import SparqlEndpoint
graph = rdflib.Dataset()
graph.parse(sys.argv[1], format="nquads")
app = SparqlEndpoint(graph=graph, path="/sparql", cors_enabled=False)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def tool(name: str) -> str | None:
    """A command installed beside this Python (the venv's bin) or on PATH."""
    beside = Path(sys.executable).parent / name
    return str(beside) if beside.exists() else shutil.which(name)


def tree_pids(pid: int) -> list[int]:
    """``pid`` and all its descendants (from /proc/PID/task/*/children)."""
    out, todo = [], [pid]
    while todo:
        current = todo.pop()
        out.append(current)
        for task in Path(f"/proc/{current}/task").glob("*"):
            try:
                todo += [int(c) for c in (task / "children").read_text().split()]
            except OSError:
                pass
    return out


def rss_mb(pid: int) -> float:
    total_kb = 0
    for p in tree_pids(pid):
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total_kb += int(line.split()[1])
        except OSError:
            pass
    return total_kb / 1024


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of ``pid`` and its descendants (those alive now)."""
    ticks = 0
    for p in tree_pids(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def loaded_libraries(pid: int) -> set[str]:
    """Which of uvloop / httptools the server's processes have loaded (uvicorn's 'auto' picks)."""
    found = set()
    for p in tree_pids(pid):
        try:
            maps = Path(f"/proc/{p}/maps").read_text()
        except OSError:
            continue
        found |= {name for name in ("uvloop", "httptools") if name in maps}
    return found


@dataclass
class Server:
    name: str
    root: str  # http://127.0.0.1:PORT
    process: subprocess.Popen
    sparql_path: str  # where GET ?query= goes
    log: Path

    @property
    def pid(self) -> int:
        return self.process.pid

    def rss_mb(self) -> float:
        return rss_mb(self.pid)

    def cpu_seconds(self) -> float:
        return cpu_seconds(self.pid)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def _start(name: str, argv: list[str], port: int, sparql_path: str, workdir: Path, env: dict | None = None,
           ready_timeout: float = 120.0) -> Server:
    log = workdir / f"{name}.log"
    with log.open("wb") as handle:
        process = subprocess.Popen(argv, stdout=handle, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    server = Server(name, f"http://127.0.0.1:{port}", process, sparql_path, log)
    deadline = time.monotonic() + ready_timeout
    probe = f"{server.root}{sparql_path}?query=ASK%7B%7D"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise KBError(f"{name} exited at start: {log.read_text(errors='replace')[-400:].strip()}")
        try:
            with urllib.request.urlopen(probe, timeout=2):
                return server
        except urllib.error.HTTPError:
            return server  # it answers
        except OSError:
            time.sleep(0.2)
    server.stop()
    raise KBError(f"{name} did not answer within {ready_timeout:.0f} s (log: {log})")


def start_rulekb(name: str, store: str, workers: int, workdir: Path, extra: list[str] | None = None) -> Server:
    port = free_port()
    argv = [sys.executable, "-m", "rulekb.kb.cli", "serve", "--port", str(port), "--store", store,
            "--workers", str(workers), *(extra or [])]
    return _start(name, argv, port, "/sparql", workdir)


def start_oxigraph(nquads: Path, workdir: Path) -> Server | str:
    """The Oxigraph server over the edition, or why it could not run."""
    binary = tool("oxigraph")
    if binary is None:
        return "the oxigraph binary is not installed (pip install oxigraph)"
    location = workdir / "oxigraph-store"
    loaded = subprocess.run([binary, "load", "--location", str(location), "--file", str(nquads)],
                            capture_output=True, text=True)
    if loaded.returncode:
        return f"oxigraph load failed: {loaded.stderr.strip()[-300:]}"
    port = free_port()
    argv = [binary, "serve-read-only", "--location", str(location), "--bind", f"127.0.0.1:{port}"]
    return _start("oxigraph", argv, port, "/query", workdir)


def start_rdflib_endpoint(nquads: Path, workdir: Path) -> Server | str:
    try:
        import rdflib_endpoint  # noqa: F401
    except ImportError:
        return "rdflib-endpoint is not installed (pip install -e '.[bench]')"
    port = free_port()
    argv = [sys.executable, "-c", RDFLIB_ENDPOINT_APP, str(nquads), str(port)]
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    return _start("rdflib-endpoint", argv, port, "/sparql", workdir, env=env)

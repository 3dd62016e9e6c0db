"""The servers ``rulekb bench serve`` loads: ours and two peers, each a subprocess on a free loopback port.

- ``rulekb serve`` over the whole store (``--workers N`` processes);
- ``oxigraph serve-read-only`` over one edition, loaded from its N-Quads (the
  edition's named graph) into a temporary Oxigraph store (the ``oxigraph``
  binary of the PyPI package ``oxigraph``);
- rdflib-endpoint over the same edition: an rdflib Dataset in memory behind its
  FastAPI app, under uvicorn (the optional extra ``bench``: ``pip install -e '.[bench]'``).

Memory is read from /proc (VmRSS), summed over the server's process tree, so a
server with several worker processes counts them all.

Each server runs in its own session (so its own process group, its id the
server's pid). Stopping one signals that whole group (SIGTERM, then SIGKILL
after ``STOP_GRACE`` seconds if any of it is left), so worker processes go too.
Every server started is kept in ``_running`` until stopped, and an atexit
handler stops what is left; ``terminate_as_exit()`` turns SIGTERM into
``SystemExit(143)`` so that a killed ``rulekb bench serve`` runs its cleanup
instead of leaving its servers behind as orphans.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
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


def children_cpu_seconds(pid: int) -> dict[int, float]:
    """CPU seconds of each child of ``pid`` with its own descendants (``rulekb serve``'s server
    processes, each with its query workers)."""
    children = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            children += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return {child: cpu_seconds(child) for child in children}


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


class RssSampler:
    """RSS of a server's process tree every ``every`` seconds, in a thread, while a load runs:
    ``with RssSampler(server) as sampler: ...``, then ``sampler.samples``: (seconds, MB)."""

    def __init__(self, server: "Server", every: float = 1.0):
        self.server, self.every = server, every
        self.samples: list[tuple[float, float]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        started = time.monotonic()
        while True:
            self.samples.append((round(time.monotonic() - started, 1), round(self.server.rss_mb(), 1)))
            if self._stop.wait(self.every):
                break

    def __enter__(self) -> "RssSampler":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(timeout=10)


def second_half_growth(samples: list[tuple[float, float]]) -> float | None:
    """MB grown from the sample at the middle of the run to the last: a server whose bounded caches
    filled in the first half grows by nothing in the second (None: too few samples)."""
    if len(samples) < 4:
        return None
    middle = samples[-1][0] / 2
    at_middle = min(samples, key=lambda sample: abs(sample[0] - middle))
    return round(samples[-1][1] - at_middle[1], 1)


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
        stop_servers([self])


STOP_GRACE = 15.0  # seconds between SIGTERM and SIGKILL of a server's process group

_running: dict[int, Server] = {}  # pid (= process group) -> server, until stopped
_owner = os.getpid()  # a forked child inherits _running: it never stops its parent's servers


def group_alive(pgid: int) -> list[int]:
    """The processes of process group ``pgid`` still running (zombies, already dead, left out)."""
    alive = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            state, _ppid, group = (entry / "stat").read_text().rsplit(")", 1)[1].split()[:3]
        except (OSError, ValueError):
            continue
        if int(group) == pgid and state not in ("Z", "X"):
            alive.append(int(entry.name))
    return alive


def _signal_group(pgid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def stop_servers(servers: list[Server], grace: float = STOP_GRACE) -> None:
    """SIGTERM to every server's process group at once, then SIGKILL to the groups that still
    have a process after ``grace`` seconds; each server's own process is reaped."""
    groups = []
    for server in servers:
        _running.pop(server.pid, None)
        if server.process.poll() is None or group_alive(server.pid):
            _signal_group(server.pid, signal.SIGTERM)
            groups.append(server)
    deadline = time.monotonic() + grace
    while groups and time.monotonic() < deadline:
        for server in groups:
            server.process.poll()  # reap the leader, so it does not count as alive
        groups = [server for server in groups if group_alive(server.pid)]
        if groups:
            time.sleep(0.1)
    for server in groups:
        _signal_group(server.pid, signal.SIGKILL)
    for server in servers:
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.process.wait(timeout=5)


@atexit.register
def stop_all() -> None:
    """Stop every server this process started and has not stopped (any way out: an error, SystemExit)."""
    if os.getpid() == _owner and _running:
        stop_servers(list(_running.values()))


@contextlib.contextmanager
def terminate_as_exit():
    """While inside: SIGTERM raises ``SystemExit(143)`` (128 + SIGTERM), so ``finally`` blocks and
    atexit handlers run and the servers stop; a SIGTERM during that cleanup is ignored. Only
    in the main thread (elsewhere Python cannot set a handler); the previous handler comes back after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received = []

    def handler(signum, frame):
        if not received:
            received.append(signum)
            raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)


def _start(name: str, argv: list[str], port: int, sparql_path: str, workdir: Path, env: dict | None = None,
           ready_timeout: float = 120.0) -> Server:
    log = workdir / f"{name}.log"
    with log.open("wb") as handle:
        process = subprocess.Popen(argv, stdout=handle, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    server = Server(name, f"http://127.0.0.1:{port}", process, sparql_path, log)
    _running[process.pid] = server
    deadline = time.monotonic() + ready_timeout
    probe = f"{server.root}{sparql_path}?query=ASK%7B%7D"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            server.stop()  # its workers, if any, and out of _running
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


def start_rulekb(name: str, store: str, workers: int | None, workdir: Path, extra: list[str] | None = None) -> Server:
    """``rulekb serve`` on a free port; ``workers`` None: as a user starts it, with no option
    but where the store is, the port and ``extra`` (its defaults size it; it listens once warm)."""
    port = free_port()
    argv = [sys.executable, "-m", "rulekb.kb.cli", "serve", "--port", str(port), "--store", store]
    if workers is not None:
        argv += ["--workers", str(workers)]
    argv += extra or []
    # (it renders the newest edition's pages before its port opens: about 7 s of CPU a process on
    # the full KB, a minute of wall time or more when other work shares the cores)
    return _start(name, argv, port, "/sparql", workdir, ready_timeout=300.0)


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

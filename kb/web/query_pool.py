"""Killable SPARQL evaluation: ``/sparql`` queries run in a few worker processes.

pyoxigraph 0.5 has no query timeout or cancellation in Python (oxigraph issue
#1926: the Rust API has one, the binding does not), and a thread cannot be
stopped: a query that computes before its first row (ORDER BY, COUNT, ASK, a
FILTER rejecting every row of a huge join) would run to its end. So each query
of the endpoint runs in a worker process holding the embedded store opened
read-only (RocksDB allows many read-only openers of one directory); a worker
still busy at the deadline is killed (SIGKILL) and replaced, which really frees
the CPU, and the request gets 503.

The worker evaluates, applies the row cap and the between-rows deadline, and
serialises; only the request (a small tuple) and the answer's bytes cross the
pipe. Workers are started on the first query, stay warm, and open the store's
``current`` data directory when they start (a respawned worker sees a newer build).
"""

from __future__ import annotations

import atexit
import os
import queue
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path

from ..errors import KBError

_PROJECT = str(Path(__file__).resolve().parents[2])  # where ``kb`` is, for the workers' imports
_GRACE = 0.25  # seconds past the deadline the worker has to report its own timeout before it is killed
_START_TIMEOUT = 120.0  # seconds a new worker may take to import and open the store


@dataclass(frozen=True)
class Request:
    text: str
    default_graphs: tuple[str, ...]  # default-graph-uri values
    named_graphs: tuple[str, ...]  # named-graph-uri values
    format: str | None  # format= / output=
    accept: str | None  # the Accept header


# The answers a worker sends: ("ok", media_type, body, truncated) or ("error", status, message).


class WorkerGone(KBError):
    """The worker's pipe closed: it died (out of memory, killed from outside)."""

    status = 503


class _Worker:
    """One worker process, started with ``python -c`` (not multiprocessing's spawn,
    which re-imports the caller's main script) and talking over a socket pair."""

    def __init__(self, root: Path, base_iri: str | None, max_rows: int, timeout: float):
        ours, theirs = socket.socketpair()
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [_PROJECT, os.environ.get("PYTHONPATH")])))
        args = [str(theirs.fileno()), str(root), base_iri or "", str(max_rows), str(timeout)]
        with theirs:
            self.process = subprocess.Popen(
                [sys.executable, "-c", "import sys, kb.web.query_pool as q; q.main(sys.argv[1:])", *args],
                pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL, env=env)
        # ours alone now: EOF reaches the worker when we go away
        self.conn = Connection(ours.detach())
        self.ready = False

    @property
    def pid(self) -> int | None:
        return self.process.pid

    def wait_ready(self) -> None:
        if self.ready:
            return
        if not self.conn.poll(_START_TIMEOUT):
            raise WorkerGone("the query worker did not start")
        try:
            self.conn.recv()  # ("ready", pid)
        except (EOFError, OSError):
            raise WorkerGone("the query worker died while starting") from None
        self.ready = True

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(5)
        self.conn.close()


class QueryPool:
    """``size`` warm worker processes over the embedded store at ``root``."""

    def __init__(self, root: Path, size: int, base_iri: str | None, max_rows: int, timeout: float):
        self.root, self.size, self.base_iri = Path(root), max(1, size), base_iri
        self.max_rows, self.timeout = max_rows, timeout
        self._idle: queue.SimpleQueue[_Worker] = queue.SimpleQueue()
        self._workers: dict[int, _Worker] = {}  # by pid, for close() and the tests
        self._lock = threading.Lock()
        self._started = False

    def _spawn(self) -> _Worker:
        worker = _Worker(self.root, self.base_iri, self.max_rows, self.timeout)
        with self._lock:
            self._workers[worker.pid] = worker
        return worker

    def _start(self) -> None:
        with self._lock:
            if self._started:
                return
            self._started = True
        for _ in range(self.size):  # all at once: they import and open the store in parallel
            self._idle.put(self._spawn())

    def pids(self) -> list[int]:
        with self._lock:
            return list(self._workers)

    def _replace(self, worker: _Worker) -> None:
        with self._lock:
            self._workers.pop(worker.pid, None)
        worker.kill()
        self._idle.put(self._spawn())

    def run(self, request: Request) -> tuple:
        """The worker's answer to ``request`` (blocking: call it from a thread).

        Raises TimeoutError when the query outlived the deadline (its worker is
        then killed and replaced) and WorkerGone when the worker died."""
        self._start()
        worker = self._idle.get()
        try:
            worker.wait_ready()
            worker.conn.send(request)
            if not worker.conn.poll(self.timeout + _GRACE):
                raise TimeoutError
            answer = worker.conn.recv()
        except TimeoutError:
            self._replace(worker)
            raise
        except (WorkerGone, EOFError, OSError) as exc:
            self._replace(worker)
            raise WorkerGone(str(exc) or "the query worker died") from None
        except BaseException:
            self._replace(worker)  # interrupted mid-exchange: the pipe's state is unknown
            raise
        self._idle.put(worker)
        return answer

    def close(self) -> None:
        """Kill every worker; the next query starts new ones."""
        with self._lock:
            workers, self._workers = list(self._workers.values()), {}
            self._idle, self._started = queue.SimpleQueue(), False
        for worker in workers:
            worker.kill()


_SHARED: dict[tuple, QueryPool] = {}
_SHARED_LOCK = threading.Lock()


def shared(root: Path, size: int, base_iri: str | None, max_rows: int, timeout: float) -> QueryPool:
    """The process's pool for a store and settings: ``/sparql`` and the query
    editor's form share its workers (and every app a test makes over one store)."""
    key = (str(Path(root).resolve()), max(1, size), base_iri, max_rows, float(timeout))
    with _SHARED_LOCK:
        if key not in _SHARED:
            _SHARED[key] = QueryPool(Path(key[0]), *key[1:])
        return _SHARED[key]


@atexit.register
def _close_all() -> None:
    for pool in list(_SHARED.values()):
        pool.close()


# -- the worker process --------------------------------------------------------------


def main(argv: list[str]) -> None:
    fd, root, base_iri, max_rows, timeout = argv
    serve(Connection(int(fd)), root, base_iri or None, int(max_rows), float(timeout))


def serve(conn: Connection, root: str, base_iri: str | None, max_rows: int, timeout: float) -> None:
    """A worker's life: open the store, then answer requests until the pipe closes."""
    from ..store import EmbeddedStore
    from .context import Limits

    limits = Limits(max_rows=max_rows, timeout=timeout)
    threading.Thread(target=_exit_when_orphaned, args=(os.getppid(),), daemon=True).start()
    kb = EmbeddedStore(Path(root))
    try:
        kb.store()
    except Exception:  # noqa: BLE001 - said with each answer below
        pass
    conn.send(("ready", os.getpid()))
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return  # the server went away
        try:
            store = kb.store()  # follows a rebuild (kb.store.EmbeddedStore.store)
        except Exception as exc:  # noqa: BLE001 - no KB, unreadable store: one line to the client
            answer = ("error", 503, f"the store could not be opened: {exc}")
        else:
            answer = _answer(store, request, base_iri, limits)
        try:
            conn.send(answer)
        except (BrokenPipeError, OSError):
            return


def _exit_when_orphaned(parent: int) -> None:
    """A server killed outright cannot kill its workers: a busy one would run its
    query to the end. pyoxigraph releases the GIL while it evaluates, so this runs."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def _answer(store, request: Request, base_iri: str | None, limits) -> tuple:
    from ..errors import RulekbError
    from .errors import status_and_message
    from .sparql_eval import choose_media, dataset_of, evaluate
    from .sparql_results import serialize

    try:
        dataset = dataset_of({"default-graph-uri": list(request.default_graphs),
                              "named-graph-uri": list(request.named_graphs)})
        result = evaluate(store, request.text, dataset, base_iri, limits)
        media = choose_media(result.kind, {"format": [request.format]} if request.format else {}, request.accept)
        return ("ok", media, serialize(result, media), result.truncated)
    except RulekbError as exc:
        return ("error", *status_and_message(exc)[:2])
    except Exception as exc:  # noqa: BLE001 - one line to the client, the worker lives on
        return ("error", status_and_message(exc)[0], f"the query failed: {type(exc).__name__}: {exc}")

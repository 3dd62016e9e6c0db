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

The worker is also where a client's query is checked (:func:`kb.web.sparql_check.check`:
parsed, SERVICE and updates refused) -- killable, like the evaluation -- and it has
no network: at its start it moves into a network namespace of its own
(``unshare(CLONE_NEWNET)``; as root, or else in a user namespace too), with only
a loopback interface that is down, so even a query that got past the check
cannot reach another host (pyoxigraph would answer SERVICE with HTTP requests,
and has no switch to turn it off). Where no namespace can be made, the worker
says so once on stderr and the parsed check stands alone
(``RULEKB_QUERY_NETWORK=allow`` skips the namespace: for tests of the check).
Queries and checks run in a thread with a deep stack (:data:`_STACK`).

Besides queries, a worker runs a few named domain calls (:data:`CALLS`: a named
query's rows, the VoID statistics) under the same deadline: the pages' long
requests are killable too.
"""

from __future__ import annotations

import atexit
import ctypes
import os
import pickle
import queue
import socket
import struct
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
_STACK = 512 << 20  # bytes of the worker thread's stack (virtual: only what a deep query touches is used)
_CLONE_NEWNET, _CLONE_NEWUSER = 0x40000000, 0x10000000


@dataclass(frozen=True)
class Request:
    text: str
    default_graphs: tuple[str, ...]  # default-graph-uri values
    named_graphs: tuple[str, ...]  # named-graph-uri values
    format: str | None  # format= / output=
    accept: str | None  # the Accept header
    checked: bool = True  # parse and refuse SERVICE / updates first (False: the server's own text)
    call: tuple | None = None  # (name in CALLS, args): a domain call instead of a query
    timeout: float | None = None  # seconds for this request (default: the pool's)
    verdict: tuple | None = None  # (kind, has_dataset): the check a worker already made of this very text


# The answers a worker sends: ("ok", media_type, body, truncated, verdict) or ("error", status, message);
# verdict: (kind, has_dataset) of the parsed check of the text (None when it was not checked), which the
# server keeps per text (kb.web.sparql.Verdicts) so that the same text is parsed once, not per request.


class WorkerGone(KBError):
    """The worker's pipe closed: it died (out of memory, killed from outside)."""

    status = 503


class _Worker:
    """One worker process, started with ``python -c`` (not multiprocessing's spawn,
    which re-imports the caller's main script) and talking over a socket pair."""

    def __init__(self, root: Path, base_iri: str | None, max_rows: int, timeout: float):
        ours, theirs = socket.socketpair()
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [_PROJECT, os.environ.get("PYTHONPATH")])))
        args = [str(theirs.fileno()), str(root) if root else "", base_iri or "", str(max_rows), str(timeout)]
        with theirs:
            self.process = subprocess.Popen(
                [sys.executable, "-c", "import sys, rulekb.kb.web.query_pool as q; q.main(sys.argv[1:])", *args],
                pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL, env=env)
        # ours alone now: EOF reaches the worker when we go away
        self.conn = Connection(ours.detach())
        self.ready = False
        self.network = "not started"

    @property
    def pid(self) -> int | None:
        return self.process.pid

    def wait_ready(self) -> None:
        if self.ready:
            return
        if not self.conn.poll(_START_TIMEOUT):
            raise WorkerGone("the query worker did not start")
        try:
            _, _, self.network = self.conn.recv()  # ("ready", pid, network isolation)
        except (EOFError, OSError, ValueError):
            raise WorkerGone("the query worker died while starting") from None
        self.ready = True
        global _WARNED
        if not self.network.startswith("isolated") and not _WARNED:
            _WARNED = True
            print(f"rulekb: warning: query workers have network access ({self.network}); "
                  "SERVICE is refused by the parsed check alone", file=sys.stderr)

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(5)
        self.conn.close()


_WARNED = False


def _said_ready(worker: _Worker) -> bool:
    """Whether a worker's "ready" has come (read now, without waiting). A worker made ready
    only by run() would otherwise send every request it is picked for through a thread."""
    try:
        if not worker.conn.poll(0):
            return False
        worker.wait_ready()
    except (WorkerGone, EOFError, OSError):
        return False  # it died starting: run() finds it so and replaces it
    return True


class _Frame:
    """One answer read from a worker's socket as the event loop sees it readable, in the
    framing of multiprocessing.connection (a 4-byte big-endian length, or -1 and an 8-byte
    one, then the pickle); the future gets the pickle's bytes, or EOFError / OSError."""

    def __init__(self, fd: int, done):
        self.fd, self.done, self.buffer, self.need = fd, done, bytearray(), None

    def readable(self) -> None:
        if self.done.done():
            return
        try:
            chunk = os.read(self.fd, 1 << 20)
        except (BlockingIOError, InterruptedError):
            return
        except OSError as exc:
            self.done.set_exception(exc)
            return
        if not chunk:
            self.done.set_exception(EOFError("the query worker closed its socket"))
            return
        self.buffer += chunk
        if self.need is None and len(self.buffer) >= 4:
            size = struct.unpack("!i", self.buffer[:4])[0]
            if size != -1:
                self.need = (4, size)
            elif len(self.buffer) >= 12:
                self.need = (12, struct.unpack("!Q", self.buffer[4:12])[0])
        if self.need is not None and len(self.buffer) >= self.need[0] + self.need[1]:
            start, size = self.need
            self.done.set_result(bytes(self.buffer[start:start + size]))


class QueryPool:
    """``size`` warm worker processes over the embedded store at ``root``."""

    def __init__(self, root: Path, size: int, base_iri: str | None, max_rows: int, timeout: float):
        self.root, self.size, self.base_iri = (Path(root) if root else None), max(1, size), base_iri
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

    def network(self) -> list[str]:
        """How each started worker's network was isolated (see the module doc)."""
        with self._lock:
            return [w.network for w in self._workers.values() if w.ready]

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
            if not worker.conn.poll((request.timeout or self.timeout) + _GRACE):
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

    async def arun(self, request: Request) -> tuple:
        """:meth:`run` from the event loop: the request is written to an idle worker's socket
        and the answer read when the loop sees it readable -- no thread hand-off. With no
        idle worker (or one still starting), it waits for one in a thread, as :meth:`run`.
        The deadline and the kill are the same; a cancelled request (the client left)
        replaces the worker, whose socket then holds an answer no one reads."""
        import asyncio

        self._start()
        try:
            worker = self._idle.get_nowait()
        except queue.Empty:
            worker = None
        if worker is not None and not worker.ready and not _said_ready(worker):
            self._idle.put(worker)  # still starting: run() waits for it in a thread
            worker = None
        if worker is None:
            import anyio

            return await anyio.to_thread.run_sync(self.run, request)
        loop = asyncio.get_running_loop()
        fd = worker.conn.fileno()
        answer = loop.create_future()
        frame = _Frame(fd, answer)
        try:
            os.set_blocking(fd, True)
            worker.conn.send(request)  # blocking: a request is small, and the worker is reading
            loop.add_reader(fd, frame.readable)  # the loop makes the socket non-blocking while it watches
            payload = await asyncio.wait_for(answer, (request.timeout or self.timeout) + _GRACE)
        except asyncio.TimeoutError:
            self._drop(loop, fd, worker)
            raise TimeoutError from None
        except (EOFError, OSError) as exc:
            self._drop(loop, fd, worker)
            raise WorkerGone(str(exc) or "the query worker died") from None
        except BaseException:
            self._drop(loop, fd, worker)  # cancelled mid-exchange: the socket's state is unknown
            raise
        loop.remove_reader(fd)
        os.set_blocking(fd, True)  # as run() (a thread's blocking reads) expects it
        self._idle.put(worker)
        return pickle.loads(payload)

    def _drop(self, loop, fd: int, worker: _Worker) -> None:
        loop.remove_reader(fd)
        self._replace(worker)

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
    key = (str(Path(root).resolve()) if root else "", max(1, size), base_iri, max_rows, float(timeout))
    with _SHARED_LOCK:
        if key not in _SHARED:
            _SHARED[key] = QueryPool(key[0] or None, *key[1:])
        return _SHARED[key]


@atexit.register
def _close_all() -> None:
    for pool in list(_SHARED.values()):
        pool.close()


# -- the worker process --------------------------------------------------------------


def main(argv: list[str]) -> None:
    network = isolate_network()  # first: still one thread (a user namespace needs it)
    fd, root, base_iri, max_rows, timeout = argv
    sys.setrecursionlimit(200_000)  # the thread below has the stack for it
    threading.stack_size(_STACK)
    worker = threading.Thread(target=serve, args=(Connection(int(fd)), root, base_iri or None, int(max_rows),
                                                  float(timeout), network))
    worker.start()
    worker.join()


def isolate_network() -> str:
    """Move this process into a network namespace of its own (no interface up: no
    connection to anything, loopback included); say how it went."""
    if os.environ.get("RULEKB_QUERY_NETWORK") == "allow":
        return "allowed by RULEKB_QUERY_NETWORK=allow"
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError as exc:
        return f"no libc: {exc}"
    if libc.unshare(_CLONE_NEWNET) == 0:
        return "isolated (network namespace)"
    first = os.strerror(ctypes.get_errno())
    if libc.unshare(_CLONE_NEWUSER | _CLONE_NEWNET) == 0:
        return "isolated (user and network namespaces)"
    return f"unshare failed: {first}; {os.strerror(ctypes.get_errno())}"


def serve(conn: Connection, root: str, base_iri: str | None, max_rows: int, timeout: float,
          network: str = "not asked") -> None:
    """A worker's life: open the store, then answer requests until the pipe closes."""
    from ..store.embedded import EmbeddedStore
    from .context import Limits

    limits = Limits(max_rows=max_rows, timeout=timeout)
    threading.Thread(target=_exit_when_orphaned, args=(os.getppid(),), daemon=True).start()
    kb = EmbeddedStore(Path(root)) if root else None  # None: a checker of a remote store's queries
    try:
        if kb is not None:
            kb.store()
    except Exception:  # noqa: BLE001 - said with each answer below
        pass
    _warm(kb)  # before the first deadline runs
    conn.send(("ready", os.getpid(), network))
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return  # the server went away
        answer = _serve_one(kb, request, base_iri, limits)
        try:
            conn.send(answer)
        except (BrokenPipeError, OSError):
            return


_WARM = """PREFIX ex: <http://example.org/> SELECT DISTINCT ?s (COUNT(?o) AS ?n) WHERE {
  GRAPH ?g { ?s a ex:C ; ex:p ?o , "x"@en . OPTIONAL { ?s ex:q/ex:r* ?t } FILTER(STRSTARTS(STR(?s), "h") && ?o != 1) }
  MINUS { ?s ex:d [] } VALUES ?g { ex:g } BIND(CONCAT("a", 'b') AS ?c) } GROUP BY ?s ORDER BY DESC(?n) LIMIT 1"""


def _warm(kb) -> None:
    """Import the parser and walk most of its grammar once, and read the store once:
    the first query of a new worker then costs what any other does."""
    from .sparql_check import check

    for text in ("ASK {}", _WARM, "CONSTRUCT WHERE { ?s ?p ?o }", "DESCRIBE <http://example.org/>"):
        check(text)
    try:
        if kb is not None:
            kb.store().query("ASK { GRAPH ?g { ?s ?p ?o } }")
    except Exception:  # noqa: BLE001 - no KB yet: said with each answer
        pass


def _serve_one(kb, request: Request, base_iri: str | None, limits) -> tuple:
    if request.call is not None and request.call[0] in STORELESS:
        return _call(None, request)
    if kb is None:
        return ("error", 503, "this worker has no store")
    try:
        store = kb.store()  # follows a rebuild (kb.store.embedded.EmbeddedStore.store)
    except Exception as exc:  # noqa: BLE001 - no KB, unreadable store: one line to the client
        return ("error", 503, f"the store could not be opened: {exc}")
    return _answer(store, request, base_iri, limits, kb)


def _exit_when_orphaned(parent: int) -> None:
    """A server killed outright cannot kill its workers: a busy one would run its
    query to the end. pyoxigraph releases the GIL while it evaluates, so this runs."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


CALLS = {  # the domain calls a worker runs for the pages: name -> function of (EmbeddedStore, *args)
    "select": lambda kb, text, bindings: kb.select(text, bindings),
    "void": lambda kb: __import__("rulekb.kb.store.void", fromlist=["statistics"]).statistics(kb),
    "check": lambda kb, text: _check_only(text),
}
STORELESS = {"check"}


def _check_only(text: str):
    from .sparql_check import check

    return check(text)


def _call(kb, request: Request) -> tuple:
    from ..errors import RulekbError
    from .errors import status_and_message

    name, args = request.call
    try:
        return ("ok", CALLS[name](kb, *args))
    except RulekbError as exc:
        return ("error", *status_and_message(exc)[:2])
    except Exception as exc:  # noqa: BLE001 - one line to the client, the worker lives on
        return ("error", 500, f"{name} failed: {type(exc).__name__}: {exc}")


def _answer(store, request: Request, base_iri: str | None, limits, kb=None) -> tuple:
    from ..errors import RulekbError
    from .errors import status_and_message
    from .sparql_check import check, strip_dataset
    from .sparql_eval import choose_media, dataset_of, evaluate, query_dataset
    from .sparql_results import serialize

    if request.call is not None:
        return _call(kb, request)
    try:
        text = request.text
        requested = dataset_of({"default-graph-uri": list(request.default_graphs),
                                "named-graph-uri": list(request.named_graphs)})
        own, verdict = False, None
        if request.checked:
            if request.verdict is not None:  # this text was checked by a worker before (kb.web.sparql.Verdicts)
                verdict = tuple(request.verdict)
            else:
                found = check(text)
                verdict = (found.kind, found.has_dataset)
            own = verdict[1]
            if own and requested:
                text = strip_dataset(text)
        result = evaluate(store, text, query_dataset(requested, own), base_iri, limits)
        media = choose_media(result.kind, {"format": [request.format]} if request.format else {}, request.accept)
        return ("ok", media, serialize(result, media), result.truncated, verdict)
    except RulekbError as exc:
        return ("error", *status_and_message(exc)[:2])
    except Exception as exc:  # noqa: BLE001 - one line to the client, the worker lives on
        return ("error", status_and_message(exc)[0], f"the query failed: {type(exc).__name__}: {exc}")

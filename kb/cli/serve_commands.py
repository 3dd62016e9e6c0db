"""``rulekb serve``: the web endpoint (SPARQL 1.1 Protocol at /sparql, pages, dereferenced IRIs).

Fast by default: ``--workers`` (server processes) defaults to the CPUs this process
may use, ``--query-workers`` (SPARQL evaluation processes of each) to match, so the
machine's cores are all used and no more. Each server process builds its app, warms
it (:mod:`kb.web.readiness`: store, page data, search index, query workers, one
request of each kind) and only then listens: every process binds the port with
``SO_REUSEPORT`` (the kernel spreads connections over the listening ones), so the
port opens when the first process is warm and a process that is still warming
gets no connection. A process that dies is started again. The embedded store is
opened read-only by every process at once (RocksDB allows any number of
read-only openers), so the workers share the page cache, not a lock.
uvicorn's "auto" loop is uvloop; the HTTP protocol is httptools' behind the
limits of :mod:`kb.web.guard` (head size and field count, head and body read
timeouts, a connection cap), with ``limit_concurrency`` and a short keep-alive,
and the shortcuts of :mod:`kb.web.protocol` (bounded SPARQL lookups written
from the protocol, one write per response); no access log.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import time

import typer

from .app import BaseOption, Format, FormatOption, StoreOption, _store, app
from .output import emit_json, errors_as_exit_codes, fail, stderr, stdout

# settings for app_from_env, in the environment the worker processes inherit
_ENV = {
    "store": "RULEKB_SERVE_STORE",
    "base_iri": "RULEKB_SERVE_BASE_IRI",
    "max_rows": "RULEKB_SERVE_MAX_ROWS",
    "timeout": "RULEKB_SERVE_TIMEOUT",
    "cache": "RULEKB_SERVE_CACHE",
    "query_workers": "RULEKB_SERVE_QUERY_WORKERS",
    "cache_sparql": "RULEKB_SERVE_CACHE_SPARQL",
    "together": "RULEKB_SERVE_TOGETHER",  # "N:FOLDER": listen once N processes are warm (set by _supervise)
    "fd": "RULEKB_SERVE_FD",  # the socket _supervise bound for a process and makes listen (read by kb.web.readiness too)
}


# uvicorn's settings for a public server (see kb.web.guard for the protocol's own limits)
UVICORN_LIMITS = {
    "http": "rulekb.kb.web.protocol:ServerProtocol",  # kb.web.guard's limits, cheaper responses
    "limit_concurrency": 512,  # requests in progress per process: then 503 (after the head)
    "timeout_keep_alive": 5,  # seconds an idle kept-alive connection stays open
    "backlog": 1024,
    "server_header": False,
    # at log level warning the access log prints nothing, yet uvicorn formats each line's client
    # address and quoted path before asking the logger (about 3 % of a point lookup's CPU)
    "access_log": False,
}


def build_app(store, base_iri: str | None, *, max_rows: int, timeout: float, cache: int, query_workers: int,
              cache_sparql: bool = True, together: tuple[str, int] | None = None):
    """The app of one process: kb.web's app, behind the response cache unless ``cache`` is 0,
    behind :class:`kb.web.readiness.Ready` (warm before listening, ``/healthz``)."""
    from ..web.app import create_app
    from ..web.cache import with_response_cache
    from ..web.readiness import Ready

    web_app = create_app(store, base_iri, max_rows=max_rows, timeout=timeout, workers=query_workers)
    base = web_app.state.ctx.base
    if cache:
        web_app = with_response_cache(web_app, store, max_entries=cache, sparql=cache_sparql)
    return Ready(web_app, store, base, together)


def cpus() -> int:
    """The CPUs this process may run on (its affinity: a container's or taskset's share)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def default_query_workers(workers: int) -> int:
    """SPARQL evaluation processes per server process: the CPUs shared out, at least 2 (so a
    slow query does not hold every lookup of its process back)."""
    return max(2, -(-cpus() // workers))


def _listening_socket(host: str, port: int) -> socket.socket:
    """The port, bound with SO_REUSEPORT but not listening yet: uvicorn listens once the app is warm."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.set_inheritable(True)
    return sock


def serve_process(host: str, port: int) -> None:
    """One server process: its app (from the environment), warmed, then listening (on the socket
    the supervisor bound for it, which the supervisor makes listen, when there is one: :func:`_supervise`)."""
    import uvicorn

    fd = os.environ.get(_ENV["fd"])
    sock = socket.socket(fileno=int(fd)) if fd else _listening_socket(host, port)
    config = uvicorn.Config(app_from_env, factory=True, host=host, port=port, log_level="warning",
                            lifespan="on", **UVICORN_LIMITS)
    uvicorn.Server(config).run(sockets=[sock])


def _supervise(host: str, port: int, workers: int) -> None:
    """``workers`` server processes; one that dies is started again; SIGTERM or SIGINT stops them all.
    They listen together: this process binds each one's socket (SO_REUSEPORT, not listening) and,
    once every process says it is warm (kb.web.readiness.listen_together), makes all the sockets
    listen in one moment -- a load that starts at once then spreads over all of them, however
    late the machine schedules any one process (timed alignment in each process was missed now and
    then on a loaded 2-core machine). A process started again listens once it is warm."""
    import shutil
    import subprocess
    import tempfile

    from ..web.readiness import TOGETHER_WAIT

    argv = [sys.executable, "-c", "import sys; from rulekb.kb.cli.serve_commands import serve_process; "
            "serve_process(sys.argv[1], int(sys.argv[2]))", host, str(port)]
    children: list[tuple[subprocess.Popen, socket.socket]] = []
    stopping = []

    def stop(signum, frame):
        stopping.append(signum)

    def start() -> tuple[subprocess.Popen, socket.socket]:
        sock = _listening_socket(host, port)
        env = {**os.environ, _ENV["fd"]: str(sock.fileno())}
        return subprocess.Popen(argv, pass_fds=[sock.fileno()], env=env), sock

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    together = tempfile.mkdtemp(prefix="rulekb-serve-warm-")
    os.environ[_ENV["together"]] = f"{workers}:{together}"
    try:
        children = [start() for _ in range(workers)]
        listening = [False] * workers
        began, failures = time.monotonic(), []
        while not stopping:
            # (quick while the first listen waits, so that none is late; then a restarted one's)
            time.sleep(0.005 if not any(listening) else 0.05 if not all(listening) else 0.2)
            if not all(listening):
                try:
                    warm = set(os.listdir(together))
                except OSError:
                    warm = set()
                opening = any(listening) or all(str(child.pid) in warm for child, _ in children) \
                    or time.monotonic() - began > TOGETHER_WAIT
                for i, (child, sock) in enumerate(children):
                    if opening and not listening[i] and str(child.pid) in warm:
                        sock.listen(UVICORN_LIMITS["backlog"])
                        listening[i] = True
            for i, (child, sock) in enumerate(children):
                if child.poll() is None or stopping:
                    continue
                now = time.monotonic()
                failures = [t for t in failures if now - t < 60] + [now]
                if len(failures) > 3 * workers:  # dying at start (no KB, port taken): give up
                    fail(f"the server processes keep exiting (last exit code {child.returncode}): see above")
                sock.close()
                children[i], listening[i] = start(), False
    finally:
        for child, _ in children:
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 15
        for child, sock in children:
            sock.close()
            try:
                child.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        os.environ.pop(_ENV["together"], None)
        shutil.rmtree(together, ignore_errors=True)


def app_from_env():
    """uvicorn's factory for each worker process (``kb.cli.serve_commands:app_from_env``)."""
    from ..service import open_store

    env = os.environ
    count, _, folder = env.get(_ENV["together"], "").partition(":")
    return build_app(
        open_store(env.get(_ENV["store"]) or None),
        env.get(_ENV["base_iri"]) or None,
        max_rows=int(env.get(_ENV["max_rows"], "10000")),
        timeout=float(env.get(_ENV["timeout"], "30")),
        cache=int(env.get(_ENV["cache"], "0")),
        query_workers=int(env.get(_ENV["query_workers"], "4")),
        cache_sparql=env.get(_ENV["cache_sparql"], "1") == "1",
        together=(folder, int(count)) if folder else None,
    )


def _base_to_serve(kb, asked: str | None) -> str | None:
    """The base whose IRIs this server answers for: the one asked for (--base-iri or
    RULEKB_BASE_IRI), else the one the KB was built with; a mismatch is said, since
    then no IRI of the KB dereferences."""
    from ..service import base_iri, built_base

    built = built_base(kb)
    if asked is None and not os.environ.get("RULEKB_BASE_IRI"):
        return built
    if built and base_iri(asked) != built:
        stderr.print(f"rulekb: warning: the KB was built with the base {built}, not {base_iri(asked)}: "
                     f"its IRIs will not dereference here (rebuild with --base-iri, or serve with --base-iri {built})",
                     markup=False, highlight=False)
    return asked


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
    port: int = typer.Option(8000, "--port", help="Port to listen on."),
    store: str = StoreOption,
    base_iri: str = BaseOption,
    max_rows: int = typer.Option(10_000, "--max-rows", help="Rows (or triples) per answer; more are cut, with X-Rulekb-Truncated: true."),
    timeout: float = typer.Option(30.0, "--timeout", help="Seconds per query (checked between result rows)."),
    workers: int = typer.Option(None, "--workers", help="Server processes (default: one per CPU this process may "
                                "use). Each holds its own page cache and query workers; more than the CPUs only adds memory."),
    cache: int = typer.Option(4096, "--cache", help="Rendered pages and resources kept in memory per process (LRU, "
                              "with ETag and Cache-Control); 0: no cache."),
    cache_sparql: bool = typer.Option(False, "--cache-sparql/--no-cache-sparql",
                                      help="Cache GET /sparql answers too (off by default: a point lookup is then "
                                      "answered in the HTTP protocol itself, faster than a cache miss; on: a repeated "
                                      "heavy query comes from the cache, with ETag)."),
    query_workers: int = typer.Option(None, "--query-workers", help="SPARQL queries evaluated at once, per server "
                                      "process, each in a process of its own (default: the CPUs shared out over the "
                                      "server processes, at least 2). Rule pages and point lookups do not use them."),
) -> None:
    """Serve the KB over HTTP: the SPARQL 1.1 Protocol at /sparql (read-only), pages and the KB's IRIs.

    With no options it uses the machine: one server process per CPU, query workers to match,
    everything warmed before the port opens; GET /healthz says 200 (build, newest edition) once ready."""
    workers = cpus() if workers is None else workers
    query_workers = default_query_workers(workers) if query_workers is None else query_workers
    if workers < 1:
        fail("--workers must be 1 or more")
    if cache < 0:
        fail("--cache must be 0 or more")
    if query_workers < 1:
        fail("--query-workers must be 1 or more")
    with errors_as_exit_codes():
        kb = _store(store)
        kb.check()  # fail now, in one line, when there is no KB
        base_iri = _base_to_serve(kb, base_iri)
        try:  # the port must be free, or ours to share: said now, in one line
            _listening_socket(host, port).close()
        except OSError as exc:
            fail(f"cannot listen on {host}:{port}: {exc.strerror}")
        stderr.print(f"rulekb: SPARQL endpoint at http://{host}:{port}/sparql ({workers} server process"
                     f"{'es' if workers > 1 else ''}, {query_workers} query workers each; warming up, "
                     f"GET /healthz says when ready)", markup=False, highlight=False)
        kb.close()  # each server process opens its own
        settings = {"store": kb.location, "base_iri": base_iri or "", "max_rows": max_rows,
                    "timeout": timeout, "cache": cache, "query_workers": query_workers,
                    "cache_sparql": int(cache_sparql)}
        os.environ.update({_ENV[key]: str(value) for key, value in settings.items()})
        if workers == 1:
            serve_process(host, port)
            return
        _supervise(host, port, workers)


@app.command()
def publish(
    target: str = typer.Argument(..., help="Folder of snapshots: the build goes to DIR/STAMP, DIR/latest points at it."),
    store: str = StoreOption,
    format: Format = FormatOption,
) -> None:
    """Write a read-only, versioned snapshot of the built KB (store, search index, page data and every other
    file of the build) for replicas: `rulekb serve --store DIR/latest` (see docs/deploy.md for rolling updates)."""
    from pathlib import Path

    from ..service import publish as publish_snapshot

    with errors_as_exit_codes():
        info = publish_snapshot(_store(store), Path(target))
    if format is Format.json:
        emit_json(info)
        return
    what = "already published" if info["already"] else f"published in {info['seconds']} s"
    size = sum(info["entries"].values()) / 1e6
    stdout.print(f"{info['snapshot']}: build {info['build']} {what} ({len(info['entries'])} entries, {size:,.1f} MB); "
                 f"{Path(target) / 'latest'} -> {info['build']}", markup=False, highlight=False)

"""Ready before the port opens, and ``/healthz`` for balancers and operators.

:class:`Ready` is the outermost ASGI app of ``rulekb serve``. At the ASGI lifespan
startup -- which uvicorn runs *before* it listens on the port -- it warms everything
a request needs (:func:`warm`): the store opened, the page data and the search index
opened, every query worker process started and ready, and one real request of each
kind (home page, a rule page of the newest edition, a SPARQL point lookup, a search)
answered through the whole app, so its templates, plans and caches are built, the word
diffs of the longest histories computed (:func:`kb.web.rule_page.keep_longest_diffs`), the
newest edition's section pages rendered and kept (:func:`kb.web.edition_pages.render_sections_ahead`)
and its rule pages rendered once, so the word diffs and history rows they share are kept
(:func:`kb.web.rule_page.render_rules_ahead`). The
first request then costs what the hundredth does.

Server processes started together (``rulekb serve`` with several) also listen together
(:func:`listen_together`): a warm process waits until the supervisor makes its socket listen,
which it does for all of them in one moment once all are warm.
The kernel gives a connection only to a process that listens, and a client's kept-alive
connections stay where they landed: a load that starts when the first process is warm
would keep every connection on it, the others idle (measured: 16 connections of wrk, all
on one of two processes, for the whole run).

``GET /healthz`` answers ``200`` with ``{"status": "ready", "build", "newest_edition",
"pid"}`` once warm and while the store answers; ``503`` (with ``Retry-After``) while
starting, or when the store stopped answering (a remote store down, a snapshot removed):
a balancer then sends the requests elsewhere. It is never cached.
"""

from __future__ import annotations

import json
import os
import time
from urllib.parse import quote

from .. import service

RETRY_AFTER = "5"  # seconds a client (or balancer) should wait after a 503 here
_HEALTH_EVERY = 1.0  # seconds a health answer is reused (a balancer polls every second or two)
TOGETHER_WAIT = 120.0  # seconds the supervisor waits for every process's warm-up before the warm ones listen
POINT = "SELECT ?o WHERE {{ <{iri}> ?p ?o }} LIMIT 5"


class Ready:
    def __init__(self, app, store, base: str, together: tuple[str, int] | None = None):
        self.app, self.store, self.base = app, store, base.rstrip("/") + "/"
        self.together = together  # (folder, processes): listen once that many are warm (listen_together)
        self.ready = False
        self.started = time.monotonic()
        self.warmed: dict = {}
        self._health: tuple[float, int, bytes] | None = None
        self._newest: tuple[str | None, str | None] = (None, None)  # (build, newest edition)

    def __getattr__(self, name):  # app.state, answer_now... of the wrapped app
        return getattr(self.app, name)

    @property
    def answer_now(self):
        return getattr(self.app, "answer_now", None)

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            return await self._lifespan(receive, send)
        if scope["type"] == "http" and scope["path"] == "/healthz":
            return await self._healthz(scope, send)
        return await self.app(scope, receive, send)

    # -- startup -------------------------------------------------------------

    async def _lifespan(self, receive, send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                try:
                    self.warmed = await warm(self)
                    if self.together is not None:
                        self.warmed["waited_for_siblings"] = await listen_together(*self.together)
                except Exception as exc:  # noqa: BLE001 -- said in one line, and the server does not start
                    text = " ".join(str(exc).split())[:300] or type(exc).__name__
                    await send({"type": "lifespan.startup.failed", "message": text})
                    return
                self.ready = True
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.ready = False
                await send({"type": "lifespan.shutdown.complete"})
                return

    # -- /healthz --------------------------------------------------------------

    def _newest_edition(self) -> tuple[str | None, str | None]:
        """(build id, newest edition id): the edition looked up again when the build changed."""
        build = self.store.build_id()
        if build is None or build != self._newest[0]:
            rows = service.editions(self.store)
            newest = max(rows, key=lambda r: (r.get("effective_date") or "", r["edition"]))["edition"] if rows else None
            self._newest = (build, newest)
        return self._newest

    def _health_now(self) -> tuple[int, bytes]:
        if not self.ready:
            body = {"status": "starting", "pid": os.getpid(),
                    "seconds": round(time.monotonic() - self.started, 1)}
            return 503, json.dumps(body).encode()
        try:
            build, newest = self._newest_edition()
        except Exception as exc:  # noqa: BLE001 -- a KB error or the network: the balancer must know
            text = " ".join(str(exc).split())[:300] or type(exc).__name__
            return 503, json.dumps({"status": "unavailable", "pid": os.getpid(), "error": text}).encode()
        build_id = os.path.basename(build) if build else self.store.location
        return 200, json.dumps({"status": "ready", "build": build_id, "newest_edition": newest,
                                "pid": os.getpid()}).encode()

    async def _healthz(self, scope, send) -> None:
        import anyio

        now = time.monotonic()
        cached = self._health
        if cached is None or now - cached[0] > _HEALTH_EVERY or cached[1] != 200 or not self.ready:
            status, body = await anyio.to_thread.run_sync(self._health_now)
            self._health = (now, status, body)
        else:
            _, status, body = cached
        headers = [(b"content-type", b"application/json"), (b"cache-control", b"no-store"),
                   (b"content-length", str(len(body)).encode())]
        if status != 200:
            headers.append((b"retry-after", RETRY_AFTER.encode()))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})


async def _get(app, path: str, accept: str = "text/html") -> int:
    """One GET through the whole app, in process (no socket): its status."""
    raw_path, _, query = path.partition("?")
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
             "scheme": "http", "path": raw_path, "raw_path": raw_path.encode(), "query_string": query.encode(),
             "root_path": "", "headers": [(b"host", b"localhost"), (b"accept", accept.encode())],
             "client": ("127.0.0.1", 0), "server": ("127.0.0.1", 0), "state": {}}
    status = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        if message["type"] == "http.response.start":
            status.append(message["status"])

    await app(scope, receive, send)
    return status[0] if status else 0


async def warm(ready: Ready) -> dict:
    """Everything a first request needs, done now; returns what was warmed and in how long."""
    import anyio

    started = time.perf_counter()
    store, app = ready.store, ready.app
    await anyio.to_thread.run_sync(store.check)  # no KB: the server does not start (one line)
    build, newest = await anyio.to_thread.run_sync(ready._newest_edition)
    done: dict = {"build": build, "newest_edition": newest}
    endpoint = getattr(app.state, "sparql", None)
    pool = getattr(endpoint, "pool", None)
    if pool is not None:  # every query worker started and ready (they start in parallel)
        def start_all() -> int:
            pool._start()
            workers = list(pool._workers.values())
            for worker in workers:
                worker.wait_ready()
            return len(workers)

        done["query_workers"] = await anyio.to_thread.run_sync(start_all)
    paths = ["/"]
    if newest:
        rules = await anyio.to_thread.run_sync(lambda: service.run(store, "edition-rules", edition=newest))
        if rules:
            row = rules[len(rules) // 2]
            number = row["number"]
            words = [w for w in (row.get("text") or "").split() if w.isalpha() and len(w) > 4] or ["rule"]
            rule_iri = f"{ready.base}edition/{newest}/rule/{number}"
            paths += [rule_iri[len(ready.base) - 1:], f"/search?q={quote(words[0])}",
                      "/sparql?query=" + quote(POINT.format(iri=rule_iri), safe="")]
    statuses = {}
    for path in paths:
        accept = "application/sparql-results+json" if path.startswith("/sparql") else "text/html"
        statuses[path.partition("?")[0]] = await _get(app, path, accept)
    done["requests"] = statuses
    from .rule_page import keep_longest_diffs  # the slowest pages' diffs: not on a reader's time

    done["diffs_kept"] = await anyio.to_thread.run_sync(keep_longest_diffs, store)
    ctx = getattr(app.state, "ctx", None)
    if newest and ctx is not None:  # the section pages (the slowest to render: kb.web.edition_pages)
        from .edition_pages import render_sections_ahead
        from .rule_page import render_rules_ahead

        if store.local_root is not None:  # (over a remote store each section page asks it five queries)
            done["sections_rendered"] = await anyio.to_thread.run_sync(render_sections_ahead, ctx, newest)
        done["rule_pages_rendered"] = await anyio.to_thread.run_sync(render_rules_ahead, ctx, newest)
    done["gc_frozen"] = await anyio.to_thread.run_sync(settle_memory)
    done["seconds"] = round(time.perf_counter() - started, 2)
    return done


async def listen_together(folder: str, processes: int, wait: float = TOGETHER_WAIT) -> float:
    """Say this process is warm (a file named after its pid in ``folder``, which the supervisor
    reads: :func:`kb.cli.serve_commands._supervise`) and wait until the supervisor has made this
    process's socket (``RULEKB_SERVE_FD``) listen -- it makes every process's listen in one moment,
    once all ``processes`` are warm -- or ``wait`` seconds (a sibling that cannot start does not
    keep the others closed); returns the seconds waited. A process started again later (one
    died) is made to listen as soon as it is warm. Without a socket of the supervisor's, there
    is nothing to wait for."""
    import asyncio
    import socket

    started = time.monotonic()
    path = os.path.join(folder, str(os.getpid()))
    with open(path, "w"):
        pass
    fd = os.environ.get("RULEKB_SERVE_FD")
    while fd and time.monotonic() - started < wait:
        try:
            sock = socket.socket(fileno=os.dup(int(fd)))
        except (OSError, ValueError):  # not a socket of ours: listen now
            break
        try:
            if sock.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN):
                break
        finally:
            sock.close()
        await asyncio.sleep(0.005)
    return round(time.monotonic() - started, 2)


def settle_memory() -> int:
    """What start-up made (modules, templates, the store's and page data's handles, the
    warm-up's caches) moved out of the garbage collector's sight (``gc.freeze``): it lives as
    long as the process, and a full collection would otherwise walk all of it again each time
    -- a pause of tens to hundreds of milliseconds under load, the tail of a page's latency.
    Returns how many objects were frozen."""
    import gc

    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()

"""The pages' long requests, under a deadline that really stops them.

Most pages answer in milliseconds from named queries, but a few can run long:
a substring search over every edition (``/api/search?q=e&edition=all`` read
every rule of 70 editions for 50 s), the VoID statistics (a count of every
quad). Over an embedded store these run in the SPARQL endpoint's worker
processes (:mod:`kb.web.query_pool`), killed at the deadline like a runaway
query: a 503 and the core is free again. Over a remote store the remote server
does the work and the store's own timeout bounds the wait.

- :func:`select`: a named query's rows (``kb.service.run``), killable.
- :class:`Background`: a value computed once per build in a worker with a longer
  deadline (the VoID statistics); requests meanwhile get a 503 with ``Retry-After``
  after waiting at most the request timeout, instead of holding a thread.
"""

from __future__ import annotations

import threading

from ..store import queries
from .. import service
from ..errors import KBError
from ..store.kind import bind_values
from . import catalog
from .context import WebContext
from .query_pool import Request as PoolRequest
from .sparql_check import ProtocolError


class Unavailable(KBError):
    """A request past its deadline, or a value still being computed."""

    status = 503

    def __init__(self, message: str, retry_after: int | None = None):
        super().__init__(message)
        self.retry_after = retry_after


def run_call(ctx: WebContext, name: str, *args, timeout: float | None = None):
    """``query_pool.CALLS[name](store, *args)`` in a killable worker (embedded store only)."""
    from .sparql import run_killable

    job = PoolRequest("", (), (), None, None, call=(name, args), timeout=timeout)
    try:
        return run_killable(ctx.store, ctx.base, ctx.limits, job)
    except ProtocolError as exc:
        if exc.status == 503:
            raise Unavailable(exc.message) from None
        raise KBError(exc.message) from None


def select(ctx: WebContext, name: str, **params) -> list[dict[str, str]]:
    """``kb.service.run(store, name, **params)``, stopped at the endpoint's deadline."""
    if ctx.store.local_root is None:  # a remote store: its own server does the work
        return service.run(ctx.store, name, **params)
    query = queries.get(name)
    text = bind_values(query.text, query.bindings(params))  # terms serialised here: plain text crosses
    return run_call(ctx, "select", text, None)


class Background:
    """A value of the store computed once per build by ``compute`` (a thread that waits
    for a killable worker, see :func:`run_call`); :meth:`get` waits ``wait`` seconds at
    most, then says 503 with Retry-After while the computation goes on."""

    def __init__(self, name: str, compute):
        self.name, self.compute = name, compute
        self._lock = threading.Lock()
        self._running: dict[str | None, threading.Thread] = {}
        self._done: dict[str | None, tuple[bool, object]] = {}  # build -> (ok, value or error)

    def get(self, store, wait: float):
        build = catalog.build_of(store)
        with self._lock:
            if build in self._done and self._done[build][0]:
                return self._done[build][1]
            thread = self._running.get(build)
            if thread is None or (not thread.is_alive() and build not in self._done):
                thread = self._running[build] = threading.Thread(target=self._run, args=(build,), daemon=True)
                thread.start()
        thread.join(wait)
        with self._lock:
            ok, value = self._done.get(build, (None, None))
            if ok is False:  # failed: the next request tries again
                del self._done[build]
                self._running.pop(build, None)
        if ok is None:
            raise Unavailable(f"the {self.name} is being computed (once per build of the KB): retry in a minute",
                              retry_after=30)
        if not ok:
            raise value
        return value

    def _run(self, build) -> None:
        try:
            outcome = (True, self.compute())
        except Exception as exc:  # noqa: BLE001 - kept for the waiting requests
            outcome = (False, exc if isinstance(exc, KBError) else Unavailable(f"{self.name}: {exc}"))
        with self._lock:
            self._done[build] = outcome

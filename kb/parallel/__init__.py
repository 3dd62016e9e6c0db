"""Independent parts of long work (a build's per-edition quads, statements) run in forked worker processes.

A build holds everything it computed in memory (parsed editions, concepts, matchers,
reasoning results); pickling that to workers would cost more than the work. Forked
workers inherit it instead: :func:`fork_map` sets the task as a module global before
the pool forks, so each worker sees the parent's memory (copy on write) and only an
index travels to it, and only the (small, or already serialised) result comes back.

:class:`Background` runs one task in a thread beside the main thread's work instead (the
build's reasoner, whose work is in its own processes and JVMs).

Results come back in the order of the items (``imap``), so whatever is computed from
them is the same as in one process. One worker, no ``fork`` (not POSIX), or one item:
the task runs here, in order, with no pool.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator
from typing import Any

_TASK: Callable[[int], Any] | None = None


def _run(index: int):
    return _TASK(index)  # type: ignore[misc]


def workers(default: int | None = None) -> int:
    """Processes for the independent parts of a build: ``RULEKB_BUILD_WORKERS``, else one per CPU."""
    try:
        return max(1, int(os.environ.get("RULEKB_BUILD_WORKERS") or default or os.cpu_count() or 1))
    except ValueError:
        return os.cpu_count() or 1


def can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


def fork_map(task: Callable[[int], Any], count: int, processes: int | None = None) -> Iterator[Any]:
    """``task(0) .. task(count - 1)``, in that order, computed by ``processes`` forked workers."""
    global _TASK
    processes = min(processes or workers(), count)
    if processes <= 1 or not can_fork():
        for index in range(count):
            yield task(index)
        return
    previous, _TASK = _TASK, task
    pool = multiprocessing.get_context("fork").Pool(processes)
    try:
        _TASK = previous  # the workers have their copy; this process's global is restored
        yield from pool.imap(_run, range(count), chunksize=1)
    finally:
        pool.terminate()
        pool.join()


def fork_call(task: Callable[[], Any]) -> "Forked":
    """``task()`` started now in one forked process; :meth:`Forked.result` waits for its value."""
    return Forked(task)


class Forked:
    def __init__(self, task: Callable[[], Any]):
        self._value = None
        self._pool = None
        if not can_fork():
            self._value = (True, task())
            return
        global _TASK
        previous, _TASK = _TASK, (lambda _index: task())
        try:
            self._pool = multiprocessing.get_context("fork").Pool(1)
            self._async = self._pool.apply_async(_run, (0,))
        finally:
            _TASK = previous

    def result(self):
        if self._pool is None:
            return self._value[1]
        try:
            return self._async.get()
        finally:
            self._pool.terminate()
            self._pool.join()
            self._pool = None

    def cancel(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None


class Background:
    """``task(cancelled)`` in a thread of this process, started now, beside the main thread's
    work; :meth:`result` waits for its value (or raises what it raised), :meth:`cancel` sets the
    event the task checks and waits for it. For a task whose own work is in other processes (the
    build's reasoner and its JVMs): the thread mostly waits for them, so it costs the main thread
    little."""

    def __init__(self, task: Callable, name: str = "rulekb-background"):
        import threading

        self.cancelled = threading.Event()
        self._value: tuple | None = None
        self._thread = threading.Thread(target=self._run, args=(task,), name=name, daemon=True)
        self._thread.start()

    def _run(self, task: Callable) -> None:
        try:
            self._value = (True, task(self.cancelled))
        except BaseException as error:  # noqa: BLE001 -- raised again by result()
            self._value = (False, error)

    def done(self) -> bool:
        return not self._thread.is_alive()

    def result(self):
        self._thread.join()
        ok, value = self._value  # type: ignore[misc]
        if not ok:
            raise value
        return value

    def cancel(self) -> None:
        if self._thread.is_alive():
            self.cancelled.set()
        self._thread.join()

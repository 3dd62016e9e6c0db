"""Progress of long work, as stages with counts: the build says "reason 37/123", front-ends show it.

A :class:`Stages` is what long work writes to::

    stages = Stages(reporter, callback)
    with stages.stage("parse", total=len(files)) as stage:
        for file in files:
            ...
            stage.advance(file.name)

It forwards every step to an old-style ``callback(message)`` (kept: tests and
benches pass one, and one may interrupt a build by raising), and to a
:class:`Reporter`, which front-ends implement: a bar per stage on a terminal,
plain lines elsewhere (:class:`LineReporter`). The reporter sees stage starts,
steps (done, total, note) and ends (with seconds); a :class:`LineReporter`
writes one line per stage when it ends and, while one runs, a line at least
every ``every`` seconds (a heartbeat thread), so a log or a CI run always shows
where a long build is.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TextIO


class Reporter:
    """Receives stage events. This one ignores them."""

    def start(self, name: str, total: int | None) -> None:
        pass

    def step(self, name: str, done: int, total: int | None, note: str) -> None:
        pass

    def finish(self, name: str, done: int, total: int | None, seconds: float) -> None:
        pass

    def close(self) -> None:
        pass


class Stage:
    def __init__(self, stages: "Stages", name: str, total: int | None):
        self.stages, self.name, self.total, self.done = stages, name, total, 0
        self.started = time.perf_counter()
        self.cpu_started = cpu_seconds()

    def advance(self, note: str = "", step: int = 1) -> None:
        self.done += step
        self.stages.reporter.step(self.name, self.done, self.total, note)
        if self.stages.callback is not None:
            self.stages.callback(note or self.name)

    def set_total(self, total: int | None) -> None:
        self.total = total
        self.stages.reporter.step(self.name, self.done, self.total, "")

    def __enter__(self) -> "Stage":
        return self

    def __exit__(self, kind, value, traceback) -> None:
        if kind is None:
            if self.total is not None:
                self.done = max(self.done, self.total)
            seconds = time.perf_counter() - self.started
            self.stages.seconds[self.name] = round(self.stages.seconds.get(self.name, 0.0) + seconds, 2)
            cpu = cpu_seconds() - self.cpu_started
            self.stages.cpu[self.name] = round(self.stages.cpu.get(self.name, 0.0) + cpu, 2)
            self.stages.reporter.finish(self.name, self.done, self.total, seconds)


class Stages:
    """The stages of one piece of work, reported to ``reporter`` and to ``callback``."""

    def __init__(self, reporter: Reporter | None = None, callback: Callable[[str], None] | None = None):
        self.reporter = reporter or Reporter()
        self.callback = callback
        self.seconds: dict[str, float] = {}  # each finished stage's wall-clock seconds, in order
        self.cpu: dict[str, float] = {}  # and its CPU seconds (this process's and its finished workers')

    def stage(self, name: str, total: int | None = None) -> Stage:
        self.reporter.start(name, total)
        return Stage(self, name, total)

    def callback_for(self, stage: Stage) -> Callable[[str], None]:
        """An old-style ``progress(message)`` for code below: each message is a step."""
        return lambda message: stage.advance(str(message))


def cpu_seconds() -> float:
    """CPU seconds of this process and of the child processes it has waited for (a stage's
    workers, once its pool is shut down): what a loaded machine does not inflate."""
    import resource

    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def line(name: str, done: int, total: int | None, note: str, seconds: float, finished: bool = False) -> str:
    """``reason 37/123 en/2010-06-18 … 61.0 s`` (``parse 128/128 done in 4.2 s`` at the end)."""
    count = f"{done}/{total}" if total is not None else str(done)
    note = note.removeprefix(name + " ")  # "parse parse X.txt" -> "parse X.txt"
    if finished:
        return f"{name} {count} done in {seconds:.1f} s"
    return f"{name} {count}" + (f" {note}" if note else "") + f" … {seconds:.1f} s"


class LineReporter(Reporter):
    """Plain lines on a stream (stderr when it is not a terminal): one per stage at its
    end, and one at least every ``every`` seconds for each stage still running (stages
    may overlap: the build reasons while it aligns, and each shows where it is)."""

    def __init__(self, stream: TextIO, prefix: str = "", every: float = 10.0):
        self.stream, self.prefix, self.every = stream, prefix, every
        self.lock = threading.Lock()
        self.running: dict[str, list] = {}  # name -> [done, total, note, started, last line]
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._heartbeat, name="progress-lines", daemon=True)
        self.thread.start()

    def _write(self, text: str) -> None:
        self.stream.write(self.prefix + text + "\n")
        self.stream.flush()

    def _line_for(self, name: str, now: float) -> None:
        done, total, note, started, _ = self.running[name]
        self._write(line(name, done, total, note, now - started))
        self.running[name][4] = now

    def start(self, name: str, total: int | None) -> None:
        with self.lock:
            now = time.perf_counter()
            self.running[name] = [0, total, "", now, now]

    def step(self, name: str, done: int, total: int | None, note: str) -> None:
        with self.lock:
            now = time.perf_counter()
            current = self.running.setdefault(name, [done, total, note, now, now])
            current[0:3] = [done, total, note or current[2]]
            if now - current[4] >= self.every:
                self._line_for(name, now)

    def finish(self, name: str, done: int, total: int | None, seconds: float) -> None:
        with self.lock:
            self._write(line(name, done, total, "", seconds, finished=True))
            self.running.pop(name, None)

    def _heartbeat(self) -> None:
        while not self.stopped.wait(min(1.0, self.every / 4)):
            with self.lock:
                now = time.perf_counter()
                for name in [n for n, current in self.running.items() if now - current[4] >= self.every]:
                    self._line_for(name, now)

    def close(self) -> None:
        self.stopped.set()
        self.thread.join(timeout=2)

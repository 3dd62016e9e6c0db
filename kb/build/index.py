"""The index stage: the search index written by a forked process while the build goes on."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

from .report import BuildReport


class IndexEarly:
    """The search index, written by a forked process (kb.parallel.fork_call) from the end of
    the align stage on, into a staging directory under the store's root (kb.search.home).
    The stages between align and load leave one core idle (the main thread and the
    reasoner's thread share one interpreter), and so do the end of the bulk load and the
    compaction: that is where the index's 5 s of CPU go (at a lower priority), instead of
    into the load, when both cores are busy. :meth:`beside` is the store's ``beside``
    step: it waits for the index and renames it to the new build's companion."""

    def __init__(self, root, write_index, report: BuildReport):
        from ..parallel import fork_call
        from ..search.home import staging

        self._made_root = None if Path(root).exists() else Path(root)  # a failed first build leaves no empty store
        self._staging = staging(root)
        self._report = report
        target = self._staging / "index"
        self._target = target
        self._job = fork_call(lambda: niced(write_index, target))

    def beside(self, partner):
        def wait() -> None:
            self._report.search.update(self._job.result())
            os.replace(self._target, partner)
            self._staging.rmdir()

        return wait

    def cancel(self) -> None:
        self._job.cancel()
        shutil.rmtree(self._staging, ignore_errors=True)
        if self._made_root is not None:
            try:
                self._made_root.rmdir()  # (only if nothing else is in it)
            except OSError:
                pass


def niced(task: Callable, *args):
    """``task(*args)`` at a lower priority (this process and the threads it starts): the
    index has until the store is compacted, so it should take the cycles the build's critical
    path leaves (measured once at the same priority: its two writer threads made the stages
    before the load end 1.6 s later, about what it saved the load)."""
    os.nice(10)
    return task(*args)

"""How a build's process manages its memory: on jemalloc where the machine has it (Debian:
``libjemalloc2``), and with fewer passes of Python's cycle collector (:func:`fewer_collections`).

Oxigraph's bulk loader sorts millions of small keys from two threads, and with glibc's
malloc a third of its CPU went on freeing them (``_int_free``, ``unlink_chunk``; measured with
perf on the corpus's 3.8 million quads). With jemalloc the same load took 31 s of CPU instead
of 38, and the warm build 74 s instead of 84. The allocator is chosen when a process starts,
so :func:`prefer_jemalloc` re-executes the process with ``LD_PRELOAD`` once, before any work;
its children (the reasoner's JVMs) get the environment the user gave, and a user's own
LD_PRELOAD is left alone. Nothing else changes: the same store, every query answering alike.
``RULEKB_MALLOC=system`` keeps glibc's.

A build makes tens of millions of Python objects that live until its end (the editions, their
statements, the page rows), and at CPython's default thresholds (700, 10, 10) the cycle
collector walks them again and again as they accumulate: reading back the parsed corpus took
1.5 s with it and 0.3 s without. A warm build with the thresholds raised took 50.2-52.9 s
against 55.9-59.4 s (in turns, the same store), with the same peak memory (2.9-3.1 GB): almost
nothing a build makes is cyclic garbage, so the rarer collections leave little behind.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

_MARK = "RULEKB_ON_JEMALLOC"  # set across the re-execution


def prefer_jemalloc() -> None:
    """Re-execute this process (the same command line) on jemalloc when it is installed and
    nothing is preloaded yet (a user's own LD_PRELOAD is theirs), unless declined; else return."""
    if os.environ.pop(_MARK, None):  # the re-executed process: its children get the user's environment back
        os.environ.pop("LD_PRELOAD", None)
        return
    if (os.environ.get("RULEKB_MALLOC", "jemalloc") != "jemalloc" or os.environ.get("LD_PRELOAD")
            or not sys.platform.startswith("linux") or not getattr(sys, "orig_argv", None)):
        return
    library = _jemalloc()
    if library is None:
        return
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execve(sys.executable, sys.orig_argv, dict(os.environ, LD_PRELOAD=library, **{_MARK: "1"}))
    except OSError:  # cannot re-execute (an odd interpreter): run on as we are
        return


def _jemalloc() -> str | None:
    """The shared library's name (``libjemalloc.so.2``), from the dynamic linker's cache:
    LD_PRELOAD finds a bare name on the linker's own path."""
    from ctypes.util import find_library

    return find_library("jemalloc")


BUILD_THRESHOLDS = (100_000, 50, 50)  # gc.set_threshold during a build (CPython's own: 700, 10, 10)


@contextmanager
def fewer_collections() -> Iterator[None]:
    """The cycle collector at :data:`BUILD_THRESHOLDS` inside the block (and in the processes
    forked there, which inherit them), its thresholds as they were after it."""
    before = gc.get_threshold()
    gc.set_threshold(*BUILD_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)


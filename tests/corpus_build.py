"""The corpus KB of the ``corpus_kb`` fixture: built once per test run, in the background.

A full build of the corpus takes minutes, and every pytest process (each xdist worker)
would build its own. Instead one build is started, in a subprocess (``python -m
tests.corpus_build CORPUS DIR``), into a directory all the run's processes share (the parent
of each worker's temporary directory): by the process that starts the workers when the whole
suite runs (before they start and collect), else by the first process that collects a test
needing it. The tests that do not need it run meanwhile (conftest orders them first);
``corpus_kb`` waits for the build to finish and opens the store read-only, with the
build's report read back from a pickle the build wrote. A failed build fails every test
that needs it, with the end of the build's log.
"""

from __future__ import annotations

import fcntl
import os
import pickle
import subprocess
import sys
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
WAIT = 3600  # seconds a test waits for the build at most (a loaded machine: 30 minutes seen)


def folder(shared_tmp: Path) -> Path:
    return shared_tmp / "corpus-kb"


def start(corpus: Path, shared_tmp: Path) -> subprocess.Popen | None:
    """Start the build unless a process of this run already has: the build's process, or None."""
    where = folder(shared_tmp)
    where.mkdir(parents=True, exist_ok=True)
    with open(where / "start.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (where / "started").exists():
            return None
        log = open(where / "build.log", "wb")
        child = subprocess.Popen([sys.executable, "-m", "tests.corpus_build", str(corpus), str(where)],
                                 cwd=PROJECT, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        log.close()
        (where / "started").write_text(str(child.pid))
        return child


def wait(corpus: Path, shared_tmp: Path):
    """(store, report) once the build is done; starts it if nobody has (a test run alone)."""
    from rulekb.kb.build import BuildReport  # noqa: F401  (the pickle's class)
    from rulekb.kb.store.embedded import EmbeddedStore

    where = folder(shared_tmp)
    child = start(corpus, shared_tmp)
    deadline = time.monotonic() + WAIT
    while True:
        if (where / "report.pickle").exists():
            with open(where / "report.pickle", "rb") as handle:
                report = pickle.load(handle)
            return EmbeddedStore(where / "store"), report
        if (where / "failed").exists() or (child is not None and child.poll() not in (None, 0)) \
                or not _alive(where / "started"):
            log = (where / "build.log").read_text(encoding="utf-8", errors="replace")
            raise RuntimeError(f"the corpus build failed:\n{log[-3000:]}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"the corpus build did not finish in {WAIT} s (see {where / 'build.log'})")
        time.sleep(0.5)


def _alive(started: Path) -> bool:
    """Whether the build's process (its pid in ``started``) is still there, or just finished."""
    try:
        os.kill(int(started.read_text()), 0)
    except ProcessLookupError:
        return (started.parent / "report.pickle").exists()
    except (OSError, ValueError):
        pass
    return True


def _main(corpus: str, where: str) -> int:
    from rulekb.kb.build import build
    from rulekb.kb.progress import LineReporter
    from rulekb.kb.store.embedded import EmbeddedStore

    out = Path(where)
    # the corpus KB's search stays lexical, the same on every machine whatever the embedding
    # cache holds: tests/search/test_dense.py exercises the dense arm on a copy of its index
    os.environ.setdefault("RULEKB_DENSE", "off")
    lines = LineReporter(sys.stderr)  # build.log: a line per stage, one at least every 10 s
    _keep_page_rows(out)
    try:
        cards = sorted((Path(corpus) / "cards").glob("*.json*"))  # the corpus's card file (kb.cards)
        report = build([str(Path(corpus) / "en"), str(Path(corpus) / "fr")], EmbeddedStore(out / "store"),
                       reporter=lines, cards=str(cards[-1]) if cards else "none")
    except BaseException:
        import traceback

        traceback.print_exc()  # into build.log, before the waiting tests read it
        sys.stderr.flush()
        (out / "failed").write_text("see build.log")
        return 1
    finally:
        lines.close()
    with open(out / "report.pickle.tmp", "wb") as handle:
        pickle.dump(report, handle)
    os.replace(out / "report.pickle.tmp", out / "report.pickle")
    return 0


PAGE_ROWS = "page-rows.pickle"  # the rows the build handed its page data writer (from its memory)


def _keep_page_rows(out: Path) -> None:
    """Keep, beside the report, the rows of the whole-store queries the build hands the page
    data writer from its memory (``known``: kb.build.page_rows) instead of asking the store:
    tests/web/test_page_data.py compares them with the queries' rows on the real corpus. The
    build computes them whether it writes its page data or copies an earlier build's."""
    import rulekb.kb.pages as pages

    real = pages.write

    def write(store, *args, known=None, **options):
        if known is not None:
            with open(out / (PAGE_ROWS + ".tmp"), "wb") as handle:
                pickle.dump(known, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(out / (PAGE_ROWS + ".tmp"), out / PAGE_ROWS)
        return real(store, *args, known=known, **options)

    pages.write = write  # (kb.build imports it from the package when its pages stage starts)


def page_rows(shared_tmp: Path) -> dict[str, list[dict]]:
    """The rows the corpus build handed its page data writer (once ``wait`` returned)."""
    with open(folder(shared_tmp) / PAGE_ROWS, "rb") as handle:
        return pickle.load(handle)


# whole-store queries (no parameters) that more than one test asks of the corpus KB: the rows
# are asked once per run, by the first test that wants them, and read back by the others
# (page-flags: 6-9 s of CPU over the whole KB, tests/store/test_kb_queries.py and tests/web/test_page_data.py;
# translation-links of every French text: 2-3 s, tests/translate/test_exchange_corpus.py, whose module fixture a
# worker that takes some of its tests asks again, and tests/translate/test_report_lineages_corpus.py;
# page-structure and page-lineages: 11 and 7 s of CPU, the same two tests as page-flags)
SHARED_ROWS = ("page-flags", "translation-links", "page-structure", "page-lineages")


def rows(shared_tmp: Path, store, name: str) -> list[dict[str, str]]:
    """The rows of the named query ``name`` (one of SHARED_ROWS) over the corpus KB, as
    ``kb.store.queries.run`` gives them: asked once per run (the KB does not change once built),
    kept pickled beside the build for every process of the run. A process that wants them while
    another asks waits for its rows."""
    assert name in SHARED_ROWS, name
    where = folder(shared_tmp) / "rows"
    where.mkdir(parents=True, exist_ok=True)
    kept = where / f"{name}.pickle"
    with open(where / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if kept.exists():
            with open(kept, "rb") as handle:
                return pickle.load(handle)
        from rulekb.kb.store import queries

        found = queries.run(store, name)
        with open(where / f"{name}.pickle.tmp", "wb") as handle:
            pickle.dump(found, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(where / f"{name}.pickle.tmp", kept)
        return found


if __name__ == "__main__":
    from rulekb.kb.allocator import prefer_jemalloc

    prefer_jemalloc()  # as `rulekb build` does
    sys.exit(_main(*sys.argv[1:]))

"""``rulekb bench translation-files --every-french``: every French text's first XLIFF export,
as a translator runs it.

Why a whole process per export: a translator's first ``rulekb translation-report FR --base auto
--report xliff`` starts Python, opens the KB and detects the base with nothing cached, and the
target is on that command (2 s for every French text of the KB, the first one included). So
each French text of the KB is exported by ``python -m rulekb.kb.cli`` in a fresh process with a
new, empty ``RULEKB_CACHE`` (no choice kept, nothing else either), then once more in the same
cache (the choice read back: the baseline, measured in the same run, text by text). Figures:
wall clock and CPU (the child's user + system time, what a loaded machine does not stretch), per
text the median over ``repeat`` runs, then the slowest and the median over the texts, and the
ratio of the first export to the second.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def _run(arguments: list[str], cache: str) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, exit code) of one CLI process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "rulekb.kb.cli", *arguments], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL, env={**os.environ, "RULEKB_CACHE": cache}, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.returncode


def french_texts(store) -> list[str]:
    """Every French edition of the KB, by id."""
    from ..store.queries import run

    return sorted({row["edition"] for row in run(store, "edition-graphs") if row["language"] == "fr"})


def bench_first_exports(store, location: str | None, base: str = "auto", repeat: int = 1,
                        progress=None) -> dict:
    """Every French text's first ``--report xliff`` export (empty cache) and its second (choice
    kept), each in its own process; ``location``: the ``--store`` the processes are given (None:
    theirs, from the environment)."""
    texts = french_texts(store)
    where = ["--store", location] if location else []
    per_text: dict[str, dict] = {}
    failed: list[str] = []
    for index, french in enumerate(texts, 1):
        arguments = ["translation-report", french, "--base", base, "--report", "xliff", *where]
        runs: dict[str, list[tuple[float, float]]] = {"first": [], "again": []}
        for _ in range(repeat):
            cache = tempfile.mkdtemp(prefix="rulekb-bench-cache-")
            try:
                for kind in ("first", "again"):
                    wall, cpu, code = _run(arguments, cache)
                    if code != 0:
                        failed.append(french)
                    runs[kind].append((wall, cpu))
            finally:
                shutil.rmtree(cache, ignore_errors=True)
        per_text[french] = {f"{kind}_{what}": round(statistics.median(v[i] for v in values), 3)
                            for kind, values in runs.items() for i, what in enumerate(("wall", "cpu"))}
        if progress is not None:
            progress(f"{index}/{len(texts)} {french}: first {per_text[french]['first_wall']:.2f} s "
                     f"(CPU {per_text[french]['first_cpu']:.2f} s), again {per_text[french]['again_wall']:.2f} s")
    summary = {}
    for column in ("first_wall", "first_cpu", "again_wall", "again_cpu"):
        values = {french: figures[column] for french, figures in per_text.items()}
        slowest = max(values, key=values.get) if values else None
        summary[column] = {"median": round(statistics.median(values.values()), 3) if values else None,
                           "slowest": values.get(slowest), "slowest_text": slowest}
    over = sorted(french for french, figures in per_text.items() if figures["first_wall"] > 2.0)
    return {"base": base, "repeat": repeat, "texts": len(texts), "per_text": per_text, "summary": summary,
            "first_over_again": {column: round(summary[f"first_{column}"]["median"]
                                               / summary[f"again_{column}"]["median"], 2)
                                 if summary[f"again_{column}"]["median"] else None for column in ("wall", "cpu")},
            "over_2_s_wall": over, "failed": sorted(set(failed))}

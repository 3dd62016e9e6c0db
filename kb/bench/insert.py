"""``rulekb bench insert``: an older edition inserted into a built KB, timed from outside.

An edition older than the KB's newest (a gap of an archive filled) goes in with ``rulekb build
--add FILE`` (:mod:`kb.update`). What it costs is measured as a user meets it, each run a
``rulekb build`` in its own process (``python -m rulekb.kb.cli build``):

- a **set-up** build, not counted: the sources without the edition, into a scratch store with a
  scratch ``RULEKB_CACHE`` (the KB and the caches a user has before the gap is filled: they have
  never seen the inserted text);
- per run, that store and that cache are copied (outside the clock), then timed in turn:
  - **insert**: ``rulekb build --add FILE`` into the copy;
  - **full**: ``rulekb build`` of every source with the edition, into the same store and cache
    (a warm rebuild of the same texts: what a user would otherwise run, and the reference an
    insertion is compared with).

Figures: wall clock and CPU seconds (the process's and every process it waited for: ``wait4``)
of each run, the seconds of each stage as the build prints them, their medians, and the ratio
insert/full of the medians measured in the same run. With a baseline checkout (``--baseline``,
as ``rulekb bench build``) the same runs of its code alternate with this code's (with its own
set-up build), and the insert's medians get a ratio this/baseline. The target (an insertion in
60 s) is said met or missed on the median wall clock when the runs build the whole corpus.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import asdict
from pathlib import Path
from typing import Callable

from ..errors import BuildError
from .build import Code, _median, _ratio, baseline_code, check_importable, run_build, this_code

INSERT_TARGET_S = 60.0
DEFAULT_EDITION = "CR-2025-09-19.txt"  # between two editions of the corpus (2025-07-25, 2025-11-14)


def split_sources(sources: list[str], edition: str | None, links: Path) -> tuple[list[str], str]:
    """(the sources without the edition to insert, the edition to insert): ``edition`` is a file
    (in the sources or not) or a file name among their documents; default :data:`DEFAULT_EDITION`.
    A directory holding it is given as ``links``, a directory of links to its other documents
    (a directory's unreadable documents are reported by the build, where a file named alone fails it)."""
    from rulekb.ingest.parse import document_files

    wanted = edition or DEFAULT_EDITION
    chosen = Path(wanted).resolve() if Path(wanted).is_file() else None
    found = {source: [f.resolve() for f in document_files(Path(source))] if Path(source).is_dir() else [Path(source).resolve()]
             for source in sources}
    if chosen is None:
        chosen = next((f for files in found.values() for f in files if f.name == wanted), None)
    if chosen is None:
        raise BuildError(f"no edition {wanted} to insert: neither a file nor one of the sources' documents")
    rest: list[str] = []
    for source, files in found.items():
        if chosen not in files:
            rest.append(source)
        elif Path(source).is_dir():
            root = Path(source).resolve()
            for f in files:
                if f != chosen:
                    link = links / f.relative_to(root)
                    link.parent.mkdir(parents=True, exist_ok=True)
                    link.symlink_to(f)
            rest.append(str(links))
    if not rest:
        raise BuildError("nothing to insert into: the sources hold only the edition to insert")
    return rest, str(chosen)


def run_timed(code: Code, kind: str, args: list[str], store: Path, cache: Path,
              on_line: Callable[[str], None] | None = None) -> dict:
    """One ``rulekb build ARGS --store STORE`` of ``code`` in a child process (:func:`.build.run_build`):
    wall and CPU seconds, the stages it printed."""
    return asdict(run_build(code, kind, store, cache, args, on_line))


def summarise(runs: list[dict], judge: bool) -> dict:
    medians: dict = {}
    for code in dict.fromkeys(run["code"] for run in runs):
        for kind in ("insert", "full"):
            mine = [run for run in runs if run["code"] == code and run["kind"] == kind]
            if not mine:
                continue
            stages = list(dict.fromkeys(name for run in mine for name in run["stages"]))
            medians.setdefault(code, {})[kind] = {
                "runs": len(mine), "wall_s": _median(r["wall_s"] for r in mine), "cpu_s": _median(r["cpu_s"] for r in mine),
                "wall_min_s": min(r["wall_s"] for r in mine), "wall_max_s": max(r["wall_s"] for r in mine),
                "peak_rss_mb": _median(r["peak_rss_mb"] for r in mine),
                "stages": {name: _median(r["stages"].get(name) for r in mine) for name in stages}}
    ratios: dict = {}
    for code, kinds in medians.items():
        if "insert" in kinds and "full" in kinds:
            ratios[f"{code} insert/full"] = {key: _ratio(kinds["insert"][key], kinds["full"][key])
                                             for key in ("wall_s", "cpu_s")}
    if "baseline" in medians and "insert" in medians.get("this", {}):
        ratios["insert this/baseline"] = {key: _ratio(medians["this"]["insert"][key], medians["baseline"]["insert"][key])
                                          for key in ("wall_s", "cpu_s")}
    wall = medians.get("this", {}).get("insert", {}).get("wall_s")
    targets = {"insert": {"limit_s": INSERT_TARGET_S, "median_s": wall, "met": wall <= INSERT_TARGET_S}} \
        if wall is not None and judge else {}
    return {"medians": medians, "ratios": ratios, "targets": targets}


def load_average() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def bench_insert(sources: list[str], edition: str | None = None, *, runs: int = 3, full: bool = True,
                 baseline: str | None = None, reasoner: str | None = None, workdir: str | None = None,
                 progress: Callable[[str], None] | None = None, relay: bool = True) -> dict:
    """``runs`` insertions of ``edition`` into a KB of the other ``sources`` (and, with ``full``,
    as many warm rebuilds of all of them), for this code and ``baseline`` in turns."""
    say = progress or (lambda message: None)
    if not sources:
        from ..corpus import corpus_dir

        root = corpus_dir()
        if root is None:
            raise BuildError("no corpus found (set RULEKB_CORPUS or name the sources)")
        sources = [str(root / "en"), str(root / "fr")]
    extra = ["--reasoner", reasoner] if reasoner else []
    try:
        scratch = Path(tempfile.mkdtemp(prefix="rulekb-bench-insert-", dir=workdir))
    except OSError as error:
        raise BuildError(f"no scratch directory in {workdir or tempfile.gettempdir()}: {error.strerror or error}") from None
    try:
        rest, inserted = split_sources(sources, edition, scratch / "sources")
        codes = [this_code()] + ([baseline_code(baseline, scratch)] if baseline is not None else [])
        for code in codes:
            check_importable(code, scratch)
        say(" and ".join(f"{code.name}: {code.describe()}" for code in codes) + f"; inserting {inserted} into "
            f"{', '.join(rest)}; scratch {scratch}")
        for code in codes:  # the KB and caches before the gap is filled
            heard = (lambda line, code=code: say(f"set-up {code.name}: {line}")) if relay else None
            done = run_timed(code, "set-up", [*rest, *extra], scratch / f"store-{code.name}", scratch / f"cache-{code.name}",
                             heard)
            say(f"set-up {code.name}: {done['wall_s']:.1f} s wall (not counted)")
        measured: list[dict] = []
        for index in range(runs):
            for code in codes if index % 2 == 0 else codes[::-1]:
                store, cache = scratch / f"run-store-{code.name}", scratch / f"run-cache-{code.name}"
                for source, target in ((scratch / f"store-{code.name}", store), (scratch / f"cache-{code.name}", cache)):
                    shutil.rmtree(target, ignore_errors=True)
                    shutil.copytree(source, target, symlinks=True)
                steps = [("insert", ["--add", inserted, *extra])] + ([("full", [*rest, inserted, *extra])] if full else [])
                for kind, args in steps:
                    label = f"{kind} {index + 1}/{runs} {code.name}"
                    heard = (lambda line, label=label: say(f"{label}: {line}")) if relay else None
                    run = run_timed(code, kind, args, store, cache, heard)
                    run["load_average"] = load_average()
                    measured.append(run)
                    say(f"{label}: {run['wall_s']:.1f} s wall, {run['cpu_s']:.1f} s CPU, load {run['load_average']}")
        figures = summarise(measured, judge=not edition and not reasoner and sources == _corpus_sources())
        figures.update(codes={code.name: code.describe() for code in codes}, runs=measured, inserted=inserted,
                       sources=rest)
        return figures
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _corpus_sources() -> list[str] | None:
    from ..corpus import corpus_dir

    root = corpus_dir()
    return [str(root / "en"), str(root / "fr")] if root is not None else None

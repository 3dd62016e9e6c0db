"""``rulekb bench build``: the whole build as a user meets it, timed from outside.

Each run is a ``rulekb build`` in its own process (``python -m rulekb.kb.cli build``), into a
scratch store with a scratch ``RULEKB_CACHE``:

- a **first build** starts with neither (a new machine: HermiT reasons about every axiom set,
  align and the changes of meaning are computed);
- a **warm rebuild** finds both: the caches the build before filled, the store it wrote (which
  the rebuild replaces, as a user's second ``rulekb build`` does).

Figures: the wall clock of each run (process start to exit, imports included), the seconds of
every stage as the build's own progress lines give them (``rulekb build: load 163/163 done in
16.2 s``), and the peak resident memory of the largest process of the run (``wait4``), then
their medians. With a baseline (another checkout of rulekb, e.g. ``git worktree add /tmp/old
main``) the same runs of its code alternate with this code's, in the same caches' state and
the same hour, and every median gets its ratio this/baseline. The build's targets (a first
build in 120 s, a warm rebuild in 60 s) are said met or missed on the medians when the runs build
the whole corpus with the default reasoner (no sources, no ``--reasoner``).
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..errors import BuildError

FIRST_TARGET_S = 120.0
WARM_TARGET_S = 60.0

_STAGE_DONE = re.compile(r"^rulekb build(?: --add)?: ([\w-]+) \d+/\d+ done in (\d+(?:\.\d+)?) s$")
_BUILT = re.compile(r"^built .* in (\d+(?:\.\d+)?) s\b")


@dataclass
class Code:
    """One side of the comparison: this checkout, or a baseline checkout's source tree."""

    name: str  # "this" or "baseline"
    root: Path  # the checkout (the folder holding kb/, ingest/, queries/, ontology/)
    path_entry: Path | None = None  # a folder whose rulekb/ is ``root`` (None: the installed rulekb)

    def describe(self) -> str:
        revision = _git_revision(self.root)
        return f"{self.root}{f' ({revision})' if revision else ''}"


@dataclass
class Run:
    code: str
    kind: str  # "first" or "warm"
    wall_s: float
    build_s: float | None  # what the build printed ("built ... in X s")
    stages: dict[str, float] = field(default_factory=dict)
    peak_rss_mb: float = 0.0
    cpu_s: float | None = None  # user + system of the child and what it waited for


def stage_seconds(lines) -> dict[str, float]:
    """The seconds of every stage that ended, from the stderr lines of a build or a ``build --add``."""
    found = {}
    for line in lines:
        if match := _STAGE_DONE.match(line.rstrip("\n")):
            found[match.group(1)] = float(match.group(2))
    return found


def built_seconds(lines) -> float | None:
    for line in lines:
        if match := _BUILT.match(line):
            return float(match.group(1))
    return None


def this_code() -> Code:
    """The rulekb this process runs (installed, or on the path)."""
    import rulekb.kb

    return Code("this", Path(rulekb.kb.__path__[0]).resolve().parent)


def baseline_code(checkout: str, scratch: Path) -> Code:
    """Another checkout of rulekb, importable as ``rulekb`` through a link under ``scratch``."""
    root = Path(checkout).expanduser().resolve()
    build_code = root / "kb" / "build"  # a package of stages now, a single module before
    if not ((build_code / "__init__.py").is_file() or build_code.with_suffix(".py").is_file()) \
            or not (root / "ingest").is_dir():
        raise BuildError(f"{checkout} is not a rulekb checkout (no kb/build and ingest/ in it)")
    entry = scratch / "baseline-path"
    entry.mkdir(parents=True, exist_ok=True)
    (entry / "rulekb").symlink_to(root, target_is_directory=True)
    return Code("baseline", root, entry)


def _git_revision(root: Path) -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(root), "describe", "--always", "--dirty"], capture_output=True,
                              text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return (done.stdout.strip() or None) if done.returncode == 0 else None


def _environment(code: Code, cache: Path) -> dict[str, str]:
    env = dict(os.environ, RULEKB_CACHE=str(cache), PYTHONUNBUFFERED="1")
    env.pop("RULEKB_STORE", None)  # --store says where
    # the meaning arm's embeddings are not part of a build's time: a first build hands them to a
    # detached background job, which would otherwise run beside the next runs and slow them down
    # (measured: warm rebuilds 83.6 s with it, 50.7 s without); its own log times it (docs/search.md)
    env.setdefault("RULEKB_DENSE", "off")
    if code.path_entry is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(code.path_entry), *filter(None, [env.get("PYTHONPATH")])])
    return env


def check_importable(code: Code, scratch: Path) -> None:
    """The child imports the code it is meant to (a baseline shadowed by the installed rulekb
    would compare this code with itself)."""
    done = subprocess.run([sys.executable, "-c", "import rulekb.kb; print(rulekb.kb.__path__[0])"],
                          env=_environment(code, scratch / "cache-check"), capture_output=True, text=True, timeout=120)
    found = Path(done.stdout.strip()).resolve() if done.returncode == 0 and done.stdout.strip() else None
    if found != (code.root / "kb").resolve():
        why = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"rulekb.kb is {found}"
        raise BuildError(f"the {code.name} code at {code.root} cannot be run: {why}")


def run_build(code: Code, kind: str, store: Path, cache: Path, build_args: list[str],
              on_line: Callable[[str], None] | None = None) -> Run:
    """One ``rulekb build`` of ``code`` in a child process; its stderr lines go to ``on_line``
    as they come. A build that fails raises BuildError with its last line."""
    argv = [sys.executable, "-m", "rulekb.kb.cli", "build", *build_args, "--store", str(store)]
    started = time.perf_counter()
    child = subprocess.Popen(argv, env=_environment(code, cache), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             stdin=subprocess.DEVNULL, text=True, bufsize=1)
    out: list[str] = []
    drain = threading.Thread(target=lambda: out.extend(child.stdout), daemon=True)
    drain.start()
    err = []
    for line in child.stderr:
        err.append(line)
        if on_line is not None:
            on_line(line.rstrip("\n"))
    drain.join()
    _, status, usage = os.wait4(child.pid, 0)  # the rusage of this child and what it waited for
    child.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - started
    if child.returncode != 0:
        last = next((line.strip() for line in reversed(err) if line.strip()), "no message")
        who = "this code" if code.name == "this" else f"the {code.name}"
        article = "an" if kind[:1] in "aeiou" else "a"
        raise BuildError(f"{article} {kind} build of {who} failed (exit {child.returncode}): {last}")
    return Run(code.name, kind, round(wall, 2), built_seconds(out), stage_seconds(err),
               round(usage.ru_maxrss / 1024, 1), round(usage.ru_utime + usage.ru_stime, 2))


def _median(values) -> float | None:
    values = [v for v in values if v is not None]
    return round(statistics.median(values), 2) if values else None


def summarise(runs: list[Run], judge: bool = True) -> dict:
    """Medians per code and kind (wall, the build's own seconds, peak RSS, every stage), the
    ratios this/baseline, and (``judge``: the runs built the whole corpus) the targets met or missed."""
    summary: dict = {}
    stages = list(dict.fromkeys(name for run in runs for name in run.stages))  # the order the first run ended them
    for code in dict.fromkeys(run.code for run in runs):
        for kind in ("first", "warm"):
            mine = [run for run in runs if run.code == code and run.kind == kind]
            if not mine:
                continue
            summary.setdefault(code, {})[kind] = {
                "runs": len(mine),
                "wall_s": _median(run.wall_s for run in mine),
                "wall_min_s": min(run.wall_s for run in mine),
                "wall_max_s": max(run.wall_s for run in mine),
                "build_s": _median(run.build_s for run in mine),
                "peak_rss_mb": _median(run.peak_rss_mb for run in mine),
                "stages": {name: _median(run.stages.get(name) for run in mine) for name in stages},
            }
    ratios: dict = {}
    if "this" in summary and "baseline" in summary:
        for kind, mine in summary["this"].items():
            theirs = summary["baseline"].get(kind)
            if not theirs:
                continue
            ratios[kind] = {key: _ratio(mine[key], theirs[key]) for key in ("wall_s", "build_s", "peak_rss_mb")}
            ratios[kind]["stages"] = {name: _ratio(seconds, theirs["stages"].get(name))
                                      for name, seconds in mine["stages"].items()}
    targets = {}
    for kind, limit in (("first", FIRST_TARGET_S), ("warm", WARM_TARGET_S)):
        wall = summary.get("this", {}).get(kind, {}).get("wall_s")
        if wall is not None and judge:
            targets[kind] = {"limit_s": limit, "median_s": wall, "met": wall <= limit}
    return {"medians": summary, "ratios": ratios, "targets": targets}


def _ratio(mine, theirs) -> float | None:
    return round(mine / theirs, 3) if mine is not None and theirs else None


def bench_build(sources: list[str], *, reasoner: str | None = None, first: int = 1, warm: int = 3,
                baseline: str | None = None, workdir: str | None = None,
                progress: Callable[[str], None] | None = None, relay: bool = True) -> dict:
    """``first`` first builds and ``warm`` warm rebuilds of this code (and of ``baseline``, in
    turns), in scratch stores and caches under ``workdir`` (default: a temporary directory,
    removed afterwards)."""
    say = progress or (lambda message: None)
    build_args = [*sources, *(["--reasoner", reasoner] if reasoner else [])]
    try:
        scratch = Path(tempfile.mkdtemp(prefix="rulekb-bench-build-", dir=workdir))
    except OSError as error:
        raise BuildError(f"no scratch directory in {workdir or tempfile.gettempdir()}: "
                         f"{error.strerror or error}") from None
    try:
        codes = [this_code()]
        if baseline is not None:
            codes.append(baseline_code(baseline, scratch))
        for code in codes:
            check_importable(code, scratch)
        say(" and ".join(f"{code.name}: {code.describe()}" for code in codes) + f"; scratch {scratch}")
        runs: list[Run] = []

        def one(code: Code, kind: str, label: str) -> None:
            store, cache = scratch / f"store-{code.name}", scratch / f"cache-{code.name}"
            if kind == "first":  # a new machine: no store, no cache
                shutil.rmtree(store, ignore_errors=True)
                shutil.rmtree(cache, ignore_errors=True)
            heard = (lambda line: say(f"{label} {code.name}: {line}")) if relay else None
            run = run_build(code, kind, store, cache, build_args, heard)
            say(f"{label} {code.name}: {run.wall_s:.1f} s wall, peak RSS {run.peak_rss_mb / 1024:.2f} GB")
            if kind != "warm-up":
                runs.append(run)

        for index in range(first):
            for code in codes if index % 2 == 0 else codes[::-1]:
                one(code, "first", f"first build {index + 1}/{first}")
        if warm and not first:  # the warm runs need caches filled by a build before them
            for code in codes:
                one(code, "warm-up", "warm-up build (not counted)")
        for index in range(warm):
            for code in codes if index % 2 == 0 else codes[::-1]:
                one(code, "warm", f"warm rebuild {index + 1}/{warm}")
        figures = summarise(runs, judge=not sources and not reasoner)
        figures["codes"] = {code.name: code.describe() for code in codes}
        figures["runs"] = [run.__dict__ for run in runs]
        figures["build_args"] = build_args
        return figures
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

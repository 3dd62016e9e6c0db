"""``rulekb bench build``, ``rulekb bench footprint`` and ``rulekb bench answers``: what building
a store costs (kb.bench.build), what a store costs, and whether two stores answer every named
query alike (kb.footprint)."""

from __future__ import annotations

import typer

from .app import Format, FormatOption, StoreOption, _store
from .bench import bench_app
from .output import emit_json, errors_as_exit_codes, fail, stdout


@bench_app.command("build")
def bench_build_command(
    sources: list[str] = typer.Argument(None, help="What to build (default: the corpus's en/ and fr/, as `rulekb build`)."),
    first: int = typer.Option(1, "--first", min=0, max=20, help="First builds: empty cache, no store (a new machine)."),
    warm: int = typer.Option(3, "--warm", min=0, max=50, help="Warm rebuilds: the caches and the store the build before left."),
    baseline: str = typer.Option(None, "--baseline", help="Another checkout of rulekb (e.g. `git worktree add /tmp/old main`): "
                                 "the same runs of its code, in turns with this code's, and the ratios this/baseline."),
    reasoner: str = typer.Option(None, "--reasoner", help="Passed to `rulekb build --reasoner` (default: the build's own)."),
    workdir: str = typer.Option(None, "--workdir", help="Where the scratch stores and caches go (default: the temporary "
                                "directory; a store takes about 1.3 GB, twice that while it is replaced); removed afterwards."),
    quiet: bool = typer.Option(False, "--quiet", help="Only a line per run on stderr, not the builds' own stage lines."),
    format: Format = FormatOption,
) -> None:
    """Time `rulekb build` as a user meets it: first builds (empty cache) and warm rebuilds, each in its own
    process; medians of the wall clock, of every stage and of the peak memory, against a baseline
    checkout in turns (ratios); the targets (first build 120 s, warm rebuild 60 s) met or missed
    when it builds the whole corpus."""
    from ..bench.build import bench_build
    from .output import stderr

    if first == 0 and warm == 0:
        fail("nothing to time: --first and --warm are both 0")
    with errors_as_exit_codes():
        figures = bench_build(sources or [], reasoner=reasoner, first=first, warm=warm, baseline=baseline, workdir=workdir, relay=not quiet,
                              progress=lambda m: stderr.print(f"bench build: {m}", highlight=False, markup=False))
    if format is Format.json:
        emit_json(figures)
        return
    _print_build_figures(figures)


def _print_build_figures(figures: dict) -> None:
    medians, ratios = figures["medians"], figures["ratios"]
    for name, where in figures["codes"].items():
        stdout.print(f"{name}: {where}", highlight=False)
    for kind, title in (("first", "first build (no cache, no store)"), ("warm", "warm rebuild (caches full)")):
        rows = [(name, sides[kind]) for name, sides in medians.items() if kind in sides]
        if not rows:
            continue
        stdout.print(f"{title}, medians of {rows[0][1]['runs']} run(s):", highlight=False)
        for name, row in rows:
            ratio = ratios.get(kind, {}).get("wall_s") if name == "this" else None
            stdout.print(f"  {name:9} wall {row['wall_s']:7.1f} s (min {row['wall_min_s']:.1f}, max {row['wall_max_s']:.1f})"
                         f"  build {row['build_s'] or 0:7.1f} s  peak RSS {row['peak_rss_mb'] / 1024:5.2f} GB"
                         + (f"  this/baseline {ratio:.2f}x" if ratio else ""), highlight=False)
        stages = list(dict.fromkeys(stage for _, row in rows for stage in row["stages"]))
        width = {stage: max(len(stage), 6) for stage in stages}
        stdout.print("  stages, s   " + " ".join(f"{stage:>{width[stage]}}" for stage in stages), highlight=False)
        for name, row in rows:
            stdout.print(f"  {name:10}  " + " ".join(_cell(row["stages"].get(stage), width[stage], "{:.1f}")
                                                   for stage in stages), highlight=False)
        if kind in ratios:
            stdout.print("  this/base.  " + " ".join(_cell(ratios[kind]["stages"].get(stage), width[stage], "{:.2f}x")
                                                     for stage in stages), highlight=False)
    for kind, target in figures["targets"].items():
        verdict = "met" if target["met"] else "missed"
        what = {"first": "first build", "warm": "warm rebuild"}[kind]
        stdout.print(f"target: {what} <= {target['limit_s']:.0f} s: {verdict} (median {target['median_s']:.1f} s)",
                     highlight=False)


def _cell(value, width: int, form: str) -> str:
    return f"{form.format(value) if value is not None else '-':>{width}}"


@bench_app.command("footprint")
def bench_footprint(
    store: str = StoreOption,
    top: int = typer.Option(25, "--top", min=1, help="How many predicates to list, biggest first."),
    format: Format = FormatOption,
) -> None:
    """Quads per kind of graph and per predicate, bytes on disk, bytes per quad, quads per edition."""
    from ..service import footprint as measure

    with errors_as_exit_codes():
        figures = measure(_store(store), top=top)
    if format is Format.json:
        emit_json(figures)
        return
    stdout.print(f"{figures['quads']:,} quads, {figures['bytes'] / 1e9:.2f} GB, "
                 f"{figures['bytes_per_quad'] or 0:.0f} bytes a quad; {figures['editions']} editions, "
                 f"{figures['quads_per_edition'] or 0:,.0f} quads an edition graph ({figures['seconds']} s)", highlight=False)
    for kind, row in figures["graphs"].items():
        stdout.print(f"  graph {kind:<16} {row['graphs']:>4} graphs {row['quads']:>12,} quads", highlight=False)
    for predicate, count in figures["predicates"].items():
        stdout.print(f"  {count:>12,}  {predicate}", highlight=False)


@bench_app.command("answers")
def bench_answers(
    old: str = typer.Argument(..., help="The store before (directory or endpoint)."),
    new: str = typer.Argument(..., help="The store after."),
    old_queries: str = typer.Option(None, "--old-queries", help="Ask the old store with the named queries of this queries/ directory (the checkout that built it, e.g. `git archive main queries | tar -x -C /tmp/old`); default: the same queries on both."),
    query: list[str] = typer.Option(None, "--query", help="Only this named query or check (repeatable)."),
    repeat: int = typer.Option(1, "--repeat", min=1, max=100, help="Also time each query: the median CPU seconds of N runs on each side, taken in turns, and the ratio new/old."),
    format: Format = FormatOption,
) -> None:
    """Run every named query and QC check with its example parameters on two stores; exit 1 if any answer differs."""
    from ..service import queries_in, same_answers as compare_answers

    with errors_as_exit_codes():
        found = compare_answers(_store(old), _store(new), names=query or None, repeat=repeat,
                                old_queries=queries_in(old_queries) if old_queries else None)
    if format is Format.json:
        emit_json(found)
    else:
        stdout.print(f"{found['queries']} queries: {len(found['same'])} answer alike, "
                     f"{len(found['differences'])} differ (seconds: {found['seconds']})", highlight=False)
        for d in found["differences"]:
            stdout.print(f"  {d['query']}: {d['old_rows']} rows before, {d['new_rows']} after", highlight=False)
        timings = found.get("timings") or {}
        if timings:
            stdout.print(f"median CPU ms of {repeat} runs each, in turns (old, new, new/old), slowest ratio first:", highlight=False)
        for name, t in sorted(timings.items(), key=lambda item: -(item[1]["ratio"] or 0)):
            ratio = f"{t['ratio']:.2f}x" if t["ratio"] is not None else "-"
            stdout.print(f"  {name:36} {t['old'] * 1e3:10.2f} {t['new'] * 1e3:10.2f}  {ratio}", highlight=False)
    if found["differences"]:
        raise typer.Exit(1)


@bench_app.command("insert")
def bench_insert_command(
    sources: list[str] = typer.Argument(None, help="The KB's sources (default: the corpus's en/ and fr/, as `rulekb build`)."),
    edition: str = typer.Option(None, "--edition", help="The file to insert: a path, or the name of one of the sources' "
                                "documents (default: CR-2025-09-19.txt, between two editions of the corpus)."),
    runs: int = typer.Option(3, "--runs", min=1, max=20, help="Insertions timed (each into a fresh copy of the set-up KB and caches)."),
    full: bool = typer.Option(True, "--full/--no-full", help="Also time a warm rebuild of every source with the edition after each "
                              "insertion (the reference: ratio insert/full)."),
    baseline: str = typer.Option(None, "--baseline", help="Another checkout of rulekb: the same runs of its code, in turns "
                                 "(ratio this/baseline of the insertion)."),
    reasoner: str = typer.Option(None, "--reasoner", help="Passed to every `rulekb build` (default: the build's own)."),
    workdir: str = typer.Option(None, "--workdir", help="Where the scratch stores and caches go (default: the temporary "
                                "directory; about 3 GB a code); removed afterwards."),
    quiet: bool = typer.Option(False, "--quiet", help="Only a line per run on stderr, not the builds' own stage lines."),
    format: Format = FormatOption,
) -> None:
    """Time `rulekb build --add` of an edition older than the KB's newest (a gap filled): a set-up build
    without it (not counted), then per run an insertion into a copy of that KB and its caches and a warm
    rebuild of the same texts; medians of wall and CPU seconds and of every stage, ratio insert/full,
    and the target (60 s) met or missed on the whole corpus."""
    from ..bench.insert import bench_insert
    from .output import stderr

    with errors_as_exit_codes():
        figures = bench_insert(sources or [], edition, runs=runs, full=full, baseline=baseline, reasoner=reasoner,
                               workdir=workdir, relay=not quiet,
                               progress=lambda m: stderr.print(f"bench insert: {m}", highlight=False, markup=False))
    if format is Format.json:
        emit_json(figures)
        return
    stdout.print(f"inserted {figures['inserted']} into a KB of {', '.join(figures['sources'])}", highlight=False)
    for name, where in figures["codes"].items():
        stdout.print(f"{name}: {where}", highlight=False)
    for name, kinds in figures["medians"].items():
        for kind, row in kinds.items():
            stdout.print(f"  {name:9} {kind:6} medians of {row['runs']}: wall {row['wall_s']:7.1f} s (min {row['wall_min_s']:.1f}, "
                         f"max {row['wall_max_s']:.1f})  CPU {row['cpu_s']:7.1f} s  peak RSS {row['peak_rss_mb'] / 1024:5.2f} GB",
                         highlight=False)
            stdout.print("            stages: " + ", ".join(f"{stage} {seconds:.1f} s" for stage, seconds in row["stages"].items()
                                                         if seconds is not None), highlight=False)
    for what, ratio in figures["ratios"].items():
        stdout.print(f"  {what}: wall {ratio['wall_s'] or 0:.2f}x, CPU {ratio['cpu_s'] or 0:.2f}x", highlight=False)
    loads = [run["load_average"][0] for run in figures["runs"] if run.get("load_average")]
    if loads:
        stdout.print(f"  load average during the runs: {min(loads):.1f}-{max(loads):.1f} (2 cores: above 2 the machine was shared)",
                     highlight=False)
    for kind, target in figures["targets"].items():
        stdout.print(f"target: an inserted edition <= {target['limit_s']:.0f} s: {'met' if target['met'] else 'missed'} "
                     f"(median {target['median_s']:.1f} s)", highlight=False)

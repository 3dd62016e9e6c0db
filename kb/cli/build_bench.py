"""``rulekb bench footprint`` and ``rulekb bench answers``: what a store costs, and
whether two stores answer every named query alike (kb.footprint)."""

from __future__ import annotations

import typer

from .app import Format, FormatOption, StoreOption, _store
from .bench import bench_app
from .output import emit_json, errors_as_exit_codes, stdout


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

"""``rulekb bench``: measured figures, printed with medians (never timed tests)."""

from __future__ import annotations

import typer

from ..corpus import corpus_dir
from .app import Format, FormatOption, app
from .output import emit_json, errors_as_exit_codes, fail, stdout

bench_app = typer.Typer(help="Benchmarks: print medians (and ratios against a baseline where there is one).", no_args_is_help=True)
app.add_typer(bench_app, name="bench")


@bench_app.command("ingest")
def bench_ingest(
    corpus: str = typer.Option(None, "--corpus", help="Directory of English .txt editions (default: CORPUS/en)."),
    repeat: int = typer.Option(3, "--repeat", min=1, help="Runs over the whole corpus; medians are over runs."),
    format: Format = FormatOption,
) -> None:
    """Parse the whole English corpus in one process: total seconds, MB/s, per-edition median."""
    from ingest.bench import bench_corpus

    if corpus is None:
        root = corpus_dir()
        if root is None:
            fail("no corpus found (set RULEKB_CORPUS or pass --corpus)")
        corpus = str(root / "en")
    with errors_as_exit_codes():
        figures = bench_corpus(corpus, repeat=repeat)
    if format is Format.json:
        emit_json(figures)
        return
    stdout.print(
        f"parsed {figures['editions']} editions, {figures['megabytes']:.1f} MB, {figures['rules']} rules, "
        f"{repeat} runs\n"
        f"  total (median of runs): {figures['total_seconds_median']:.2f} s "
        f"(min {figures['total_seconds_min']:.2f}, max {figures['total_seconds_max']:.2f})\n"
        f"  throughput: {figures['mb_per_second']:.1f} MB/s\n"
        f"  per edition (median): {figures['per_edition_ms_median']:.1f} ms "
        f"(slowest {figures['slowest_edition']} {figures['per_edition_ms_max']:.1f} ms)",
        highlight=False,
    )

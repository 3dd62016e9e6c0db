"""``rulekb bench``: measured figures, printed with medians (never timed tests)."""

from __future__ import annotations

import typer

from .app import CorpusOption, Format, FormatOption, RepeatOption, StoreOption, _store, app, edition_name
from .output import emit_json, errors_as_exit_codes, fail, stdout

bench_app = typer.Typer(help="Benchmarks: print medians (and ratios against a baseline where there is one).", no_args_is_help=True)
app.add_typer(bench_app, name="bench")


@bench_app.command("ingest")
def bench_ingest(
    corpus: str = typer.Option(None, "--corpus", help="Directory of English .txt editions (default: CORPUS/en)."),
    repeat: int = RepeatOption(3, "Runs over the whole corpus; medians are over runs."),
    format: Format = FormatOption,
) -> None:
    """Parse the whole English corpus in one process: total seconds, MB/s, per-edition median."""
    from ..service import corpus_dir

    from rulekb.ingest.bench import bench_corpus

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


@bench_app.command("kb")
def bench_kb_command(
    store: str = typer.Option(None, "--store", help="Where to build the benchmark store (default: a temporary directory)."),
    reuse: bool = typer.Option(False, "--reuse", help="Time queries on an existing store instead of building it again."),
    repeat: int = RepeatOption(5),
    format: Format = FormatOption,
) -> None:
    """Build the whole corpus (English and French), then time lookups and every named query,
    against the same queries on rdflib in memory (one edition) in the same run."""
    from ..service import corpus_dir

    import tempfile
    from pathlib import Path

    from ..bench.kb import RDFLIB_EDITION, RDFLIB_LIMIT_S, bench_kb

    root = corpus_dir()
    if root is None:
        fail("no corpus found (set RULEKB_CORPUS)")
    with errors_as_exit_codes():
        with tempfile.TemporaryDirectory(prefix="rulekb-bench-") as tmp:
            target = Path(store) if store else Path(tmp) / "store"
            figures = bench_kb([str(root / "en"), str(root / "fr")], target, repeat=repeat, rebuild=not reuse)
    if format is Format.json:
        emit_json(figures)
        return
    if "build" in figures:
        b = figures["build"]
        stdout.print(
            f"build: {b['editions']} editions, {b['quads']:,} quads in {b['seconds']:.1f} s "
            f"({b['quads_per_second']:,.0f} quads/s), store {b['store_megabytes']:,.0f} MB",
            highlight=False,
        )
    stdout.print(
        f"rulekb rule, cold start: {figures['cold_start_rule_ms']:.0f} ms; rule lookup (5 queries): "
        f"{figures['rule_lookup_ms']:.2f} ms; rule query: {figures['rule_query_ms']:.2f} ms (medians)",
        highlight=False,
    )
    stdout.print(f"named queries, median ms (rdflib in memory holds only {RDFLIB_EDITION} + concepts):")
    for name, row in sorted(figures["named_queries"].items()):
        if "ratio" in row:
            rdflib_part = f"  rdflib {row['rdflib_one_edition_ms']:9.1f}  x{row['ratio']:,.0f}"
        elif "rdflib_one_edition_ms" in row:
            rdflib_part = f"  rdflib  > {RDFLIB_LIMIT_S:.0f} s"
        else:
            rdflib_part = ""
        stdout.print(f"  {name:24} oxigraph {row['oxigraph_ms']:8.2f}{rdflib_part}", highlight=False)
    if figures["rdflib_ratio_median"]:
        stdout.print(f"median ratio rdflib/oxigraph: x{figures['rdflib_ratio_median']:,.0f}", highlight=False)


@bench_app.command("definitions")
def bench_definitions(
    gold: str = typer.Option(None, "--gold", help="Gold set (default: the project's kb/bench/gold/definitions_gold.tsv)."),
    corpus: str = CorpusOption,
    format: Format = FormatOption,
) -> None:
    """Definition extraction: precision and recall on the gold set (overall, by language, by era), every
    miss and false positive by name, and the extraction speed over the whole English corpus."""
    from ..service import corpus_dir

    from pathlib import Path

    from ..bench.definitions import GOLD, evaluate, extraction_speed, load_gold

    root = Path(corpus) if corpus else corpus_dir()
    if root is None or not (root / "en").is_dir():
        fail("no corpus found (set RULEKB_CORPUS or pass --corpus)")
    with errors_as_exit_codes():
        figures = evaluate(load_gold(gold or GOLD), root)
        figures["speed"] = extraction_speed(root / "en")
    if format is Format.json:
        emit_json(figures)
        return

    def line(label: str, s: dict) -> str:
        return (f"  {label:10} precision {s['precision']:.3f}  recall {s['recall']:.3f}  "
                f"({s['true_positives']} of {s['statements']} statements, {s['false_positives']} false positives)")

    stdout.print(
        f"gold set: {figures['sentences']} sentences ({figures['negative_sentences']} make no statement), "
        + ", ".join(f"{n} {k}" for k, n in sorted(figures["sentences_by_language"].items())) + "; "
        + ", ".join(f"{n} {k}" for k, n in sorted(figures["sentences_by_era"].items())),
        highlight=False,
    )
    stdout.print(line("overall", figures["overall"]), highlight=False)
    for group in ("by_language", "by_era", "by_set"):
        for key, score in figures[group].items():
            stdout.print(line(key, score), highlight=False)
    stdout.print(f"misses ({len(figures['misses'])}):", highlight=False)
    for miss in figures["misses"]:
        note = f"  [{miss['note']}]" if miss["note"] else ""
        stdout.print(f"  {miss['row']}: {miss['statement']}{note}", highlight=False, markup=False)
    stdout.print(f"false positives ({len(figures['false_positives'])}):", highlight=False)
    for fp in figures["false_positives"]:
        stdout.print(f"  {fp['row']}: {fp['statement']}  <- {fp['sentence']}", highlight=False, markup=False)
    speed = figures["speed"]
    stdout.print(
        f"speed: {speed['statements']:,} statements from {speed['editions']} English editions in "
        f"{speed['seconds']:.2f} s ({speed['statements_per_second']:,.0f}/s, {speed['per_edition_ms_median']:.1f} ms "
        f"per edition, median); statements per edition: median {speed['statements_per_edition_median']}, "
        f"min {speed['statements_per_edition_min']} ({speed['fewest_statements_edition']}), "
        f"max {speed['statements_per_edition_max']}; parsing took {speed['parse_seconds']:.1f} s",
        highlight=False,
    )


@bench_app.command("glossary-definitions")
def bench_glossary_definitions(
    corpus: str = CorpusOption,
    format: Format = FormatOption,
) -> None:
    """Every edition x glossary term citing a rule or section: the share that gets a defining rule
    (a cited rule, or the rule of a cited section that defines the term), against the cited rules alone."""
    from ..service import corpus_dir

    from pathlib import Path

    from rulekb.ingest.parse import parse_many

    from ..service import glossary_definition_coverage as coverage

    root = Path(corpus) if corpus else corpus_dir()
    if root is None or not (root / "en").is_dir():
        fail("no corpus found (set RULEKB_CORPUS or pass --corpus)")
    with errors_as_exit_codes():
        figures = coverage(parse_many([str(root / "en"), str(root / "fr")]).editions)
    if format is Format.json:
        emit_json(figures)
        return
    stdout.print(f"{figures['entries_citing']:,} glossary entries citing a rule or section in {figures['editions']} "
                 f"editions ({figures['citing_existing']:,} cite one the edition has)", highlight=False)
    stdout.print(f"  cited rule alone: {figures['cited_rule_only']:,} ({figures['cited_rule_only_share']:.1%})",
                 highlight=False)
    stdout.print(f"  defining rule:    {figures['defined']:,} ({figures['defined_share']:.1%}); "
                 + ", ".join(f"{k} {n:,}" for k, n in figures["by_kind"].items()), highlight=False)
    for item in figures["missing"][:50]:
        stdout.print(f"  missing: {item}", highlight=False, markup=False)


@bench_app.command("ask")
def bench_ask(store: str = StoreOption, format: Format = FormatOption) -> None:  # noqa: B008
    """`rulekb ask` over every edition: coverage (editions that have a rule to answer) and accuracy
    (right answers, citing a rule of that edition) of questions whose answer we know for every era."""
    from ..bench.ask import evaluate

    with errors_as_exit_codes():
        figures = evaluate(_store(store))
    if format is Format.json:
        emit_json(figures)
        return
    for question, s in figures["checks"].items():
        stdout.print(f"  {question:40} answered {s['answered']:3}/{s['asked']:3} (coverage {s['coverage']})  "
                     f"accuracy {s['accuracy']}", highlight=False, markup=False)
    o = figures["overall"]
    stdout.print(f"overall: {o['correct']} right of {o['answered']} answered, {o['asked']} asked: accuracy "
                 f"{o['accuracy']}, coverage {o['coverage']}; median ask {figures['ask_ms_median']:.1f} ms",
                 highlight=False)
    for wrong in figures["wrong"]:
        stdout.print(f"  wrong: {wrong['edition']} {wrong['question']} -> {wrong['answer']} (rules {wrong['rules']})",
                     highlight=False, markup=False)


@bench_app.command("align")
def bench_align(
    corpus: str = CorpusOption,
    repeat: int = RepeatOption(3, "Runs per timed alignment; medians are over runs."),
    fresh_lineages: bool = typer.Option(
        True, "--fresh-lineages/--cached-lineages",
        help="Chain all English editions into lineages now and time it (default), or read them from "
             "the lineage cache the build fills (chained there on a miss): the accuracy figures "
             "without the minute the 127 alignments take."),
    format: Format = FormatOption,
) -> None:
    """Edition alignment: median seconds of align vs the greedy difflib baseline on the 2009
    restructure and an ordinary update (ratio), all English lineages, and precision/recall of
    both on the gold set and on synthetic editions."""
    from ..service import corpus_dir

    from pathlib import Path

    from ..bench.align import run_bench
    from .output import stderr

    root = Path(corpus) if corpus else corpus_dir()
    if root is None or not (root / "en").is_dir():
        fail("no corpus found (set RULEKB_CORPUS or pass --corpus)")
    with errors_as_exit_codes():
        figures = run_bench(root, repeat=repeat, fresh_lineages=fresh_lineages,
                            progress=lambda m: stderr.print(f"bench align: {m}", highlight=False, markup=False))
    if format is Format.json:
        emit_json(figures)
        return
    for name, row in figures["pairs"].items():
        stdout.print(
            f"{name:17} {row['old']} -> {row['new']}: align {row['align_seconds']:.3f} s, "
            f"baseline {row['baseline_seconds']:.3f} s (x{row['ratio']:,.1f}), "
            f"without the cross-section pass {row['without_moves_seconds']:.3f} s "
            f"(cost x{row['moves_cost']:.2f}), medians of {figures['repeat']}",
            highlight=False,
        )
    lin = figures["lineages"]
    stdout.print(
        f"lineages: {lin['alignments']} consecutive pairs over {lin['editions']} editions -> "
        f"{lin['lineages']:,} lineages in {lin['seconds']:.1f} s"
        f"{' (read from the lineage cache)' if lin['from_cache'] else ''} (parsing {figures['parse_seconds']:.1f} s apart)",
        highlight=False,
    )

    def line(label: str, f: dict) -> str:
        return (f"  {label:26} accuracy {f['accuracy']:.3f}  precision {f['precision']:.3f}  "
                f"recall {f['recall']:.3f}  ({f['correct']}/{f['rows']})")

    stdout.print("gold set:", highlight=False)
    for group, f in figures["gold"]["align"].items():
        stdout.print(line(f"align {group}", f), highlight=False)
        stdout.print(line(f"baseline {group}", figures["gold"]["baseline"][group]), highlight=False)
    stdout.print("independent 2009 gold (never tuned on; -held is held out):", highlight=False)
    for group, f in figures["gold"].get("independent", {}).items():
        stdout.print(line(f"align {group}", f), highlight=False)
    syn = figures["synthetic"]
    stdout.print(f"synthetic (mutated copies of {syn['base']}):", highlight=False)
    stdout.print(line("align", syn["align"]), highlight=False)
    stdout.print(line("baseline", syn["baseline"]), highlight=False)
    groups = [(g, f) for g, f in figures["gold"]["align"].items() if g != "all"]
    groups += list(figures["gold"].get("independent", {}).items())
    # a held-out group's rows are not listed: whoever tunes the aligner reads this list, and a
    # held-out row seen one by one is a row tuned on (the figures above still count them)
    held = sum(len(f["misses"]) for g, f in groups if _held_out(g))
    misses = [m for g, f in groups if not _held_out(g) for m in f["misses"]]
    stdout.print(f"align misses on the gold set ({len(misses)}; {held} in held-out groups not listed):",
                 highlight=False)
    for m in misses:
        stdout.print(f"  line {m['line']}: {m['old_edition']} {m['old']} -> expected {m['expected']}, "
                     f"got {m['predicted']}", highlight=False, markup=False)


def _held_out(group: str) -> bool:
    """A gold group kept out of tuning (``...-held``, ``...-holdout``)."""
    return group.endswith(("-held", "-holdout"))


from .app import BaseOption  # noqa: E402  (bench serve's --base-iri)


@bench_app.command("serve")
def bench_serve_command(
    store: str = StoreOption,
    base_iri: str = BaseOption,
    edition: str = typer.Option(None, "--edition", help="Edition the scenarios use and the peers serve: id, alias (en/latest) or date (en@2010-03-15) (default: the newest English one)."),
    duration: int = typer.Option(20, "--duration", min=1, help="Seconds of load per scenario and server."),
    connections: int = typer.Option(16, "--connections", min=1, help="wrk connections."),
    threads: int = typer.Option(2, "--threads", min=1, help="wrk threads."),
    workers: int = typer.Option(2, "--workers", min=1, help="`rulekb serve --workers`: server processes."),
    cache: int = typer.Option(4096, "--cache", min=0, help="`rulekb serve --cache`: cached responses per process (0: none)."),
    query_workers: int = typer.Option(4, "--query-workers", min=1, help="`rulekb serve --query-workers`, per server process."),
    same_url: bool = typer.Option(False, "--same-url", help="Also load the rule page and the point query on one URL only."),
    peers: bool = typer.Option(True, "--peers/--no-peers", help="Load the Oxigraph server and rdflib-endpoint too."),
    uncached: bool = typer.Option(True, "--uncached/--no-uncached", help="Also load a `rulekb serve --cache 0`."),
    warmup: int = typer.Option(3, "--warmup", min=0, help="Seconds of unmeasured load before each measure."),
    prime: int = typer.Option(6, "--prime", min=0, help="Before measuring the cached server: requests of each "
                              "URL, on new connections, so every worker process has it (0: none)."),
    quick: bool = typer.Option(False, "--quick", help="3 s per scenario, 1 s warm-up, 1 priming pass."),
    load_connections: int = typer.Option(64, "--load-connections", min=0, help="The `load` scenario (pages and "
                                         "point lookups interleaved, ours only): wrk connections; 0: no load run."),
    load_duration: int = typer.Option(30, "--load-duration", min=1, help="The `load` scenario: seconds."),
    scenario: list[str] = typer.Option(None, "--scenario", help="Only this scenario (repeatable): rule page, "
                                       "rule turtle, sparql point, sparql join, load."),
    as_user: bool = typer.Option(False, "--as-user", help="Start `rulekb serve` exactly as a user does (no "
                                 "options: its defaults size it) and load it from the moment it answers: no "
                                 "warm-up, no priming, every rule of the edition cycled; the peers with their "
                                 "own defaults, in the same run."),
    format: Format = FormatOption,
) -> None:
    """`rulekb serve` under load (wrk over loopback): req/s, p50/p99 latency and errors for a rule page, a rule
    as Turtle, a point SPARQL lookup and a SPARQL join, with the same SPARQL load on the Oxigraph server
    and rdflib-endpoint over one edition in the same run (ratios); targets met or missed."""
    from ..service import base_iri as default_base
    from ..bench.serve import bench_serve, latest_edition
    from .output import stderr

    with errors_as_exit_codes():
        kb = _store(store)
        if kb.local_root is None:
            fail("bench serve needs an embedded store (a directory), not a SPARQL endpoint URL")
        kb.check()
        edition = edition_name(kb, edition).edition if edition else latest_edition(kb)
        figures = bench_serve(
            kb, kb.location, edition, default_base(base_iri), duration=3 if quick else duration, threads=threads,
            connections=connections, workers=workers, warmup=min(warmup, 1) if quick else warmup,
            same_url=same_url, peers=peers, uncached=uncached, prime=min(prime, 1) if quick else prime,
            serve_options=("--cache", str(cache), "--query-workers", str(query_workers)),
            load=(load_connections, 3 if quick else load_duration) if load_connections else None,
            only=tuple(scenario or ()), as_user=as_user, progress=lambda m: stderr.print(f"bench serve: {m}", highlight=False, markup=False))
        figures["cache"], figures["query_workers"] = cache, query_workers
    if format is Format.json:
        emit_json(figures)
        return
    _print_serve_figures(figures)


def _print_serve_figures(figures: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    load = figures["load"]
    stdout.print(
        f"edition {figures['edition']} ({figures['edition_triples']:,} triples for the peers; ours: the whole store), "
        f"{figures['rules']} rules and {figures['sections']} sections cycled; wrk -t{load['threads']} "
        f"-c{load['connections']} -d{load['duration']}s (after {load['warmup']} s of warm-up) on loopback, sharing "
        f"the cores with the server; " + ("rulekb serve with no options (as a user starts it), loaded from the "
                                            "moment it answers" if figures.get("as_user") else
                                            f"rulekb serve --workers {figures['workers']} --cache {figures['cache']} "
                                            f"--query-workers {figures['query_workers']}"), highlight=False, markup=False)
    ours = sorted({r["server"] for r in figures["rows"] if r["server"].startswith("rulekb")})
    table = Table("scenario", "server", "req/s", "p50 ms", "p99 ms", "errors", *(f"{n} / peer" for n in ours),
                  "CPU ms/req", *(f"CPU peer / {n}" for n in ours), "RSS MB")
    for row in figures["rows"]:
        ratios, cpu_ratios = row.get("ratios", {}), row.get("cpu_ratios", {})
        cpu = row.get("cpu_ms_per_request")
        table.add_row(row["scenario"], row["server"], f"{row['req_per_s']:,.0f}", f"{row['p50_ms']:.2f}",
                      f"{row['p99_ms']:.2f}", str(row["errors"]),
                      *(f"x{ratios[n]:,.2f}" if n in ratios else "" for n in ours),
                      f"{cpu:.3f}" if cpu is not None else "",
                      *(f"x{cpu_ratios[n]:,.2f}" if n in cpu_ratios else "" for n in ours),
                      f"{row['rss_mb_before']:.0f} -> {row['rss_mb_after']:.0f}")
    Console(width=max(stdout.width, 130)).print(table)  # as wide as its rows, even in a pipe
    shares = [f"{r['scenario']} {'/'.join(f'{x:.2f}' for x in r['cpu_shares'])}" for r in figures["rows"]
              if r.get("cpu_shares")]
    if shares:
        stdout.print("share of the CPU of each rulekb server process: " + ", ".join(shares), highlight=False, markup=False)
    for row in figures["rows"]:  # RSS through each load of ours, about ten samples of it
        samples = row.get("rss_samples") or []
        if row["server"].startswith("rulekb") and len(samples) >= 4:
            step = max(1, len(samples) // 10)
            shown = ", ".join(f"{mb:.0f}@{t:.0f}s" for t, mb in samples[::step] + ([samples[-1]] if (len(samples) - 1) % step else []))
            stdout.print(f"RSS MB of {row['server']}, {row['scenario']}: {shown}; second half "
                         f"{row['rss_mb_second_half']:+.0f} MB", highlight=False, markup=False)
    for name, server in figures["servers"].items():
        libraries = ", ".join(server["libraries"]) or "neither uvloop nor httptools"
        first = ", ".join(f"{k} {v:,.0f}" for k, v in server["first_answer_ms"].items())
        stdout.print(f"{name}: RSS idle {server['rss_mb_idle']:.0f} MB, end {server.get('rss_mb_end', 0):.0f} MB; "
                     f"loaded: {libraries}; first answers after start (ms): {first}", highlight=False, markup=False)
    if figures["priming"]:
        stdout.print("rulekb (cached) primed before measuring, seconds: "
                     + ", ".join(f"{k} {v:.1f}" for k, v in figures["priming"].items()), highlight=False, markup=False)
    for name, why in figures["peers_missing"].items():
        stdout.print(f"{name}: not run: {why}", highlight=False, markup=False)
    busy = figures["load_average"]
    stdout.print(f"machine: {busy['cores']} cores, load average (1 min) {busy['start']:.1f} at the start, "
                 f"{busy['end']:.1f} at the end" + ("  -- busy: other work shared the cores, figures are low"
                                                    if max(busy["start"], busy["end"]) > busy["cores"] + 1 else ""),
                 highlight=False, markup=False)
    for target in figures["targets"]:
        mark = "-" if target["met"] is None else "met" if target["met"] else "MISSED"
        stdout.print(f"  {mark:6} {target['server']}: {target['target']}: {target['value']}",
                     highlight=False, markup=False)

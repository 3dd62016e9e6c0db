"""``rulekb build | editions | rule | history | query | validate | export``: the knowledge base.

Imports of the heavy parts (rdflib, the builder) happen inside the commands, so
a lookup such as ``rulekb rule`` starts fast.
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from .app import BaseOption, Format, FormatOption, LazyStore, StoreOption, _store, app  # noqa: F401  (their old home)
from .output import emit_json, errors_as_exit_codes, fail, stage_progress, stderr, stdout

@app.command()
def build(
    sources: list[str] = typer.Argument(
        None, help="Files, directories or URLs to build from. Default: the corpus's en/ and fr/ (RULEKB_CORPUS, else ../shared/corpus)."
    ),
    store: str = StoreOption,
    base_iri: str = BaseOption,
    reasoner: str = typer.Option(
        "auto", "--reasoner",
        help="Reason over each edition's definitions with hermit (Java), owlrl (pure Python) or none; "
        "auto: HermiT when Java runs, else owlrl. Results are cached by axiom set (RULEKB_CACHE).",
    ),
    add: str = typer.Option(
        None, "--add", metavar="SOURCE",
        help="Add the one new edition in SOURCE (a file or URL) to the built KB: parse, link, reason, align with "
        "its predecessor, compare, without rebuilding the others; swapped in atomically.",
    ),
    embed: str = typer.Option(
        None, "--embed", metavar="now|background|status",
        help="Do not rebuild: complete the meaning (dense) arm of search of the built KB, here (now) or in a "
        "detached process (background), or say how far it is (status).",
    ),
    embed_max: int = typer.Option(None, "--embed-max", min=1, help="With --embed now: embed at most this many texts."),
    replace: bool = typer.Option(
        False, "--replace",
        help="With --add: SOURCE is a re-publication of an edition the KB has (same date, other text): put it in its place.",
    ),
    cards: str = typer.Option(
        None, "--cards", metavar="FILE",
        help="Oracle card file to link (Scryfall or MTGJSON JSON, gzipped or not), or none. Default: RULEKB_CARDS, "
        "else what `rulekb fetch --cards` cached, else the corpus's cards/.",
    ),
    format: Format = FormatOption,
) -> None:
    """Build the knowledge base: every edition as linked data, its definitions and what a reasoner infers, swapped in atomically."""
    from ..service import build as run_build
    from ..service import corpus_dir

    if embed is not None:
        if sources or add is not None:
            fail("--embed works on the built KB: give no SOURCE and no --add")
        from .search_commands import embed_command

        embed_command(store, embed, embed_max, format)
        return

    if replace and add is None:
        fail("--replace goes with --add SOURCE")
    if add is not None:
        if sources:
            fail("--add takes its one SOURCE; give no other sources")
        from .. import service

        with errors_as_exit_codes():
            with stage_progress("rulekb build --add") as reporter:
                added = service.add_edition(add, store, reasoner=reasoner, reporter=reporter, replace=replace)
            from .search_commands import complete_dense

            complete_dense(service.open_store(store))
        if format is Format.json:
            emit_json(added.to_dict())
            return
        if added.how != "appended":
            stdout.print(f"{added.how} {added.edition} in {added.seconds:.1f} s ({added.cpu_seconds:.1f} s CPU)"
                         + (f" after {added.predecessor}" if added.predecessor else "")
                         + f": {added.changes:,} changes, {added.meaning_changes} changes of meaning; "
                         f"{'; '.join(added.not_redone)}\n-> {added.store} ({added.store_bytes / 1e6:,.0f} MB)",
                         highlight=False)
            return
        stdout.print(
            f"added {added.edition} in {added.seconds:.1f} s: {added.quads_added:,} quads "
            f"({added.quads_removed} replaced), {added.new_concepts} new concepts; "
            + (f"aligned with {added.predecessor} ({added.predecessor_from}): {added.changes:,} changes, "
               f"{added.meaning_changes} changes of meaning" if added.predecessor else "no predecessor to align with")
            + f"\n{_reasoning_line(added.reasoning)}\n-> {added.store} "
            f"({added.store_bytes / 1e6:,.0f} MB); not redone: {'; '.join(added.not_redone)}",
            highlight=False,
        )
        return
    if not sources:
        corpus = corpus_dir()
        if corpus is None:
            fail("no SOURCE given and no corpus found (set RULEKB_CORPUS or pass paths)")
        sources = [str(corpus / "en"), str(corpus / "fr")]
    with errors_as_exit_codes():
        target = _store(store)
        with stage_progress("rulekb build") as reporter:
            report = run_build(sources, target, base=base_iri, reasoner=reasoner, reporter=reporter, cards=cards)
        from .search_commands import complete_dense

        complete_dense(target)
    for refused in report.refused:
        stderr.print(f"rulekb: refused {refused}", markup=False, highlight=False)
    for skipped in report.skipped:
        stderr.print(f"rulekb: not loaded {skipped}", markup=False, highlight=False)
    if format is Format.json:
        emit_json(report.to_dict())
        return
    stdout.print(
        f"built {len(report.editions)} editions, {report.concepts} concepts, {report.quads:,} quads "
        f"in {report.seconds:.1f} s ({report.quads / max(report.seconds, 1e-9):,.0f} quads/s) "
        f"-> {report.store} ({report.store_bytes / 1e6:,.0f} MB)\n"
        f"{report.citations:,} citations, {report.dangling:,} numbers cited that their edition does not have "
        f"(rulekb query dangling-references)\n"
        f"{report.statements:,} definitional statements; {_reasoning_line(report.reasoning)}\n"
        f"{report.lineages:,} rule lineages, {report.changes:,} changes between consecutive editions "
        f"in {report.lineage_seconds:.1f} s{' (cached)' if report.lineage_cached else ''} (rulekb history RULE); "
        f"{report.meaning_changes:,} changes of meaning (rulekb query contradictions)\n"
        f"{_translation_line(report.translations)}\n"
        f"{_search_line(report.search)}\n"
        f"{_cards_line(report.cards)}\n"
        f"{_consistency_line(report.consistency)}",
        highlight=False,
    )


def _search_line(summary: dict) -> str:
    if not summary:
        return "no search index"
    dense = summary.get("dense") or {}
    meaning = ""
    if dense.get("state") == "off":
        meaning = "; no meaning arm (RULEKB_DENSE=off)"
    elif "documents" in dense:
        meaning = (f"; meaning arm: {dense['rows']:,} of {dense['documents']:,} documents embedded "
                   f"({dense['embedded']:,} now, the rest from the cache"
                   + (f"; {dense['missing']:,} texts left to `rulekb build --embed`" if dense.get("missing") else "") + ")")
    return (f"search index: {summary['documents']:,} documents ({summary['rule_versions']:,} rule versions, "
            f"{summary['glossary_versions']:,} glossary entries) in {summary['seconds']:.1f} s, "
            f"{summary['bytes'] / 1e6:,.1f} MB (rulekb search){meaning}")


def _cards_line(summary: dict) -> str:
    if not summary.get("cards"):
        return "no cards (rulekb fetch --cards, or a card file in the corpus's cards/)" + (
            f": {summary['note']}" if summary.get("note") else "")
    return (f"{summary['cards']:,} cards from {summary['file']} linked to {summary['edition']} in "
            f"{summary.get('seconds', 0):.1f} s{' (cached)' if summary.get('cached') else ''} (rulekb card NAME)")


def _consistency_line(summary: dict) -> str:
    if not summary:
        return "no consistency check"
    kinds = ", ".join(f"{n} {kind}" for kind, n in summary.get("by_kind", {}).items())
    return (f"{summary['findings']:,} places where an edition disagrees with itself ({kinds}) in "
            f"{summary['seconds']:.1f} s ({summary['cached']} editions cached) (rulekb consistency EDITION)")


def _translation_line(summary: dict) -> str:
    if not summary.get("texts"):
        return "no French texts with rules: no translation drift"
    return (f"{summary['texts']} French texts aligned to their English base edition, "
            f"{summary['findings']:,} drift findings against the newest English edition in {summary['seconds']:.1f} s "
            f"({summary['cached']} cached) (rulekb query translation-findings)")


def _reasoning_line(summary: dict) -> str:
    if summary.get("reasoner", "none") == "none":
        return "no reasoning (--reasoner none)"
    name = {"hermit": "HermiT", "owlrl": "OWL 2 RL (owlrl)"}[summary["reasoner"]]
    inconsistent = summary["inconsistent"]
    return (f"{name}: {summary['inferred']:,} inferred statements from {summary['axiom_sets']} distinct axiom sets "
            f"({summary['reasoned']} reasoned now, the rest cached) in {summary['seconds']:.1f} s; "
            + (f"{len(inconsistent)} editions inconsistent (rules that contradict each other; "
               f"--format json explains): {', '.join(inconsistent)}" if inconsistent else "every edition consistent")
            + (f" ({summary['note']})" if summary.get("note") else ""))


@app.command()
def editions(store: str = StoreOption, format: Format = FormatOption) -> None:
    """List the editions in the knowledge base."""
    from rich.table import Table

    from .. import service

    with errors_as_exit_codes():
        rows = service.editions(_store(store))
    if format is Format.json:
        emit_json(rows)
        return
    table = Table(box=None, pad_edge=False)
    for column in ("edition", "effective", "rules", "source"):
        table.add_column(column, justify="right" if column == "rules" else "left",
                         no_wrap=True, overflow="ellipsis", max_width=60 if column == "source" else None)
    for row in rows:
        table.add_row(row["edition"] + (" *" if row["partial"] else ""), row["effective_date"] or "-",
                      str(row["rules"]), Path(row["source"] or "-").name)
    stdout.print(table)
    stdout.print(f"{len(rows)} editions; * = partial")


@app.command()
def rule(
    edition: str = typer.Argument(..., help="Edition id (en/2026-01-16), alias (en/latest) or date (en@2010-03-15; a language with --as-of)."),
    number: str = typer.Argument(..., help="Rule number, e.g. 111.2 (a trailing dot is fine)."),
    as_of: str = typer.Option(None, "--as-of", help="A date (YYYY-MM-DD): the rule as in the edition of that language in force on it."),
    store: str = StoreOption,
    format: Format = FormatOption,
) -> None:
    """One rule: text, examples, references (resolved and dangling), back-references, concepts;
    the edition that answered, the dates its wording was in force and what superseded it."""
    from .. import service
    from .app import edition_name

    with errors_as_exit_codes():
        opened = _store(store)
        resolution = edition_name(opened, edition, as_of)
        data = service.rule(opened, resolution.edition, number.strip().rstrip("."))
        data["in_force"] = service.rule_in_force(opened, resolution, data["number"])
    if format is Format.json:
        emit_json(data)
        return
    if data.get("kind") in ("section", "part"):  # a section number typed where a rule was expected
        _print_heading(data)
        return
    stdout.print(f"[bold]{data['number']}[/bold] ({data['edition']})  {data['iri']}", highlight=False)
    stdout.print(data["in_force"]["summary"], markup=False, highlight=False)
    stdout.print(data["text"], markup=False, highlight=False)
    for example in data["examples"]:
        stdout.print(f"  Example: {example}", markup=False, highlight=False)
    for label, key in (("references", "references"), ("dangling", "dangling"), ("referenced by", "referenced_by")):
        if data[key]:
            stdout.print(f"{label}: {', '.join(data[key])}", markup=False, highlight=False)
    if data["concepts"]:
        stdout.print("concepts: " + ", ".join(c["label"] or c["iri"] for c in data["concepts"]), markup=False)
    if data.get("lineage"):
        stdout.print("lineage: " + _lineage_line(data["lineage"]) + "  (rulekb history)", markup=False, highlight=False)


def _print_heading(data: dict) -> None:
    stdout.print(f"[bold]{data['kind']} {data['number']}[/bold] {data['title']} ({data['edition']})  {data['iri']}",
                 highlight=False)
    for rule in data["rules"]:
        stdout.print(f"  {rule['number']}  {rule['text']}", markup=False, highlight=False)
    for section in data["sections"]:
        stdout.print(f"  {section['number']}. {section['title']}", markup=False, highlight=False)
    for label, key in (("references", "references"), ("dangling", "dangling"), ("referenced by", "referenced_by")):
        if data[key]:
            stdout.print(f"{label}: {', '.join(data[key])}", markup=False, highlight=False)
    stdout.print(f"{len(data['rules'])} rules; a {data['kind']} number: `rulekb rule EDITION {data['number']}.1` "
                 "shows its first rule", markup=False, highlight=False)


def _lineage_line(lineage: dict) -> str:
    spans = [f"{n['number']} ({n['first']}" + (f"..{n['last']})" if n["last"] != n["first"] else ")")
             for n in lineage["numbers"]]
    ended = lineage.get("ended")
    if ended:
        spans.append(f"{ended['kind']} in {ended['edition']}" + (f" into {ended['into']}" if ended.get("into") else ""))
    return " -> ".join(spans)


@app.command()
def history(
    number: str = typer.Argument(..., help="Rule number, e.g. 111.2 (a trailing dot is fine)."),
    edition: str = typer.Option(None, "--edition", help="The edition the number belongs to: id, alias (en/latest) or date (en@2010-03-15) (default: the newest English edition)."),
    as_of: str = typer.Option(None, "--as-of", help="A date (YYYY-MM-DD): the number as in the edition in force on it."),
    ranges: bool = typer.Option(False, "--ranges", help="JSON: the wordings in force (one per run of unchanged editions, with dates) instead of one entry per edition."),
    store: str = StoreOption,
    format: Format = FormatOption,
) -> None:
    """A rule through every edition of its language, even where it was renumbered: its numbers, texts and changes,
    as the wordings in force (first and last edition, from and until)."""
    from .. import service
    from .app import edition_name

    number = number.strip().rstrip(".")
    with errors_as_exit_codes():
        opened = _store(store)
        resolution = edition_name(opened, edition, as_of, default_none=True)
        edition = resolution.edition if resolution else service.default_edition(opened)
        wordings = service.rule_wordings(opened, edition, number) if (ranges or format is Format.text) else []
        entries = None if (ranges and wordings) else service.history(opened, number, edition)
    if format is Format.json:
        emit_json(wordings if entries is None else entries)
        return
    _print_history(entries or [], wordings)


def _print_history(entries: list[dict], wordings: list[dict] | None = None) -> None:
    """One line per wording in force (the stored ranges; else consecutive unchanged versions
    folded), then the text, its words changed since the period above marked."""
    from rich.text import Text

    from .. import service

    previous_text = None
    for row in wordings or service.history_periods(entries):
        span = row["first"] if row["editions"] == 1 else f"{row['first']} .. {row['last']} ({row['editions']} editions)"
        if row.get("in_force_from") and row["number"] is not None:
            span += f"  [in force {row['in_force_from']} – {row.get('in_force_until') or 'today'}]"
        elif row.get("in_force_from"):
            span += f"  [since {row['in_force_from']}]"
        if row["number"] is None:  # the lineage ends here
            into = f" into {row['into']}" if row.get("into") else ""
            stdout.print(Text.assemble((span, "bold"), f"  {row['kind']}{into}"))
            continue
        change = row["kind"] or "oldest edition in the KB"
        if row.get("detail"):
            change += f" ({row['detail']})"
        if row.get("similarity") is not None and row["kind"] in ("modified", "split"):
            change += f", similarity {row['similarity']:.2f}"
        stdout.print(Text.assemble((span, "bold"), "  ", (row["number"], "bold cyan"), f"  {change}"))
        text = Text("    ")
        if previous_text is None or row["kind"] in ("added", "split", None):
            text.append(row["text"] or "")
        else:
            for i, (op, words) in enumerate(service.history_word_diff(previous_text, row["text"])):
                if i:
                    text.append(" ")
                if op == "=":
                    text.append(words)
                elif op == "-":
                    text.append(f"[-{words}-]", style="red")
                else:
                    text.append(f"{{+{words}+}}", style="bold green")
        previous_text = row["text"]
        stdout.print(text)
    numbers = [e["number"] for e in entries if e["number"]] if entries else [
        w["number"] for w in wordings or [] for _ in range(w["editions"]) if w["number"]]
    changes = [n for i, n in enumerate(numbers) if i == 0 or numbers[i - 1] != n]
    stdout.print(f"{len(numbers)} editions; numbers: {' -> '.join(changes)}; "
                 "[-deleted-] {+inserted+}: words changed since the version above", markup=False, highlight=False)


@app.command()
def query(
    name: str = typer.Argument(None, help="A named query (see --list) or a .rq file."),
    sparql: str = typer.Option(None, "--sparql", help="SPARQL text to run instead of a named query ('-' reads stdin)."),
    param: list[str] = typer.Option(None, "--param", "-p", help="k=v, bound into the query (repeatable)."),
    list_queries: bool = typer.Option(False, "--list", help="List the named queries and checks."),
    show: bool = typer.Option(False, "--show", help="Print the query text instead of running it."),
    results: str = typer.Option(None, "--results", help="Result format: table (default for text), json, csv, tsv, xml."),
    store: str = StoreOption,
    format: Format = FormatOption,
) -> None:
    """Run a named query, a .rq file or your own SPARQL; SPARQL JSON results with --format json."""
    from .. import service
    from .query_output import print_listing, print_results

    with errors_as_exit_codes():
        if list_queries:
            print_listing(*service.named_queries(), format)
            return
        if sparql is not None:
            chosen = service.own_query(sys.stdin.read() if sparql == "-" else sparql)
        elif name is None:
            fail("give a query NAME, a .rq file, or --sparql TEXT (rulekb query --list shows the names)")
        else:
            chosen = service.named_query(name)
        bindings = _params(param or [])
        if show:
            stdout.print(chosen.text, markup=False, highlight=False)
            return
        if chosen.params:
            bindings = chosen.bindings(bindings)
        answer_format = results or ("json" if format is Format.json else "table")
        print_results(_store(store), chosen, bindings, answer_format)


def _params(items: list[str]) -> dict[str, str]:
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            fail(f"--param wants k=v, got {item!r}")
        out[key.strip()] = value
    return out


@app.command()
def validate(
    edition: list[str] = typer.Option(None, "--edition", help="Check these editions with SHACL: ids, aliases (en/latest) or dates (en@2010-03-15) (default: the newest complete one per language)."),
    all_graphs: bool = typer.Option(False, "--all", help="SHACL on every edition (minutes)."),
    store: str = StoreOption,
    format: Format = FormatOption,
) -> None:
    """Check the KB: SHACL shapes and the QC queries in queries/checks (exit 1 on violations)."""
    from ..service import validate as run_validate
    from .app import edition_name

    with errors_as_exit_codes():
        opened = _store(store)
        named = [edition_name(opened, name).edition for name in edition or ()]
        report = run_validate(opened, editions=named or None, all_graphs=all_graphs)
    if format is Format.json:
        emit_json(report)
    else:
        stdout.print(
            f"conforms: {report['conforms']}  ({len(report['violations'])} violations, "
            f"{len(report['warnings'])} warnings about the source texts; SHACL on "
            f"{len(report['shacl_graphs'])} graphs)",
            highlight=False,
        )
        for item in report["violations"][:50] + report["warnings"][:20]:
            stdout.print(f"  {item['severity']}: {item['check']}: {item['message']}", markup=False, highlight=False)
    if not report["conforms"]:
        raise typer.Exit(1)


@app.command()
def export(
    edition: str = typer.Argument(None, help="Edition id, alias (en/latest) or date (en@2010-03-15) (default: the whole KB, every graph)."),
    rdf: str = typer.Option("turtle", "--rdf", help="turtle | nt | nq | trig | jsonld | xml"),
    as_of: str = typer.Option(None, "--as-of", help="A date (YYYY-MM-DD): the edition in force on it."),
    store: str = StoreOption,
) -> None:
    """Write RDF to stdout: one edition's graph, or the whole KB."""
    from ..service import export as run_export
    from .app import edition_name

    with errors_as_exit_codes():
        opened = _store(store)
        resolution = edition_name(opened, edition, as_of, default_none=True)
        data = run_export(opened, resolution.edition if resolution else None, rdf)
    sys.stdout.buffer.write(data)

"""``rulekb parse`` and ``rulekb fetch``: the ingest side of the command line."""

from __future__ import annotations

from pathlib import Path

import typer

from .app import Format, FormatOption, app
from .output import emit_json, errors_as_exit_codes, fail, progress, stderr, stdout


def _parse_with_progress(source: str) -> ParseResult:
    from rulekb.ingest.parse import ParseResult, document_files, parse_source

    path = Path(source)
    if path.is_dir():
        bar, tick = progress(len(document_files(path)), f"parsing {source}")
        with bar:
            return parse_source(source, progress=tick)
    return parse_source(source)


@app.command()
def parse(
    sources: list[str] = typer.Argument(
        None,
        help="Files, directories (every rules document in them) or http(s) URLs. "
        "Default: the corpus (RULEKB_CORPUS, else ../shared/corpus).",
    ),
    summary: bool = typer.Option(False, "--summary", help="One row per edition instead of every rule."),
    strict: bool = typer.Option(False, "--strict", help="Exit 2 if any document in a directory is refused."),
    format: Format = FormatOption,
) -> None:
    """Parse rules documents (txt, html, pdf, docx; English or French) into editions."""
    from rulekb.ingest.parse import ParseResult, document_files, parse_source
    from ..service import corpus_dir

    if not sources:
        corpus = corpus_dir()
        if corpus is None:
            fail("no SOURCE given and no corpus found (set RULEKB_CORPUS or pass a path)")
        sources = [str(corpus)]
    result = ParseResult()
    with errors_as_exit_codes():
        for source in sources:
            one = _parse_with_progress(source)
            result.editions.extend(one.editions)
            result.failures.extend(one.failures)
    for failure in result.failures:
        stderr.print(f"rulekb: refused {failure}", markup=False, highlight=False)
    single = len(sources) == 1 and len(result.editions) == 1 and not Path(sources[0]).is_dir()
    if format is Format.json:
        if summary:
            emit_json([e.summary() for e in result.editions])
        elif single:
            emit_json(result.editions[0].to_dict())
        else:
            emit_json([e.to_dict() for e in result.editions])
    elif single and not summary:
        _print_edition(result.editions[0])
    else:
        _print_summary(result.editions, result.failures)
    if not result.editions or (strict and result.failures):
        raise typer.Exit(2)


def _print_edition(edition: Edition) -> None:
    source = edition.source
    stdout.print(f"[bold]{edition.id}[/bold]  {edition.title}")
    if source:
        stdout.print(
            f"source: {source.location} ({source.format}, {source.encoding or '-'}, "
            f"{source.line_endings or '-'}, layout {source.layout})",
            highlight=False,
        )
    stdout.print(
        f"effective {edition.effective_date}: {len(edition.parts)} parts, {len(edition.sections)} sections, "
        f"{len(edition.rules)} rules, {sum(len(r.examples) for r in edition.rules)} examples, "
        f"{len(edition.glossary)} glossary entries" + (" (partial)" if edition.partial else "")
    )
    for warning in edition.warnings:
        stderr.print(f"warning: {warning}", markup=False, highlight=False)


def _print_summary(editions: list[Edition], failures: list[IngestError]) -> None:
    from rich.table import Table

    table = Table(title=f"{len(editions)} editions", title_justify="left", box=None, pad_edge=False)
    table.add_column("edition", no_wrap=True, overflow="ellipsis", max_width=34)
    for column in ("sections", "rules", "glossary", "warnings"):
        table.add_column(column, justify="right", no_wrap=True, min_width=len(column))
    table.add_column("source", overflow="ellipsis", no_wrap=True, max_width=24)
    for e in editions:
        table.add_row(
            e.id + (" *" if e.partial else ""),
            str(len(e.sections)),
            str(len(e.rules)),
            str(len(e.glossary)),
            str(len(e.warnings)),
            _source_label(e),
        )
    stdout.print(table)
    rules = sum(len(e.rules) for e in editions)
    langs = ", ".join(f"{sum(e.language == lang for e in editions)} {lang}" for lang in ("en", "fr"))
    stdout.print(
        f"{len(editions)} editions ({langs}), {rules} rules; * = partial (excerpt, site pages or "
        f"truncated copy); {len(failures)} documents refused"
    )


def _source_label(edition: Edition) -> str:
    if len(edition.sources) > 1:
        return f"{len(edition.sources)} pages ({edition.source.layout})"
    source = edition.source
    return f"{Path(source.location).name} ({source.format})" if source else "-"


@app.command()
def fetch(
    editions: list[str] = typer.Argument(
        None, help="Edition dates (2026-01-16) from the known list, or http(s) URLs. Default: every known edition."
    ),
    cache: Path = typer.Option(None, "--cache", help="Download directory (default: RULEKB_CACHE, else ~/.cache/rulekb)."),
    mirror: str = typer.Option(None, "--mirror", help="Fetch known editions from this base URL instead of Wizards' server."),
    force: bool = typer.Option(False, "--force", help="Download again even when cached."),
    list_known: bool = typer.Option(False, "--list", help="Print the known editions and their URLs, download nothing."),
    check: bool = typer.Option(False, "--check", help="Say whether the official rules page lists an edition newer than the KB's, download nothing."),
    site: str = typer.Option(None, "--site", help="The page listing the official texts (default: RULEKB_RULES_PAGE, else https://magic.wizards.com/en/rules)."),
    cards: bool = typer.Option(False, "--cards", help="Download an Oracle card file instead: Scryfall's oracle_cards (from its bulk-data list), MTGJSON's AtomicCards with French names (give: mtgjson), or the card file at the URL given; the next build reads it."),
    store: str = typer.Option(None, "--store", help="The KB to compare with (--check; default: RULEKB_STORE, else ~/.local/share/rulekb/store)."),
    format: Format = FormatOption,
) -> None:
    """Download official rules texts into a local cache (and check that they parse)."""
    from rulekb.ingest import fetch as fetching

    with errors_as_exit_codes():
        if cards:
            _fetch_cards(editions, cache, format)
            return
        if check:
            from rulekb.kb.service import newer_editions

            found = newer_editions(store, site)
            if format is Format.json:
                emit_json(found)
            elif found["up_to_date"]:
                stdout.print(f"up to date: the newest edition listed is {found['listed_newest']['date']}, "
                             f"the KB's newest is {found['kb_newest']}", highlight=False)
            else:
                first = found["newer"][0]
                stdout.print(f"newer edition listed: {first['date']} ({first['url']}); the KB's newest is "
                             f"{found['kb_newest'] or 'none'} -- rulekb update (or rulekb build --add {first['url']})", highlight=False)
            return
        if list_known:
            known = [{"date": k.date, "url": k.url, "note": k.note} for k in fetching.known_editions()]
            if format is Format.json:
                emit_json(known)
            else:
                for k in known:
                    stdout.print(f"{k['date']}  {k['url']}", highlight=False)
            return
        targets = editions or [k.date for k in fetching.known_editions()]
        results = []
        for target in targets:
            url = fetching.resolve(target, mirror=mirror)
            path, downloaded = fetching.fetch_to_cache(url, cache=cache, force=force)
            results.append({"target": target, "url": url, "path": str(path), "downloaded": downloaded})
            if format is Format.text:
                verb = "downloaded" if downloaded else "cached"
                stdout.print(f"{verb} {target} -> {path}", highlight=False)
    if format is Format.json:
        emit_json(results)


def _fetch_cards(sources: list[str] | None, cache, format: Format) -> None:
    """``rulekb fetch --cards [URL]``: one card file into the cache, with a progress bar on a terminal."""
    from rulekb.ingest.card_fetch import fetch_cards

    if sources and len(sources) > 1:
        fail("fetch --cards takes one source at most (scryfall, mtgjson, a bulk-data list's URL or a card file's)")
    bar, _ = progress(None, "cards")
    said = [0]

    def step(url: str, done: int, total: int | None) -> None:
        name = url.rsplit("/", 1)[-1][:40] or url[:40]
        if stderr.is_terminal:
            bar.update(bar.task_ids[0], completed=done, total=total, description=f"cards {name}")
        elif done - said[0] >= 16 << 20:  # a log: a line every 16 MB
            said[0] = done
            of = f" of {total / 1e6:.1f}" if total else ""
            stderr.print(f"rulekb: fetch --cards: {name} {done / 1e6:.1f}{of} MB", markup=False, highlight=False)

    with bar:
        found = fetch_cards(sources[0] if sources else None, cache=cache, progress=step)
    if format is Format.json:
        emit_json(found)
    else:
        stdout.print(f"{found['cards']:,} cards ({found['shape']}) from {found['url']} -> {found['path']}", highlight=False)

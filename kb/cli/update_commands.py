"""``rulekb update``: bring the KB up to date with the official rules page."""

from __future__ import annotations

from pathlib import Path

import typer

from .app import Format, FormatOption, StoreOption, app
from .output import emit_json, errors_as_exit_codes, stage_progress, stdout

SHOWN = 12  # rule numbers listed per kind of change (the JSON has them all)


@app.command()
def update(
    store: str = StoreOption,
    site: str = typer.Option(None, "--site", help="The page listing the official texts (default: RULEKB_RULES_PAGE, else https://magic.wizards.com/en/rules)."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Say which editions would be downloaded and added; download and change nothing."),
    cache: Path = typer.Option(None, "--cache", help="Download directory (default: RULEKB_CACHE, else ~/.cache/rulekb)."),
    reasoner: str = typer.Option("auto", "--reasoner", help="As for rulekb build: hermit, owlrl, none or auto."),
    format: Format = FormatOption,
) -> None:
    """Download every edition the official rules page lists that is newer than the KB's, add each
    in date order, and say what changed (rules added, removed, renumbered, reworded; changes of
    meaning; cards touched) with its entry of the editions feed."""
    from .. import service

    with errors_as_exit_codes():
        if dry_run:
            report = service.update_kb(store, site, dry_run=True, cache=str(cache) if cache else None)
        else:
            with stage_progress("rulekb update") as reporter:
                report = service.update_kb(store, site, cache=str(cache) if cache else None, reasoner=reasoner,
                                           reporter=reporter)
            if report.added:  # the new editions' texts for the meaning arm of search, as after build --add
                from .search_commands import complete_dense

                complete_dense(service.open_store(store))
    if format is Format.json:
        emit_json(report.to_dict())
        return
    if not report.newer:
        stdout.print(f"up to date: the newest edition listed is {report.listed_newest}, the KB's newest is "
                     f"{report.kb_newest}", highlight=False)
        return
    if report.dry_run:
        for item in report.newer:
            stdout.print(f"would add en/{item['date']} from {item['url']}", highlight=False)
        stdout.print(f"(dry run: nothing downloaded; the KB's newest stays {report.kb_newest})", highlight=False)
        return
    for added in report.added:
        stdout.print(_added_text(added), highlight=False, markup=False)


def _added_text(added) -> str:
    lines = [f"added {added.edition} ({added.url}) after {added.previous or 'nothing'} in {added.seconds:.1f} s "
             f"({added.cpu_seconds:.1f} s CPU): {added.summary}"]
    for kind, label in added.labels.items():
        items = added.changes.get(kind) or []
        if not items:
            continue
        if kind == "meaning":
            shown = [f"{i.get('concept', '?').rsplit('/', 1)[-1]} ({i.get('meaning_kind', '')})" for i in items[:SHOWN]]
        elif kind in ("added",):
            shown = [i["new"] for i in items[:SHOWN]]
        elif kind in ("removed",):
            shown = [i["old"] for i in items[:SHOWN]]
        else:
            shown = [i["new"] if i["old"] == i["new"] else f"{i['old']} -> {i['new']}" for i in items[:SHOWN]]
        more = f" and {len(items) - SHOWN} more" if len(items) > SHOWN else ""
        lines.append(f"  {label}: {', '.join(str(s) for s in shown)}{more}")
    if added.cards is None:
        lines.append("  cards: the KB has no cards graph")
    else:
        lines.append(f"  cards touched: {added.cards['touched']}")
    lines.append("  feed entry (/feed/editions):")
    lines.append("  " + added.feed_xml)
    return "\n".join(lines)

"""``rulekb consistency [EDITION | --all]``: where an edition disagrees with itself.

An edition id reads back what the build found (kb.consistency, stored in the KB); a
source file (a draft) is checked now, with the reasoner (``--reasoner``)."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from .app import Format, FormatOption, LazyStore, StoreOption, app, edition_name
from .compare_commands import Reasoner, ReportKind
from .output import emit_json, errors_as_exit_codes, fail, stdout


@app.command()
def consistency(
    edition: str = typer.Argument(None, help="Edition id (e.g. en/2026-01-16), alias (en/latest), date "
                                  "(en@2010-03-15) or a rules source file (a draft)."),
    all_editions: bool = typer.Option(False, "--all", help="Every edition of the KB."),
    kind: list[str] = typer.Option(None, "--kind", help="Only this kind (repeatable): glossary-vs-rules, two-lists, "
                                   "defined-twice, citation-title, citation-range, citation-dangling, citation-obsolete, "
                                   "numbering, obsolete-term, undefined-keyword, reasoner."),
    report: ReportKind = typer.Option(None, "--report", help="Write a report for people instead: md or html."),
    reasoner: Reasoner = typer.Option(Reasoner.owlrl, "--reasoner",
                                           help="For a source file: the reasoner to fold in (the KB's editions "
                                                "carry the build's)."),
    store: str = StoreOption,
    format: Format = FormatOption,
) -> None:
    """Where an edition disagrees with itself: glossary against rules, two lists of one set, wrong citations,
    numbering, obsolete terms, the reasoner's inconsistencies; each finding cites both texts."""
    from .. import service

    if report is not None and format is Format.json:
        fail("--report and --format json are alternatives: choose one")
    if all_editions == bool(edition):
        fail("name one EDITION or give --all")
    with errors_as_exit_codes():
        if all_editions:
            results = service.consistency_all(LazyStore(store)(), kind or None)
        elif edition.endswith((".txt", ".html", ".htm", ".pdf", ".docx")) or Path(edition).is_file():
            results = [service.consistency_of_file(
                edition, kind or None, None if reasoner is Reasoner.none else reasoner.value)]
        else:
            opened = LazyStore(store)()
            results = [service.consistency(opened, edition_name(opened, edition).edition, kind or None)]
    if report is not None:
        from ..consistency.report import render

        sys.stdout.write(render(results, report.value))
    elif format is Format.json:
        emit_json(results if all_editions else results[0])
    else:
        _print_text(results)


def _print_text(results: list[dict]) -> None:
    def say(line: str = "") -> None:
        stdout.print(line, markup=False, highlight=False)

    for data in results:
        tally: dict[str, int] = {}
        for item in data["findings"]:
            tally[item["severity"]] = tally.get(item["severity"], 0) + 1
        counts = ", ".join(f"{n} {s}" for s, n in tally.items())
        say(f"{data['edition']}: {len(data['findings'])} findings" + (f" ({counts})" if counts else ""))
        for note in data.get("notes", ()):
            say(f"  note: {note}")
        for item in data["findings"]:
            say(f"  [{item['severity']}] {item['kind']}: {item['detail']}")
            say(f"    why: {item['why']}")
            for place, text in zip(item["rules"], item["texts"]):
                if text:
                    short = " ".join(text.split())
                    say(f"    {place}: {short[:200] + '…' if len(short) > 200 else short}")
        if len(results) > 1:
            say()

"""``rulekb diff OLD NEW`` and ``rulekb cite-check FILE --as-of EDITION``: what changed
between two editions, and which rule numbers in a text are stale.

Editions come from the KB (or source files) through :mod:`kb.rdf.stored_edition`; the
pairing is :mod:`kb.align`; reports for people reuse :mod:`kb.compare.report`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from .app import Format, FormatOption, LazyStore, StoreOption, app
from .compare_commands import EditionArgument, ReportKind
from .output import emit_json, errors_as_exit_codes, fail, stdout

KINDS = ("renumbered", "modified", "added", "removed", "split", "merged")


def _editions(names: list[str], opener: LazyStore):
    from .. import service
    from .app import note

    return [service.edition(name, opener, note) for name in names]


def _newest(opener: LazyStore, language: str) -> str:
    from .. import service

    rows = [r for r in service.run(opener(), "edition-graphs") if r["language"] == language and r.get("partial") != "true"]
    if not rows:
        fail(f"no complete {language} edition in the knowledge base: give --to")
    return rows[-1]["edition"]


@app.command()
def diff(
    old: str = typer.Argument(..., help=f"The older edition. {EditionArgument}"),
    new: str = typer.Argument(..., help=f"The newer edition. {EditionArgument}"),
    unchanged: bool = typer.Option(False, "--unchanged", help="List unchanged rules too."),
    report: ReportKind = typer.Option(
        None, "--report", help="A report for people instead: md or html, old and new text side by side, changed words marked."),
    store: str = StoreOption,
    format: Format = FormatOption,
) -> None:
    """What changed between two editions: every rule paired with its successor across renumbering
    (renumbered, modified, added, removed, split, merged, with a similarity), and the terms that changed."""
    from .. import service

    if report is not None and format is Format.json:
        fail("--report and --format json are alternatives: choose one")
    with errors_as_exit_codes():
        older, newer = _editions([old, new], LazyStore(store))
        data = service.diff(older, newer, unchanged=unchanged)
    if report is not None:
        from ..compare.report import render

        sys.stdout.write(render(service.diff_report(data, older, newer), report.value))
    elif format is Format.json:
        emit_json(data)
    else:
        counts = ", ".join(f"{n} {kind}" for kind, n in data["counts"].items() if n)
        stdout.print(f"{data['old']} -> {data['new']}: {counts}", highlight=False, markup=False)
        for change in data["changes"]:
            similarity = f"  ({change['similarity']:.2f})" if change["kind"] not in ("added", "removed") else ""
            stdout.print(f"  {change['kind']:10} {change['old'] or '-':>10} -> {change['new'] or '-':<10}{similarity}",
                         highlight=False, markup=False)
        for change in data["term_changes"]:
            stdout.print(f"  term: {change['old']} -> {change['new']} ({change['rules']} rules)", highlight=False, markup=False)


@app.command("cite-check")
def cite_check(
    file: Path = typer.Argument(..., help="A text or source file citing rules (\"CR 702.19b\", \"rule 111.2\", \"see 613.1f\"); - for stdin."),
    as_of: str = typer.Option(..., "--as-of", help=f"The edition the text was written against. {EditionArgument}"),
    to: str = typer.Option(None, "--to", help="The edition to check against (default: the newest of the same language)."),
    bare: bool = typer.Option(False, "--bare", help="Also take bare subrule numbers (\"702.19b\") without a cue word."),
    store: str = StoreOption,
    format: Format = FormatOption,
) -> None:
    """Stale rule citations: each CR citation of a text, with the number it has in the target edition, or that it was removed."""
    from ..service import cite_check as check_citations, cite_summary

    if str(file) == "-":
        text = sys.stdin.read()
    else:
        if not file.is_file():
            fail(f"no such file: {file}")
        raw = file.read_bytes()
        if b"\x00" in raw[:4096]:
            fail(f"{file} is not a text file")
        text = raw.decode("utf-8", errors="replace")
    with errors_as_exit_codes():
        opener = LazyStore(store)  # one store for both editions and the default target
        [older] = _editions([as_of], opener)
        target = to or _newest(opener, older.language)
        [newer] = _editions([target], opener)
        findings = check_citations(text, older, newer, bare=bare)
    data = {"file": str(file), "as_of": older.id, "to": newer.id, "counts": cite_summary(findings),
            "citations": [f.to_dict() for f in findings]}
    if format is Format.json:
        emit_json(data)
        return
    stdout.print(f"{len(findings)} citations of {older.id} checked against {newer.id}: "
                 + (", ".join(f"{n} {k}" for k, n in data["counts"].items()) or "none found"),
                 highlight=False, markup=False)
    for f in findings:
        if f.status == "unchanged":
            continue
        where = f"{file}:{f.line}:{f.column}"
        now = {"renumbered": f"now {f.new_number}", "modified": f"now {f.new_number}, text changed ({f.change or 'text'})",
               "removed": "removed", "not-in-edition": f"{older.id} has no rule {f.number}"}[f.status]
        stdout.print(f"  {where}: {f.cited!r} -> {now}", highlight=False, markup=False)

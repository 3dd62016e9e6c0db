"""``rulekb contradictions OLD NEW``: what two editions' definitions say differently.

The editions come from the KB (by id, :mod:`kb.rdf.stored_edition`) or from source files;
the comparison is :mod:`kb.compare`; ``--report md|html`` renders it for people through
:mod:`kb.compare.report` (the old and new rule side by side, changed words marked).
"""

from __future__ import annotations

import enum
import sys

import typer

from .app import Format, FormatOption, LazyStore, StoreOption, app
from .output import emit_json, errors_as_exit_codes, fail, stderr, stdout


class Reasoner(str, enum.Enum):
    none = "none"
    owlrl = "owlrl"
    hermit = "hermit"


class ReportKind(str, enum.Enum):
    md = "md"
    html = "html"


EditionArgument = ("Edition id (e.g. en/2009-05-01; rulekb editions lists them), alias (en/latest), "
                   "date (en@2010-03-15) or a rules source file.")


@app.command()
def contradictions(
    old: str = typer.Argument(..., help=f"The older edition. {EditionArgument}"),
    new: str = typer.Argument(..., help=f"The newer edition. {EditionArgument}"),
    reasoner: Reasoner = typer.Option(
        Reasoner.none, "--reasoner",
        help="Also reason over both editions' axioms together and report the clashes: owlrl (pure Python) "
        "or hermit (Java).",
    ),
    report: ReportKind = typer.Option(
        None, "--report",
        help="Write a report for people to stdout instead: md (Markdown) or html, each finding's old and new "
        "rule side by side with the changed words marked.",
    ),
    store: str = StoreOption,
    format: Format = FormatOption,
) -> None:
    """Contradictions and changes of meaning between two editions' definitions, and the terms that changed."""
    from .. import service

    if report is not None and format is Format.json:
        fail("--report and --format json are alternatives: choose one")
    with errors_as_exit_codes():
        from .app import note

        data = service.contradictions(old, new, LazyStore(store), None if reasoner is Reasoner.none else reasoner.value, note)
    if report is not None:
        from ..compare.report import contradictions_report, render

        sys.stdout.write(render(contradictions_report(data), report.value))
    elif format is Format.json:
        emit_json(data)
    else:
        _print_text(data)


def _short(text: str, limit: int = 240) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _where(side: dict) -> str:
    rule = f"rule {side['rule']}" if side.get("rule") else f"glossary: {side.get('term', '')}"
    return f"{rule} ({side['edition']})"


def _print_text(data: dict) -> None:
    def say(line: str = "") -> None:
        stdout.print(line, markup=False, highlight=False)

    items = data["items"]
    if data["old"] == data["new"]:
        say(f"{data['old']} and {data['new']} are the same edition: no changes")
        return
    tally = {}
    for item in items:
        tally[item["severity"]] = tally.get(item["severity"], 0) + 1
    counts = ", ".join(f"{n} {severity}" for severity, n in tally.items())
    say(f"{data['old']} -> {data['new']}: {len(items)} finding{'s' if len(items) != 1 else ''}"
        + (f" ({counts})" if counts else ""))
    for item in items:
        aspect = "" if item["aspect"] == "concept" else f" ({item['aspect']})"
        say()
        say(f"[{item['severity']}] {item['kind']}: {item['concept']}{aspect}")
        say(f"  {item['explanation']}")
        if item.get("removed"):
            say(f"  only in the old edition: {', '.join(item['removed'])}")
        if item.get("added"):
            say(f"  only in the new edition: {', '.join(item['added'])}")
        for axiom in item.get("axioms", ()):
            say(f"  axiom: {axiom}")
        for label in ("old", "new"):
            side = item[label]
            if side:
                say(f"  {label}: {_where(side)}: {_short(side['text'])}")
    changes = data["term_changes"]
    if changes:
        say()
        say("term changes (old term -> new term: rules where the new text puts one for the other):")
        for change in changes:
            say(f"  {change['old']} -> {change['new']}: {change['rules']} rules")
    if not items and not changes:
        say("no contradiction, change of meaning or term change found")
    if data.get("reasoner") is None and items:
        stderr.print("(--reasoner owlrl|hermit also reports the clashes of both editions' axioms)",
                     markup=False, highlight=False)

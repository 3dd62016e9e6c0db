"""``rulekb as-of | changes``.

How every command reads an edition name is :func:`kb.cli.app.edition_name` (it lived here):
what the commands taking an edition call (rule, history, export,
define, ask; diff, contradictions, cite-check and translation-report through
:func:`kb.rdf.stored_edition.load_edition`): ids, ``en/latest``, ``en@2010-03-15`` or ``--as-of``,
resolved by :mod:`kb.timeline.editions`; a name that is not an id is said on stderr with the
edition that answered and why.
"""

from __future__ import annotations

import typer

from .app import Format, FormatOption, LangOption, StoreOption, _store, app, edition_name, note  # noqa: F401  (edition_name's old home)
from .output import emit_json, errors_as_exit_codes, stdout

AsOfOption = typer.Option(None, "--as-of", help="A date (YYYY-MM-DD): the edition of that language in force on it.")


@app.command("as-of")
def as_of_command(
    number: str = typer.Argument(..., help="Rule number as printed on that date, e.g. 111.2."),
    date: str = typer.Argument(..., help="A date, YYYY-MM-DD, e.g. 2010-03-15."),
    lang: str = LangOption,
    store: str = StoreOption,
    format: Format = FormatOption,
) -> None:
    """What a rule said on a date: its wording then, the edition in force, what superseded it."""
    from .. import service

    with errors_as_exit_codes():
        data = service.rule_as_of(_store(store), number.strip().rstrip("."), date.strip(), lang)
    if format is Format.json:
        emit_json(data)
        return
    w = data["wording"]
    stdout.print(data["edition"]["reason"], markup=False, highlight=False)
    stdout.print(f"{data['number']}: {data['text']}", markup=False, highlight=False)
    span = f"{w['first']} .. {w['last']} ({w['editions']} editions)" if w["editions"] > 1 else w["first"]
    until = f"until {w['in_force_until']}" if w["in_force_until"] else "still in force"
    stdout.print(f"this wording: in force from {w['in_force_from']}, {until}; {span}", markup=False, highlight=False)
    after = data["superseded_by"]
    if after:
        stdout.print(f"superseded by {after['number']} of {after['edition']}", markup=False, highlight=False)
    elif data.get("ended"):
        ended = data["ended"]
        stdout.print(f"{ended['kind']} in {ended['edition']} (on {ended['date']})", markup=False, highlight=False)


@app.command("changes")
def changes_command(
    start: str = typer.Argument(..., help="From this date, exclusive (YYYY-MM-DD)."),
    end: str = typer.Argument(..., help="To this date, inclusive (YYYY-MM-DD)."),
    lang: str = LangOption,
    store: str = StoreOption,
    format: Format = FormatOption,
) -> None:
    """Every rule that changed between two dates: reworded, renumbered, added, split, removed, merged."""
    from collections import Counter

    from .. import service

    with errors_as_exit_codes():
        rows = service.rules_changed_between(_store(store), start.strip(), end.strip(), lang)
    if format is Format.json:
        emit_json(rows)
        return
    for row in rows:
        was = f" (was {row['previous_number']})" if row.get("previous_number") and row["previous_number"] != row["number"] else ""
        stdout.print(f"{row['date']}  {row['edition']}  {row['kind']:10}  {row['number']}{was}", markup=False, highlight=False)
    counts = Counter(row["kind"] for row in rows)
    stdout.print(f"{len(rows)} changes between {start} and {end}: "
                 + (", ".join(f"{n} {k}" for k, n in counts.most_common()) or "none"), markup=False, highlight=False)

"""``rulekb define`` and ``rulekb ask``: definitional answers with their rules."""

from __future__ import annotations

import typer

from .app import Format, FormatOption, StoreOption, _store, app, edition_name
from .output import emit_json, errors_as_exit_codes, stdout


@app.command()
def define(
    term: str = typer.Argument(..., help="A term in English or French, e.g. owner, supertype, propriétaire."),
    lang: str = typer.Option("en", "--lang", help="Prefer editions in this language (en | fr)."),
    edition: str = typer.Option(None, "--edition", help="Edition id, alias (en/latest) or date (en@2010-03-15) (default: the newest one that defines the term)."),
    store: str = StoreOption,
    format: Format = FormatOption,
) -> None:
    """Define a game concept: labels (en/fr), defining rules, broader/narrower/related concepts, historical names."""
    from ..service import asker

    with errors_as_exit_codes():
        opened = _store(store)
        resolution = edition_name(opened, edition, default_none=True)
        data = asker(opened).define(term, language=lang, edition=resolution.edition if resolution else None)
    if format is Format.json:
        emit_json(data)
        return
    labels = "; ".join(f"{lang}: {', '.join(values)}" for lang, values in data["labels"].items() if values)
    stdout.print(f"[bold]{term}[/bold]  {data['concept']}  ({labels})", highlight=False)
    if data["historical"]:
        stdout.print(f"formerly: {', '.join(data['historical'])}", markup=False)
    if data["glossary"]:
        stdout.print(f"glossary ({data['edition']}): {data['glossary']['definition']}", markup=False, highlight=False)
    for item in data["definitions"]:
        stdout.print(f"  {item['rule']}: {item['text']}", markup=False, highlight=False)
    for key in ("broader", "narrower", "related"):
        if data[key]:
            stdout.print(f"{key}: {', '.join(data[key])}", markup=False, highlight=False)


@app.command()
def ask(
    question: str = typer.Argument(..., help='A question in English or French, e.g. "Who owns a token?" or "Quels sont les sur-types ?"'),
    edition: str = typer.Option(None, "--edition", help="Edition id, alias (en/latest) or date (en@2010-03-15) (default: the newest one of the question's language that answers)."),
    store: str = StoreOption,
    format: Format = FormatOption,
) -> None:
    """Answer a definitional question with the rules that support the answer and the SPARQL used;
    any other question: the rules that most likely answer it (ranked search), exit 0."""
    from .. import service

    with errors_as_exit_codes():
        opened = _store(store)
        resolution = edition_name(opened, edition, default_none=True)
        data = service.ask(opened, question, edition=resolution.edition if resolution else None)
    if format is Format.json:
        emit_json(data)
    elif data.get("answer") is None:
        stdout.print(data["unknown"], markup=False, highlight=False)
        _print_cards(data)
        if data.get("rules"):
            stdout.print("the rules that most likely answer it:", markup=False, highlight=False)
            for hit in data["rules"]:
                stdout.print(f"  {hit['rule']} ({hit['edition']}): {hit['text'][:160]}", markup=False, highlight=False)
                if hit.get("why"):
                    stdout.print(f"      why: {'; '.join(hit['why'])}", markup=False, highlight=False)
    else:
        stdout.print(f"{data['answer']}", markup=False, highlight=False)
        for line in data.get("because", []):
            stdout.print(f"  because: {line}", markup=False, highlight=False)
        for line in data.get("explanation", []):
            stdout.print(f"  inferred from: {line}", markup=False, highlight=False)
        cited = ", ".join(f"{r['rule']} ({r['edition']})" for r in data["rules"])
        if cited:
            stdout.print(f"rules: {cited}", markup=False, highlight=False)
    if data.get("answer") is None and not data.get("rules"):
        raise typer.Exit(1)


def _print_cards(data: dict) -> None:
    """The cards the question names, with their Oracle text (kb.cards), before the rules."""
    for card in data.get("cards", []):
        how = "" if card["how"] in ("text", "brackets", "double brackets") else f"  (matched by {card['how']}: {card['asked']!r})"
        stdout.print(f"card: {card['name']}  {card['mana_cost']}  {card['type_line']}{how}", markup=False, highlight=False)
        for line in (card.get("text") or "").splitlines():
            stdout.print(f"    {line}", markup=False, highlight=False)
    if data.get("unknown_cards"):
        from .search_commands import unknown_cards_line

        stdout.print(unknown_cards_line(data["unknown_cards"], data.get("cards_note")), markup=False, highlight=False)

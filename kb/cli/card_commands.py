"""``rulekb card``: a card's Oracle text and the rules that govern it (kb.cards)."""

from __future__ import annotations

import typer

from .app import Format, FormatOption, StoreOption, _store, app
from .output import emit_json, errors_as_exit_codes, stdout


@app.command()
def card(
    name: str = typer.Argument(..., help='A card name, e.g. "Platinum Angel", a face\'s name, a legendary\'s short name ("Keranos"), or its French name where the card file has them.'),
    store: str = StoreOption,
    format: Format = FormatOption,
) -> None:
    """Show a card (Oracle text, types, keywords, ability shapes) and the rules that govern it, newest edition."""
    from .. import service

    with errors_as_exit_codes():
        data = service.card(_store(store), name)
    if format is Format.json:
        emit_json(data)
        return
    say = lambda text: stdout.print(text, markup=False, highlight=False)  # noqa: E731
    matched = "" if data["how"] == "name" else f"  (matched by {data['how']}: {data['asked']!r})"
    say(f"{data['name']}  {data['mana_cost']}{matched}")
    if data.get("name_fr"):
        say(f"French: {data['name_fr']}")
    say(f"{data['type_line']}")
    for face in data["faces"] or [{"text": data["text"]}]:
        if face.get("name"):
            french = f" ({face['name_fr']})" if face.get("name_fr") else ""
            say(f"-- {face['name']}{french}  {face.get('mana_cost', '')}  {face.get('type_line', '')}")
        for line in (face.get("text") or "").splitlines():
            say(f"  {line}")
    if data["keywords"]:
        say("keywords: " + ", ".join(f"{k['name']} ({k['rule']})" for k in data["keywords"]))
    if data["shapes"]:
        say("abilities: " + ", ".join(data["shapes"]))
    say(f"rules that govern it ({data['edition']}):")
    for rule in data["rules"]:
        say(f"  {rule['rule']:<8} {rule['why']:<32} {rule['text'][:110]}")
    say(data["iri"])

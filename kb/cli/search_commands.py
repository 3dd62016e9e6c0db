"""``rulekb search``: ranked rules for a question (kb.search through kb.service)."""

from __future__ import annotations

import typer

from .app import Format, FormatOption, StoreOption, _store, app, edition_name
from .output import emit_json, errors_as_exit_codes, fail, stdout


@app.command()
def search(
    query: str = typer.Argument(..., help='Words, a question or a rule number, e.g. "can a creature with summoning sickness block?"'),
    edition: str = typer.Option(None, "--edition", help="Search one edition: id, alias (en/latest) or date (en@2010-03-15) (default: the newest English one)."),
    all_editions: bool = typer.Option(False, "--all-editions", help="Every edition of the language: one hit per rule lineage, with the editions it holds in."),
    lang: str = typer.Option(None, "--lang", help="en (default) or fr (the French texts)."),
    limit: int = typer.Option(10, "--limit", min=1, max=100, help="Results to show (1-100)."),
    offset: int = typer.Option(0, "--offset", min=0, help="Skip this many results (the next page)."),
    store: str = StoreOption,
    format: Format = FormatOption,
) -> None:
    """Find the rules about a question: BM25 over every rule and glossary entry, fused with what the KB knows."""
    from .. import service

    if edition and all_editions:
        fail("--edition and --all-editions exclude each other")
    with errors_as_exit_codes():
        opened = _store(store)
        resolution = edition_name(opened, edition, default_none=True)  # en/latest, en@2010-03-15: said on stderr
        data = service.search(opened, query, edition=resolution.edition if resolution else None, lang=lang,
                              all_editions=all_editions,
                              limit=limit, offset=offset)
    if format is Format.json:
        emit_json(data)
        return
    print_results(data)


def print_results(data: dict) -> None:
    from rich.text import Text

    from ..service import snippet_segments as segments

    if not data["results"]:
        stdout.print(f"no rules found for {data['query']!r} in {data['edition']}", markup=False, highlight=False)
        return
    for i, hit in enumerate(data["results"], start=data.get("offset", 0) + 1):
        name = hit.get("rule") or f"glossary: {hit.get('term')}"
        where = hit["edition"]
        if hit.get("editions"):
            held = hit["editions"]
            where = held[0] if len(held) == 1 else f"{held[0]} … {held[-1]}, {len(held)} editions"
        line = Text(f"{i:>2}. ")
        line.append(name, style="bold")
        line.append(f"  ({where})  {hit['score']:.2f}")
        stdout.print(line)
        text = Text("    ")
        for piece, marked in segments(hit["snippet"]):
            text.append(piece, style="bold yellow" if marked else None)
        stdout.print(text)
        if hit.get("why"):
            stdout.print(Text("    why: " + "; ".join(hit["why"]), style="dim"))
    if data.get("more"):
        stdout.print(Text(f"more: --offset {data['offset'] + data['limit']}", style="dim"))

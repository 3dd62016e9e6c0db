"""How ``rulekb query`` prints: a table for people, SPARQL result formats for tools."""

from __future__ import annotations

import json
import sys


from .app import Format
from .output import emit_json, stdout


def print_listing(named: dict, checks: dict, format: Format) -> None:
    from rich.table import Table

    rows = [
        {"name": q.name, "title": q.title, "params": q.params, "description": q.description,
         "example": q.example, "check": q.check}
        for q in [*named.values(), *checks.values()]
    ]
    if format is Format.json:
        emit_json(rows)
        return
    table = Table(box=None, pad_edge=False)
    table.add_column("name", no_wrap=True)
    table.add_column("params")
    table.add_column("title")
    for row in rows:
        table.add_row(row["name"], " ".join(row["params"]), row["title"])
    stdout.print(table)


def print_results(store, query, bindings: dict, results: str) -> None:
    from rich.table import Table

    wanted = "json" if results == "table" else results
    answer = store.query(query.text, bindings, results_format=wanted if wanted != "turtle" else "json")
    if answer.kind == "graph" or results != "table":
        sys.stdout.buffer.write(answer.data)
        if not answer.data.endswith(b"\n"):
            sys.stdout.write("\n")
        return
    data = json.loads(answer.data)
    if "boolean" in data:
        stdout.print("yes" if data["boolean"] else "no")
        return
    variables = data["head"]["vars"]
    table = Table(box=None, pad_edge=False)
    for var in variables:
        table.add_column(var, overflow="fold")
    bindings_rows = data["results"]["bindings"]
    for row in bindings_rows:
        table.add_row(*[row.get(var, {}).get("value", "") for var in variables])
    stdout.print(table)
    stdout.print(f"{len(bindings_rows)} rows", highlight=False)

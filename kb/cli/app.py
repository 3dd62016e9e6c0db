"""The typer app and the options every command shares."""

from __future__ import annotations

import enum

import typer

app = typer.Typer(
    name="rulekb",
    help="Magic: The Gathering Comprehensive Rules, every edition, English and French: parse, build, query.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class Format(str, enum.Enum):
    text = "text"
    json = "json"


FormatOption = typer.Option(
    Format.text, "--format", "-f", help="Output: human-readable text, or JSON on stdout."
)

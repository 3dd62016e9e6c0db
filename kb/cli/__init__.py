"""The ``rulekb`` command: one typer app, one module per group of commands.

Conventions (DESIGN.md): ``--format json`` on every command, JSON on stdout,
diagnostics on stderr, exit 0 on success and 2 on bad input. Errors are turned
into one clear line in one place (:func:`kb.cli.output.fail`).
"""

from __future__ import annotations

from .app import app
from . import ask_commands, bench, build_bench, compare_commands, consistency_commands, diff_commands, ingest_commands, kb_commands, search_commands, serve_commands, timeline_commands, translate_commands  # noqa: F401  (register commands)


def main() -> None:
    app()

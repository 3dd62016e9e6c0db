"""The ``rulekb`` command: one typer app, one module per group of commands.

Conventions (DESIGN.md): ``--format json`` on every command, JSON on stdout,
diagnostics on stderr, exit 0 on success and 2 on bad input. Errors are turned
into one clear line in one place (:func:`kb.cli.output.fail`).
"""

from __future__ import annotations

from .app import app
# registered in this order, which is the order of ``rulekb --help``
from . import kb_commands, timeline_commands  # noqa: F401,I001  (register commands)
from . import ask_commands, compare_commands, consistency_commands, diff_commands, ingest_commands  # noqa: F401,I001
from . import search_commands, serve_commands, translate_commands, update_commands  # noqa: F401,I001
from . import card_commands  # noqa: F401,I001
from . import bench, bench_features, build_bench  # noqa: F401,I001


# the commands whose process is worth re-executing on jemalloc (kb.allocator): a build's
# bulk load frees millions of small keys (and `bench kb` times a build); a short command
# would pay a second start-up for nothing
_ON_JEMALLOC = (["build"], ["bench", "kb"])


def main() -> None:
    import sys

    if any(sys.argv[1:1 + len(command)] == command for command in _ON_JEMALLOC):
        from ..allocator import prefer_jemalloc

        prefer_jemalloc()
    app()

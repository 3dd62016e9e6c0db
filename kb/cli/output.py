"""Printing: JSON to stdout, tables and diagnostics through rich, errors in one place."""

from __future__ import annotations

import json
import os
import sys
from contextlib import contextmanager

import typer

from rulekb.kb.errors import RulekbError


class LazyConsole:
    """A rich Console made on first use: a command that prints JSON (or starts the
    server) never loads rich's console machinery (``rulekb search`` from a cold start)."""

    def __init__(self, **options):
        self._options, self._console = options, None

    @property
    def console(self):
        if self._console is None:
            from rich.console import Console

            self._console = Console(**self._options)
        return self._console

    def __getattr__(self, name: str):
        return getattr(self.console, name)


stdout = LazyConsole(soft_wrap=True)
stderr = LazyConsole(stderr=True, soft_wrap=True)

EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 1
EXIT_INTERRUPTED = 130


def exit_code(exc: BaseException) -> int:
    """The one place an exception becomes an exit code: any :class:`RulekbError`
    (bad input, a missing store, a refused query, whatever its HTTP-like status)
    is the user's to fix -- 2; an interrupt 130; anything else is a bug -- 1."""
    if isinstance(exc, RulekbError):
        return EXIT_BAD_INPUT
    if isinstance(exc, KeyboardInterrupt):
        return EXIT_INTERRUPTED
    return EXIT_INTERNAL


def emit_json(data) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2))
    sys.stdout.write("\n")


def fail(message: str, code: int = EXIT_BAD_INPUT) -> None:
    stderr.print(f"rulekb: error: {message}", markup=False, highlight=False)
    raise typer.Exit(code)


@contextmanager
def errors_as_exit_codes():
    """Turn domain errors into one line on stderr and exit 2 -- never a traceback."""
    try:
        yield
    except RulekbError as exc:
        fail(str(exc), exit_code(exc))
    except KeyboardInterrupt as exc:
        stderr.print("rulekb: interrupted")
        raise typer.Exit(exit_code(exc)) from None
    except (typer.Exit, typer.Abort):
        raise
    except Exception as exc:  # a bug, not bad input: say so in one line
        if os.environ.get("RULEKB_DEBUG"):
            raise
        stderr.print(
            f"rulekb: internal error: {type(exc).__name__}: {exc} (set RULEKB_DEBUG=1 for the traceback)",
            markup=False,
            highlight=False,
        )
        raise typer.Exit(exit_code(exc)) from None


def progress(total: int | None, description: str):
    """A progress bar on stderr for long work (silent when stderr is not a terminal)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=stderr.console,
        transient=True,
        disable=not stderr.is_terminal,
    )
    task = bar.add_task(description, total=total)
    return bar, lambda *_: bar.advance(task)


@contextmanager
def stage_progress(prefix: str):
    """A kb.progress Reporter for long staged work (the build): a bar per stage on a
    terminal; otherwise plain lines on stderr, one per stage and one at least every 10 s
    while a stage runs (``rulekb build: reason 37/123 en/2010-06-18 … 61.0 s``)."""
    from ..progress import LineReporter, Reporter

    if not stderr.is_terminal:
        reporter = LineReporter(sys.stderr, prefix=f"{prefix}: ")
        try:
            yield reporter
        finally:
            reporter.close()
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   console=stderr.console, transient=True)

    class Bars(Reporter):
        def __init__(self):
            self.tasks = {}

        def start(self, name, total):
            self.tasks[name] = bar.add_task(name, total=total)

        def step(self, name, done, total, note):
            if name not in self.tasks:
                self.start(name, total)
            bar.update(self.tasks[name], completed=done, total=total,
                       description=f"{name} {note}" if note else name)

        def finish(self, name, done, total, seconds):
            if name in self.tasks:
                bar.update(self.tasks[name], completed=done, total=total if total is not None else done,
                           description=name)

    with bar:
        yield Bars()

"""The one exception root of rulekb, and everything ingest refuses.

:class:`RulekbError` is the root of every error raised on purpose, in ``ingest``
and in ``kb`` (``kb.errors`` re-exports it): it carries a one-line ``message``
and an HTTP-like ``status``. It lives here because ``ingest`` is the bottom
layer (``ingest`` -> ``kb`` -> CLI/web). The CLI maps it to an exit code in one
place (``kb.cli.output.exit_code``), the web to an HTTP answer in one place
(``kb.web.errors.status_and_message``).

Every ingest error knows where it came from, so the CLI can print one clear line
(``source: message``) and exit 2 without a traceback.
"""

from __future__ import annotations


class RulekbError(Exception):
    """The root: a request rulekb refuses or cannot answer, said in one line.

    ``status`` is the HTTP status it stands for (400 unless a subclass or the
    raiser says otherwise); ``message`` the line shown to the user.
    """

    status = 400

    def __init__(self, message: str, *, status: int | None = None):
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status

    def __str__(self) -> str:
        return self.message


class IngestError(RulekbError):
    """Base class: bad input that ingest refuses to turn into an edition."""

    status = 400

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None):
        super().__init__(message)
        self.source = source
        self.line = line

    def __str__(self) -> str:
        where = self.source or ""
        if self.line is not None:
            where = f"{where}:{self.line}" if where else f"line {self.line}"
        return f"{where}: {self.message}" if where else self.message

    def with_source(self, source: str) -> "IngestError":
        if self.source is None:
            self.source = source
        return self


class EmptyInputError(IngestError):
    """The input has no bytes, or only whitespace."""


class BinaryInputError(IngestError):
    """The input is not text in any encoding we read (and not PDF/DOCX)."""


class UnsupportedFormatError(IngestError):
    """A container we recognise but cannot read (e.g. a zip that is not DOCX)."""


class NotRulesError(IngestError):
    """The input is text, but not a Comprehensive Rules document (or has no rules)."""


class FetchError(IngestError):
    """A URL could not be downloaded (offline, HTTP error, unknown edition)."""

"""One exception hierarchy for everything ingest refuses.

Every error knows where it came from, so the CLI can print one clear line
(``source: message``) and exit 2 without a traceback.
"""

from __future__ import annotations


class IngestError(Exception):
    """Base class: bad input that ingest refuses to turn into an edition."""

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
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

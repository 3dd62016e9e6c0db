"""ingest: sources (files, directories, URLs) -> the document model.

    >>> from rulekb.ingest import parse_bytes
    >>> [edition] = parse_bytes(data, "CR-2026-01-16.txt")   # doctest: +SKIP

Public entry points: :func:`parse_bytes` (one document -> its editions), :func:`parse_path`
(a file or a directory of documents), :func:`parse_source` (path or URL), and
:func:`ingest.render.round_trip`. Everything raises :class:`IngestError`
subclasses on bad input, never returns ``None``.
"""

from __future__ import annotations

from .errors import IngestError, NotRulesError

__all__ = ["Edition", "IngestError", "NotRulesError", "parse_bytes", "parse_path", "parse_source", "parse_many"]

# Why lazily: every error class of the project descends from ingest.errors, so importing any
# of them imports this package; the parsers (formats, layouts, bs4, pypdf...) are loaded only
# by a caller that parses (``rulekb search`` must not pay for them at start).
_LAZY = {"Edition": "model", "parse_bytes": "parse", "parse_path": "parse", "parse_source": "parse",
         "parse_many": "parse"}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value

"""ingest: sources (files, directories, URLs) -> the document model.

    >>> from ingest import parse_bytes
    >>> [edition] = parse_bytes(data, "CR-2026-01-16.txt")   # doctest: +SKIP

Public entry points: :func:`parse_bytes` (one document -> its editions), :func:`parse_path`
(a file or a directory of documents), :func:`parse_source` (path or URL), and
:func:`ingest.render.round_trip`. Everything raises :class:`IngestError`
subclasses on bad input, never returns ``None``.
"""

from __future__ import annotations

from .errors import IngestError, NotRulesError
from .model import Edition
from .parse import parse_bytes, parse_path, parse_source, parse_many

__all__ = ["Edition", "IngestError", "NotRulesError", "parse_bytes", "parse_path", "parse_source", "parse_many"]

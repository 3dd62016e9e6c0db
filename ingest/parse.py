"""Entry points: one document, a directory of documents, or a URL."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from . import combine, formats, layouts
from .errors import EmptyInputError, IngestError
from .model import Edition

# Files a directory walk reads; anything else (READMEs, manifests) is not a document.
DOCUMENT_SUFFIXES = (".txt", ".htm", ".html", ".pdf", ".docx")
MAX_BYTES = 64 * 1024 * 1024


@dataclass
class ParseResult:
    editions: list[Edition] = field(default_factory=list)
    failures: list[IngestError] = field(default_factory=list)


def parse_bytes(data: bytes, location: str) -> list[Edition]:
    """Parse one document's bytes into its editions (one, or one per language of
    a bilingual page). ``location`` names the document in messages and output."""
    try:
        if len(data) > MAX_BYTES:
            raise IngestError(f"input too large ({len(data)} bytes; the limit is {MAX_BYTES})")
        doc = formats.read(data, location)
        if not any(line.strip() for line in doc.lines):
            raise EmptyInputError("no text in the document")
        return layouts.parse(doc)
    except IngestError as exc:
        raise exc.with_source(location) from None
    except RecursionError:
        raise IngestError("document nested too deeply to read", source=location) from None


def parse_file(path: str | Path) -> list[Edition]:
    path = Path(path)
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        raise IngestError("is a directory; parse it with parse_path", source=str(path)) from None
    except OSError as exc:
        raise IngestError(f"cannot read: {exc.strerror or exc}", source=str(path)) from None
    return parse_bytes(data, str(path))


def document_files(directory: Path) -> list[Path]:
    found = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if not name.startswith(".") and name.lower().endswith(DOCUMENT_SUFFIXES):
                found.append(Path(root) / name)
    return found


def parse_path(path: str | Path, progress=None) -> ParseResult:
    """A file (one edition) or a directory (every document in it, pages of one
    edition combined). Failures are collected, not raised, for directories."""
    path = Path(path)
    if not path.exists():
        raise IngestError("no such file or directory", source=str(path))
    if not path.is_dir():
        return ParseResult(parse_file(path))
    result = ParseResult()
    files = document_files(path)
    if not files:
        raise IngestError("no rules documents (.txt, .html, .pdf, .docx) in this directory", source=str(path))
    for file in files:
        try:
            result.editions.extend(parse_file(file))
        except IngestError as exc:
            result.failures.append(exc)
        if progress:
            progress(file)
    result.editions = combine.combine(result.editions)
    return result


def parse_many(sources: list[str], progress=None, workers: int = 1) -> ParseResult:
    """Every source, parsed and combined. ``workers`` > 1 parses the documents of
    local sources in that many processes (the same results, in the same order)."""
    if workers > 1:
        return _parse_many_parallel(sources, progress, workers)
    result = ParseResult()
    for source in sources:
        one = parse_source(source, progress=progress)
        result.editions.extend(one.editions)
        result.failures.extend(one.failures)
    result.editions = combine.combine(result.editions)
    return result


def _parse_one(path: Path) -> tuple[list[Edition], IngestError | None]:
    try:
        return parse_file(path), None
    except IngestError as exc:
        return [], exc


def _parse_many_parallel(sources: list[str], progress, workers: int) -> ParseResult:
    """:func:`parse_many` with the files of local sources parsed in a process pool:
    a directory's failures collected, a single file's raised, as parse_path does."""
    from concurrent.futures import ProcessPoolExecutor

    plan: list[tuple[str, list[Path] | None]] = []  # (source, its files; None: parse it here)
    for source in sources:
        path = Path(source)
        if source.startswith(("http://", "https://")) or not path.exists():
            plan.append((source, None))
        elif path.is_dir():
            files = document_files(path)
            if not files:
                raise IngestError("no rules documents (.txt, .html, .pdf, .docx) in this directory", source=str(path))
            plan.append((source, files))
        else:
            plan.append((source, [path]))
    files = [f for _, group in plan if group for f in group]
    with ProcessPoolExecutor(max(1, min(workers, len(files) or 1))) as pool:
        parsed = iter(pool.map(_parse_one, files, chunksize=1))
        result = ParseResult()
        for source, group in plan:
            if group is None:
                one = parse_source(source, progress=progress)
            elif not Path(source).is_dir():
                editions, error = next(parsed)
                if progress:
                    progress(group[0])
                if error is not None:
                    raise error
                one = ParseResult(editions)
            else:
                one = ParseResult()
                for file in group:
                    editions, error = next(parsed)
                    one.editions.extend(editions)
                    if error is not None:
                        one.failures.append(error)
                    if progress:
                        progress(file)
                one.editions = combine.combine(one.editions)
            result.editions.extend(one.editions)
            result.failures.extend(one.failures)
    result.editions = combine.combine(result.editions)
    return result


def parse_source(source: str, progress=None) -> ParseResult:
    """A path or an http(s) URL."""
    if source.startswith(("http://", "https://")):
        from .download import download

        data, location = download(source)
        return ParseResult(parse_bytes(data, location))
    return parse_path(source, progress=progress)

"""Entry points: one document, a directory of documents, or a URL."""

from __future__ import annotations

import os
from contextlib import nullcontext
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from . import combine, formats, layouts
from .cache import ParsedDocuments
from .errors import EmptyInputError, IngestError
from .model import Edition

# Files a directory walk reads; anything else (READMEs, manifests) is not a document.
DOCUMENT_SUFFIXES = (".txt", ".htm", ".html", ".pdf", ".docx")
MAX_BYTES = 64 * 1024 * 1024


@dataclass
class ParseResult:
    editions: list[Edition] = field(default_factory=list)
    failures: list[IngestError] = field(default_factory=list)
    cached: int = 0  # documents read back from the cache (parse_many's ``cache``), not parsed


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
    return parse_bytes(_read(path), str(path))


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except IsADirectoryError:
        raise IngestError("is a directory; parse it with parse_path", source=str(path)) from None
    except OSError as exc:
        raise IngestError(f"cannot read: {exc.strerror or exc}", source=str(path)) from None


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


def parse_many(sources: list[str], progress=None, workers: int = 1,
               cache: ParsedDocuments | None = None) -> ParseResult:
    """Every source, parsed and combined. ``workers`` > 1 parses the documents of
    local sources in that many processes (the same results, in the same order).
    ``cache`` (:mod:`ingest.cache`): local documents parsed before with the same bytes
    and code are read back instead, and the others kept there once parsed."""
    if workers > 1 or cache is not None:
        return _parse_many_parallel(sources, progress, workers, cache)
    result = ParseResult()
    for source in sources:
        one = parse_source(source, progress=progress)
        result.editions.extend(one.editions)
        result.failures.extend(one.failures)
    result.editions = combine.combine(result.editions)
    return result


def _parse_one(path: Path, cache: ParsedDocuments | None = None) -> tuple[list[Edition], IngestError | None]:
    try:
        data = _read(path)
        editions = parse_bytes(data, str(path))
    except IngestError as exc:
        return [], exc
    if cache is not None:  # (in the worker that parsed it: the editions are not pickled twice)
        cache.store(cache.entry(str(path), data), editions)
    return editions, None


def _parse_many_parallel(sources: list[str], progress, workers: int,
                         cache: ParsedDocuments | None = None) -> ParseResult:
    """:func:`parse_many` with the files of local sources parsed in a process pool (or
    here, for one worker), those ``cache`` holds read back: a directory's failures
    collected, a single file's raised, as parse_path does."""
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
    entries = _cached_entries(files, cache)
    todo = [f for i, f in enumerate(files) if i not in entries]
    parse_one = partial(_parse_one, cache=cache)
    pool = ProcessPoolExecutor(min(workers, len(todo))) if workers > 1 and len(todo) > 1 else None
    with pool or nullcontext():
        # the misses go to the workers at once; the hits are read back here meanwhile
        fresh = iter(pool.map(parse_one, todo, chunksize=1) if pool else map(parse_one, todo))
        hits = [0]

        def in_order():
            for index, file in enumerate(files):
                if index not in entries:
                    yield next(fresh)
                elif (kept := cache.load(entries[index])) is not None:
                    hits[0] += 1
                    yield kept, None
                else:  # damaged since it was looked up: parse it here
                    yield parse_one(file)

        parsed = in_order()
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
        result.cached = hits[0]
    result.editions = combine.combine(result.editions)
    return result


def _cached_entries(files: list[Path], cache: ParsedDocuments | None) -> dict[int, Path]:
    """The index of every file ``cache`` holds, with its entry."""
    if cache is None or not cache.folder.is_dir():  # (a first build: no file is read twice)
        return {}
    found = {}
    for index, file in enumerate(files):
        try:
            entry = cache.entry(str(file), file.read_bytes())
        except OSError:  # the parse says why
            continue
        if entry.is_file():
            found[index] = entry
    return found


def parse_source(source: str, progress=None) -> ParseResult:
    """A path or an http(s) URL."""
    if source.startswith(("http://", "https://")):
        from .download import download

        data, location = download(source)
        return ParseResult(parse_bytes(data, location))
    return parse_path(source, progress=progress)

"""The parse stage's helpers: which documents, which parse cache, one text per edition."""

from __future__ import annotations

from pathlib import Path

from rulekb.ingest.model import Edition


FORMAT_PREFERENCE = {"txt": 0, "html": 1, "docx": 2, "pdf": 3}


def choose_editions(editions: list[Edition]) -> tuple[list[Edition], list[str]]:
    """One edition per id; say what was left out and why."""
    by_id: dict[str, list[Edition]] = {}
    for edition in editions:
        by_id.setdefault(edition.id, []).append(edition)
    chosen, skipped = [], []
    for eid, group in by_id.items():
        group.sort(key=lambda e: (e.partial, FORMAT_PREFERENCE.get(e.source.format, 9), -len(e.rules)))
        chosen.append(group[0])
        for other in group[1:]:
            skipped.append(f"{eid} from {other.source.location}: the same edition as {group[0].source.location}")
    chosen.sort(key=lambda e: (e.language, e.effective_date or "9999", e.id))
    return chosen, skipped


def parsed_documents():
    """Where the build keeps what it parsed ($RULEKB_CACHE/documents, rulekb.ingest.cache): the
    same bytes parsed by the same ingest code (and the same PDF, Word and HTML readers) are
    read back, not parsed again."""
    from importlib.metadata import version

    from rulekb.ingest.cache import ParsedDocuments

    from ..json_cache import cache_folder, code_digest

    readers = ",".join(f"{name} {version(name)}" for name in ("pypdf", "python-docx", "lxml", "beautifulsoup4"))
    code = code_digest("rulekb.ingest", "rulekb.ingest.formats", "rulekb.ingest.layouts")
    return ParsedDocuments.open(cache_folder("documents"), f"{code} {readers}")


def workers() -> int:
    """Processes for the independent parts of a build (parsing, reasoning, loading): one per CPU,
    or ``RULEKB_BUILD_WORKERS``."""
    from ..parallel import workers as configured

    return configured()


def document_count(sources: list[str]) -> int | None:
    """How many documents the parse stage reads (a URL or a file is one)."""
    from rulekb.ingest.parse import document_files

    count = 0
    for source in sources:
        path = Path(source)
        count += len(document_files(path)) if not source.startswith(("http://", "https://")) and path.is_dir() else 1
    return count

"""``rulekb fetch --cards``: download an Oracle card file into the cache.

The source is Scryfall's bulk-data list (its ``oracle_cards`` entry's ``download_uri``
is followed), MTGJSON's ``AtomicCards`` by name (``mtgjson``: its cards' French names too), or the
URL of a card file itself (MTGJSON's ``AtomicCards.json``, gzipped, xz or bzip2 compressed, or a
Scryfall bulk file). The download is streamed to a
temporary file with progress, read by :mod:`.cards` (nothing unreadable is kept), and
its cards are written, trimmed, to ``$RULEKB_CACHE/cards/oracle-cards.json.gz``
atomically: a failed or bad download leaves the previous card file as it was.
This is the only command that reaches the network for cards; the build reads the cache.
"""

from __future__ import annotations

import gzip
import json
import os
import tempfile
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

from . import cards as card_files
from .download import TIMEOUT_SECONDS, USER_AGENT, failures_said
from .errors import FetchError

BULK_LIST = "https://api.scryfall.com/bulk-data"  # Scryfall's list of bulk files (oracle_cards among them)
BULK_ENV = "RULEKB_CARDS_SOURCE"
# MTGJSON's AtomicCards, xz-compressed (its smallest form): Oracle text, keywords, and the French names
# Scryfall's oracle_cards lacks (each face's foreignData)
MTGJSON_ATOMIC = "https://mtgjson.com/api/v5/AtomicCards.json.xz"
NAMED = {"scryfall": None, "mtgjson": MTGJSON_ATOMIC}  # a source by name: None is the default (Scryfall's list)
CACHED = "oracle-cards.json.gz"
MAX_BYTES = 1 << 30
CHUNK = 1 << 20


def default_source() -> str:
    return os.environ.get(BULK_ENV) or BULK_LIST


def source_of(source: str | None) -> str:
    """The URL to download: ``source`` itself, a named source's (``scryfall``, ``mtgjson``), or the default."""
    if source is not None and source.strip().lower() in NAMED:
        return NAMED[source.strip().lower()] or default_source()
    return source or default_source()


def cards_cache(cache: Path | str | None = None) -> Path:
    from .fetch import cache_dir

    return cache_dir(cache) / "cards"


def fetch_cards(source: str | None = None, cache: Path | str | None = None,
                progress: Callable[[str, int, int | None], None] | None = None) -> dict:
    """Download the card file of ``source`` (default: Scryfall's bulk-data list) into the cache.
    ``progress(what, bytes so far, total or None)``. Returns what was done."""
    source = source_of(source)
    directory = cards_cache(cache)
    directory.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=directory, prefix=".fetch-") as scratch:
        first = Path(scratch) / "first"
        _download(source, first, progress)
        url = source
        listed = _bulk_entry(first)
        if listed is not None:
            url = listed
            data_path = Path(scratch) / "cards"
            _download(url, data_path, progress)
        else:
            data_path = first
        try:
            parsed = card_files.read(data_path)
        except card_files.CardFileError as exc:
            raise FetchError(f"downloaded, but not a card file: {exc.message}", source=url) from None
        target = directory / CACHED
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".part-")
        try:
            with os.fdopen(fd, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6, mtime=0) as out:
                out.write(json.dumps(card_files.to_json(parsed.cards), ensure_ascii=False).encode("utf-8"))
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    return {"source": source, "url": url, "shape": parsed.shape, "cards": len(parsed.cards), "path": str(target),
            "bytes": target.stat().st_size}


def _bulk_entry(path: Path) -> str | None:
    """The ``oracle_cards`` download URI when ``path`` is Scryfall's bulk-data list, else None."""
    if path.stat().st_size > 4 * 1024 * 1024:
        return None  # a list is a few kilobytes: this is the card file itself
    try:
        value = json.loads(path.read_bytes())
    except (ValueError, UnicodeDecodeError):
        return None
    if not (isinstance(value, dict) and value.get("object") == "list" and isinstance(value.get("data"), list)):
        return None
    entries = [e for e in value["data"] if isinstance(e, dict)]
    if entries and all(e.get("object") == "bulk_data" for e in entries):
        for entry in entries:
            if entry.get("type") == "oracle_cards" and isinstance(entry.get("download_uri"), str):
                return entry["download_uri"]
        raise FetchError("the bulk-data list has no oracle_cards entry", source=str(path))
    return None


def _download(url: str, target: Path, progress) -> None:
    if not url.startswith(("http://", "https://")):
        raise FetchError(f"only http(s) URLs can be fetched: {url!r}")
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT, "Accept": "application/json;q=0.9,*/*;q=0.8"})
    with failures_said(url):
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response, open(target, "wb") as out:
            total = response.headers.get("Content-Length")
            total = int(total) if total and total.isdigit() else None
            done = 0
            while True:
                chunk = response.read(CHUNK)
                if not chunk:
                    break
                done += len(chunk)
                if done > MAX_BYTES:
                    raise FetchError(f"download larger than {MAX_BYTES} bytes: refused", source=url)
                out.write(chunk)
                if progress:
                    progress(url, done, total)
            if total is not None and done < total:
                raise FetchError(f"download cut short ({done} of {total} bytes)", source=url)

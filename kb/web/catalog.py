"""The editions of the store, read once per store and kept: the pages ask for
them on every request (home, search's default, an edition's neighbours), and
counting every edition's rules takes a quarter of a second on the full KB.

A running server reads one store that never changes under it (a rebuild
writes a new data directory and swaps the link; the open store keeps its
own), so the list is cached for as long as the store object lives.
"""

from __future__ import annotations

import threading
import weakref

from .. import service
from ..errors import NotFound

_CACHE: "weakref.WeakKeyDictionary[object, list[dict]]" = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def editions(store) -> list[dict]:
    """``kb.service.editions``, oldest first by date within each language."""
    with _LOCK:
        found = _CACHE.get(store)
    if found is None:
        found = sorted(service.editions(store), key=lambda e: (e["language"], e.get("effective_date") or "", e["edition"]))
        with _LOCK:
            _CACHE[store] = found
    return found


def edition(store, edition_id: str) -> dict:
    for entry in editions(store):
        if entry["edition"] == edition_id:
            return entry
    raise NotFound(f"no edition {edition_id!r} in the knowledge base (the home page lists them)")


def newest(store, language: str = "en") -> str:
    """The newest complete edition of a language (the default of search)."""
    complete = [e for e in editions(store) if e["language"] == language and not e["partial"]]
    if not complete:
        raise NotFound(f"no complete {language} edition in the knowledge base")
    return complete[-1]["edition"]


def neighbours(store, edition_id: str) -> tuple[str | None, str | None]:
    """The complete editions of the same language just before and after this one."""
    entry = edition(store, edition_id)
    same = [e["edition"] for e in editions(store)
            if e["language"] == entry["language"] and (not e["partial"] or e["edition"] == edition_id)]
    index = same.index(edition_id)
    before = same[index - 1] if index > 0 else None
    after = same[index + 1] if index + 1 < len(same) else None
    return before, after

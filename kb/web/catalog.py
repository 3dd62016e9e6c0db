"""What the pages compute once from the KB and keep: the editions list (counting
every edition's rules takes a quarter of a second on the full KB), the concept
labels of an Asker, the VoID statistics.

Kept per store and per build (:meth:`kb.store.embedded.EmbeddedStore.build_id`): a
running server follows a rebuild (the store reopens on the new build), and
everything kept here is recomputed for it. A remote store has no build id:
kept for the life of the server.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable

from .. import service
from ..errors import NotFound

_MEMO: "weakref.WeakKeyDictionary[object, dict[str, tuple]]" = weakref.WeakKeyDictionary()
_LOCKS: "weakref.WeakKeyDictionary[object, dict[str, threading.Lock]]" = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def build_of(store) -> str | None:
    return store.build_id()


def per_build(store, name: str, compute: Callable):
    """``compute()`` once per store, build and ``name`` (concurrent first callers wait for it)."""
    build = build_of(store)
    with _LOCK:
        lock = _LOCKS.setdefault(store, {}).setdefault(name, threading.Lock())
    with lock:
        kept = _MEMO.get(store, {}).get(name)
        if kept is not None and kept[0] == build:
            return kept[1]
        value = compute()
        with _LOCK:
            _MEMO.setdefault(store, {})[name] = (build, value)
        return value


def editions(store) -> list[dict]:
    """``kb.service.editions``, oldest first by date within each language."""
    return per_build(store, "editions", lambda: sorted(
        service.editions(store), key=lambda e: (e["language"], e.get("effective_date") or "", e["edition"])))


def asker(store):
    """A :class:`kb.define.ask.Asker`: it loads every concept label once (a tenth of a second)."""
    from ..service import asker

    return per_build(store, "asker", lambda: asker(store))


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

"""The data behind ``/diff``, ``/translation`` and ``/contradictions``: the CLI's work, cached.

Every comparison is computed by the functions the commands use (``rulekb diff``,
``rulekb translation-report``, ``rulekb contradictions``); nothing here compares
text. What this module adds for the web:

- edition ids are checked against the KB's list *before* anything is loaded (the
  CLI's loaders also accept source file paths, which a web request must never name);
- results are kept per pair in a small LRU: reading two editions back and aligning
  them takes about a second (1.4 s for the 2009 restructure), a translation report
  with base detection about seven, so reloading a page, switching a filter or asking
  for the JSON reuses the work;
- the editions list is the catalog's (kb.web.catalog); results are kept per build of the store.
"""

from __future__ import annotations

import difflib
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Callable

from .. import service
from . import catalog
from .errors import WebError

PAIRS_KEPT = 4  # results kept per kind of comparison (a 2009 diff holds ~2 editions of text)


class LRU:
    """A few computed results by key; computing happens outside the lock (two requests
    for the same new pair may both compute it, which is harmless)."""

    def __init__(self, size: int = PAIRS_KEPT):
        self.size = size
        self.items: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key, compute: Callable):
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
                return self.items[key]
        value = compute()
        with self.lock:
            self.items[key] = value
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        return value


@dataclass
class DiffResult:
    data: dict  # the `rulekb diff` JSON with the unchanged pairs too, and term_changes
    older: object  # ingest.model.Edition
    newer: object
    seconds: float


@dataclass
class TranslationResult:
    data: dict  # the `rulekb translation-report` JSON
    french: object
    english: object
    seconds: float


class Comparisons:
    """One per app: the store, its editions list, and the caches."""

    def __init__(self, store):
        self.store = store
        self.diffs = LRU()
        self.translations = LRU()
        self.contradictions_cache = LRU()
        self.files = LRU()

    # -- editions ----------------------------------------------------------------

    def editions(self) -> list[dict]:
        return catalog.editions(self.store)

    def english(self) -> list[dict]:
        """Complete English editions, oldest first."""
        rows = [e for e in self.editions() if e["language"] == "en" and not e["partial"] and e["effective_date"]]
        return sorted(rows, key=lambda e: e["effective_date"])

    def french(self) -> list[dict]:
        """French editions that have rules (a translation report needs some), oldest first."""
        rows = [e for e in self.editions() if e["language"] == "fr" and e["rules"] > 0]
        return sorted(rows, key=lambda e: (e["effective_date"] or "9999", e["edition"]))

    def check(self, edition: str, what: str, rows: list[dict], link: Callable[[str], str]) -> str:
        """``edition`` when ``rows`` has it, else a 404 naming the nearest ids (linked by ``link``)."""
        ids = [r["edition"] for r in rows]
        if edition in ids:
            return edition
        near = difflib.get_close_matches(edition, ids, n=8, cutoff=0.0)
        shown = edition if len(edition) <= 80 else edition[:77] + "..."
        raise WebError(404, f"no {what} {shown!r} in the knowledge base "
                            f"({len(ids)} of them; nearest: {', '.join(near[:3]) or 'none'})",
                       [(name, link(name)) for name in near])

    # -- the comparisons -----------------------------------------------------------

    def diff(self, old: str, new: str) -> DiffResult:
        return self.diffs.get((catalog.build_of(self.store), old, new), lambda: self._diff(old, new))

    def _diff(self, old: str, new: str) -> DiffResult:
        started = time.perf_counter()
        older = service.stored_edition(self.store, old)
        newer = older if new == old else service.stored_edition(self.store, new)
        data = service.diff(older, newer, unchanged=True)  # as `rulekb diff --unchanged`
        return DiffResult(data, older, newer, time.perf_counter() - started)

    def translation(self, fr: str, us: str) -> TranslationResult:
        return self.translations.get((catalog.build_of(self.store), fr, us), lambda: self._translation(fr, us))

    def _translation(self, fr: str, us: str) -> TranslationResult:
        started = time.perf_counter()
        # the arguments are ids checked against the KB's list, never file paths
        data, french, english = service.translation([fr], us, "auto", self.store)
        return TranslationResult(data, french, english, time.perf_counter() - started)

    def download(self, kind: str, fr: str, us: str) -> str:
        """A translators' file of ``fr`` against ``us`` (ids checked against the KB's list)."""
        return self.files.get((catalog.build_of(self.store), kind, fr, us), lambda: self._download(kind, fr, us))

    def _download(self, kind: str, fr: str, us: str) -> str:
        if kind in ("xliff", "xliff-omegat"):
            text, _ = service.translation_xliff([fr], us, "auto", self.store, copy_source=kind == "xliff-omegat")
        elif kind == "tmx":
            text, _ = service.translation_memory([fr], None, self.store)
        elif kind == "tmx-current":
            text, _ = service.translation_memory([fr], us, self.store)
        else:
            text, _ = service.termbase(service.term_pairs(), self.store)
        return text  # characters XML cannot carry were dropped (the CLI says how many)

    def contradictions(self, old: str, new: str) -> dict:
        return self.contradictions_cache.get((catalog.build_of(self.store), old, new),
                                           lambda: self._contradictions(old, new))

    def _contradictions(self, old: str, new: str) -> dict:
        started = time.perf_counter()
        data = service.contradictions(old, new, self.store, None)
        data["seconds"] = round(time.perf_counter() - started, 2)
        return data

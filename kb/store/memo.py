"""A bounded memo of values read from a store, valid for one build of that store.

Why it exists: the test suite and a ``rulekb serve`` process read the same things from the
KB again and again -- the translation report of every French text reads the newest English
edition back (six queries, about half a second for a whole edition) and the rows of its
lineages -- while the KB they read does not change between two builds.

How it stays right:

- each value is kept under the build the store reads (:meth:`kb.store.kind.Store.build_id`,
  an embedded store's data directory): a rebuild swaps the directory in, the build id
  changes, every later read misses and reads the new KB; nothing of the old build is served;
- only for an embedded store (one with a ``local_root``) that names its build: a remote
  endpoint's content may change under the same name, a store in memory names no build -- both
  are read every time;
- at most ``size`` values, the least recently used dropped first;
- ``copies=True`` (mutable values, such as an :class:`ingest.model.Edition` a caller may
  change): kept pickled, each caller gets its own copy (a pickle's round trip costs a tenth of
  the queries); ``copies=False``: kept and handed out as they are, for immutable values only
  (a tuple of tuples of strings).

Safe across threads (a server's worker threads share one memo). Two threads missing the same
key at once both read it: the second value read replaces the first, equal to it.
"""

from __future__ import annotations

import pickle
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")
_MISSING = object()  # (a kept value may be None or empty: a miss is this)


def build_of(store) -> str | None:
    """The build a memo keeps ``store``'s values under; None: not kept (a remote endpoint,
    a store in memory, a plain Oxigraph directory that names no build)."""
    return store.build_id() if getattr(store, "local_root", None) is not None else None


class BuildMemo:
    """At most ``size`` values read from stores, each kept under the build it was read from."""

    def __init__(self, size: int, copies: bool = True):
        self.size, self.copies = size, copies
        self._entries: OrderedDict[tuple[str, Hashable], Any] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, store, key: Hashable, read: Callable[[], T]) -> T:
        """The value of ``key`` for the build ``store`` reads: kept, or ``read()`` now (and kept)."""
        build = build_of(store)
        if build is None:
            return read()
        entry = (build, key)
        with self._lock:
            found = self._entries.get(entry, _MISSING)
            if found is not _MISSING:
                self._entries.move_to_end(entry)
        if found is not _MISSING:
            return pickle.loads(found) if self.copies else found
        value = read()
        kept = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL) if self.copies else value
        with self._lock:
            self._entries[entry] = kept
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return value

    def clear(self) -> None:
        """Forget every value (as a new process would)."""
        with self._lock:
            self._entries.clear()

"""Memory a server process keeps, bounded in bytes: an LRU of strings keyed by a digest.

The caches of a rule page (the rendered rows of a history, the word diffs of a lineage's
wordings) are pure functions of texts. Kept in ``functools.lru_cache`` they were bounded by
entries only, and each key held its texts: for one pass over an edition's rule pages the
history rows' keys (every field of a period, the wording's text among them) and the texts
they kept alive weighed about as much as the rows themselves (23 MB of rows, 30 MB more of
keys and texts, in one process). Here a key is a 16-byte digest of its parts and a value a
plain string, counted in bytes: what a process holds is the stated bound, whatever the
texts. Plain strings and bytes are objects the garbage collector does not track (a full
collection does not walk the cache: a pause in a page's latency).

Safe across threads (a page rendered in a worker thread shares the cache with the event loop).
"""

from __future__ import annotations

import hashlib
import sys
import threading
from collections import OrderedDict

_STR_OVERHEAD = sys.getsizeof("")  # what a str costs besides its characters (about 49 bytes)
_ENTRY_OVERHEAD = 100 + 33  # the ordered dict's node and the digest's bytes object


def digest(*parts: str) -> bytes:
    """16 bytes naming ``parts`` (each part's length is hashed too: ("ab", "c") != ("a", "bc"))."""
    h = hashlib.blake2b(digest_size=16)
    for part in parts:
        data = part.encode("utf-8", "surrogatepass")
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.digest()


def cost(value: str | bytes) -> int:
    """Bytes an entry of ``value`` holds: its characters (or bytes), their object and the entry's."""
    return sys.getsizeof(value) + _ENTRY_OVERHEAD


class Kept:
    """An LRU of strings (or bytes) by digest, at most ``max_entries`` and ``max_bytes``."""

    def __init__(self, max_entries: int, max_bytes: int):
        self.max_entries, self.max_bytes = max_entries, max_bytes
        self._entries: OrderedDict[bytes, str | bytes] = OrderedDict()
        self.bytes = 0
        self.hits = self.misses = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: bytes):
        with self._lock:
            value = self._entries.get(key)
            if value is None:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self.hits += 1
            return value

    def put(self, key: bytes, value) -> None:
        size = cost(value)
        if size > self.max_bytes:
            return  # larger than the whole cache: not kept
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self.bytes -= cost(old)
            self._entries[key] = value
            self.bytes += size
            while len(self._entries) > self.max_entries or self.bytes > self.max_bytes:
                _, dropped = self._entries.popitem(last=False)
                self.bytes -= cost(dropped)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.bytes = 0

    cache_clear = clear  # (the name functools.lru_cache gives it)

    def info(self) -> dict:
        return {"entries": len(self._entries), "bytes": self.bytes, "max_entries": self.max_entries,
                "max_bytes": self.max_bytes, "hits": self.hits, "misses": self.misses}


def memoised(kept: Kept, function):
    """``function(*texts) -> str`` computed once per distinct ``texts`` while ``kept`` holds it;
    the wrapper has ``cache_clear`` and ``kept``."""

    def wrapper(*parts: str):
        key = digest(*parts)
        found = kept.get(key)
        if found is None:
            found = function(*parts)
            kept.put(key, found)
        return found

    wrapper.cache_clear = kept.clear
    wrapper.kept = kept
    wrapper.__wrapped__ = function
    wrapper.__doc__ = function.__doc__
    return wrapper

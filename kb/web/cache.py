"""A response cache for the pages and the dereferenced IRIs: an ASGI middleware.

The KB is read-only between rebuilds, so a rendered GET answer (status, headers,
body) stays right until the store changes. Kept in an LRU bounded by entries and
bytes, per process, keyed by path + query string + the Accept header (answers
are negotiated on it: ``Vary: Accept``); a very long Accept is not cached.

- Valid while the store is the same: the embedded store's ``current`` symlink
  target, read at most once a second (a rebuild swaps it atomically); a change
  empties the cache. A store that has no such target (a remote one) is not cached.
- Cached: 200 and 404 answers only (a 404 for a missing IRI is as stable as a
  page); never other errors, nor answers that set cookies or say ``no-store``,
  nor bodies over ``max_body``, nor ``/static`` (files). ``GET /sparql``
  answers are cached too unless ``sparql=False``: for a read-only store a
  query's answer is as stable as a page (timeouts are 503: never kept).
- Concurrent misses of one key compute it once (the others wait for it).
- Every cached 200 carries a strong ``ETag`` and ``Cache-Control: public,
  max-age=...``; a matching ``If-None-Match`` gets 304 without a body.

Wiring (in :func:`kb.web.app.create_app`)::

    return with_response_cache(app, store)
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import time
from collections import OrderedDict

SKIPPED_PREFIXES = ("/static/",)
MAX_ACCEPT = 256  # characters of Accept we key on; longer: not cached


# A kept answer is a plain tuple, (status, headers, body, etag), the headers a tuple of
# (name, value) pairs of bytes: the garbage collector stops tracking a tuple that holds only
# such values (a level of tuples per collection that sees it), so a full cache adds nothing
# to what a full collection walks (an object per
# answer, its __dict__ and its list of headers did: 12,000 objects for the rule pages of one
# edition, a full collection of 14 ms CPU stopping every request of the process).
STATUS, HEADERS, BODY, ETAG = range(4)


def entry(status: int, headers: list[tuple[bytes, bytes]], body: bytes, etag: bytes | None) -> tuple:
    return (status, tuple((bytes(k), bytes(v)) for k, v in headers), body, etag)


def size(entry: tuple) -> int:
    return len(entry[BODY]) + sum(len(k) + len(v) for k, v in entry[HEADERS]) + 64


class StoreVersion:
    """What identifies the store's content: its ``current`` symlink target, re-read at most once a second."""

    def __init__(self, store, every: float = 1.0):
        self.store = store
        self.every = every
        self._checked = float("-inf")
        self._value: str | None = None

    def get(self) -> str | None:
        now = time.monotonic()
        if now - self._checked >= self.every:
            self._checked = now
            self._value = self._read()
        return self._value

    def _read(self) -> str | None:
        try:
            data = self.store.data_dir()  # None for a remote store: its content can change under us
        except OSError:
            return None
        if data is None:
            return None
        try:
            return f"{data}:{os.stat(data).st_ino}"
        except OSError:
            return None


class ResponseCache:
    """ASGI middleware: ``ResponseCache(app, store)``."""

    def __init__(self, app, store, *, max_entries: int = 4096, max_bytes: int = 64_000_000,
                 max_body: int = 2_000_000, max_age: int = 300, sparql: bool = True):
        self.app = app
        self.skipped = SKIPPED_PREFIXES if sparql else (*SKIPPED_PREFIXES, "/sparql")
        self.version = StoreVersion(store)
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.max_body = max_body
        self.cache_control = f"public, max-age={max_age}".encode()
        self.entries: OrderedDict[tuple, tuple] = OrderedDict()  # key -> entry()
        self.bytes = 0
        self._version_seen: str | None = None
        self.hits = self.misses = 0
        self.pending: dict[tuple, asyncio.Event] = {}  # answers being computed, by key

    def __getattr__(self, name):  # app.state, app.routes... of the wrapped app
        return getattr(self.app, name)

    @property
    def answer_now(self):
        """What kb.web.protocol may ask without an ASGI cycle: the wrapped app's lookups when
        ``/sparql`` is not cached here; else None (a cached answer has its ETag and Cache-Control)."""
        return getattr(self.app, "answer_now", None) if "/sparql" in self.skipped else None

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "GET" or scope["path"].startswith(self.skipped):
            return await self.app(scope, receive, send)
        headers = dict(scope["headers"])
        accept = headers.get(b"accept", b"")
        version = self.version.get()
        if version is None or len(accept) > MAX_ACCEPT:
            return await self.app(scope, receive, send)
        if version != self._version_seen:
            self.clear()
            self._version_seen = version
        # the host and scheme too: an answer may print absolute URLs (the service description does)
        key = (scope.get("scheme"), headers.get(b"host", b"")[:MAX_ACCEPT], scope.get("root_path", ""),
               scope["path"], scope.get("query_string", b""), accept)
        if key in self.pending:  # the same answer is being computed: wait for it rather than compute it again
            await self.pending[key].wait()
        kept = self.entries.get(key)
        if kept is not None:
            self.entries.move_to_end(key)
            self.hits += 1
            return await self._reply(kept, headers.get(b"if-none-match"), send)
        self.misses += 1
        done = self.pending.setdefault(key, asyncio.Event())
        try:
            await self._fill(key, scope, receive, send, headers.get(b"if-none-match"))
        finally:
            if self.pending.get(key) is done:
                del self.pending[key]
            done.set()

    def clear(self) -> None:
        self.entries.clear()
        self.bytes = 0

    async def _fill(self, key, scope, receive, send, if_none_match: bytes | None) -> None:
        """Run the app, buffering its answer; keep it when cacheable. A body over
        ``max_body`` goes out as it comes, uncached."""
        start: dict | None = None
        chunks: list[bytes] = []
        size = 0
        streaming = False

        async def capture(message):
            nonlocal start, size, streaming
            if streaming:
                return await send(message)
            if message["type"] == "http.response.start":
                start = message
                return
            if message["type"] != "http.response.body":
                return await send(message)
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if message.get("more_body", False) and size > self.max_body:
                streaming = True  # too big to keep: send what we have and pass the rest through
                await send(start)
                await send({"type": "http.response.body", "body": b"".join(chunks), "more_body": True})
                return
            if not message.get("more_body", False):
                await self._finish(key, start, b"".join(chunks), if_none_match, send)

        await self.app(scope, receive, capture)

    async def _finish(self, key, start: dict, body: bytes, if_none_match: bytes | None, send) -> None:
        status = start["status"]
        headers = [(k.lower(), v) for k, v in start.get("headers", [])]
        names = {k for k, _ in headers}
        cache_control = dict(headers).get(b"cache-control", b"")
        cacheable = (status in (200, 404) and b"set-cookie" not in names and b"no-store" not in cache_control
                     and len(body) <= self.max_body)
        if not cacheable:
            await send(start)
            await send({"type": "http.response.body", "body": body})
            return
        etag = None
        if status == 200:
            etag = b'"' + hashlib.blake2b(body, digest_size=12).hexdigest().encode() + b'"'
            headers = [(k, v) for k, v in headers if k not in (b"etag", b"cache-control")]
            headers += [(b"etag", etag), (b"cache-control", self.cache_control)]
        if b"vary" not in names:
            headers.append((b"vary", b"Accept"))
        made = entry(status, headers, body, etag)
        self._store(key, made)
        await self._reply(made, if_none_match, send)

    def _store(self, key, made: tuple) -> None:
        self.entries[key] = made
        self.bytes += size(made)
        while self.entries and (len(self.entries) > self.max_entries or self.bytes > self.max_bytes):
            _, old = self.entries.popitem(last=False)
            self.bytes -= size(old)

    @staticmethod
    async def _reply(kept: tuple, if_none_match: bytes | None, send) -> None:
        etag = kept[ETAG]
        if etag is not None and if_none_match is not None and _matches(if_none_match, etag):
            headers = [(k, v) for k, v in kept[HEADERS] if k in (b"etag", b"cache-control", b"vary")]
            await send({"type": "http.response.start", "status": 304, "headers": headers})
            await send({"type": "http.response.body", "body": b""})
            return
        await send({"type": "http.response.start", "status": kept[STATUS], "headers": kept[HEADERS]})
        await send({"type": "http.response.body", "body": kept[BODY]})


def _matches(if_none_match: bytes, etag: bytes) -> bool:
    if if_none_match.strip() == b"*":
        return True
    tags = [t.strip() for t in if_none_match.split(b",")]
    return etag in tags or b"W/" + etag in tags


def with_response_cache(app, store, **options):
    """``app`` behind a :class:`ResponseCache` (once: an app already behind one is returned as it is)."""
    if isinstance(app, ResponseCache):
        return app
    return ResponseCache(app, store, **options)

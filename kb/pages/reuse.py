"""A rebuild of the same KB takes the previous build's page data instead of writing it again.

Why: the page data is a function of what the store holds (every row is a named query's answer
over its quads), of the code that asks and writes (this package, :mod:`kb.store`, the ``--base
auto`` evidence's code and labels: :func:`kb.translate.kept.computed_by`), of the named queries'
texts and of pyoxigraph. Writing it is the build's last stage and one of its longest (about
20 s of a 62 s warm rebuild of the full KB: a dozen queries over the whole KB, then some
1,000 batches of keys, all waiting on two worker processes). A warm rebuild of unchanged
sources loads the very same quads, so it would write the very same file.

How: :class:`Inputs` hashes the N-Quads the build streams into the store (the load stage's
chunks, as they pass; about 1 s of CPU for the full KB's, beside the loader) with all of the
above, and the digest is kept in the file's ``meta`` table (``inputs``). Before writing, the
pages stage looks for a file beside the store carrying the same digest -- the previous build's,
which is removed once the new build's is in place -- and, when there is one, copies it under
the new build's name with its ``meta`` naming the new build (:func:`reused`). Any other quad,
query text, code or pyoxigraph version, and the file is written whole, as before. A file
brought up to date by ``build --add`` (:mod:`.incremental`) carries no digest: it is never
taken for another build's. The test compares a reused file with one written fresh for the
same build, table by table (``tests/test_pages_reuse.py``).

The last files written with a digest are also kept in the cache (``$RULEKB_CACHE``'s
``page-data``, :data:`CACHE_BYTES` of them at most, the newest always), as the other stages keep
what they computed: a build of the same KB into another directory (a new store, a test's
temporary one) copies the file from there.

Blank nodes: the ontology's are labelled afresh at each parse, so each chunk's blank node
labels are numbered in order of first appearance before hashing (the same quads in the same
order give the same digest).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import sqlite3
import time
from pathlib import Path

KEY = "inputs"  # the meta row holding the digest
CACHE = "page-data"  # the cache folder of the files last written (kb.json_cache.cache_folder)
CACHE_BYTES = 512 * 1024 * 1024  # the most it keeps: the full KB's file is ~130 MB, a fixture KB's ~1 MB
_SHARED = b"/graph/statements> .\n"  # how a quad of the shared statements graph ends (kb.rdf.statements)
_BLANK = re.compile(rb"(?<!\S)_:([A-Za-z0-9_\-.]+)")  # a blank node label where a term starts


class Inputs:
    """The digest of what a build's page data is computed from: :meth:`fed` every N-Quads chunk
    the store is loaded with, in order, then :meth:`digest`."""

    def __init__(self) -> None:
        self._hash = hashlib.sha256()
        self._chunks = 0
        self._shared: set[bytes] = set()  # the statements graph's lines, a set: see :meth:`fed`

    def fed(self, chunk: bytes) -> bytes:
        """Hash ``chunk`` (N-Quads bytes) and give it back (the loader's stream passes through).
        The quads of the shared statements graph (``<BASE/graph/statements>``) are kept apart, as
        a set: a worker writes a statement's content once for all the editions it serialised
        (kb.rdf.statements), so which part repeats which content depends on which worker took
        which part -- the store holds them once either way."""
        if _SHARED in chunk:
            chunk_hashed = self._without_shared(chunk)
        else:
            chunk_hashed = chunk
        if b"_:" in chunk_hashed:
            labels: dict[bytes, bytes] = {}
            chunk_hashed = _BLANK.sub(lambda m: b"_:b" + labels.setdefault(m.group(1), str(len(labels)).encode()),
                                      chunk_hashed)
        self._hash.update(len(chunk_hashed).to_bytes(8, "big"))
        self._hash.update(chunk_hashed)
        self._chunks += 1
        return chunk

    def _without_shared(self, chunk: bytes) -> bytes:
        """``chunk`` without its lines in the statements graph, which join :attr:`_shared`
        (found with bytes.find: C speed over the chunk, Python per line found only)."""
        kept, start, at = [], 0, chunk.find(_SHARED)
        while at >= 0:
            line_start = chunk.rfind(b"\n", 0, at) + 1
            line_end = at + len(_SHARED)
            self._shared.add(chunk[line_start:line_end])
            kept.append(chunk[start:line_start])
            start = line_end
            at = chunk.find(_SHARED, start)
        kept.append(chunk[start:])
        return b"".join(kept)

    def digest(self) -> str | None:
        """The digest of the chunks fed and of the code, queries and pyoxigraph; None when no
        chunk passed (a build that did not stream its quads: its file is written whole)."""
        if not self._chunks:
            return None
        final = self._hash.copy()
        for line in sorted(self._shared):
            final.update(line)
        final.update(b"\0" + code().encode())
        return final.hexdigest()[:32]


def code() -> str:
    """The digest of what turns a store into page data, beside the store's quads: this package
    (its layout), kb.store, what computes the ``--base auto`` evidence the build keeps in it
    (:func:`kb.translate.kept.computed_by`'s packages and the ontology's labels: read here by
    name, not imported, for the page data not to import the translation's code), the named
    queries' texts and pyoxigraph's version."""
    import pyoxigraph as ox

    from rulekb.ontology import turtle

    from ..json_cache import code_digest
    from ..store import queries

    h = hashlib.sha256()
    h.update(code_digest("rulekb.kb.pages", "rulekb.kb.store", "rulekb.kb.translate", "rulekb.ingest",
                         "rulekb.kb.rdf").encode())
    h.update(turtle().encode("utf-8", "surrogatepass"))
    for name, query in sorted({**queries.registry(), **queries.checks()}.items()):
        h.update(f"\0{name}\0{query.text}".encode())
    h.update(f"\0{ox.__version__}".encode())
    return h.hexdigest()


def reused(target: Path, inputs: str | None, build: str, prefix: str = "pages-") -> dict | None:
    """When a page data file beside ``target`` (``prefix`` ... ``.sqlite``: the previous build's) was
    written for ``inputs``:
    a copy of it at ``target``, its meta naming ``build``, and the figures
    :func:`kb.pages.data.write` returns (``"reused"``: the file copied); else None (nothing
    written)."""
    if inputs is None:
        return None
    started = time.perf_counter()
    cached = _cache() / f"{inputs}.sqlite"
    beside = sorted(target.parent.glob(f"{prefix}*.sqlite"), key=_newest_first)
    for other in beside + ([cached] if cached.is_file() else []):
        if other == target or _inputs_of(other) != inputs:
            continue
        partial = target.with_name(f".{target.name}.{os.getpid()}")
        try:
            shutil.copyfile(other, partial)
            db = sqlite3.connect(partial)
            try:
                db.execute("UPDATE meta SET value = ? WHERE key = 'build'", (build,))
                keys, placed = db.execute("SELECT COUNT(*), SUM(flags & 1) FROM rules").fetchone()
                lineages = db.execute("SELECT COUNT(*) FROM lineages").fetchone()[0]
                db.commit()
            finally:
                db.close()
            os.replace(partial, target)
        except (OSError, sqlite3.Error):
            partial.unlink(missing_ok=True)
            continue  # unreadable, or gone meanwhile: the next, or written whole
        return {"file": str(target), "bytes": target.stat().st_size, "keys": keys, "lineages": lineages,
                "rules_placed": placed or 0, "seconds": round(time.perf_counter() - started, 1),
                "reused": other.name}
    return None


def remember(path: Path, inputs: str | None) -> None:
    """Keep a copy of the file just written for ``inputs`` in the cache (:data:`CACHE`), then
    drop the oldest copies past :data:`CACHE_BYTES` (never the newest). A cache that cannot be
    written is no error: it costs a later build time, not correctness."""
    if inputs is None:
        return
    folder = _cache()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        partial = folder / f".{inputs}.{os.getpid()}.tmp"
        shutil.copyfile(path, partial)
        os.replace(partial, folder / f"{inputs}.sqlite")
        kept = 0
        for i, old in enumerate(sorted(folder.glob("*.sqlite"), key=_newest_first)):
            kept += old.stat().st_size
            if i and kept > CACHE_BYTES:  # (the newest stays, whatever its size)
                old.unlink(missing_ok=True)
    except OSError:
        pass


def _cache() -> Path:
    from ..json_cache import cache_folder

    return cache_folder(CACHE)


def _newest_first(path: Path) -> float:
    try:
        return -path.stat().st_mtime
    except OSError:
        return 0.0


def _inputs_of(path: Path) -> str | None:
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            found = db.execute("SELECT value FROM meta WHERE key = ?", (KEY,)).fetchone()
        finally:
            db.close()
    except sqlite3.Error:
        return None
    return found[0] if found else None

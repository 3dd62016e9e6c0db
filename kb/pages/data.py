"""Writing and reading the page data of a build (see the package doc)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pyoxigraph as ox

from ..store import queries
from . import changes

# the rule page's named queries answered per lineage: (edition, number) -> ?rule -> ?lineage,
# and nothing else of ?rule after that anchor
LINEAGE_QUERIES = ("lineage-versions", "rule-in-french")
PREFIX = "pages-"
BATCH = 200  # lineages evaluated per query text (one VALUES block)
_WHERE = re.compile(r"\bWHERE\s*\{(?!\s*SELECT\b)", re.IGNORECASE)
_SELECT = re.compile(r"\bSELECT(\s+DISTINCT)?\s", re.IGNORECASE)


def companion(data_dir: Path) -> Path:
    """The page data file that goes with a build's data directory."""
    name = data_dir.name
    return data_dir.with_name(PREFIX + (name[len("data-"):] if name.startswith("data-") else name) + ".sqlite")


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# -- writing (the build) ---------------------------------------------------------------


def write(store, progress: Callable[[str], None] | None = None, target: Path | None = None,
          total: Callable[[int], None] | None = None) -> dict:
    """Write the page data of ``store``'s current build (an embedded store) beside it (or
    into ``target``); returns {"file", "bytes", "keys", "lineages", "seconds"} ({} for a
    remote store). ``progress(message)`` hears each step: the anchor query, then each batch
    of lineages of each query; ``total(steps)`` is told how many there are once it is known."""
    if store.local_root is None:
        if total is not None:
            total(0)  # nothing to write: a remote store's pages ask it
        return {}
    started = time.perf_counter()
    data_dir = store.data_dir()
    beside = target is None
    target = companion(data_dir) if beside else Path(target)
    anchors = queries.run(store, "page-lineages")
    if progress is not None:
        progress(f"pages anchors {len(anchors)} rule versions")
    by_key: dict[tuple[str, str], set[str]] = {}
    for row in anchors:
        by_key.setdefault((row["edition"], row["number"]), set()).add(row["lineage"])
    single = {key: next(iter(found)) for key, found in by_key.items() if len(found) == 1}
    representative: dict[str, tuple[str, str]] = {}
    for key, lineage in sorted(single.items()):
        representative.setdefault(lineage, key)
    if total is not None:
        total(2 + len(LINEAGE_QUERIES) * -(-len(representative) // BATCH))
    partial = target.with_name(f".{target.name}.{os.getpid()}")
    partial.unlink(missing_ok=True)
    db = sqlite3.connect(partial)
    try:
        db.executescript("""
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
            CREATE TABLE rule_lineage (edition TEXT, number TEXT, lineage TEXT,
                                       PRIMARY KEY (edition, number)) WITHOUT ROWID;
            CREATE TABLE lineage_rows (lineage TEXT, query TEXT, rows BLOB,
                                       PRIMARY KEY (lineage, query)) WITHOUT ROWID;
        """)
        # several lineages for one key: NULL, the page asks the store
        db.executemany("INSERT INTO rule_lineage VALUES (?, ?, ?)",
                       [(e, n, single.get((e, n))) for (e, n) in by_key])
        db.executemany("INSERT INTO meta VALUES (?, ?)",
                       [("build", data_dir.name), *((f"query:{name}", _digest(queries.get(name).text))
                                                    for name in LINEAGE_QUERIES)])
        lineages = sorted(representative)
        for name in LINEAGE_QUERIES:
            for start in range(0, len(lineages), BATCH):
                chunk = lineages[start:start + BATCH]
                rows = batch_rows(store, name, [representative[lineage] for lineage in chunk])
                db.executemany("INSERT INTO lineage_rows VALUES (?, ?, ?)",
                               [(lineage, name, json.dumps(rows.get(representative[lineage], []),
                                                           ensure_ascii=False, separators=(",", ":")))
                                for lineage in chunk])
                if progress is not None:
                    progress(f"pages {name} {min(start + BATCH, len(lineages))}/{len(lineages)} lineages")
        changed = changes.write(db, store)
        db.execute("INSERT INTO meta VALUES (?, ?)", (changes.digest_key(), _digest(queries.get(changes.QUERY).text)))
        if progress is not None:
            progress(f"pages {changes.QUERY} {changed} rows")
        db.commit()
    except BaseException:
        db.close()
        partial.unlink(missing_ok=True)
        raise
    db.close()
    os.replace(partial, target)  # whole, under the build's own name
    for old in data_dir.parent.glob(f"{PREFIX}*.sqlite") if beside else ():
        if old != target and not (data_dir.parent / ("data-" + old.name[len(PREFIX):-len(".sqlite")])).exists():
            old.unlink(missing_ok=True)  # a build that is gone
    return {"file": str(target), "bytes": target.stat().st_size, "keys": len(by_key),
            "lineages": len(lineages), "seconds": round(time.perf_counter() - started, 1)}


def batch_rows(store, name: str, keys: list[tuple[str, str]]) -> dict[tuple[str, str], list[dict]]:
    """The rows of the named query ``name`` for each (edition, number) of ``keys``, as one
    query: its own text, with ?edition and ?number projected and a VALUES block of every
    key opening each WHERE (as kb.store.kind.bind_values binds one key). Each key's rows
    come in the query's order (a key's rows are a subsequence of the sorted whole)."""
    text = queries.get(name).text
    head = "?edition ?number " if not re.search(r"SELECT[^{]*\?number\b", text) else "?edition "
    text = _SELECT.sub(lambda m: f"SELECT{m.group(1) or ''} {head}", text, count=1)
    block = "VALUES (?edition ?number) { " + " ".join(
        f"({ox.Literal(e)} {ox.Literal(n)})" for e, n in keys) + " }"
    text = _WHERE.sub(lambda m: f"{m.group(0)}\n  {block}\n", text)
    out: dict[tuple[str, str], list[dict]] = {}
    for row in store.select(text):
        key = (row.pop("edition"), row.pop("number"))
        out.setdefault(key, []).append(row)
    return out


# -- reading (the web) -----------------------------------------------------------------


class PageData:
    """One build's page data, opened read-only (thread-safe: one connection, one lock)."""

    def __init__(self, path: Path):
        self.path = path
        self._db = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True, check_same_thread=False)
        self._lock = threading.Lock()
        with self._lock:
            meta = dict(self._db.execute("SELECT key, value FROM meta"))
        # only the queries whose text is still the one the rows came from
        self.answers = {name for name in LINEAGE_QUERIES
                        if meta.get(f"query:{name}") == _digest(queries.get(name).text)}
        # the rows of rules-changed-between, if written for the query's text of today
        self.has_changes = meta.get(changes.digest_key()) == _digest(queries.get(changes.QUERY).text)

    def rows(self, name: str, edition: str, number: str) -> list[dict] | None:
        """The rows ``name`` gives for (edition, number), or None: ask the store."""
        if name not in self.answers:
            return None
        with self._lock:
            found = self._db.execute("SELECT lineage FROM rule_lineage WHERE edition = ? AND number = ?",
                                     (edition, number)).fetchone()
            if found is None:
                return []  # no lineage: the query's anchor matches nothing
            if found[0] is None:
                return None
            row = self._db.execute("SELECT rows FROM lineage_rows WHERE lineage = ? AND query = ?",
                                   (found[0], name)).fetchone()
        return json.loads(row[0]) if row is not None else None

    def changes(self, first: str, last: str, language: str | None) -> list[dict] | None:
        """The rows ``rules-changed-between`` gives for (first, last], or None: ask the store."""
        if not self.has_changes:
            return None
        with self._lock:
            return changes.window(self._db, first, last, language)

    def changes_per_date(self, first: str, last: str, language: str | None) -> list[dict] | None:
        """The rows ``changes-per-date`` gives for (first, last], or None: ask the store."""
        if not self.has_changes:
            return None
        with self._lock:
            return changes.per_date(self._db, first, last, language)

    def close(self) -> None:
        with self._lock:
            self._db.close()


_OPEN: dict[str, PageData | None] = {}  # build (data directory) -> its page data, None: not there
_LOOKED: dict[str, float] = {}
_LOCK = threading.Lock()
LOOK_EVERY = 1.0  # seconds between looks for a file not (yet) written


def for_store(store) -> PageData | None:
    """The page data of the build ``store`` reads now, or None (remote store, not written yet)."""
    if getattr(store, "local_root", None) is None:
        return None
    try:
        build = store.build_id()
    except Exception:  # noqa: BLE001 - no store: the queries say so
        return None
    if build is None:
        return None
    found = _OPEN.get(build)
    if found is not None:
        return found
    now = time.monotonic()
    with _LOCK:
        if build in _OPEN and _OPEN[build] is not None:
            return _OPEN[build]
        if now - _LOOKED.get(build, float("-inf")) < LOOK_EVERY:
            return None
        _LOOKED[build] = now
        path = companion(Path(build))
        opened = None
        if path.is_file():
            try:
                opened = PageData(path)
            except sqlite3.Error:
                opened = None
        for other in [b for b in _OPEN if b != build]:  # an older build's file: closed
            old = _OPEN.pop(other)
            if old is not None:
                old.close()
        _OPEN[build] = opened
        return opened


class PagedStore:
    """``store`` for one rule's page: the named queries the page data holds are answered
    from it for exactly (edition, number); everything else goes to ``store``."""

    def __init__(self, store, data: PageData, edition: str, number: str):
        self._store, self._data = store, data
        self._key = {"edition": edition, "number": number}
        self._texts = {queries.get(name).text: name for name in data.answers}

    def select(self, sparql: str, bindings: dict | None = None):
        name = self._texts.get(sparql)
        if name is not None and bindings == self._key:
            rows = self._data.rows(name, self._key["edition"], self._key["number"])
            if rows is not None:
                return rows
        return self._store.select(sparql, bindings)

    def __getattr__(self, attribute):
        return getattr(self._store, attribute)


def paged(store, edition: str, number: str, use: bool = True):
    """The store a rule page reads: :class:`PagedStore` when the build has page data."""
    data = for_store(store) if use else None
    return PagedStore(store, data, edition, number) if data is not None else store

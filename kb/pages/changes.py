"""The rows of ``rules-changed-between`` for every date, kept in the page data.

Why: the named query costs Oxigraph about 60 µs of CPU a row (seven lookups a row, ~9 µs
each in RocksDB), so a long window -- 1999-2026 is 21,000 rows -- takes over a second however
the query is written. The build runs it once over all dates and keeps its rows here, in the
query's order, indexed by date: any window is then one range read (a few ms for 21,000 rows).
The query stays the one SPARQL users run; the rows here are its rows, and a file written for
another text of the query is not used (its hash is kept, as for the lineage queries).
"""

from __future__ import annotations

import json
import sqlite3

from ..store import queries

QUERY = "rules-changed-between"
ALL = {"from": "0000-01-01", "to": "9999-12-31"}  # every date (the window is (from, to])


def every_row(store) -> list[dict]:
    """The query's rows over every date: what :func:`write` keeps."""
    return queries.run(store, QUERY, **ALL)


def write(db: sqlite3.Connection, rows: list[dict]) -> int:
    """Create and fill the ``changes`` table of the page data being written with ``rows``
    (:func:`every_row`'s); returns how many."""
    db.executescript("""
        CREATE TABLE changes (seq INTEGER PRIMARY KEY, language TEXT, date TEXT, row TEXT);
        CREATE INDEX changes_by_date ON changes (date, language);
    """)
    # seq keeps the query's own order (date, edition, number): a window's rows come back in it
    db.executemany("INSERT INTO changes VALUES (?, ?, ?, ?)",
                   [(seq, (row.get("edition") or "")[:2], row["date"],
                     json.dumps(row, ensure_ascii=False, separators=(",", ":")))
                    for seq, row in enumerate(rows)])
    return len(rows)


def _where(first: str, last: str, language: str | None) -> tuple[str, tuple]:
    if language is None:
        return "date > ? AND date <= ?", (first, last)
    return "date > ? AND date <= ? AND language = ?", (first, last, language)


def window(db: sqlite3.Connection, first: str, last: str, language: str | None) -> list[dict]:
    """The rows the named query gives for (first, last] and ``language`` (None: every one)."""
    where, args = _where(first, last, language)
    return [json.loads(text) for (text,) in db.execute(f"SELECT row FROM changes WHERE {where} ORDER BY seq", args)]


def per_date(db: sqlite3.Connection, first: str, last: str, language: str | None) -> list[dict]:
    """What ``changes-per-date`` gives: ``[{"date", "changes"}]``, oldest first (counted here
    from the same rows, so a page's rows and the counts always agree)."""
    where, args = _where(first, last, language)
    return [{"date": date, "changes": str(n)}
            for date, n in db.execute(f"SELECT date, COUNT(*) FROM changes WHERE {where} GROUP BY date ORDER BY date", args)]

"""Each English rule version's scoring evidence, kept in the page data (the tables; what is kept
and why: :mod:`kb.translate.kept`, which computes it).

Three tables: ``feature_sets`` (one row per distinct evidence, as JSON), ``rule_features``
((edition, number) -> its row) and ``feature_editions`` (the editions every scored rule of which
has its row). The meta key :data:`META` holds the digest of what computed them (the scoring
code and the ontology's labels): a file whose digest is not today's is not read.
"""

from __future__ import annotations

import sqlite3

META = "features_digest"


def digest(db: sqlite3.Connection) -> str | None:
    """The digest the file's evidence was computed under (None: it keeps none)."""
    found = db.execute("SELECT value FROM meta WHERE key = ?", (META,)).fetchone()
    return found[0] if found else None


def clear(db: sqlite3.Connection) -> None:
    """Drop whatever evidence the file keeps (computed by other code: all of it is computed again)."""
    db.executescript("DROP TABLE IF EXISTS feature_sets; DROP TABLE IF EXISTS rule_features; "
                     "DROP TABLE IF EXISTS feature_editions;")
    db.execute("DELETE FROM meta WHERE key = ?", (META,))


def write(db: sqlite3.Connection, computed_by: str, editions: list[str], rows: list[tuple[str, str, str]]) -> int:
    """Add ``rows`` ((edition, number, evidence as JSON)) of ``editions`` (each whole) to the file
    being written, under the digest ``computed_by`` (the file's, if it has one: the caller
    clears a file of another); returns how many distinct evidences are new."""
    db.executescript("""
        CREATE TABLE IF NOT EXISTS feature_sets (id INTEGER PRIMARY KEY, data TEXT);
        CREATE TABLE IF NOT EXISTS rule_features (edition TEXT, number TEXT, features INTEGER,
                                                  PRIMARY KEY (edition, number)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS feature_editions (edition TEXT PRIMARY KEY) WITHOUT ROWID;
    """)
    ids = {data: i for i, data in db.execute("SELECT id, data FROM feature_sets")}
    added, free = [], max(ids.values(), default=-1) + 1
    for _, _, data in rows:
        if data not in ids:
            ids[data] = free
            added.append((free, data))
            free += 1
    db.executemany("INSERT INTO feature_sets VALUES (?, ?)", added)
    db.executemany("INSERT OR REPLACE INTO rule_features VALUES (?, ?, ?)",
                   [(edition, number, ids[data]) for edition, number, data in rows])
    db.executemany("INSERT OR REPLACE INTO feature_editions VALUES (?)", [(e,) for e in editions])
    db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (META, computed_by))
    return len(added)


def held(db: sqlite3.Connection, editions: list[str]) -> set[str]:
    """Which of ``editions`` have their evidence kept."""
    try:
        return {e for e in editions
                if db.execute("SELECT 1 FROM feature_editions WHERE edition = ?", (e,)).fetchone()}
    except sqlite3.OperationalError:  # no such table: nothing kept
        return set()


def read(db: sqlite3.Connection, where: str, values: list[str]) -> tuple[list[tuple[str, str, int]], dict[int, str]]:
    """The rule versions of the condition ``where`` (on ``edition`` and ``number``) with their
    evidence's row, by edition then number, and each of those rows' JSON once."""
    keys = db.execute(f"SELECT edition, number, features FROM rule_features WHERE {where} "
                      "ORDER BY edition, number", values).fetchall()
    wanted = sorted({found for _, _, found in keys})
    sets: dict[int, str] = {}
    for start in range(0, len(wanted), 500):
        chunk = wanted[start:start + 500]
        sets.update(db.execute(f"SELECT id, data FROM feature_sets WHERE id IN ({','.join('?' * len(chunk))})",
                               chunk))
    return keys, sets

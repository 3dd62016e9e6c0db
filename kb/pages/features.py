"""Each English rule version's scoring evidence, kept in the page data (the tables; what is kept
and why: :mod:`kb.translate.kept`, which computes it).

Three tables: ``feature_sets`` (one row per distinct evidence, as JSON), ``section_features``
((edition, section) -> [[number, evidence row], ...] for each rule of the section, a section
being a number's part before its first dot: scoring reads a few sections of many editions, and
one row a section is 380 rows to read where one a rule was 64,000) and ``feature_editions`` (the
editions every scored rule of which has its row). The meta key :data:`META` holds the digest of what computed them (the scoring
code and the ontology's labels): a file whose digest is not today's is not read.
"""

from __future__ import annotations

import json
import sqlite3

META = "features_digest"


def digest(db: sqlite3.Connection) -> str | None:
    """The digest the file's evidence was computed under (None: it keeps none)."""
    found = db.execute("SELECT value FROM meta WHERE key = ?", (META,)).fetchone()
    return found[0] if found else None


def clear(db: sqlite3.Connection) -> None:
    """Drop whatever evidence the file keeps (computed by other code: all of it is computed again)."""
    db.executescript("DROP TABLE IF EXISTS feature_sets; DROP TABLE IF EXISTS section_features; "
                     "DROP TABLE IF EXISTS feature_editions;")
    db.execute("DELETE FROM meta WHERE key = ?", (META,))


def write(db: sqlite3.Connection, computed_by: str, editions: list[str], rows: list[tuple[str, str, str]]) -> int:
    """Add ``rows`` ((edition, number, evidence as JSON)) of ``editions`` (each whole) to the file
    being written, under the digest ``computed_by`` (the file's, if it has one: the caller
    clears a file of another); returns how many distinct evidences are new."""
    db.executescript("""
        CREATE TABLE IF NOT EXISTS feature_sets (id INTEGER PRIMARY KEY, data TEXT);
        CREATE TABLE IF NOT EXISTS section_features (edition TEXT, section TEXT, rules TEXT,
                                                     PRIMARY KEY (edition, section)) WITHOUT ROWID;
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
    sections: dict[tuple[str, str], list] = {}
    for edition, number, data in rows:
        sections.setdefault((edition, number.split(".")[0]), []).append([number, ids[data]])
    db.executemany("INSERT OR REPLACE INTO section_features VALUES (?, ?, ?)",
                   [(edition, section, json.dumps(rules, ensure_ascii=False, separators=(",", ":")))
                    for (edition, section), rules in sections.items()])
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


def read(db: sqlite3.Connection, editions: list[str],
         sections: set[str] | None = None) -> tuple[list[tuple[str, list]], dict[int, str]]:
    """``([(edition, [[number, evidence row], ...]), ...], {evidence row: its JSON})``: the rules
    of ``editions`` (of ``sections`` only, when given), a section at a time, by edition then
    section, and each evidence they have once."""
    where, values = f"edition IN ({','.join('?' * len(editions))})", list(editions)
    if sections is not None:
        where += f" AND section IN ({','.join('?' * len(sections))})"
        values += sorted(sections)
    keys = [(edition, json.loads(rules)) for edition, rules in db.execute(
        f"SELECT edition, rules FROM section_features WHERE {where} ORDER BY edition, section", values)]
    wanted = sorted({found for _, rules in keys for _, found in rules})
    sets: dict[int, str] = {}
    for start in range(0, len(wanted), 500):
        chunk = wanted[start:start + 500]
        sets.update(db.execute(f"SELECT id, data FROM feature_sets WHERE id IN ({','.join('?' * len(chunk))})",
                               chunk))
    return keys, sets

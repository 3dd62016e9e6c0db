"""Every rule's examples, kept in the page data: what ``--base auto`` scores them with.

Why: to say which English edition a French text translates, the report scores candidate
editions rule by rule (:mod:`kb.translate.candidates`), and a rule's examples are part of its
evidence. Asked of the store (named query ``edition-examples-flagged``, a VALUES block of the
candidate editions), they cost an undated text scored against all 127 English editions about
0.6 s of CPU, a third of its first export. The build runs the query once over the whole KB
(about 1 s of CPU, beside the page data's other queries) and keeps its rows here, grouped by
rule and in the query's order (an example's position in its rule), each distinct list of
examples once (26,900 examples of 21,000 rule versions are 1,700 distinct texts); ``build
--add`` asks the same query for the appended edition alone. The query's text is hashed into the
file as for the page's queries: a file written for another text is not read (the candidates then
ask the store, as before).
"""

from __future__ import annotations

import json
import sqlite3

from ..store import queries

QUERY = "edition-examples-flagged"


def every_row(store) -> list[dict]:
    """The query's rows for every edition: what :func:`write` keeps."""
    return store.select(queries.get(QUERY).text)


def write(db: sqlite3.Connection, rows: list[dict]) -> int:
    """Create the two tables of the page data being written (when missing) and add ``rows``
    (:func:`every_row`'s, or one edition's); returns how many rule versions have examples."""
    db.executescript("""
        CREATE TABLE IF NOT EXISTS example_sets (id INTEGER PRIMARY KEY, texts TEXT);
        CREATE TABLE IF NOT EXISTS examples (edition TEXT, number TEXT, example_set INTEGER,
                                             PRIMARY KEY (edition, number)) WITHOUT ROWID;
    """)
    grouped: dict[tuple[str, str], list[str]] = {}
    for row in rows:  # (the query's order: each rule's examples by their position)
        grouped.setdefault((row["edition"], row["number"]), []).append(row["text"])
    ids = {texts: i for i, texts in db.execute("SELECT id, texts FROM example_sets")}
    added, free = [], max(ids.values(), default=-1) + 1
    for texts in grouped.values():
        key = json.dumps(texts, ensure_ascii=False, separators=(",", ":"))
        if key not in ids:
            ids[key] = free
            added.append((free, key))
            free += 1
    db.executemany("INSERT INTO example_sets VALUES (?, ?)", added)
    db.executemany("INSERT OR REPLACE INTO examples VALUES (?, ?, ?)",
                   [(edition, number, ids[json.dumps(texts, ensure_ascii=False, separators=(",", ":"))])
                    for (edition, number), texts in grouped.items()])
    return len(grouped)


def read(db: sqlite3.Connection, where: str, values: list[str]) -> dict[tuple[str, str], tuple[str, ...]]:
    """(edition, number) -> its examples in order, for the rule versions of the ``rules``-like
    condition ``where`` (on ``edition`` and ``number``) that have some. Each distinct list is
    decoded once and shared."""
    keys = db.execute(f"SELECT edition, number, example_set FROM examples WHERE {where}", values).fetchall()
    wanted = sorted({found for _, _, found in keys})
    sets: dict[int, tuple[str, ...]] = {}
    for start in range(0, len(wanted), 500):
        chunk = wanted[start:start + 500]
        sets.update((i, tuple(json.loads(texts))) for i, texts in db.execute(
            f"SELECT id, texts FROM example_sets WHERE id IN ({','.join('?' * len(chunk))})", chunk))
    return {(edition, number): sets[found] for edition, number, found in keys}

"""The page data brought up to date for one appended edition (``rulekb build --add``).

Why: writing the whole file again costs about 25 s of CPU on the full KB (the anchor queries
over 260,000 rule versions, then every lineage's rows), more than the rest of ``--add``; an
appended edition changes only its own rules and the lineages it continues or begins. So the
previous build's file is copied and, in the copy:

- the new edition's keys are added: page-lineages, page-structure and page-flags asked for
  that edition alone (a ``VALUES ?edition`` block opening each of their WHERE clauses: the
  same queries, the same rows for its keys), its groups, its edition IRI;
- the lineages its rules belong to (continued or begun), and its predecessor's (a lineage it
  does not continue ended there: its last wording's rows say so now), get their rows again
  (lineage-versions, in batches, as :func:`kb.pages.data.write` does; rule-in-french only for
  the lineages it begins, unless the edition has a translation link: edition-translations), their
  wordings' concepts (page-wording-concepts for those wordings only) and, for every version of
  those lineages (the older editions' too), which wording it has;
- the rows of rules-changed-between are written again (one query, 1 s);
- the new edition's flagged keys get their rows (kb.pages.keyed), and every placed rule its card
  count again (page-cards-governed: a new newest English edition moves every card's links);
- the edition's examples are added (``edition-examples-flagged`` for that edition alone:
  :mod:`kb.pages.examples`).

Nothing else of the file depends on the new edition: an older edition's structure, flags and
citations are its own graph's, and its rules keep their lineage. A lineage new to the file
gets the next free number (a full build numbers lineages in IRI order; the numbers are the
file's own, never shown). Where the copy cannot be made exactly -- no file for the previous
build, a file of another layout or of other query texts, a concept IRI outside the file's
prefix -- the whole file is written instead (:func:`kb.pages.data.write`), and the report
says why. The test compares every answer of the file with a full build's
(``tests/test_new_edition.py``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import time
from pathlib import Path

import pyoxigraph as ox

from ..errors import RulekbError
from ..store import queries
from . import changes, examples
from .data import (BATCH, KIND_BIT, LAYOUT, LINEAGE_QUERIES, PLACED, SEVERAL, ANSWERED, _Askers, _digest,
                   _structure, _wording_concepts, _wording_index, batch_rows, companion, fallback_batches, keyed_batches, write,
                   write_cards, write_keyed)
from .keyed import EVERY, GOVERNED, card_counts_of_file

_WHERE = re.compile(r"\bWHERE\s*\{", re.IGNORECASE)


class NotIncremental(RulekbError):
    """The copy cannot be brought up to date exactly: write the whole file. (Caught here,
    never shown; a RulekbError as every error class of the code.)"""


def keep(store) -> Path | None:
    """Before the swap: a copy of the current build's page data (None: there is none), for
    :func:`update` to bring up to date once the new build is current."""
    data = store.data_dir() if store.local_root is not None else None
    if data is None:
        return None
    path = companion(data)
    if not path.is_file():
        return None
    copy = path.with_name(f".kept-{path.name}.{os.getpid()}")
    shutil.copyfile(path, copy)
    return copy


def update(store, kept: Path | None, edition: str, progress=None, total=None, extra=None) -> dict:
    """The page data of ``store``'s current build (``edition`` just appended), from ``kept``
    (:func:`keep`'s copy of the previous build's). Returns what :func:`kb.pages.data.write`
    returns, with ``"incremental": True``, or the whole file's figures and ``"incremental":
    False`` with the reason in ``"why_whole"``. ``extra(db, store, edition)``: as for
    :func:`kb.pages.data.write` (``edition`` None when the whole file is written)."""
    try:
        if kept is None:
            raise NotIncremental("the previous build had no page data")
        return _update(store, kept, edition, progress, total, extra)
    except NotIncremental as why:
        found = write(store, progress, total=total, extra=extra)
        return {**found, "incremental": False, "why_whole": str(why)}
    finally:
        if kept is not None:
            kept.unlink(missing_ok=True)
            Path(f"{kept}-journal").unlink(missing_ok=True)


def for_edition(name: str, edition: str) -> str:
    """The named query's text with every WHERE clause opening on ``VALUES ?edition { edition }``:
    the rows the whole query gives for that edition's keys, asked of that edition alone."""
    block = f"VALUES ?edition {{ {ox.Literal(edition)} }}"
    return _WHERE.sub(lambda m: f"{m.group(0)}\n  {block}\n", queries.get(name).text)


def _select(store, text: str) -> list[dict]:
    return store.select(text)


def wording_rows(store, wordings: list[str]) -> list[dict]:
    """page-wording-concepts' rows for these wordings only (a VALUES block opening its WHERE; in
    batches: 200 wordings take 0.1 s, one block of 3,500 took Oxigraph minutes)."""
    block = "VALUES ?wording { " + " ".join(f"<{w}>" for w in wordings) + " }"
    text = _WHERE.sub(lambda m: f"{m.group(0)}\n  {block}\n", queries.get("page-wording-concepts").text, count=1)
    return store.select(text)


def _update(store, kept: Path, edition: str, progress, total, extra) -> dict:
    started = time.perf_counter()
    data_dir = store.data_dir()
    target = companion(data_dir)
    db = sqlite3.connect(kept)
    try:
        meta = dict(db.execute("SELECT key, value FROM meta"))
        if meta.get("layout") != LAYOUT:
            raise NotIncremental("the previous page data is of another layout")
        stale = [name for name in (*ANSWERED, changes.QUERY, examples.QUERY) if meta.get(f"query:{name}") != _digest(queries.get(name).text)]
        if stale:
            raise NotIncremental(f"the previous page data answered other texts of {', '.join(stale)}")
        try:
            ids = {iri: i for i, iri in db.execute("SELECT id, iri FROM lineages")}
        except sqlite3.Error:
            raise NotIncremental("the previous page data does not name its lineages") from None
        if db.execute("SELECT 1 FROM editions WHERE edition = ?", (edition,)).fetchone():
            raise NotIncremental(f"the previous page data has {edition} already")
        pool = _Askers(store)
        try:
            return _bring_up_to_date(store, db, pool, meta, ids, edition, data_dir, target, kept, progress, total,
                                     started, extra)
        finally:
            pool.shutdown()
    finally:
        db.close()


def _bring_up_to_date(store, db, pool, meta, ids, edition, data_dir, target, kept, progress, total, started,
                      extra=None) -> dict:
    asked = {name: pool.submit(_select, for_edition(name, edition)) for name in
             ("page-lineages", "page-structure", "page-flags")}
    graphs_asked = pool.submit(queries.run, "edition-graphs")
    example_rows = pool.submit(_select, for_edition(examples.QUERY, edition))
    governed = pool.submit(queries.run, GOVERNED)
    changed_rows = pool.submit(changes.every_row)
    by_key: dict[tuple[str, str], set[str]] = {}
    for row in asked["page-lineages"].result():
        by_key.setdefault((row["edition"], row["number"]), set()).add(row["lineage"])
    single_new = {key: next(iter(found)) for key, found in by_key.items() if len(found) == 1}
    # and the lineages of its predecessor (the newest complete edition of its language before it):
    # one the edition does not continue ended there, which its wording's rows now say
    graphs = graphs_asked.result()
    mine = next((r for r in graphs if r["edition"] == edition), None)
    before = [r for r in graphs if mine is not None and r["language"] == mine["language"] and r["edition"] != edition
              and r.get("partial") != "true" and (r.get("effective_date") or "", r["edition"])
              < (mine.get("effective_date") or "", edition)]
    ended: set[str] = set()
    if before and mine.get("partial") != "true":
        previous = max(before, key=lambda r: (r.get("effective_date") or "", r["edition"]))["edition"]
        by_number = {i: iri for iri, i in ids.items()}
        ended = {by_number[i] for (i,) in db.execute("SELECT lineage FROM rules WHERE edition = ? AND lineage >= 0",
                                                      (previous,)) if i in by_number}
    touched = sorted(set(single_new.values()) | ended)
    known = set(ids)  # the lineages the file has rows of
    for lineage in touched:  # a lineage the file does not have: the next free number
        if lineage not in ids:
            ids[lineage] = max(ids.values(), default=-1) + 1
    # every version the file knows of the touched lineages (single keys only, as the file keeps)
    single = dict(single_new)
    by_id = {ids[lineage]: lineage for lineage in touched}
    marks = ",".join("?" * len(by_id))
    if by_id:
        for e, n, lineage in db.execute(f"SELECT edition, number, lineage FROM rules WHERE lineage IN ({marks})",
                                        list(by_id)):
            single[(e, n)] = by_id[lineage]
    representative: dict[str, tuple[str, str]] = {}
    for key, lineage in sorted(single.items()):
        representative.setdefault(lineage, key)

    if progress is not None:
        progress(f"pages {edition}: {len(by_key)} rules, {len(touched)} lineages continued or begun")
    # rule-in-french: a lineage's rows are the French rules translating its versions; an edition
    # with no translation link (build --add writes none) leaves a continued lineage's rows as they
    # were, so only the lineages new to the file are asked
    asked_again = {name: touched for name in LINEAGE_QUERIES}
    if not queries.run(store, "edition-translations", edition=edition):
        asked_again["rule-in-french"] = [lineage for lineage in touched if lineage not in known]
    batches = [(name, start) for name in LINEAGE_QUERIES for start in range(0, len(asked_again[name]), BATCH)]
    answers = [pool.submit(batch_rows, name, [representative[lineage]
                                              for lineage in asked_again[name][start:start + BATCH]])
               for name, start in batches]
    if total is not None:
        total(4 + len(batches))
    flagged, twice = {}, set()
    for row in asked["page-flags"].result():
        key = (row["edition"], row["number"])
        if row["what"] == "twice":
            twice.add(key)
        else:
            flagged[key] = flagged.get(key, 0) | KIND_BIT[row["what"]]
    keyed = keyed_batches(pool, flagged)  # the new edition's flagged keys
    parents, groups = _structure(asked["page-structure"].result(), twice)
    flags = {key: PLACED for key in parents}
    for key, bits in flagged.items():
        flags[key] = flags.get(key, 0) | bits
    if progress is not None:
        progress(f"pages structure {len(parents)} rules of {edition} in {len(groups)} groups")

    db.executemany("INSERT INTO groups VALUES (?, ?, ?)",
                   [(e, parent, None if members is None else json.dumps(members, separators=(",", ":")))
                    for (e, parent), members in sorted(groups.items())])
    db.executemany("INSERT OR REPLACE INTO lineages VALUES (?, ?)", [(ids[lineage], lineage) for lineage in touched])
    wordings: dict[str, list[dict]] = {}
    for (name, start), answer in zip(batches, answers):
        chunk = asked_again[name][start:start + BATCH]
        rows = answer.result()
        if name == "lineage-versions":
            wordings.update((lineage, rows.get(representative[lineage], [])) for lineage in chunk)
        db.executemany("INSERT OR REPLACE INTO lineage_rows VALUES (?, ?, ?)",
                       [(ids[lineage], name, json.dumps(rows.get(representative[lineage], []),
                                                        ensure_ascii=False, separators=(",", ":")))
                        for lineage in chunk])
        if progress is not None:
            progress(f"pages {name} {min(start + BATCH, len(chunk) + start)}/{len(asked_again[name])} lineages")
    # the touched lineages' wordings: their concepts again (a wording's index may have moved on)
    if by_id:
        db.execute(f"DELETE FROM wording_concepts WHERE lineage IN ({marks})", list(by_id))
    place = {row["wording"]: (ids[lineage], index) for lineage, rows in wordings.items()
             for index, row in enumerate(rows) if "wording" in row}
    prefix = meta.get("concept_prefix", "")
    wanted = sorted(place)
    concept_rows = [row for asked_rows in [pool.submit(wording_rows, wanted[start:start + BATCH])
                                           for start in range(0, len(wanted), BATCH)]
                    for row in asked_rows.result()]
    if any(not row["concept"].startswith(prefix) for row in concept_rows):
        raise NotIncremental("a concept outside the page data's concept prefix")
    _, wording_concepts = _wording_concepts(concept_rows, place, prefix=prefix)
    db.executemany("INSERT INTO wording_concepts VALUES (?, ?, ?)", wording_concepts)
    db.executemany("INSERT INTO editions VALUES (?, ?)", [(r["edition"], r["ed"]) for r in graphs
                                                          if r["edition"] == edition])
    wording_of = _wording_index(single, wordings, graphs)
    old_keys = [key for key in single if key[0] != edition]
    db.executemany("UPDATE rules SET wording = ? WHERE edition = ? AND number = ?",
                   [(wording_of.get(key), *key) for key in old_keys])
    keys = sorted(set(by_key) | set(flags))
    db.executemany("INSERT INTO rules VALUES (?, ?, ?, ?, ?, ?)",
                   [(e, n, ids[single_new[(e, n)]] if (e, n) in single_new else (SEVERAL if (e, n) in by_key else None),
                     parents.get((e, n)), flags.get((e, n), 0), wording_of.get((e, n))) for e, n in keys])
    write_keyed(db, keyed)
    write_keyed(db, fallback_batches(pool, db, {r["edition"]: r.get("language") for r in graphs}, edition,
                                     [(r["edition"], r["number"]) for r in _select(store, for_edition(EVERY, edition))]))
    db.execute("DELETE FROM cards")  # every count again: the cards now link to the newest English edition
    write_cards(db, card_counts_of_file(db, governed.result()))
    db.executescript("DROP INDEX IF EXISTS changes_by_date; DROP TABLE IF EXISTS changes;")
    changed = changes.write(db, changed_rows.result())
    if progress is not None:
        progress(f"pages {changes.QUERY} {changed} rows")
    found = examples.write(db, example_rows.result())
    if progress is not None:
        progress(f"pages {examples.QUERY} {found} rules of {edition} with examples")
    if extra is not None:
        extra(db, store, edition)
    db.execute("UPDATE meta SET value = ? WHERE key = 'build'", (data_dir.name,))
    db.execute("DELETE FROM meta WHERE key = 'inputs'")  # the previous build's digest: never this one's (kb.pages.reuse)
    db.commit()
    db.close()
    os.replace(kept, target)  # whole, under the new build's own name
    for old in data_dir.parent.glob("pages-*.sqlite"):
        if old != target and not (data_dir.parent / ("data-" + old.name[len("pages-"):-len(".sqlite")])).exists():
            old.unlink(missing_ok=True)  # a build that is gone
    return {"file": str(target), "bytes": target.stat().st_size, "keys": len(keys), "lineages": len(touched),
            "rules_placed": len(parents), "seconds": round(time.perf_counter() - started, 1), "incremental": True}

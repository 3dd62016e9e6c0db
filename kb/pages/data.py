"""Writing the page data of a build (see the package doc; :mod:`.reading` reads it)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import pyoxigraph as ox

from ..parallel import can_fork, workers
from ..store import queries
from . import changes, examples
from .keyed import CARDS, EVERY, GOVERNED, KEYED, TRANSLATED, card_counts

# the rule page's named queries answered per lineage: (edition, number) -> ?rule -> ?lineage,
# and nothing else of ?rule after that anchor
LINEAGE_QUERIES = ("lineage-versions", "rule-in-french")
# anchored on the lineage too, and answered only where it has nothing to anchor on (no row; a
# partial edition's rules): its rows for a chained rule are not kept (the page reads the wordings)
UNCHAINED_QUERIES = ("rule-history",)
# answered from each rule's parent and order (page-structure): its parent's children are its siblings
STRUCTURE_QUERIES = ("rule-siblings", "rule-children")
# answered with no row when page-flags does not name the rule for them (else the store is asked)
NONEMPTY_QUERIES = {"rule-examples": "examples", "rule-referenced-by": "cited", "rule-consistency": "findings",
                    "rule-references": "cites"}
# answered from the rule's wording (a wording is one number and one text: kb.timeline.wordings) and
# its place, for a placed rule page-flags does not name (kind): ``rule`` from the wording's row of
# lineage-versions (its text), page-structure (parent, order) and its edition's IRI;
# ``rule-concepts`` from what the wording mentions (page-wording-concepts), for a rule that states
# no mention of its own
WORDING_QUERIES = {"rule": "printed", "rule-concepts": "mentions"}
# and with their rows kept for the rules page-flags names (kb.pages.keyed), and the card counts
# and, for the keys the rest leaves to the store, the rows of the page's queries (fallback_batches)
ANSWERED = (*LINEAGE_QUERIES, *UNCHAINED_QUERIES, *STRUCTURE_QUERIES, *NONEMPTY_QUERIES, *WORDING_QUERIES, CARDS,
            TRANSLATED)
# the bits of rules.flags: the rule's siblings and children are in groups; page-flags' kinds
PLACED, *_KIND_BITS = (1, 2, 4, 8, 16, 32, 64)
KIND_BIT = dict(zip((*NONEMPTY_QUERIES.values(), *WORDING_QUERIES.values()), _KIND_BITS))
SEVERAL = -1  # rules.lineage of a key with several lineages: the page asks the store
PREFIX = "pages-"
# the file's tables and columns: a file of another layout (written by another version of rulekb,
# before an upgrade without a rebuild) is not read -- the pages ask the store until the next build
LAYOUT = "4"  # 3: the flag bits of rule-references (cites) and rule-concepts (mentions), wording_concepts;
# 4: key_rows (the rows of the flagged keys), cards (cards-governed-count)
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
          total: Callable[[int], None] | None = None, changes_only: bool = False,
          known: dict[str, list[dict]] | None = None, build: str | None = None,
          extra: Callable | None = None, inputs: str | None = None) -> dict:
    """Write the page data of ``store``'s current build (an embedded store) beside it (or
    into ``target``); returns {"file", "bytes", "keys", "lineages", "seconds"} ({} for a
    remote store). ``progress(message)`` hears each step: the anchor query, then each batch
    of lineages of each query; ``total(steps)`` is told how many there are once it is known.
    ``changes_only``: only the rows of rules-changed-between (1 s on the full KB, where the
    whole file costs 30 s: ``build --add``'s); the rule pages then ask the store.
    ``known``: the rows of some of the whole-store queries (:data:`KNOWABLE`) as the store
    would give them, from whoever just wrote it (the build, from its memory: 4.6 s of the
    stage's 16 on the full KB); those queries are not asked. ``build``: the build the file is
    for (default: the store's data directory; a remote store's copy: its manifest graph).
    ``extra(db, store, None)``: writes more into the file before it is in place (the build's:
    the English rules' scoring evidence, :func:`kb.translate.kept.keep`), once every table
    above is written. ``inputs``: the digest of what the file is computed from, kept in it so
    that a rebuild of the same KB takes it (:mod:`.reuse`)."""
    if store.local_root is None:
        if total is not None:
            total(0)  # nothing to write: a remote store's pages ask it
        return {}
    if inputs is not None and not changes_only:  # the same KB as a build before: its file (kb.pages.reuse)
        from .reuse import reused

        place = companion(store.data_dir()) if target is None else Path(target)
        found = reused(place, inputs, build or store.data_dir().name, PREFIX)
        if found is not None:
            if total is not None:
                total(1)
            if progress is not None:
                progress(f"pages the same KB as {found['reused']}'s: its page data copied")
            if target is None:
                _drop_gone(store.data_dir(), place)
            return found
    pool = _Askers(store)
    try:
        written = _write(store, progress, target, total, changes_only, pool, known or {}, build, extra, inputs)
    finally:  # a failure drops the queries still queued
        pool.shutdown()
    if inputs is not None and not changes_only and written.get("file"):
        from .reuse import remember

        remember(Path(written["file"]), inputs)  # a build of the same KB elsewhere copies it (kb.pages.reuse)
    return written


class _Askers:
    """The whole-store queries side by side, in forked processes that each open the build
    read-only: two threads of one process reading one Oxigraph store get little more than one
    (page-lineages and page-structure: 8.3 s of CPU one after the other, 11.2 s side by side
    in threads, 7.7 s of wall clock; in two processes each takes its time alone). Threads where
    there is no fork or no directory to open (a store in memory)."""

    def __init__(self, store):
        data = store.data_dir()
        self._store = store
        if can_fork() and data is not None and data.is_dir():
            import multiprocessing

            self._pool = ProcessPoolExecutor(max_workers=workers(), mp_context=multiprocessing.get_context("fork"),
                                             initializer=_open_for_worker, initargs=(str(data),))
            self._in_workers = True
        else:
            self._pool = ThreadPoolExecutor(max_workers=workers(), thread_name_prefix="rulekb-pages")
            self._in_workers = False

    def submit(self, task: Callable, *args) -> Future:
        """``task(store, *args)`` (a module-level function: it travels by name to a worker)."""
        if self._in_workers:
            return self._pool.submit(_in_worker, task, *args)
        return self._pool.submit(task, self._store, *args)

    def shutdown(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


_WORKER_STORE = None  # a worker's own read-only store (never the parent's handle, which it inherits)


def _open_for_worker(data_dir: str) -> None:
    global _WORKER_STORE
    from ..store.embedded import EmbeddedStore

    _WORKER_STORE = EmbeddedStore(Path(data_dir))


def _in_worker(task: Callable, *args):
    return task(_WORKER_STORE, *args)


KNOWABLE = ("page-structure", "page-lineages", "page-flags")  # the queries whose rows a caller may hand to write()


def _answered(rows: list[dict]) -> Future:
    done: Future = Future()
    done.set_result(rows)
    return done


def _write(store, progress, target, total, changes_only, pool: _Askers, known: dict[str, list[dict]],
           build: str | None = None, extra: Callable | None = None, inputs: str | None = None) -> dict:
    started = time.perf_counter()
    data_dir = store.data_dir()
    beside = target is None
    target = companion(data_dir) if beside else Path(target)
    # every query asked as soon as it can be, the longest first: the changes at once, the lineage
    # batches once the anchors are known, so neither waits for this thread to read the others' rows
    if set(known) - set(KNOWABLE):
        raise ValueError(f"page data: rows of {sorted(set(known) - set(KNOWABLE))} cannot be handed in")
    asked = {} if changes_only else {name: _answered(known[name]) if name in known else pool.submit(queries.run, name)
                                     for name in ("page-lineages", "page-structure", "page-flags",
                                                  "page-wording-concepts", "edition-graphs", GOVERNED, EVERY)}
    changed_rows = pool.submit(changes.every_row)
    example_rows = None if changes_only else pool.submit(examples.every_row)
    anchors = [] if changes_only else asked["page-lineages"].result()
    if progress is not None:  # a changes-only file reads no anchors or structure: say what it does instead
        progress("pages changes only (the rule pages ask the store)" if changes_only
                 else f"pages anchors {len(anchors)} rule versions")
    by_key: dict[tuple[str, str], set[str]] = {}
    for row in anchors:
        by_key.setdefault((row["edition"], row["number"]), set()).add(row["lineage"])
    single = {key: next(iter(found)) for key, found in by_key.items() if len(found) == 1}
    representative: dict[str, tuple[str, str]] = {}
    for key, lineage in sorted(single.items()):
        representative.setdefault(lineage, key)
    lineages = sorted(representative)
    lineage_ids = {lineage: i for i, lineage in enumerate(lineages)}
    batches = [(name, start) for name in LINEAGE_QUERIES for start in range(0, len(lineages), BATCH)]
    answers = [pool.submit(batch_rows, name, [representative[lineage]
                                                     for lineage in lineages[start:start + BATCH]])
               for name, start in batches]
    flagged, twice = {}, set()
    for row in [] if changes_only else asked["page-flags"].result():
        key = (row["edition"], row["number"])
        if row["what"] == "twice":
            twice.add(key)
        else:
            flagged[key] = flagged.get(key, 0) | KIND_BIT[row["what"]]
    keyed = keyed_batches(pool, flagged)
    parents, groups = ({}, {}) if changes_only else _structure(asked["page-structure"].result(), twice)
    if progress is not None and not changes_only:
        progress(f"pages structure {len(parents)} rules in {len(groups)} groups")
    flags = {key: PLACED for key in parents}
    for key, bits in flagged.items():
        flags[key] = flags.get(key, 0) | bits
    if total is not None:  # anchors, structure, changes, the examples, batches of lineages and of keys
        total(3 + (not changes_only) + len(LINEAGE_QUERIES) * -(-len(representative) // BATCH) + len(keyed))
    partial = target.with_name(f".{target.name}.{os.getpid()}")
    partial.unlink(missing_ok=True)
    db = sqlite3.connect(partial)
    try:
        db.executescript("""
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
            CREATE TABLE rules (edition TEXT, number TEXT, lineage INTEGER, parent TEXT, flags INTEGER,
                                wording INTEGER, PRIMARY KEY (edition, number)) WITHOUT ROWID;
            CREATE TABLE editions (edition TEXT PRIMARY KEY, iri TEXT) WITHOUT ROWID;
            CREATE TABLE groups (edition TEXT, parent TEXT, members TEXT,
                                 PRIMARY KEY (edition, parent)) WITHOUT ROWID;
            CREATE TABLE lineage_rows (lineage INTEGER, query TEXT, rows BLOB,
                                       PRIMARY KEY (lineage, query)) WITHOUT ROWID;
            CREATE TABLE wording_concepts (lineage INTEGER, wording INTEGER, rows BLOB,
                                           PRIMARY KEY (lineage, wording)) WITHOUT ROWID;
            CREATE TABLE lineages (id INTEGER PRIMARY KEY, iri TEXT);
        """ + KEYED_TABLES)
        # which lineage each number is: what build --add reads to bring the file up to date (kb.pages.incremental)
        db.executemany("INSERT INTO lineages VALUES (?, ?)", [(i, lineage) for lineage, i in lineage_ids.items()])
        keys = sorted(set(by_key) | set(flags))
        db.executemany("INSERT INTO groups VALUES (?, ?, ?)",
                       [(e, parent, None if members is None else json.dumps(members, separators=(",", ":")))
                        for (e, parent), members in sorted(groups.items())])
        kept = (changes.QUERY,) if changes_only else (*ANSWERED, changes.QUERY, examples.QUERY)
        db.executemany("INSERT INTO meta VALUES (?, ?)",
                       [("build", build or data_dir.name), ("layout", LAYOUT), *((f"query:{name}", _digest(queries.get(name).text))
                                                    for name in kept)])
        if inputs is not None and not changes_only:
            db.execute("INSERT INTO meta VALUES ('inputs', ?)", (inputs,))
        wordings: dict[str, list[dict]] = {}  # lineage -> its lineage-versions rows (one per wording)
        for (name, start), answer in zip(batches, answers):  # written in order, as they come
            chunk = lineages[start:start + BATCH]
            rows = answer.result()
            if name == "lineage-versions":
                wordings.update((lineage, rows.get(representative[lineage], [])) for lineage in chunk)
            db.executemany("INSERT INTO lineage_rows VALUES (?, ?, ?)",
                           [(lineage_ids[lineage], name, json.dumps(rows.get(representative[lineage], []),
                                                       ensure_ascii=False, separators=(",", ":")))
                            for lineage in chunk])
            if progress is not None:
                progress(f"pages {name} {min(start + BATCH, len(lineages))}/{len(lineages)} lineages")
        graphs = [] if changes_only else asked["edition-graphs"].result()
        db.executemany("INSERT INTO editions VALUES (?, ?)", [(r["edition"], r["ed"]) for r in graphs])
        wording_of = _wording_index(single, wordings, graphs)
        # lineage: its number in lineage_rows, NULL for none, SEVERAL (the page asks the store);
        # wording: the index of the key's wording in its lineage's lineage-versions rows (NULL: not known)
        db.executemany("INSERT INTO rules VALUES (?, ?, ?, ?, ?, ?)",
                       [(e, n, lineage_ids[single[(e, n)]] if (e, n) in single else (SEVERAL if (e, n) in by_key else None),
                         parents.get((e, n)), flags.get((e, n), 0), wording_of.get((e, n))) for e, n in keys])
        # the rows of what the above leaves to the store, key by key: asked now, queued behind the
        # keyed batches, so that the workers go on with them while this thread writes the rows
        # that came (asked once those were written, they waited for it: 10 % of the stage)
        fallback = [] if changes_only else fallback_batches(
            pool, db, {r["edition"]: r.get("language") for r in graphs},
            every=[(r["edition"], r["number"]) for r in asked[EVERY].result()])
        if not changes_only:
            # a wording by its lineage's number and its index in the lineage's lineage-versions
            # rows: the two numbers rules.lineage and rules.wording give a rule
            place = {row["wording"]: (lineage_ids[lineage], index) for lineage, rows in wordings.items()
                     for index, row in enumerate(rows) if "wording" in row}
            prefix, concept_rows = _wording_concepts(asked["page-wording-concepts"].result(), place)
            db.execute("INSERT INTO meta VALUES ('concept_prefix', ?)", (prefix,))
            db.executemany("INSERT INTO wording_concepts VALUES (?, ?, ?)", concept_rows)
            write_keyed(db, keyed, progress)
            write_cards(db, card_counts(asked[GOVERNED].result(), by_key, parents, twice))
        write_keyed(db, fallback)
        changed = changes.write(db, changed_rows.result())
        if progress is not None:
            progress(f"pages {changes.QUERY} {changed} rows")
        if example_rows is not None:
            found = examples.write(db, example_rows.result())
            if progress is not None:
                progress(f"pages {examples.QUERY} {found} rules with examples")
        if extra is not None and not changes_only:
            extra(db, store, None)
        db.commit()
    except BaseException:
        db.close()
        partial.unlink(missing_ok=True)
        raise
    db.close()
    os.replace(partial, target)  # whole, under the build's own name
    if beside:
        _drop_gone(data_dir, target)
    return {"file": str(target), "bytes": target.stat().st_size, "keys": len(keys),
            "lineages": len(lineages), "rules_placed": len(parents),
            "seconds": round(time.perf_counter() - started, 1)}


def _drop_gone(data_dir: Path, target: Path) -> None:
    """Remove the page data files beside ``target`` whose build is gone."""
    for old in data_dir.parent.glob(f"{PREFIX}*.sqlite"):
        if old != target and not (data_dir.parent / ("data-" + old.name[len(PREFIX):-len(".sqlite")])).exists():
            old.unlink(missing_ok=True)


def _wording_concepts(rows: list[dict], place: dict[str, tuple[int, int]],
                      prefix: str | None = None) -> tuple[str, list[tuple]]:
    """The concepts' common IRI prefix, and (lineage, wording, the rows rule-concepts gives a
    version of it, as JSON [[concept IRI after the prefix, label?], ...]) for every wording of
    ``place`` (wording IRI -> lineage and wording numbers) that mentions a concept, in the query's
    ORDER BY ?label (an unbound label first, then by its text, as Oxigraph compares the @en
    strings); NULL where two rows tie on the label (their order is the store's: the page asks
    it). A wording with no row mentions nothing: no row."""
    if prefix is None:  # (given: the prefix a file being brought up to date already has)
        prefix = os.path.commonprefix([row["concept"] for row in rows]) if rows else ""
    by_wording: dict[tuple[int, int], list[tuple]] = {}
    for row in rows:
        if row["wording"] in place:  # (sort key: the label's, then the concept's)
            by_wording.setdefault(place[row["wording"]], []).append(
                ("label" in row, row.get("label", ""), row["concept"][len(prefix):]))
    out = []
    for (lineage, wording), found in sorted(by_wording.items()):
        found.sort()
        tie = len({(bound, label) for bound, label, _ in found}) != len(found)
        compact = [[concept, label] if bound else [concept] for bound, label, concept in found]
        out.append((lineage, wording, None if tie else json.dumps(compact, ensure_ascii=False, separators=(",", ":"))))
    return prefix, out


def _wording_index(single: dict[tuple[str, str], str], wordings: dict[str, list[dict]],
                   graphs: list[dict]) -> dict[tuple[str, str], int]:
    """(edition, number) -> the index of its wording among its lineage's lineage-versions rows.
    A wording is a run of consecutive editions of its lineage in the build's chain order
    (effective date, then id) with one number: its editions are the next ``editions`` versions
    of the lineage in that order, from ``first_edition`` to ``last_edition``, each numbered
    ``wording_number``. A lineage whose rows do not cut its versions so, exactly, is left out
    (its rules' pages ask the store)."""
    dates = {r["edition"]: r.get("effective_date") or "" for r in graphs}
    versions: dict[str, dict[str, str]] = {}
    unsure = set()
    for (edition, number), lineage in single.items():
        found = versions.setdefault(lineage, {})
        if edition in found:
            unsure.add(lineage)  # two versions in one edition: not a chain
        found[edition] = number
    out: dict[tuple[str, str], int] = {}
    for lineage, found in versions.items():
        rows = wordings.get(lineage)
        if lineage in unsure or not rows or any(e not in dates for e in found):
            continue
        chain = sorted(found, key=lambda e: (dates[e], e))
        at, placed = 0, {}
        for index, row in enumerate(rows):
            count = int(row.get("editions") or 0)
            run = chain[at:at + count]
            if (count < 1 or len(run) != count or run[0] != row.get("first_edition")
                    or run[-1] != row.get("last_edition") or any(found[e] != row.get("wording_number") for e in run)):
                break
            placed.update(((e, found[e]), index) for e in run)
            at += count
        else:
            if at == len(chain):
                out.update(placed)
    return out


def _structure(rows: list[dict], twice: set) -> tuple[dict[tuple[str, str], str], dict[tuple[str, str], list | None]]:
    """Each rule's parent number, and each (edition, parent number)'s rules as
    [[number, order], ...] in document order (None: not answerable from here, the page asks the
    store). rule-siblings and rule-children join on the parent *node*; grouping by its number is
    the same join wherever one node of the edition has that number (``twice``: the keys several
    nodes carry, from page-flags), and orders are distinct:
    a rule with two rows (two parents, two orders), a parent number that two nodes share, a tie
    of orders leaves its rules, or its group, to the store."""
    seen: dict[tuple[str, str], int] = {}
    for row in rows:
        key = (row["edition"], row["number"])
        seen[key] = seen.get(key, 0) + 1
    members: dict[tuple[str, str], list] = {}
    for row in rows:
        members.setdefault((row["edition"], row["parent_number"]), []).append(
            (int(row["order"]), row["number"], row["order"]))
    groups: dict[tuple[str, str], list | None] = {}
    for (edition, parent), found in members.items():
        found.sort()
        orders = [o for o, _, _ in found]
        unsure = (edition, parent) in twice or len(set(orders)) != len(orders) \
            or any(seen[(edition, n)] > 1 or (edition, n) in twice for _, n, _ in found)
        groups[(edition, parent)] = None if unsure else [[n, text] for _, n, text in found]
    parents = {(r["edition"], r["number"]): r["parent_number"] for r in rows
               if groups[(r["edition"], r["parent_number"])] is not None}
    # a rule numbered like another node: its children are both nodes' (rule-children), the store's
    return {key: parent for key, parent in parents.items() if key not in twice}, groups


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


# the rows of the flagged keys and the card counts (kb.pages.keyed)
KEYED_TABLES = """
    CREATE TABLE key_rows (edition TEXT, number TEXT, query TEXT, rows BLOB,
                           PRIMARY KEY (edition, number, query)) WITHOUT ROWID;
    CREATE TABLE cards (edition TEXT, number TEXT, cards INTEGER, PRIMARY KEY (edition, number)) WITHOUT ROWID;
"""


def keyed_batches(pool, flagged: dict[tuple[str, str], int]) -> list[tuple[str, list, Future]]:
    """The rows of each KEYED query for the keys page-flags names for it, asked in batches."""
    out = []
    for name, kind in KEYED.items():
        keys = sorted(key for key, bits in flagged.items() if bits & KIND_BIT[kind])
        out += [(name, keys[start:start + BATCH], pool.submit(batch_rows, name, keys[start:start + BATCH]))
                for start in range(0, len(keys), BATCH)]
    return out


def write_keyed(db, keyed: list[tuple[str, list, Future]], progress=None) -> None:
    for name, keys, answer in keyed:
        rows = answer.result()
        db.executemany("INSERT OR REPLACE INTO key_rows VALUES (?, ?, ?, ?)",
                       [(e, n, name, json.dumps(rows.get((e, n), []), ensure_ascii=False, separators=(",", ":")))
                        for e, n in keys])
        if progress is not None:
            progress(f"pages {name} {len(keys)} rules")


def fallback_batches(pool, db, languages: dict[str, str | None], edition: str | None = None,
                     every: list[tuple[str, str]] = ()) -> list[tuple[str, list, Future]]:
    """The rows of the page's queries for the keys the rest of the file leaves to the store
    (kb.pages.keyed.FALLBACK: a rule not placed, or of no single lineage or known wording, or
    with a printed number or a mention of its own; a French rule's rule-translation-of), asked
    in batches (of ``edition``'s keys only, when given); and every query for a rule of ``every``
    (page-rules) the file has no row of."""
    where = "" if edition is None else " WHERE edition = ?"
    rows = db.execute(f"SELECT edition, number, lineage, flags, wording FROM rules{where}",
                      () if edition is None else (edition,)).fetchall()
    unsure = [(e, n) for e, n, lineage, flags, wording in rows
              if not flags & PLACED or lineage is None or lineage == SEVERAL or wording is None]
    need = {"rule": unsure + [(e, n) for e, n, _, flags, _ in rows if flags & PLACED and flags & KIND_BIT["printed"]],
            "rule-concepts": unsure + [(e, n) for e, n, _, flags, _ in rows if flags & PLACED and flags & KIND_BIT["mentions"]],
            "rule-siblings": [(e, n) for e, n, _, flags, _ in rows if not flags & PLACED],
            TRANSLATED: [(e, n) for e, n, *_ in rows if languages.get(e) == "fr"]}
    known = {(e, n) for e, n, *_ in rows}
    unknown = [key for key in every if key not in known]
    for name in ("rule", "rule-concepts", "rule-siblings"):
        need[name] += unknown
    need[TRANSLATED] += [key for key in unknown if languages.get(key[0]) == "fr"]
    need["rule-children"] = need["rule-siblings"]
    out = []
    for name, keys in need.items():
        keys = sorted(set(keys))
        out += [(name, keys[start:start + BATCH], pool.submit(batch_rows, name, keys[start:start + BATCH]))
                for start in range(0, len(keys), BATCH)]
    return out


def write_cards(db, counts: dict[tuple[str, str], int | None]) -> None:
    db.executemany("INSERT OR REPLACE INTO cards VALUES (?, ?, ?)", [(e, n, c) for (e, n), c in sorted(counts.items())])

"""Reading the page data of a build (the web's rule pages; see the package doc): one file a
build, opened read-only, looked for again at most every :data:`LOOK_EVERY` seconds."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path

from ..store import queries
from . import changes, examples, features
from .data import (ANSWERED, CARDS, TRANSLATED, KIND_BIT, LAYOUT, NONEMPTY_QUERIES, PLACED, SEVERAL, STRUCTURE_QUERIES,
                   UNCHAINED_QUERIES, WORDING_QUERIES, _digest, companion)


class PageData:
    """One build's page data, opened read-only (thread-safe: one connection, one lock)."""

    def __init__(self, path: Path):
        self.path = path
        self._db = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True, check_same_thread=False)
        self._lock = threading.Lock()
        self._read_meta()

    @classmethod
    def over(cls, db: sqlite3.Connection) -> PageData:
        """A reader of the file ``db`` is writing (what the build computes from it before it is
        in place: :mod:`kb.translate.kept`); closing it is the writer's."""
        self = cls.__new__(cls)
        self.path, self._db, self._lock = None, db, threading.Lock()
        self._read_meta()
        return self

    def _read_meta(self) -> None:
        with self._lock:
            meta = dict(self._db.execute("SELECT key, value FROM meta"))
        self.layout = meta.get("layout")
        self.build = meta.get("build")  # the build it was written for (a remote store's: its manifest graph)
        self.concept_prefix = meta.get("concept_prefix", "")
        # only the queries whose text is still the one the rows came from
        current = {name for name in (*ANSWERED, changes.QUERY)
                   if meta.get(f"query:{name}") == _digest(queries.get(name).text)}
        if "lineage-versions" not in current:  # the wording's text, and which wording it is, are its rows
            current.difference_update(WORDING_QUERIES)
        self.answers = current - {changes.QUERY}
        self.has_changes = changes.QUERY in current  # the rows of rules-changed-between
        # every rule's examples (kb.pages.examples; a file written before they were kept has none)
        self.has_examples = meta.get(f"query:{examples.QUERY}") == _digest(queries.get(examples.QUERY).text)
        self.features_digest = meta.get(features.META)  # the English rules' scoring evidence (kb.translate.kept)

    def rule(self, edition: str, number: str) -> tuple | None:
        """(lineage, parent, flags, wording) of a rule version, None when the build has no such key."""
        with self._lock:
            return self._db.execute("SELECT lineage, parent, flags, wording FROM rules WHERE edition = ? AND number = ?",
                                    (edition, number)).fetchone()

    def rows(self, name: str, edition: str, number: str, rule: tuple | None | bool = False) -> list[dict] | None:
        """The rows ``name`` gives for (edition, number), or None: ask the store. ``rule``:
        what :meth:`rule` gave for the key, when the caller has it already."""
        if name not in self.answers:
            return None
        found = None if name == TRANSLATED else self._rows(name, edition, number, rule)
        if found is not None or name in NONEMPTY_QUERIES or name == CARDS:
            return found
        with self._lock:  # what the rest leaves to the store: the rows kept for the key, if any
            row = self._db.execute("SELECT rows FROM key_rows WHERE edition = ? AND number = ? AND query = ?",
                                   (edition, number, name)).fetchone()
        return json.loads(row[0]) if row is not None else None

    def _rows(self, name: str, edition: str, number: str, rule: tuple | None | bool) -> list[dict] | None:
        if rule is False:
            rule = self.rule(edition, number)
        if name in NONEMPTY_QUERIES:  # page-flags names every key such a query has rows for
            if rule is None or not rule[2] & KIND_BIT[NONEMPTY_QUERIES[name]]:
                return []
            with self._lock:  # (kb.pages.keyed: the rows of the flagged keys)
                row = self._db.execute("SELECT rows FROM key_rows WHERE edition = ? AND number = ? AND query = ?",
                                       (edition, number, name)).fetchone()
            return json.loads(row[0]) if row is not None else None
        if name == CARDS:
            with self._lock:
                row = self._db.execute("SELECT cards FROM cards WHERE edition = ? AND number = ?",
                                       (edition, number)).fetchone()
            return [{"cards": str(row[0])}] if row is not None and row[0] is not None else None
        if name in WORDING_QUERIES:
            return self._from_wording(name, edition, number, rule)
        if name in STRUCTURE_QUERIES:
            if rule is None or not rule[2] & PLACED:
                return None
            parent = rule[1] if name == "rule-siblings" else number
            with self._lock:
                found = self._db.execute("SELECT members FROM groups WHERE edition = ? AND parent = ?",
                                         (edition, parent)).fetchone()
            if found is None:
                return []  # (a rule without subrules)
            if found[0] is None:
                return None
            if name == "rule-siblings":
                return [{"sibling_number": n, "sibling_order": o} for n, o in json.loads(found[0])]
            return [{"child_number": n} for n, _ in json.loads(found[0])]
        if rule is None or rule[0] is None:
            return []  # no lineage: the query's anchor matches nothing
        if rule[0] == SEVERAL or name in UNCHAINED_QUERIES:
            return None
        with self._lock:
            row = self._db.execute("SELECT rows FROM lineage_rows WHERE lineage = ? AND query = ?",
                                   (rule[0], name)).fetchone()
        return json.loads(row[0]) if row is not None else None

    def _from_wording(self, name: str, edition: str, number: str, rule: tuple | None) -> list[dict] | None:
        """``rule`` of a placed rule (one node, a Rule, one parent and order) without a printed
        number (page-flags), from its wording; ``rule-concepts`` of such a rule stating no mention
        of its own (page-flags), from what its wording mentions."""
        if rule is None or not rule[2] & PLACED or rule[2] & KIND_BIT[WORDING_QUERIES[name]]:
            return None
        if rule[0] is None:  # no lineage: no wording, its text is not kept
            return None
        if rule[0] == SEVERAL or rule[3] is None:
            return None
        if name == "rule-concepts":
            return self._wording_concepts(rule[0], rule[3])
        with self._lock:
            iri = self._db.execute("SELECT iri FROM editions WHERE edition = ?", (edition,)).fetchone()
            versions = self._db.execute("SELECT rows FROM lineage_rows WHERE lineage = ? AND query = ?",
                                        (rule[0], "lineage-versions")).fetchone()
            members = self._db.execute("SELECT members FROM groups WHERE edition = ? AND parent = ?",
                                       (edition, rule[1])).fetchone()
        if iri is None or versions is None or members is None or members[0] is None:
            return None
        order = next((o for n, o in json.loads(members[0]) if n == number), None)
        wordings = json.loads(versions[0])
        if order is None or rule[3] >= len(wordings):
            return None
        # the rule query's row, its variables in its order (kb.rdf.iris.Minter.rule: the edition's IRI + /rule/N)
        row = {"rule": f"{iri[0]}/rule/{number}"}
        if "text" in wordings[rule[3]]:
            row["text"] = wordings[rule[3]]["text"]
        row["parent"], row["order"] = rule[1], order
        return [row]

    def _wording_concepts(self, lineage: int, wording: int) -> list[dict] | None:
        with self._lock:
            found = self._db.execute("SELECT rows FROM wording_concepts WHERE lineage = ? AND wording = ?",
                                     (lineage, wording)).fetchone()
        if found is None:
            return []  # the wording mentions nothing
        if found[0] is None:
            return None
        return [{"concept": self.concept_prefix + r[0], "label": r[1]} if len(r) > 1
                else {"concept": self.concept_prefix + r[0]} for r in json.loads(found[0])]

    def rule_versions(self, editions: list[str], sections: set[str] | None = None) -> list[tuple]:
        """(edition, number, lineage, flags, wording) of every key of ``editions`` (of ``sections``
        only, when given: the number before its first dot), by edition then number (the
        translation report's candidate editions, :mod:`kb.translate.candidates`)."""
        where, values = _where(editions, sections)
        with self._lock:
            return self._db.execute(f"SELECT edition, number, lineage, flags, wording FROM rules WHERE {where} "
                                    f"ORDER BY edition, number", values).fetchall()

    def editions_held(self, editions: list[str]) -> set[str]:
        """Which of ``editions`` have rule versions in the file."""
        with self._lock:
            return {e for e in editions if self._db.execute("SELECT 1 FROM rules WHERE edition = ? LIMIT 1",
                                                            (e,)).fetchone()}

    def examples(self, editions: list[str], sections: set[str] | None = None) -> dict[tuple[str, str], tuple] | None:
        """(edition, number) -> its examples in order, for every rule version of ``editions`` (and
        ``sections``) that has some; None when the file does not keep them (ask the store)."""
        if not self.has_examples:
            return None
        where, values = _where(editions, sections)
        with self._lock:
            return examples.read(self._db, where, values)

    def features_held(self, editions: list[str]) -> set[str]:
        """Which of ``editions`` have every rule's scoring evidence kept (:mod:`kb.translate.kept`)."""
        with self._lock:
            return features.held(self._db, editions)

    def feature_rows(self, editions: list[str], sections: set[str] | None = None) -> tuple[list[tuple], dict]:
        """The rules of ``editions`` (and ``sections``) whose scoring evidence is kept, a section at a
        time (:func:`kb.pages.features.read`)."""
        with self._lock:
            return features.read(self._db, editions, sections)

    def wording_texts(self, editions: list[str], sections: set[str] | None = None) -> dict[tuple[int, int], str | None]:
        """(lineage, wording) -> the wording's text (None: its row has none), for every wording a
        rule version of ``editions`` (and ``sections``) prints: each text once, taken out of the
        lineage's ``lineage-versions`` rows by SQLite (not every row of them parsed in Python)."""
        where, values = _where(editions, sections)
        with self._lock:
            return {(lineage, wording): text for lineage, wording, text in self._db.execute(
                f"SELECT w.lineage, w.wording, json_extract(l.rows, '$[' || w.wording || '].text') "
                f"FROM (SELECT DISTINCT lineage, wording FROM rules WHERE {where} "
                f"AND lineage >= 0 AND wording IS NOT NULL) w "
                f"JOIN lineage_rows l ON l.lineage = w.lineage AND l.query = 'lineage-versions'", values)}

    def longest_histories(self, limit: int) -> list[tuple[str, str]]:
        """(edition, number) of the newest version of each of the ``limit`` lineages whose
        wordings hold the most text (their ``lineage-versions`` rows, longest first): the
        histories whose word diffs cost the most to compute."""
        with self._lock:
            lineages = [row[0] for row in self._db.execute(
                "SELECT lineage FROM lineage_rows WHERE query = 'lineage-versions' ORDER BY length(rows) DESC, "
                "lineage LIMIT ?", (limit,))]
            if not lineages:
                return []
            newest = dict((lineage, (edition, number)) for lineage, edition, number in self._db.execute(
                f"SELECT lineage, MAX(edition), number FROM rules WHERE lineage IN ({', '.join('?' * len(lineages))}) "
                f"GROUP BY lineage", lineages))
        return [newest[lineage] for lineage in lineages if lineage in newest]

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


def _where(editions: list[str], sections: set[str] | None) -> tuple[str, list[str]]:
    """The rules of ``editions`` (of ``sections`` only, when given: a number's part before its first dot)."""
    where = f"edition IN ({','.join('?' * len(editions))})"
    if sections is None:
        return where, list(editions)
    return (where + f" AND substr(number, 1, instr(number || '.', '.') - 1) IN ({','.join('?' * len(sections))})",
            [*editions, *sorted(sections)])


_OPEN: dict[tuple[str, str], PageData | None] = {}  # (store, build) -> its page data, None: not there
_LOOKED: dict[tuple[str, str], float] = {}
_LOCK = threading.Lock()
LOOK_EVERY = 1.0  # seconds between looks for a file not (yet) written


def for_store(store) -> PageData | None:
    """The page data of the build ``store`` reads now, or None (not written yet, or written for
    another build of a remote store: kb.pages.remote)."""
    remote = getattr(store, "local_root", None) is None
    try:
        build = store.build_id()
    except Exception:  # noqa: BLE001 - no store: the queries say so
        return None
    if build is None:
        return None
    key = (store.location, build)
    found = _OPEN.get(key)
    if found is not None:
        return found
    now = time.monotonic()
    with _LOCK:
        if key in _OPEN and _OPEN[key] is not None:
            return _OPEN[key]
        if now - _LOOKED.get(key, float("-inf")) < LOOK_EVERY:
            return None
        _LOOKED[key] = now
        if remote:
            from .remote import file_for

            path = file_for(store, build)
        else:
            path = companion(Path(build))
        opened = None
        if path is not None and path.is_file():
            try:
                opened = PageData(path)
            except sqlite3.Error:
                opened = None
            if opened is not None and (opened.layout != LAYOUT or (remote and opened.build != build)):
                opened.close()
                opened = None
        for other in [k for k in _OPEN if k[0] == key[0] and k != key]:  # an older build's file: closed
            old = _OPEN.pop(other)
            if old is not None:
                old.close()
        _OPEN[key] = opened
        return opened


class PagedStore:
    """``store`` for one rule's page: the named queries the page data holds are answered
    from it for exactly (edition, number); everything else goes to ``store``, each query text
    and bindings asked once for the page (the history of an unchained rule asks ``rule``
    again; the rows are only read)."""

    def __init__(self, store, data: PageData, edition: str, number: str):
        self._store, self._data = store, data
        self._key = {"edition": edition, "number": number}
        self._texts = {queries.get(name).text: name for name in data.answers}
        self._rule: tuple | None | bool = False  # the key's row, read once per page
        self._asked: dict[tuple, list[dict]] = {}

    def select(self, sparql: str, bindings: dict | None = None):
        name = self._texts.get(sparql)
        if name is not None and bindings == self._key:
            if self._rule is False:
                self._rule = self._data.rule(self._key["edition"], self._key["number"])
            rows = self._data.rows(name, self._key["edition"], self._key["number"], self._rule)
            if rows is not None:
                return rows
        asked = (sparql, tuple(sorted((bindings or {}).items())))
        if asked not in self._asked:
            self._asked[asked] = self._store.select(sparql, bindings)
        return self._asked[asked]

    def __getattr__(self, attribute):
        return getattr(self._store, attribute)


def paged(store, edition: str, number: str, use: bool = True):
    """The store a rule page reads: :class:`PagedStore` when the build has page data."""
    data = for_store(store) if use else None
    return PagedStore(store, data, edition, number) if data is not None else store

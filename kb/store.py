"""Where the KB lives: an embedded Oxigraph store on disk, or a remote SPARQL endpoint.

Both speak the same small interface: run a SPARQL query (with bound parameters)
and get SPARQL JSON results or RDF bytes back; replace the whole content
atomically. Queries see the default graph as the union of all named graphs
(one graph per edition, plus concepts and the ontology).

Embedded layout (``--store DIR``)::

    DIR/current -> data-20261129T193000-k3j2     a symlink, swapped atomically
    DIR/data-20261129T193000-k3j2/              an Oxigraph (RocksDB) store
    DIR/.lock                                   one build at a time

A build writes a brand-new data directory and only then swaps the symlink, so
an interrupted or failed build leaves the previous store answering, untouched.
Readers open ``current`` read-only: a build never writes where they read.
"""

from __future__ import annotations

import fcntl
import gc
import os
import re
import shutil
import tempfile
import time
from collections.abc import Iterable
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pyoxigraph as ox

from .errors import QueryError, StoreError

RESULT_FORMATS = {
    "json": ox.QueryResultsFormat.JSON,
    "xml": ox.QueryResultsFormat.XML,
    "csv": ox.QueryResultsFormat.CSV,
    "tsv": ox.QueryResultsFormat.TSV,
}
RDF_FORMATS = {
    "turtle": ox.RdfFormat.TURTLE,
    "nt": ox.RdfFormat.N_TRIPLES,
    "nq": ox.RdfFormat.N_QUADS,
    "trig": ox.RdfFormat.TRIG,
    "jsonld": ox.RdfFormat.JSON_LD,
    "xml": ox.RdfFormat.RDF_XML,
}


def default_location() -> str:
    env = os.environ.get("RULEKB_STORE")
    if env:
        return env
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return str(Path(base) / "rulekb" / "store")


def open_store(location: str | None = None):
    """An embedded store for a directory, a remote one for an http(s) URL."""
    location = location or default_location()
    if location.startswith(("http://", "https://")):
        from .remote import RemoteStore

        return RemoteStore(location)
    return EmbeddedStore(Path(location))


@dataclass
class Answer:
    """A query's answer: SPARQL results (SELECT/ASK) or RDF (CONSTRUCT/DESCRIBE)."""

    kind: str  # "results" | "graph"
    data: bytes
    media_type: str


# A WHERE clause to open with the VALUES block -- not one whose group is a bare
# sub-SELECT ("WHERE { SELECT ... }"): that subquery's own WHERE gets it.
_WHERE = re.compile(r"\bWHERE\s*\{(?!\s*SELECT\b)", re.IGNORECASE)
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def bind_values(sparql: str, bindings: dict | None) -> str:
    """Bind parameters with a VALUES block opening each WHERE clause.

    Terms are serialised by pyoxigraph (IRIs checked, literals escaped), never
    pasted as text. At the top of the WHERE clause the values drive the join:
    Oxigraph evaluates ``GRAPH ?ed { ?rule rk:number ?number }`` from them in
    microseconds, where a trailing VALUES (or a substitution of a projected
    variable) is joined only after everything else has been computed.
    """
    if not bindings:
        return sparql
    terms = []
    for name, value in bindings.items():
        if not _NAME.match(str(name)):
            raise QueryError(f"invalid parameter name {name!r} (letters, digits and _)")
        try:
            term = _term(value)
        except ValueError as exc:
            raise QueryError(f"parameter {name}: {exc} in {value!r}") from None
        if isinstance(term, ox.BlankNode):
            raise QueryError(f"parameter {name}: a blank node cannot be bound")
        terms.append(str(term))
    names = " ".join(f"?{name}" for name in bindings)
    values = " ".join(terms)
    block = f"VALUES ({names}) {{ ({values}) }}"
    if not _WHERE.search(sparql):
        return f"{sparql}\n{block}"
    # every WHERE clause, subqueries included: parameters are constants of the
    # whole query, and a subquery is evaluated before the outer VALUES reaches it
    return _WHERE.sub(lambda m: f"{m.group(0)}\n  {block}\n", sparql)


def _term(value) -> ox.NamedNode | ox.Literal:
    """A parameter value: an IRI when it looks like one, else a plain literal."""
    if isinstance(value, (ox.NamedNode, ox.Literal, ox.BlankNode)):
        return value
    text = str(value)
    if text.startswith(("http://", "https://", "urn:")) and " " not in text:
        return ox.NamedNode(text)  # ValueError on a bad IRI: bind_values says which parameter
    return ox.Literal(text)


class EmbeddedStore:
    # how often a long-lived reader (rulekb serve) looks whether a build swapped `current`
    FOLLOW_EVERY = 1.0  # seconds

    def __init__(self, root: Path):
        self.root = Path(root)
        self._store: ox.Store | None = None
        self._opened: Path | None = None  # the data directory self._store reads
        self._checked = 0.0

    @classmethod
    def in_memory(cls, nquads: bytes = b"") -> "EmbeddedStore":
        """A store in memory holding ``nquads`` (tests of queries and checks on hand-written data)."""
        store = cls(Path("/nonexistent-in-memory"))
        store._store = ox.Store()
        if nquads:
            store._store.load(nquads, format=ox.RdfFormat.N_QUADS)
        return store

    # -- location ----------------------------------------------------------

    @property
    def location(self) -> str:
        return str(self.root)

    def data_dir(self) -> Path | None:
        current = self.root / "current"
        if current.exists():
            return current.resolve()
        if (self.root / "CURRENT").exists():  # a plain Oxigraph directory
            return self.root
        return None

    def exists(self) -> bool:
        return self.data_dir() is not None

    def store(self) -> ox.Store:
        """The store, opened read-only; reopened on the new build once a build has
        swapped ``current`` (looked at once a second at most), so a server that
        outlives a build serves the new KB (the build deletes the old directory)."""
        if self._store is not None and self._opened is not None:
            now = time.monotonic()
            if now - self._checked >= self.FOLLOW_EVERY:
                self._checked = now
                data = self.data_dir()
                if data is not None and data != self._opened:
                    self._store = None
        if self._store is None:
            data = self.data_dir()
            if data is None:
                raise StoreError(f"no knowledge base at {self.root}: build one with `rulekb build`")
            try:
                self._store = ox.Store.read_only(str(data))
            except OSError as exc:
                raise StoreError(f"cannot open the store at {data}: {exc}") from None
            self._opened = data if (self.root / "current").exists() else None
            self._checked = time.monotonic()
        return self._store

    def build_id(self) -> str | None:
        """Which build the reads see (its data directory): it changes when a rebuild
        is followed, so what is computed from the KB can be kept per build. None in memory."""
        self.store()
        return str(self._opened) if self._opened else None

    def close(self) -> None:
        self._store = None
        self._opened = None
        gc.collect()

    # -- reading -----------------------------------------------------------

    def query(self, sparql: str, bindings: dict | None = None, results_format: str = "json",
              rdf_format: str = "turtle") -> Answer:
        try:
            result = self.store().query(bind_values(sparql, bindings), use_default_graph_as_union=True)
        except SyntaxError as exc:
            raise QueryError(f"SPARQL syntax error: {exc}") from None
        except (OSError, ValueError) as exc:
            raise QueryError(f"query failed: {exc}") from None
        if isinstance(result, ox.QueryTriples):
            fmt = RDF_FORMATS[rdf_format]
            return Answer("graph", ox.serialize(result, format=fmt), fmt.media_type)
        fmt = RESULT_FORMATS[results_format]
        return Answer("results", result.serialize(format=fmt), fmt.media_type)

    def select(self, sparql: str, bindings: dict | None = None) -> list[dict[str, str]]:
        """Rows of a SELECT as plain dicts of strings (values of bound variables)."""
        try:
            solutions = self.store().query(bind_values(sparql, bindings), use_default_graph_as_union=True)
        except SyntaxError as exc:
            raise QueryError(f"SPARQL syntax error: {exc}") from None
        if not isinstance(solutions, ox.QuerySolutions):
            raise QueryError("select() needs a SELECT query")
        names = [v.value for v in solutions.variables]
        return [
            {name: row[name].value for name in names if row[name] is not None}
            for row in solutions
        ]

    def graphs(self) -> list[str]:
        return sorted(g.value for g in self.store().named_graphs())

    def export(self, graph: str | None, rdf_format: str) -> bytes:
        fmt = RDF_FORMATS[rdf_format]
        store = self.store()
        if graph is None:
            if not fmt.supports_datasets:
                quads = store.quads_for_pattern(None, None, None, None)
                return ox.serialize((ox.Triple(q.subject, q.predicate, q.object) for q in quads), format=fmt)
            return store.dump(format=fmt)
        if fmt.supports_datasets:  # N-Quads, TriG: keep the graph name (dump(from_graph=) drops it)
            return ox.serialize(store.quads_for_pattern(None, None, None, ox.NamedNode(graph)), format=fmt)
        return store.dump(format=fmt, from_graph=ox.NamedNode(graph))

    def size_bytes(self) -> int:
        data = self.data_dir()
        return sum(f.stat().st_size for f in data.rglob("*") if f.is_file()) if data else 0

    # -- writing -----------------------------------------------------------

    @contextmanager
    def _lock(self):
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.root / ".lock", "w") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise StoreError(f"another build is writing {self.root}") from None
            yield

    def update(self, change) -> None:
        """Copy the current store (Oxigraph's backup: hard links to its files), let
        ``change(store)`` write to the copy, and swap the copy in.
        Readers keep answering from the old one until the swap (``rulekb build --add``)."""
        with self._lock():
            current = self.data_dir()
            if current is None:
                raise StoreError(f"no store at {self.root} to update")
            stamp = time.strftime("%Y%m%dT%H%M%S")
            fresh = Path(tempfile.mkdtemp(prefix=f"data-{stamp}-", dir=self.root))
            try:
                fresh.rmdir()  # the backup makes the directory itself
                source = ox.Store.read_only(str(current))
                source.backup(str(fresh))
                del source
                store = ox.Store(str(fresh))
                change(store)
                store.flush()  # no optimize(): it would compact the whole copy for a small change
                del store
                gc.collect()
                link = self.root / f".current-{os.getpid()}"
                link.unlink(missing_ok=True)
                link.symlink_to(fresh.name)
                os.replace(link, self.root / "current")  # the atomic step
            except BaseException:
                shutil.rmtree(fresh, ignore_errors=True)
                raise
            self.close()
            for old in self.root.glob("data-*"):
                if old != fresh:
                    shutil.rmtree(old, ignore_errors=True)

    def replace(self, quads: Iterable[ox.Quad]) -> int:
        """Write a new store from ``quads`` and swap it in; return the quad count.

        Nothing the readers see changes until the very last step (one rename).
        """
        if self.root.exists() and not self.root.is_dir():
            raise StoreError(f"{self.root} is not a directory")
        with self._lock():
            stamp = time.strftime("%Y%m%dT%H%M%S")
            # a directory no one else has: never the one readers have open
            fresh = Path(tempfile.mkdtemp(prefix=f"data-{stamp}-", dir=self.root))
            try:
                store = ox.Store(str(fresh))
                store.bulk_extend(quads)
                store.optimize()
                store.flush()
                count = len(store)
                del store
                gc.collect()
                link = self.root / f".current-{os.getpid()}"
                link.unlink(missing_ok=True)
                link.symlink_to(fresh.name)
                os.replace(link, self.root / "current")  # the atomic step
            except BaseException:
                shutil.rmtree(fresh, ignore_errors=True)
                raise
            self.close()
            for old in self.root.glob("data-*"):
                if old != fresh:
                    shutil.rmtree(old, ignore_errors=True)
            return count

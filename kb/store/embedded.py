"""The embedded store: an Oxigraph (RocksDB) store on disk.

It satisfies :class:`kb.store.kind.Store`, as the remote endpoint
(:mod:`kb.store.remote`) does: run a SPARQL query (with bound parameters) and get
SPARQL JSON results or RDF bytes back; replace the whole content atomically. Queries see the default graph as the union of all named graphs
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
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from pathlib import Path

import pyoxigraph as ox

from ..errors import QueryError, StoreError
from .kind import RDF_FORMATS, RESULT_FORMATS, Answer, bind_values, default_location  # noqa: F401  (kb.store's names)

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

    @property
    def local_root(self) -> Path:
        return self.root

    def exists(self) -> bool:
        return self.data_dir() is not None

    def check(self) -> None:
        self.store()  # a StoreError, in one line, when there is no KB

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
        # a solution iterates its terms in the order of the variables (None: unbound): twice as
        # fast as looking each variable up by name, which costs a search and a term object per cell
        return [
            {name: term.value for name, term in zip(names, row) if term is not None}
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

    def update(self, change, index: Callable[[Path, Path], object] | None = None) -> None:
        """Copy the current store (Oxigraph's backup: hard links to its files), let
        ``change(store)`` write to the copy, and swap the copy in.
        Readers keep answering from the old one until the swap (``rulekb build --add``).
        ``index(old, fresh)`` writes the new search index from the old one (the two swap
        together); without it, the old index is carried over as it is."""
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
                old_index = _partner(current)
                if old_index.is_dir():  # an updated store keeps the search index of the build it was copied from
                    (index or _copy_index)(old_index, _partner(fresh))
                gc.collect()
                self._point_current_at(fresh)
            except BaseException:
                shutil.rmtree(fresh, ignore_errors=True)
                shutil.rmtree(_partner(fresh), ignore_errors=True)
                raise
            self._drop_all_but(fresh)

    def replace(self, quads: Iterable[ox.Quad] | None = None, beside: Callable[[Path], object] | None = None,
                *, nquads: Iterable[bytes] | None = None, stages=None,
                compacting: Callable[[], None] | None = None) -> int:
        """Write a new store from ``quads`` (pyoxigraph quads) or ``nquads`` (chunks of
        N-Quads bytes, e.g. serialised by worker processes) and swap it in; return the quad count.

        ``nquads`` stream through a pipe into Oxigraph's bulk loader, which parses and
        sorts them in native threads while the chunks are still being made (no Python
        object per quad).
        ``beside(directory)`` writes what goes with the new store (the search
        index, :mod:`kb.search.home`) into ``search-<stamp>`` next to its
        ``data-<stamp>``, before the swap: the one rename swaps the pair. When it
        returns a callable, that work runs alongside the store's writing and the
        callable waits for it (before the swap). ``stages`` (:class:`kb.progress.Stages`)
        hears the steps: ``store`` (the end of the bulk load, the compaction) and ``index``.
        ``compacting()`` is called once the quads are in, as the compaction starts (one
        thread, no GIL: the caller may start work of its own beside it).
        Nothing the readers see changes until the very last step (one rename).
        """
        from ..progress import Stages

        stages = stages or Stages()
        if self.root.exists() and not self.root.is_dir():
            raise StoreError(f"{self.root} is not a directory")
        with self._lock():
            stamp = time.strftime("%Y%m%dT%H%M%S")
            # a directory no one else has: never the one readers have open
            fresh = Path(tempfile.mkdtemp(prefix=f"data-{stamp}-", dir=self.root))
            partner = _partner(fresh)
            try:
                # what forks (the index writer, the makers of the chunks) forks before the store opens
                waiting = beside(partner) if beside is not None else None
                if nquads is not None:
                    chunks = iter(nquads)
                    first = next(chunks, b"")
                    store = ox.Store(str(fresh))
                    finish = _bulk_load_from(store, first, chunks)
                else:
                    store = ox.Store(str(fresh))
                    store.bulk_extend(quads if quads is not None else ())
                    finish = None
                with stages.stage("store", total=2) as stage:  # the bulk load's end, the compaction
                    if finish is not None:
                        finish()
                    stage.advance("store loaded; compacting")
                    if compacting is not None:
                        compacting()
                    # Why compact although it makes the store bigger: the loader's files are LZ4, and
                    # optimize() rewrites them into one uncompressed level (Oxigraph fixes RocksDB's
                    # options): 1.29 GB against 0.77 GB, but uncompacted every named query cost about
                    # twice the CPU. Why not load graph by graph to keep files LZ4 (1.12 GB): five
                    # loader calls took 35 s against 21 s, and two at once on one store fail.
                    store.optimize()
                    store.flush()
                    count = len(store)
                    del store  # (its last reference: closed here; the loader's thread let go of it)
                if callable(waiting):
                    with stages.stage("index", total=1):
                        waiting()
                self._point_current_at(fresh)
            except BaseException:
                shutil.rmtree(fresh, ignore_errors=True)
                shutil.rmtree(partner, ignore_errors=True)
                raise
            self._drop_all_but(fresh)
            return count

    def _point_current_at(self, fresh: Path) -> None:
        """The atomic step of a build or an update: ``current`` names ``fresh`` (one rename)."""
        link = self.root / f".current-{os.getpid()}"
        link.unlink(missing_ok=True)
        link.symlink_to(fresh.name)
        os.replace(link, self.root / "current")

    def _drop_all_but(self, fresh: Path) -> None:
        """After the swap: close what this process had open, remove the older builds and indexes
        (and the indexes killed builds were staging)."""
        from ..search.home import stale_staging

        self.close()
        keep = (fresh, _partner(fresh))
        for old in [*self.root.glob("data-*"), *self.root.glob("search-*"), *stale_staging(self.root)]:
            if old not in keep:
                shutil.rmtree(old, ignore_errors=True)


def _bulk_load_from(store: ox.Store, first: bytes, chunks) -> Callable[[], None]:
    """Feed ``first`` and then ``chunks`` (N-Quads bytes) through a pipe to ``store.bulk_load``
    running in a thread; returns once every chunk is written, with the callable that waits for
    the loader to finish (and raises what it raised). A chunk that fails to come (an error in
    the code making it) closes the pipe, waits for the loader and raises."""
    import threading

    read, write = os.pipe()
    failed: list[BaseException] = []

    def load() -> None:
        try:
            with os.fdopen(read, "rb", buffering=1 << 20) as source:
                store.bulk_load(source, format=ox.RdfFormat.N_QUADS)
        except BaseException as error:  # noqa: BLE001 -- handed to the waiting thread
            failed.append(error)

    thread = threading.Thread(target=load, name="rulekb-bulk-load", daemon=True)
    thread.start()

    def finish() -> None:
        thread.join()
        if failed:
            raise StoreError(f"the store could not be written: {failed[0]}") from failed[0]

    try:
        with os.fdopen(write, "wb", buffering=1 << 20) as sink:
            try:
                sink.write(first)
                for chunk in chunks:
                    sink.write(chunk)
            except BrokenPipeError:  # the loader stopped: finish() says why
                pass
    except BaseException:
        thread.join()
        raise
    return finish


def _partner(data_dir: Path) -> Path:
    """The search index directory that goes with a build's data directory (kb.search.home)."""
    from ..search.home import companion

    return companion(data_dir)


def _copy_index(old: Path, fresh: Path) -> None:
    shutil.copytree(old, fresh)

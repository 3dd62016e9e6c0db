"""Completing the dense arm of an index (:mod:`.dense`): the build's step (the arm from the
embedding cache, the few missing texts embedded then and there), ``rulekb build --embed``
and the detached background process (``python -m rulekb.kb.search.dense_build INDEX_DIR``):
the texts the cache lacks, newest editions first, swapped in as they are done."""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .dense import (BATCH, LOCK, LOG, MODEL_VERSION, SWAP_EVERY, SYNC_LIMIT, Cache, DenseUnavailable, Entry, _Index,
                    embed_passages, entries, mode, planned_engine, prepare, read_manifest, running, write_arm)

def order(all_entries: list[Entry], edition_rows: list[dict]) -> list[Entry]:
    """The entries to embed in the order they are most useful: the newest complete edition of
    each language (and every French text: they are all excerpts, searched together) first,
    then the others by the newest edition that prints them, newest first."""
    rank = {row["edition"]: i for i, row in enumerate(edition_rows)}  # oldest first
    newest = _newest(edition_rows)

    def when(e: Entry) -> tuple:
        first = 0 if newest & set(e.editions) else 1
        return (first, -max((rank.get(ed, -1) for ed in e.editions), default=-1))

    return sorted(all_entries, key=when)


def first_phase(all_entries: list[Entry], edition_rows: list[dict]) -> int:
    """How many of :func:`order`'s entries belong to the newest editions."""
    newest = _newest(edition_rows)
    return sum(1 for e in all_entries if newest & set(e.editions))


def _newest(edition_rows: list[dict]) -> set[str]:
    newest = set()
    for lang in {row["language"] for row in edition_rows}:
        complete = [row["edition"] for row in edition_rows if row["language"] == lang and not row["partial"]]
        newest |= {complete[-1]} if complete else {row["edition"] for row in edition_rows if row["language"] == lang}
    return newest


@dataclass
class Progress:
    done: int = 0
    total: int = 0
    embedded: int = 0
    cached: int = 0
    seconds: float = 0.0
    swaps: list = field(default_factory=list)
    stopped: str = ""


def write_from_cache(index_dir: Path, sync_limit: int = SYNC_LIMIT,
                     progress: Callable[[str], None] | None = None) -> dict:
    """The build's step: the arm from the cache, the missing texts embedded first when there are
    at most ``sync_limit`` of them. Statistics for the build's report (``missing``: what the
    background job has left to do)."""
    started = time.perf_counter()
    searcher = _Index(Path(index_dir))
    found = entries(searcher)
    cache = Cache()
    try:
        vectors = cache.get_many(e.digest for e in found)
        missing = {e.digest: e.passage for e in found if e.digest not in vectors}
        embedded = 0
        if missing and len(missing) <= sync_limit:
            try:
                items = list(missing.items())
                for i in range(0, len(items), BATCH):
                    chunk = items[i:i + BATCH]
                    got = embed_passages([p for _, p in chunk])
                    new = {d: got[j] for j, (d, _) in enumerate(chunk)}
                    cache.put_many(new)
                    vectors.update(new)
                    embedded += len(chunk)
                    if progress:
                        progress(f"embeddings {embedded}/{len(missing)}")
                missing = {}
            except DenseUnavailable:
                pass
        manifest = write_arm(index_dir, found, vectors, started) if vectors or not found else None
    finally:
        cache.close()
    return {"documents": len(found), "embedded": embedded, "from_cache": len(vectors) - embedded,
            "missing": len(missing), "seconds": round(time.perf_counter() - started, 2),
            "rows": manifest["rows"] if manifest else 0}


def complete(index_dir: Path, say: Callable[[str], None] | None = None, max_new: int | None = None,
             swap_every: float = SWAP_EVERY, workers: int | None = None) -> Progress:
    """Embed what the arm of the index in ``index_dir`` lacks, in :func:`order`, swapping in
    what is done after the newest editions, every ``swap_every`` seconds and at the end.
    ``max_new``: stop after embedding that many texts (what is done is kept and swapped in).
    Only one process completes an index at a time (a lock in the index directory). ``workers``:
    processes embedding at once, each on one thread (default: one per core, two at most)."""
    say = say or (lambda line: None)
    index_dir = Path(index_dir)
    state = Progress()
    lock_path = index_dir / LOCK
    try:
        lock = open(lock_path, "w")
    except OSError as exc:
        state.stopped = f"cannot lock {lock_path} ({exc.strerror or exc})"
        return state
    with lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            state.stopped = "another process is completing this index's embeddings"
            say(state.stopped)
            return state
        started = time.perf_counter()
        searcher = _Index(index_dir)
        found = entries(searcher)
        ordered = order(found, searcher.meta["editions"])
        phase = first_phase(found, searcher.meta["editions"])
        cache = Cache()
        try:
            vectors = cache.get_many(e.digest for e in found)
            todo: list[Entry] = []
            seen = set(vectors)
            newest_todo = 0
            for i, e in enumerate(ordered):
                if e.digest not in seen:
                    seen.add(e.digest)
                    todo.append(e)
                    newest_todo += i < phase
            state.total, state.cached = len(todo), len(vectors)
            engine = prepare()  # (the model derived now, once, before the workers load it)
            say(f"embeddings: {len(found):,} documents, {len(vectors):,} texts cached, {len(todo):,} to embed "
                f"({newest_todo:,} of them in the newest editions) with {MODEL_VERSION} on {engine}, one thread per process")
            if not todo:
                manifest = read_manifest(index_dir)
                if manifest is None or manifest.get("rows") != len([e for e in found if e.digest in vectors]):
                    write_arm(index_dir, found, vectors, started)
                    state.swaps.append(0)
                state.seconds = round(time.perf_counter() - started, 2)
                return state
            last_swap = time.perf_counter()
            if max_new is not None:
                todo = todo[:max_new]
            chunks = [todo[i:i + BATCH] for i in range(0, len(todo), BATCH)]
            for chunk, got in _embedded(chunks, workers):
                if not index_dir.exists():
                    state.stopped = "the index was replaced by a newer build"
                    return state
                new = {e.digest: got[j] for j, e in enumerate(chunk)}
                cache.put_many(new)
                vectors.update(new)
                state.embedded += len(chunk)
                state.done = state.embedded
                crossed = state.embedded >= newest_todo and state.embedded - len(chunk) < newest_todo
                if crossed or time.perf_counter() - last_swap >= swap_every:
                    write_arm(index_dir, found, vectors, started)
                    state.swaps.append(state.embedded)
                    last_swap = time.perf_counter()
                    if crossed:
                        say(f"embeddings: the newest editions are complete ({newest_todo:,} texts, "
                            f"{time.perf_counter() - started:.0f} s): swapped in")
                elapsed = time.perf_counter() - started
                rate = state.embedded / elapsed if elapsed else 0
                left = (state.total - state.embedded) / rate if rate else 0
                say(f"embeddings {state.embedded:,}/{state.total:,} ({100 * state.embedded / state.total:.0f} %), "
                    f"{rate:.1f}/s, about {left / 60:.0f} min left")
            if not index_dir.exists():
                state.stopped = "the index was replaced by a newer build"
                return state
            if state.embedded < state.total and not state.stopped:
                state.stopped = f"stopped after {state.embedded} texts (--max)"
            write_arm(index_dir, found, vectors, started)
            state.swaps.append(state.embedded)
        finally:
            cache.close()
        state.seconds = round(time.perf_counter() - started, 2)
        say(f"embeddings: {state.embedded:,} texts embedded in {state.seconds:.0f} s"
            + (f"; {state.stopped}" if state.stopped else "; complete"))
        return state


def _embedded(chunks: list[list[Entry]], workers: int | None):
    """(chunk, its vectors) in order; with more than one worker, from worker processes (each
    loads the model once, on one thread)."""
    workers = workers or min(2, os.cpu_count() or 1)
    if workers <= 1 or len(chunks) < 4:
        for chunk in chunks:
            yield chunk, embed_passages([e.passage for e in chunk])
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        try:
            for chunk, got in zip(chunks, pool.map(_embed_texts, ([e.passage for e in c] for c in chunks))):
                yield chunk, got
        finally:
            pool.shutdown(wait=False, cancel_futures=True)


def _embed_texts(texts: list[str]):
    return embed_passages(texts)


def start_background(index_dir: Path) -> dict:
    """Start :func:`complete` for ``index_dir`` as a detached, niced process that
    outlives the command that started it; its output goes to ``<index>/dense.log``."""
    import subprocess
    import sys

    log_path = Path(index_dir) / LOG
    log = open(log_path, "ab")
    try:
        child = subprocess.Popen(
            [sys.executable, "-m", "rulekb.kb.search.dense_build", str(index_dir)],
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            preexec_fn=lambda: os.nice(10), close_fds=True)
    finally:
        log.close()
    return {"pid": child.pid, "log": str(log_path)}


def for_store(store, action: str, max_new: int | None = None, say: Callable[[str], None] | None = None):
    """What ``rulekb build --embed ACTION`` and the end of ``rulekb build`` do to the arm of
    ``store``'s current index: ``now`` (:func:`complete`, a :class:`Progress`), ``background``
    (:func:`start_background` when the arm lacks texts: its pid and log, else None),
    ``status`` (a dict), ``after-build`` (what :func:`.dense.mode` says: nothing, now or background)."""
    from .home import index_dir

    directory = index_dir(store)
    if action == "after-build":
        action = {"off": "", "wait": "now"}.get(mode(), "background")
    if action == "now":
        return complete(directory, say=say, max_new=max_new)
    if action == "background":
        manifest = read_manifest(directory)
        if mode() == "off" or (manifest is not None and manifest.get("rows") == manifest.get("documents")):
            return None
        if running(directory):
            return {"pid": None, "log": str(directory / LOG), "already": True}
        return start_background(directory)
    if action == "status":
        manifest = read_manifest(directory) or {}
        log = directory / LOG
        tail = log.read_text(encoding="utf-8", errors="replace").splitlines()[-1:] if log.exists() else []
        return {"index": str(directory), "rows": manifest.get("rows", 0), "documents": manifest.get("documents"),
                "model": manifest.get("model_version"), "engine": planned_engine(),
                "running": running(directory), "log": str(log),
                "last": tail[0] if tail else None}
    return None


def _main(argv: list[str]) -> int:
    """``python -m rulekb.kb.search.dense_build INDEX_DIR``: the background job (:func:`start_background`)."""
    if len(argv) != 1:
        print("usage: python -m rulekb.kb.search.dense_build INDEX_DIR", flush=True)
        return 2
    say = lambda line: print(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {line}", flush=True)  # noqa: E731
    try:
        state = complete(Path(argv[0]), say=say)
    except DenseUnavailable as exc:
        say(f"embeddings: stopped: {exc}")
        return 1
    return 0 if not state.stopped or "newer build" in state.stopped else 1


if __name__ == "__main__":
    import sys

    sys.exit(_main(sys.argv[1:]))

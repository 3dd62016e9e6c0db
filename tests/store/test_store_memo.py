"""The memo of values read from a store, per build (kb.store.memo), on real stores: an embedded
store rebuilt in place (a new build id: every key misses), its bound (least recently used dropped
first), copies that a caller may change, and no memo where the store names no build of its own
(in memory, a remote endpoint: a real ``oxigraph serve``)."""

from __future__ import annotations

import pyoxigraph as ox
import pytest

from rulekb.kb.store.embedded import EmbeddedStore
from rulekb.kb.store.memo import BuildMemo, build_of
from rulekb.kb.store.remote import RemoteStore

from .test_remote_store import _raw_update, _serve, _stop

EX = "http://example.org/"


def _quads(*labels: str) -> list[ox.Quad]:
    return [ox.Quad(ox.NamedNode(f"{EX}thing/{i}"), ox.NamedNode(f"{EX}label"), ox.Literal(label),
                    ox.NamedNode(f"{EX}graph")) for i, label in enumerate(labels)]


class Reader:
    """Reads the labels of ``store`` (a real SELECT), as a dict a caller may change; counts its reads."""

    def __init__(self, store):
        self.store, self.reads = store, []

    def __call__(self, key):
        def read() -> dict:
            self.reads.append(key)
            rows = self.store.select(f"SELECT ?s ?label WHERE {{ ?s <{EX}label> ?label }}")
            return {"key": key, "labels": sorted(row["label"] for row in rows)}
        return read


@pytest.fixture
def built(tmp_path):
    store = EmbeddedStore(tmp_path / "kb")
    store.replace(_quads("first"))
    yield store
    store.close()


def test_a_value_is_read_once_per_build_and_again_after_a_rebuild(built):
    memo, read = BuildMemo(4), Reader(built)
    before = build_of(built)
    assert before is not None and before == built.build_id()
    assert memo.get(built, "a", read("a"))["labels"] == ["first"]
    assert memo.get(built, "a", read("a"))["labels"] == ["first"]
    assert read.reads == ["a"]
    built.replace(_quads("second"))  # a rebuild: a new data directory swapped in
    assert build_of(built) != before
    assert memo.get(built, "a", read("a"))["labels"] == ["second"]  # nothing of the old build served
    assert read.reads == ["a", "a"]
    assert memo.get(built, "a", read("a"))["labels"] == ["second"] and read.reads == ["a", "a"]


def test_the_bound_drops_the_least_recently_used(built):
    memo, read = BuildMemo(2), Reader(built)
    memo.get(built, "a", read("a"))
    memo.get(built, "b", read("b"))
    memo.get(built, "a", read("a"))  # a hit: "a" is now the most recently used
    memo.get(built, "c", read("c"))  # past the bound: "b" goes
    assert len(memo) == 2 and read.reads == ["a", "b", "c"]
    memo.get(built, "a", read("a"))
    memo.get(built, "c", read("c"))
    assert read.reads == ["a", "b", "c"]
    memo.get(built, "b", read("b"))
    assert read.reads == ["a", "b", "c", "b"] and len(memo) == 2
    memo.clear()
    memo.get(built, "b", read("b"))
    assert read.reads == ["a", "b", "c", "b", "b"]


def test_each_caller_gets_its_own_copy(built):
    memo, read = BuildMemo(4), Reader(built)
    first = memo.get(built, "a", read("a"))
    first["labels"].append("changed by the first caller")
    second = memo.get(built, "a", read("a"))
    assert second == {"key": "a", "labels": ["first"]} and read.reads == ["a"]
    second["labels"].clear()
    assert memo.get(built, "a", read("a")) == {"key": "a", "labels": ["first"]}


def test_without_copies_the_kept_value_itself_is_handed_out(built):
    memo = BuildMemo(4, copies=False)
    kept = memo.get(built, "a", lambda: ("one", "two"))
    assert memo.get(built, "a", lambda: ("three",)) is kept
    assert memo.get(built, "none", lambda: ()) == ()  # an edition with no rows: kept too
    assert memo.get(built, "none", lambda: ("read again",)) == ()


def test_a_store_in_memory_is_read_every_time():
    store = EmbeddedStore.in_memory(ox.serialize(_quads("only"), format=ox.RdfFormat.N_QUADS))
    memo, read = BuildMemo(4), Reader(store)
    assert build_of(store) is None
    assert memo.get(store, "a", read("a")) == memo.get(store, "a", read("a")) == {"key": "a", "labels": ["only"]}
    assert read.reads == ["a", "a"] and len(memo) == 0


@pytest.fixture
def remote(tmp_path):
    process, url = _serve(tmp_path, "--union-default-graph")
    _raw_update(url, "DROP ALL")
    yield RemoteStore(url)
    _stop(process)


def test_a_remote_store_is_read_every_time_though_it_names_its_build(remote):
    remote.replace(_quads("remote"))
    assert remote.build_id() is not None  # its manifest graph: a build it names...
    assert build_of(remote) is None  # ...but its content may change under that name: not kept
    memo, read = BuildMemo(4), Reader(remote)
    assert memo.get(remote, "a", read("a")) == memo.get(remote, "a", read("a")) == {"key": "a", "labels": ["remote"]}
    assert read.reads == ["a", "a"] and len(memo) == 0

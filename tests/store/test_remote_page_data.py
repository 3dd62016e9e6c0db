"""Page data for a server over a remote store (kb.pages.remote), on a real Oxigraph server: the
remote build writes it locally for its own build id (its manifest graph), a rule page over the
remote store then asks the store nothing and is byte for byte the page of the embedded store,
and page data of another build is not read (the pages ask the store; the log says so once)."""

from __future__ import annotations

import logging
import shutil

import pytest

from rulekb.kb.pages import reading as page_reading
from rulekb.kb.pages.reading import PageData, for_store
from rulekb.kb.pages.remote import folder
from rulekb.kb.store.remote import RemoteStore

from .test_remote_store import FIXTURE, _raw_update, _serve, _stop

EDITION = "en/2030-05-05"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    process, url = _serve(tmp_path_factory.mktemp("oxigraph"), "--union-default-graph")
    yield url
    _stop(process)


@pytest.fixture
def built(server, tmp_path, monkeypatch):
    from rulekb.kb.build import build
    from rulekb.kb.store.embedded import EmbeddedStore

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data-home"))
    _raw_update(server, "DROP ALL")
    store = RemoteStore(server)
    report = build([str(FIXTURE)], store, reasoner="none")
    embedded = EmbeddedStore(tmp_path / "kb")
    build([str(FIXTURE)], embedded, reasoner="none")
    _forget()
    yield store, report, embedded
    embedded.close()
    _forget()


def _forget() -> None:
    """The page data the process has opened or looked for (it looks again at most every second)."""
    for data in page_reading._OPEN.values():
        if data is not None:
            data.close()
    page_reading._OPEN.clear()
    page_reading._LOOKED.clear()


def _pages(store, keys) -> tuple[list[bytes], int]:
    """Each rule page of ``keys`` over ``store`` (the web app, no cache), and how many queries
    the remote store was asked while they rendered."""
    from rulekb.kb.bench.pages import _get_all
    from rulekb.kb.cli.serve_commands import build_app

    app = build_app(store, None, max_rows=1000, timeout=30, cache=0, query_workers=1)
    paths = [f"/edition/{e}/rule/{n}" for e, n in keys]
    _get_all(app, paths[:1])  # what a server reads once (catalog, timeline)
    asked = []
    original = RemoteStore.select

    def counting(self, sparql, bindings=None):
        asked.append(sparql)
        return original(self, sparql, bindings)

    RemoteStore.select = counting
    try:
        answers = _get_all(app, paths)
    finally:
        RemoteStore.select = original
    assert all(status == 200 for status, _ in answers)
    return [body for _, body in answers], len(asked)


def test_a_remote_build_writes_page_data_for_its_build_and_pages_ask_nothing(built):
    from rulekb.kb.bench.pages import sample

    store, report, embedded = built
    assert report.pages["file"].startswith(str(folder(store)))
    data = for_store(store)
    assert data is not None and data.build == store.build_id() and data.build.startswith("urn:rulekb:manifest:")
    import sqlite3

    from rulekb.kb.pages import features
    from rulekb.kb.translate import kept

    with sqlite3.connect(report.pages["file"]) as db:  # what --base auto reads, as an embedded build keeps it
        assert features.digest(db) == kept.computed_by()
        assert db.execute("SELECT count(*) FROM feature_editions").fetchone()[0] > 0
    keys = sample(embedded, 20)
    over_remote, asked = _pages(store, keys)
    assert asked == 0, "a rule page over the remote store asked it despite its page data"
    over_embedded, _ = _pages(embedded, keys)
    assert over_remote == over_embedded


def test_page_data_of_another_build_is_not_read_and_the_log_says_so_once(built, caplog):
    from rulekb.kb.bench.pages import sample

    store, report, embedded = built
    kept = folder(store) / "pages-another-build.sqlite"
    shutil.move(report.pages["file"], kept)  # what a replica holds when the writer has built again
    keys = sample(embedded, 20)
    with caplog.at_level(logging.WARNING, logger="rulekb.pages"):
        assert for_store(store) is None
        page_reading._LOOKED.clear()
        assert for_store(store) is None
        over_remote, asked = _pages(store, keys)
    said = [r for r in caplog.records if r.name == "rulekb.pages"]
    assert len(said) == 1 and store.location in said[0].getMessage() and kept.name in said[0].getMessage()
    assert asked > 0  # the pages ask the store, and answer the same
    assert over_remote == _pages(embedded, keys)[0]
    # a file under the build's own name that says it is of another build is not read either
    import sqlite3

    shutil.copy(kept, report.pages["file"])
    with sqlite3.connect(report.pages["file"]) as db:
        db.execute("UPDATE meta SET value = 'urn:rulekb:manifest:another' WHERE key = 'build'")
    _forget()
    assert PageData(kept).build == store.build_id() and for_store(store) is None


def test_a_remote_rebuild_of_the_same_kb_copies_its_page_data_under_the_new_build(built):
    """The same quads committed again (a new manifest graph): the page data is the previous
    build's, copied under the new build's name (kb.pages.reuse), and the pages still ask nothing."""
    from pathlib import Path

    from rulekb.kb.bench.pages import sample
    from rulekb.kb.build import build

    store, report, embedded = built
    before = store.build_id()
    again = build([str(FIXTURE)], store, reasoner="none")
    assert store.build_id() != before
    assert again.pages["reused"] == Path(report.pages["file"]).name and again.pages["file"] != report.pages["file"]
    assert not Path(report.pages["file"]).exists()  # the previous build's file went
    _forget()
    data = for_store(store)
    assert data is not None and data.build == store.build_id()
    keys = sample(embedded, 20)
    over_remote, asked = _pages(store, keys)
    assert asked == 0 and over_remote == _pages(embedded, keys)[0]

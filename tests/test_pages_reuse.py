"""A rebuild of the same KB takes the previous build's page data (kb.pages.reuse): the file it
copies is the file a fresh write gives for the new build, table by table; any other KB is
written whole."""

from __future__ import annotations

import sqlite3

from rulekb.kb.build import build
from rulekb.kb.pages import companion, write
from rulekb.kb.pages.reuse import KEY, Inputs
from rulekb.kb.store.embedded import EmbeddedStore
from rulekb.kb.translate.kept import keep


def _tables(path) -> dict[str, list]:
    """Every table's rows, sorted; of meta, all but the build's name and the inputs' digest."""
    db = sqlite3.connect(path)
    try:
        names = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        out = {name: sorted(db.execute(f"SELECT * FROM {name}").fetchall(), key=repr) for name in names}
    finally:
        db.close()
    out["meta"] = [row for row in out["meta"] if row[0] not in ("build", KEY)]
    return out


def _meta(path) -> dict[str, str]:
    db = sqlite3.connect(path)
    try:
        return dict(db.execute("SELECT key, value FROM meta"))
    finally:
        db.close()


def test_a_rebuild_of_the_same_kb_copies_the_page_data_a_fresh_write_gives(fixtures, tmp_path, monkeypatch):
    monkeypatch.setenv("RULEKB_CACHE", str(tmp_path / "cache"))  # (the first build finds no file of an earlier run)
    source = [str(fixtures / "invented-cr-2030-05-05.txt")]
    store = EmbeddedStore(tmp_path / "kb")
    first = build(source, store, reasoner="none")
    first_file = companion(store.data_dir())
    assert "reused" not in first.pages and first.pages["file"] == str(first_file)
    digest = _meta(first_file)[KEY]
    assert len(digest) == 32

    again = build(source, store, reasoner="none")
    second_file = companion(store.data_dir())
    assert again.pages["reused"] == first_file.name and again.pages["file"] == str(second_file)
    assert second_file != first_file and not first_file.exists()  # the gone build's file went with it
    assert again.pages["keys"] == first.pages["keys"] and again.pages["lineages"] == first.pages["lineages"]
    assert again.pages["rules_placed"] == first.pages["rules_placed"] > 0
    meta = _meta(second_file)
    assert meta["build"] == store.data_dir().name and meta[KEY] == digest
    fresh = tmp_path / "fresh.sqlite"
    write(store, target=fresh, extra=keep)  # every query asked of the new build's store
    assert _tables(second_file) == _tables(fresh)
    assert _tables(fresh)["rules"] and _tables(fresh)["lineage_rows"]  # (a comparison of something)

    other = build(source, store, reasoner="none", base="http://example.org/kb/")  # other IRIs: other quads
    third_file = companion(store.data_dir())
    assert "reused" not in other.pages and _meta(third_file)[KEY] != digest
    write(store, target=tmp_path / "fresh-other.sqlite", extra=keep)
    assert _tables(third_file) == _tables(tmp_path / "fresh-other.sqlite")


def test_a_build_of_the_same_kb_elsewhere_copies_the_page_data_kept_in_the_cache(fixtures, tmp_path, monkeypatch):
    from rulekb.kb.pages import reuse

    monkeypatch.setenv("RULEKB_CACHE", str(tmp_path / "cache"))
    source = [str(fixtures / "invented-cr-2030-05-05.txt")]
    first = build(source, EmbeddedStore(tmp_path / "one"), reasoner="none")
    digest = _meta(first.pages["file"])[KEY]
    cached = tmp_path / "cache" / reuse.CACHE / f"{digest}.sqlite"
    assert "reused" not in first.pages and cached.is_file()
    store = EmbeddedStore(tmp_path / "two")  # another directory: no previous build beside it
    second = build(source, store, reasoner="none")
    assert second.pages["reused"] == cached.name and _meta(second.pages["file"])["build"] == store.data_dir().name
    fresh = tmp_path / "fresh.sqlite"
    write(store, target=fresh, extra=keep)
    assert _tables(second.pages["file"]) == _tables(fresh)
    monkeypatch.setattr(reuse, "CACHE_BYTES", 1)  # past the bound the oldest copies go, never the newest
    build(source, EmbeddedStore(tmp_path / "three"), reasoner="none", base="http://example.org/kb/")
    assert not cached.exists() and len(list(cached.parent.glob("*.sqlite"))) == 1


def test_the_inputs_digest_is_the_quads_not_their_blank_node_labels():
    def digest(*chunks: bytes) -> str | None:
        inputs = Inputs()
        for chunk in chunks:
            assert inputs.fed(chunk) is chunk  # the stream passes through unchanged
        return inputs.digest()

    a = b'_:f00 <http://x/p> "o" <http://x/g> .\n<http://x/s> <http://x/q> _:f00 <http://x/g> .\n'
    b = b'_:9ab <http://x/p> "o" <http://x/g> .\n<http://x/s> <http://x/q> _:9ab <http://x/g> .\n'
    c = b'_:9ab <http://x/p> "o" <http://x/g> .\n<http://x/s> <http://x/q> _:other <http://x/g> .\n'
    assert digest(a) == digest(b) != digest(c)
    assert digest(a, b"<http://x/s> <http://x/p> \"1\" .\n") != digest(a, b"<http://x/s> <http://x/p> \"2\" .\n")
    assert digest(b"<http://x/s> <http://x/p> \"a\" .\n", b"") != digest(b"", b"<http://x/s> <http://x/p> \"a\" .\n")
    assert digest() is None  # nothing streamed: nothing to reuse
    # the statements graph's quads are a set: which part repeats a content depends on which
    # worker serialised which edition (each writes a content once), the store holds it once
    said = b'<http://x/c1> <http://x/says> "1" <http://x/graph/statements> .\n'
    also = b'<http://x/c2> <http://x/says> "2" <http://x/graph/statements> .\n'
    rule_a, rule_b = b'<http://x/a> <http://x/p> "a" <http://x/e1> .\n', b'<http://x/b> <http://x/p> "b" <http://x/e2> .\n'
    assert digest(rule_a + said + also, rule_b + said) == digest(rule_a + said, rule_b + also + said) \
        == digest(said + rule_a, rule_b + also)
    assert digest(rule_a + said, rule_b) != digest(rule_a + said, rule_b + also)  # another content: another KB
    assert digest(rule_a + said, rule_b) != digest(rule_b + said, rule_a)  # (the rest keeps its order)

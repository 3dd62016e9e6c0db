"""One store interface: the embedded and the remote store both satisfy kb.store.kind.Store,
so callers use its members and never test which implementation they hold."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from rulekb.kb.store.remote import RemoteStore
from rulekb.kb.store.embedded import EmbeddedStore
from rulekb.kb.store.kind import Store
from rulekb.kb.store.opening import open_store

ROOT = Path(__file__).resolve().parents[2]
MEMBERS = [name for name in vars(Store) if not name.startswith("_")]


def test_both_stores_have_every_member_of_the_interface():
    assert {"location", "local_root", "check", "query", "select", "replace", "build_id"} <= set(MEMBERS)
    for implementation in (EmbeddedStore, RemoteStore):
        missing = [name for name in MEMBERS if not hasattr(implementation, name)]
        assert missing == [], f"{implementation.__name__} lacks {missing}"
    assert isinstance(EmbeddedStore.in_memory(), Store)
    assert isinstance(RemoteStore("http://localhost:9/sparql"), Store)


def test_the_location_picks_the_implementation(tmp_path):
    assert open_store(str(tmp_path)).local_root == tmp_path
    assert open_store("http://localhost:9/sparql").local_root is None


def test_a_remote_store_tells_no_build_and_no_directory():
    remote = RemoteStore("http://localhost:9/sparql")
    assert (remote.build_id(), remote.data_dir()) == (None, None)
    remote.check()  # nothing to check before a query: no network here


def test_the_two_implementations_do_not_import_each_other():
    import rulekb.kb.store.remote as remote_module
    import rulekb.kb.store.embedded as embedded_module

    for module, other in ((embedded_module, remote_module), (remote_module, embedded_module)):
        tree = ast.parse(Path(inspect.getsourcefile(module)).read_text(encoding="utf-8"))
        imported = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [f"{node.module}.{a.name}" if node.module else a.name for a in node.names]
                imported.update(n.lstrip(".") for n in names)
        leaf = other.__name__.rsplit(".", 1)[-1]
        assert not {leaf, other.__name__} & imported, f"{module.__name__} imports {other.__name__}"


def test_no_caller_probes_which_store_it_holds():
    probes = []
    for path in ROOT.joinpath("kb").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for needle in ("isinstance(store, EmbeddedStore)", "isinstance(self.store, EmbeddedStore)",
                       'hasattr(kb, "close")', 'hasattr(kb, "store")', 'getattr(store, "build_id"',
                       'getattr(self.store, "data_dir"'):
            if needle in text:
                probes.append(f"{path.relative_to(ROOT)}: {needle}")
    assert probes == []

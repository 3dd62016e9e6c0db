"""An edition read back from the KB is kept per build (kb.rdf.stored_edition): the next read of
the same build gives an equal edition of its own, a rebuild's is read afresh."""

from __future__ import annotations

from pathlib import Path

from rulekb.kb.build import build
from rulekb.kb.rdf import stored_edition as module
from rulekb.kb.rdf.stored_edition import stored_edition
from rulekb.kb.store.embedded import EmbeddedStore

FIXTURES = Path(__file__).parents[1] / "fixtures"
OLD = FIXTURES / "invented-cr-2030-05-05.txt"


def test_a_second_read_is_an_equal_copy_and_a_rebuild_is_read_again(tmp_path, monkeypatch):
    store = EmbeddedStore(tmp_path / "store")
    build([str(OLD)], store, reasoner="none")
    first = stored_edition(store, "en/2030-05-05")
    asked = []
    real = module._read
    monkeypatch.setattr(module, "_read", lambda *args: asked.append(args[1:]) or real(*args))
    again = stored_edition(store, "en/2030-05-05")
    assert asked == [] and again == first and again is not first
    again.rules[0].examples.append("changed by its reader")
    again.rules.pop()
    assert stored_edition(store, "en/2030-05-05") == first  # a reader's changes stay its own
    assert asked == []
    rules_only = stored_edition(store, "en/2030-05-05", rules_only=True)  # another reading, kept apart
    assert asked == [("en/2030-05-05", True)] and not rules_only.sections and rules_only.rules == first.rules

    before = store.build_id()
    build([str(OLD)], EmbeddedStore(store.root), reasoner="none")  # another build of the same root
    store.close()
    assert store.build_id() != before
    assert stored_edition(store, "en/2030-05-05") == first
    assert asked[-1] == ("en/2030-05-05", False)


def test_a_store_in_memory_is_read_every_time(monkeypatch):
    from rulekb.kb.rdf.edition import edition_nquads
    from rulekb.kb.rdf.iris import Minter
    from rulekb.ingest.parse import parse_file

    edition = parse_file(str(OLD))[0]
    store = EmbeddedStore.in_memory(edition_nquads(edition, Minter.for_base("http://example.org/")).encode())
    asked = []
    real = module._read
    monkeypatch.setattr(module, "_read", lambda *args: asked.append(args[1]) or real(*args))
    assert stored_edition(store, edition.id) == stored_edition(store, edition.id)
    assert asked == [edition.id, edition.id]

"""Parser warnings keep their code in the KB (rk:warningCode), and an edition read back
from the store has the same warnings: code, message and line."""

from __future__ import annotations

from pathlib import Path

import pyoxigraph as ox

from rulekb.ingest.model import ParseWarning
from rulekb.ingest.parse import parse_file
from rulekb.kb.rdf.iris import Minter
from rulekb.kb.rdf.edition import edition_quads
from rulekb.kb.store.embedded import EmbeddedStore
from rulekb.kb.rdf.stored_edition import stored_edition
from rulekb.kb.rdf.vocab import RK

FIXTURE = Path(__file__).parents[1] / "fixtures" / "invented-cr-2030-05-05.txt"


def _store_of(edition) -> EmbeddedStore:
    quads = list(edition_quads(edition, Minter.for_base(None)))
    return EmbeddedStore.in_memory(ox.serialize(quads, format=ox.RdfFormat.N_QUADS))


def test_a_warning_comes_back_with_its_code_and_line():
    edition = parse_file(FIXTURE)[0]
    edition.warnings = [ParseWarning("truncated", "the text stops in the middle of rule 702.3", 40),
                        ParseWarning("out-of-order", "a wording no pattern knows", None)]
    back = stored_edition(_store_of(edition), edition.id)
    assert [(w.code, w.message, w.line) for w in back.warnings] == [
        ("out-of-order", "a wording no pattern knows", None),
        ("truncated", "the text stops in the middle of rule 702.3", 40),
    ]


def test_the_code_is_stored_as_data():
    edition = parse_file(FIXTURE)[0]
    edition.warnings = [ParseWarning("date-mismatch", "any wording at all", 3)]
    store = _store_of(edition)
    rows = store.select(f"SELECT ?code ?text WHERE {{ ?ed <{RK.hasWarning}> ?w . "
                        f"?w <{RK.warningCode}> ?code ; <{RK.warning}> ?text }}")
    assert rows == [{"code": "date-mismatch", "text": "line 3: any wording at all"}]


def test_a_store_built_before_codes_gives_the_line_alone():
    edition = parse_file(FIXTURE)[0]
    edition.warnings = []
    store = _store_of(edition)
    ed = store.select(f"SELECT ?ed WHERE {{ ?ed <{RK.editionId}> ?id }}")[0]["ed"]
    store.store().add(ox.Quad(ox.NamedNode(ed), ox.NamedNode(str(RK.warning)), ox.Literal("line 9: old style"),
                              ox.NamedNode(store.graphs()[0])))
    back = stored_edition(store, edition.id)
    assert [(w.code, w.message, w.line) for w in back.warnings] == [("stored", "old style", 9)]

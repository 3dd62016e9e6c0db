"""Cards by their French names (rulekb.ingest.cards, kb.cards): read from French printings (Scryfall)
and foreignData (MTGJSON), kept by fetch --cards, named in questions (brackets in any question, plainly
in a French one), by rulekb card, on the card pages and as skos:altLabel@fr. Invented cards, invented
French names (tests/fixtures/cards)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekb.ingest import cards as card_files
from rulekb.kb import service

from ..helpers import http
from .conftest import ATOMIC, CARDS


def test_french_names_come_from_french_printings_and_foreign_data():
    # Scryfall: a printing of "lang": "fr" names the card of its English name (its faces too) and is no
    # card of its own; a printing in another language changes nothing, even read before the English one
    scryfall = {c.name: c for c in card_files.read(CARDS).cards}
    assert len(scryfall) == 5 and scryfall["Brass Golem"].name_fr == "Golem de laiton"
    wind = scryfall["Wind // Unwind"]
    assert (wind.name_fr, [f.name_fr for f in wind.faces]) == ("Vent // Dévent", ["Vent", "Dévent"])
    assert scryfall["Shiny Cog"].name_fr == "" and scryfall["Shiny Cog"].oracle_text == "{T}: Add one spring."
    # MTGJSON: the French entry of each face's foreignData
    atomic = {c.name: c for c in card_files.read(ATOMIC).cards}
    assert atomic["Brass Golem"].name_fr == "Golem de laiton"
    assert [f.name_fr for f in atomic["Wind // Unwind"].faces] == ["Vent", "Dévent"]
    # what fetch --cards keeps reads back with its French names
    again = card_files.parse_bytes(json.dumps(card_files.to_json(list(atomic.values()))).encode())
    assert [(c.name, c.name_fr, c.faces) for c in again.cards] == [(c.name, c.name_fr, c.faces) for c in atomic.values()]
    # a card printed only in another language is still the card (Scryfall's Oracle fields are English)
    only = card_files.parse_bytes(json.dumps([{"name": "Far Cog", "lang": "ja", "printed_name": "遠い歯車",
                                                "oracle_text": "{T}: Add one spring."}]).encode())
    assert [(c.name, c.name_fr, c.oracle_text) for c in only.cards] == [("Far Cog", "", "{T}: Add one spring.")]


@pytest.mark.parametrize("question, name, how", [
    ("si je lance Dévent sur mon gadget sans ressort, est-il exilé ?", "Wind // Unwind", "French name"),
    ("le Golem de laiton peut-il être ciblé par un sprocket adverse ?", "Brass Golem", "French name"),
    ("can my opponent target [Golem de laiton] with a sprocket?", "Brass Golem", "brackets, French name"),
    ("est-ce que [[golem de laiton]] perd le duel ?", "Brass Golem", "double brackets, French name"),
])
def test_a_question_names_a_card_by_its_french_name(kb, question, name, how):
    found = service.search(kb[0], question)
    assert [(c["name"], c["how"]) for c in found["cards"]] == [(name, how)]


def test_a_french_name_is_not_read_where_it_may_be_a_french_word(kb):
    # a sentence's first word alone is French ("Vent ..."); a French name in lower case, a French phrase;
    # an English question's plain words are English (a French name counts there in brackets only)
    for question in ("Vent : est-ce que le gadget tourne une fois ?", "si je lance dévent sur un gadget, est-il exilé ?",
                     "when a Golem de laiton is rewound, who loses?"):
        found = service.search(kb[0], question)
        assert not found.get("cards"), (question, found.get("cards"))
    card = service.card(kb[0], "Golem de laiton")
    assert (card["name"], card["how"], card["name_fr"]) == ("Brass Golem", "French name", "Golem de laiton")
    assert service.card(kb[0], "Golem de laitn")["name"] == "Brass Golem"  # a near spelling of it


_ANY = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                    max_leaves=8)


@settings(max_examples=200, deadline=None)
@given(lang=_ANY | st.sampled_from(["fr", "en", "de"]), printed=_ANY | st.text(max_size=20), faces=_ANY,
       foreign=_ANY | st.lists(st.fixed_dictionaries({"language": st.sampled_from(["French", "German", 3]),
                                                       "name": _ANY | st.text(max_size=20)}), max_size=3))
def test_fuzz_french_names_in_any_shape_are_read_or_said_why(lang, printed, faces, foreign):
    scryfall = [{"name": "Cog", "oracle_text": "{T}: Add one spring."},
                {"name": "Cog", "lang": lang, "printed_name": printed, "card_faces": faces}]
    atomic = {"meta": {}, "data": {"Cog": [{"name": "Cog", "text": "x", "foreignData": foreign}]}}
    for data in (scryfall, atomic):
        try:
            read = card_files.parse_bytes(json.dumps(data).encode())
        except card_files.CardFileError as exc:
            assert "\n" not in str(exc)
            continue
        assert all(isinstance(c.name_fr, str) for c in read.cards) and len(read.cards) == 1


def test_a_french_name_the_card_file_lacks_says_why(tmp_path, kb):
    from rulekb.kb.cards import names as card_names
    from rulekb.kb.cards.recognise import read

    rows = [{"name": "Brass Golem", "slug": "brass-golem", "type_line": "Gadget", "text": "", "faces": []}]
    card_names.write(tmp_path, rows, {})  # a card file without French names (the corpus's, Scryfall's oracle_cards)
    lacking = read("Est-ce que [Golem de laiton] perd ?", card_names.NameIndex(tmp_path), frozenset(), False, True)
    assert lacking["unknown"] == ["Golem de laiton"] and "fetch --cards mtgjson" in lacking["note"]
    assert read("does [Golem de laiton] lose?", card_names.NameIndex(tmp_path), frozenset())["note"] == ""  # English
    # a card file with French names: a French name it does not know is no card, with nothing to add
    found = service.search(kb[0], "est-ce que [Golem de cuivre] perd le duel ?")
    assert found["unknown_cards"] == ["Golem de cuivre"] and "cards_note" not in found["understood"]


def test_ligatures_are_folded_as_players_type_them():
    from rulekb.kb.cards.names import norm

    assert norm("Æther Vial") == norm("AEther Vial") == "aether vial"
    assert norm("Cœur de l’Œil") == norm("Coeur de l'Oeil") == "coeur de loeil"
    assert norm("Jötun Grunt") == "jotun grunt" and norm("Łódź Ø") == "lodz o"


def test_fetch_cards_knows_mtgjson_by_name(monkeypatch):
    from rulekb.ingest.card_fetch import BULK_LIST, MTGJSON_ATOMIC, source_of

    monkeypatch.delenv("RULEKB_CARDS_SOURCE", raising=False)
    assert source_of("mtgjson") == source_of(" MTGJSON ") == MTGJSON_ATOMIC and MTGJSON_ATOMIC.endswith(".json.xz")
    assert source_of(None) == source_of("scryfall") == BULK_LIST
    assert source_of("http://localhost:1/cards.json") == "http://localhost:1/cards.json"
    monkeypatch.setenv("RULEKB_CARDS_SOURCE", "http://localhost:1/bulk.json")
    assert source_of("scryfall") == "http://localhost:1/bulk.json"


def test_the_card_pages_and_rdf_give_the_french_names(web):
    status, _, face = http(web + "card/wind-unwind/face/2.nt")
    assert status == 200 and b'"Unwind"' in face
    assert '"Dévent"@fr'.encode() in face and b"skos/core#altLabel" in face  # its French name, apart from rdfs:label
    status, _, page = http(web + "card/wind-unwind")
    assert '<dd lang="fr">Vent // Dévent</dd>'.encode() in page and '<span lang="fr">(Dévent)</span>'.encode() in page
    status, _, turtle = http(web + "card/brass-golem", headers={"Accept": "text/turtle"})
    assert status == 200 and '"Golem de laiton"@fr'.encode() in turtle and turtle.count(b"rdfs:label") == 1

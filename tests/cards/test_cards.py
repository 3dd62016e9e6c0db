"""Cards as linked data (kb.cards, rulekb.ingest.cards): the card file reader (three shapes,
bad input, hypothesis), linking by the rules' own keyword list, the build's graph/cards and
name index, card names in questions (brackets, plain text, faces, short names, spellings),
``rulekb card``, ``rulekb fetch --cards`` against a real local HTTP server, the card pages.
Invented rules (tests/fixtures/search) and invented cards (tests/fixtures/cards)."""

from __future__ import annotations

import gzip
import http.server as http_server
import json
import threading
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekb.ingest import cards as card_files
from rulekb.kb import service

from ..helpers import assert_bad_input, http, invoke_cli, run_cli
from .conftest import ATOMIC, CARDS, EDITION, RULES

# -- the reader ------------------------------------------------------------------

def test_the_three_shapes_read_to_the_same_cards(tmp_path):
    scryfall = card_files.read(CARDS)
    assert scryfall.shape == "scryfall" and len(scryfall.cards) == 5
    wind = next(c for c in scryfall.cards if c.name == "Wind // Unwind")
    assert [f.name for f in wind.faces] == ["Wind", "Unwind"] and "winds itself" in wind.oracle_text
    trimmed = tmp_path / "trimmed.json.gz"  # the corpus's shape: gzipped, no keywords
    trimmed.write_bytes(gzip.compress(CARDS.read_bytes()))
    assert [c.name for c in card_files.read(trimmed).cards] == [c.name for c in scryfall.cards]
    atomic = card_files.read(ATOMIC)
    assert atomic.shape == "mtgjson"
    golem = next(c for c in atomic.cards if c.name == "Brass Golem")
    assert golem.keywords == ["Gizmoproof"] and golem.type_line == "Gadget — Golem"
    assert [f.name for f in next(c for c in atomic.cards if c.name == "Wind // Unwind").faces] == ["Wind", "Unwind"]
    again = card_files.parse_bytes(json.dumps(card_files.to_json(scryfall.cards)).encode())
    assert [(c.name, c.oracle_text, c.faces) for c in again.cards] == [(c.name, c.oracle_text, c.faces) for c in scryfall.cards]


@pytest.mark.parametrize("order", [0, 1])
def test_a_reversible_printing_is_the_card_of_its_name_not_a_double_faced_card(order):
    side = {"name": "Brass Golem", "type_line": "Gadget — Golem", "oracle_text": "Gizmoproof", "mana_cost": "{3}"}
    plain = {**side, "power": "3", "toughness": "3"}
    reversible = {"name": "Brass Golem // Brass Golem", "type_line": None, "oracle_text": None, "mana_cost": None,
                  "card_faces": [{**side, "power": "3", "toughness": "3"}, {**side, "power": "3", "toughness": "3"}]}
    items = [plain, reversible] if order == 0 else [reversible, plain]
    cards = card_files.parse_bytes(json.dumps(items).encode()).cards
    assert [(c.name, c.type_line, c.oracle_text, c.faces, c.power) for c in cards] == \
        [("Brass Golem", "Gadget — Golem", "Gizmoproof", [], "3")]


@pytest.mark.parametrize("data, said", [
    (b"", "empty"),
    (gzip.compress(CARDS.read_bytes())[:200], "not a complete gzip file"),
    (CARDS.read_bytes()[:300], "truncated JSON"),
    (b"<html>not json</html>", "not JSON"),
    (b'{"rules": []}', "not an Oracle card file"),
    (b"[1, 2]", "not a Scryfall card array"),
    (b'{"meta": {}, "data": {"X": "y"}}', "not MTGJSON AtomicCards"),
    (b"[]", "no cards"),
])
def test_a_bad_card_file_is_one_line_naming_it(data, said):
    with pytest.raises(card_files.CardFileError) as raised:
        card_files.parse_bytes(data, "some/cards.json")
    message = str(raised.value)
    assert message.startswith("some/cards.json: ") and said in message and "\n" not in message


@settings(max_examples=150, deadline=None)
@given(st.one_of(
    st.binary(max_size=400),
    st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=20),
                 lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                 max_leaves=20).map(lambda v: json.dumps(v).encode()),
    st.integers(min_value=1, max_value=1500).map(lambda n: CARDS.read_bytes()[:n]),
    st.integers(min_value=1, max_value=400).map(lambda n: gzip.compress(CARDS.read_bytes())[:n]),
))
def test_fuzz_the_reader_reads_or_says_why(data):
    try:
        found = card_files.parse_bytes(data, "fuzz.json")
    except card_files.CardFileError as exc:
        assert str(exc).startswith("fuzz.json: ") and "\n" not in str(exc)
    else:
        assert found.cards and all(c.name for c in found.cards)


# -- linking by the rules' own words --------------------------------------------------

def test_keywords_come_from_the_rules_list_and_shapes_from_the_text():
    from rulekb.ingest.parse import parse_file
    from rulekb.kb.cards.link import Vocabulary, governing, link
    from rulekb.kb.rdf import concepts as concept_layer

    edition = parse_file(RULES)[0]
    concepts = concept_layer.collect([edition])
    vocab = Vocabulary.of(edition, concepts, concept_layer.Matcher(concepts, "en"))
    assert {k.name for k in vocab.keywords.values()} == {"Gizmoproof", "Clockwork"}  # 702.1, 702.2: no hand list
    by = {c.name: c for c in card_files.read(CARDS).cards}
    golem = link(by["Brass Golem"], vocab)
    assert [k.name for k in golem.keywords] == ["Gizmoproof"]  # reminder text and its own name aside
    assert golem.shapes == ["triggered", "replacement"]
    assert ("702.1", "keyword ability: Gizmoproof") in governing(golem, vocab)
    tinker = link(by["Tinker, Keeper of Springs"], vocab)
    assert {k.name for k in tinker.keywords} == {"Clockwork", "Gizmoproof"}
    assert tinker.shapes == ["activated", "illegal-target", "static", "continuous"]  # "{1}, {T}: Target gadget ..."
    wind = link(by["Wind // Unwind"], vocab)
    assert wind.shapes == ["static", "illegal-target"] and wind.keywords == []  # a face's "Sprocket" type is no instant or sorcery


@pytest.mark.parametrize("type_line, text, finer", [
    ("Creature", "At the beginning of your upkeep, if you control no Widgets, create a Widget.", ["intervening-if"]),
    ("Creature", "{T}: Create a token copy of target creature. Exile it at the beginning of the next end step.",
     ["delayed"]),
    ("Sorcery", "Draw a card. At the beginning of your next upkeep, pay {2}. If you don't, you lose the game.",
     ["delayed"]),
    ("Instant", "You may discard a card. When you do, this spell deals 3 damage to any target.", ["reflexive"]),
    ("Creature", "{T}: Add {G}.", ["mana"]),
    ("Creature", "{T}: Add {G}. This ability deals 1 damage to target player.", []),  # a target: no mana ability
    ("Legendary Planeswalker", "+1: Add {R}{R}.", ["loyalty"]),  # a loyalty ability: no mana ability
    ("Legendary Planeswalker", "−3: Destroy target creature.\n0: Draw a card.", ["loyalty", "loyalty"]),
    ("Enchantment", "Whenever a player taps a land for mana, that player adds one mana of any type that land produced.",
     ["mana"]),
    ("Creature", "This creature's power and toughness are each equal to the number of cards in your hand.",
     ["characteristic-defining"]),
    ("Instant", "Target creature's power is equal to 5 until end of turn.", []),  # a spell's effect defines nothing
    ("Instant", "Choose one —\n• Draw a card.\n• Gain 3 life.", ["modal"]),
    ("Instant", "Prevent all combat damage that would be dealt this turn.", ["prevention"]),
    ("Creature", "At the beginning of the end step, sacrifice this creature.", []),  # an ordinary trigger
    ("Creature", "Whenever this creature or another creature dies, target player loses 1 life.", ["leaves-the-battlefield"]),
    ("Enchantment", "When this enchantment leaves the battlefield, return the exiled card.", ["leaves-the-battlefield"]),
    ("Creature", "When this creature enters, destroy target creature an opponent controls.", []),
    ("Creature", "Whenever you sacrifice a creature, it deals 1 damage to any target.", []),
    ("Instant", "Exile target creature. Its controller gains life equal to its power.", ["last-known-information"]),
    ("Sorcery", "Fling deals damage equal to the sacrificed creature's power to any target.", ["last-known-information"]),
    ("Creature", "This creature gets +1/+1 for each card in your hand equal to its power.", []),  # nothing moved
    ("Creature", "Target creature gets +2/+2 until end of turn.", []),
])
def test_the_glossarys_finer_kinds_of_ability_are_read_from_the_text(type_line, text, finer):
    from rulekb.kb.cards.link import SHAPES, ability_shapes

    coarse = {"triggered", "activated", "static", "replacement", "continuous", "spell"}
    subject_to = {"legend-rule", "summoning-sickness", "illegal-target"}  # what a card is subject to: the test below
    found = [shape for shape in ability_shapes(type_line, text, set()) if shape not in coarse | subject_to]
    assert found == finer and all(shape in SHAPES for shape in found)


@pytest.mark.parametrize("type_line, text, subject_to", [
    ("Legendary Creature — Human Soldier", "First strike", ["legend-rule"]),
    ("Legendary Planeswalker — Jace", "+2: Look at the top card of target player's library.",
     ["legend-rule", "illegal-target"]),
    ("Legendary Sorcery", "Destroy all creatures.", []),  # a legendary sorcery never is a permanent
    ("Creature — Elf Druid", "{T}: Add {G}.", ["summoning-sickness"]),
    ("Legendary Creature — Goblin Shaman", "{T}: Create a token that's a copy of target nonlegendary creature.",
     ["legend-rule", "summoning-sickness", "illegal-target"]),
    ("Creature — Human Wizard", "{Q}: Untap target land.", ["summoning-sickness", "illegal-target"]),
    ("Artifact", "{T}: Add {C}{C}.", []),  # no creature: summoning sickness does not apply
    ("Creature — Elf", "{1}{G}: Regenerate this creature.", []),  # no {T} in the cost
    ("Enchantment — Aura", "Enchanted creature has \"{T}: Add {G}.\"", []),  # granted to another: not its own
    ("Instant", "This spell deals 3 damage to any target.", ["illegal-target"]),
    ("Creature — Elf", "When this creature enters, return up to two target cards from your graveyard to your hand.",
     ["illegal-target"]),
    ("Creature — Human", "This creature can't be the target of spells your opponents control.", []),
    ("Creature — Human", "Whenever this creature becomes the target of a spell, draw a card.", []),
    ("Sorcery", "Destroy all creatures. They can't be regenerated.", []),  # no target: nothing to check
])
def test_a_legend_a_creature_with_tap_in_a_cost_and_a_target_bring_the_rules_they_are_subject_to(type_line, text, subject_to):
    from rulekb.kb.cards.link import SHAPES, ability_shapes

    found = [shape for shape in dict.fromkeys(ability_shapes(type_line, text, set()))
             if shape in ("legend-rule", "summoning-sickness", "illegal-target")]
    assert found == subject_to
    assert SHAPES["legend-rule"] == "legend-rule" and SHAPES["summoning-sickness"] == "summoning-sickness-rule"
    assert SHAPES["illegal-target"] == "illegal-target"


def test_a_card_with_faces_is_the_kind_of_card_its_faces_make_it():
    from rulekb.ingest.cards import Card, Face
    from rulekb.kb.cards.link import card_kinds

    def card(*faces):
        return Card(" // ".join(f.name for f in faces), faces=list(faces))

    knight = Face("Cog Knight", "Creature — Gadget Knight", "Gizmoproof.", "{2}{W}")
    assert card_kinds(Card("Cog Knight", "Creature — Gadget Knight")) == []
    assert card_kinds(card(knight, Face("Polish Armor", "Instant — Adventure", "Untap target gadget.", "{W}"))) \
        == ["adventurer"]
    assert card_kinds(card(Face("Wind", "Instant", "Draw a card.", "{U}"), Face("Unwind", "Sorcery", "", "{1}{U}"))) \
        == ["split"]
    assert card_kinds(card(Face("Lobby", "Enchantment — Room", "", "{1}"), Face("Attic", "Enchantment — Room", "", "{2}"))) \
        == ["split"]
    assert card_kinds(card(knight, Face("Rusted Knight", "Creature — Gadget", "", ""))) == ["double-faced", "modal"]
    assert card_kinds(card(Face("Cog Squire", "Creature — Gadget", "At dawn, transform Cog Squire.", "{1}{W}"),
                           Face("Cog Lord", "Creature — Gadget", "", ""))) == ["double-faced", "nonmodal"]
    assert card_kinds(card(Face("Siege Engine", "Battle — Siege", "", "{3}{R}"), Face("Wreck", "Sorcery", "", ""))) \
        == ["double-faced", "nonmodal"]  # a battle turns over by the rules, not by its text
    assert card_kinds(card(Face("Cog Page", "Creature — Gadget", "If it has two counters, flip it.", "{W}"),
                           Face("Cog Marshal", "Creature — Gadget", "", ""))) == ["flip"]
    assert card_kinds(card(Face("Lucky Cog", "Creature — Gadget", "Flip a coin. If you win the flip, draw.", "{W}"),
                           Face("Lucky Land", "Land", "", ""))) == ["double-faced", "modal"]  # a coin is no flip card
    assert card_kinds(card(knight, knight)) == []  # one face printed twice: a reversible card, no kind of its own


# -- the build ----------------------------------------------------------------------

def test_the_build_writes_the_cards_graph_and_the_name_index(kb):
    store, report = kb
    assert report.cards["cards"] == 5 and report.cards["edition"] == EDITION
    rows = service.run(store, "cards-governed-by-rule", edition=EDITION, number="702.1")
    assert sorted(r["name"] for r in rows) == ["Brass Golem", "Tinker, Keeper of Springs"]
    assert service.cards_governed_count(store, EDITION, "702.1") == 2
    assert service.cards_governed_count(store, EDITION, "100.1") == 0
    governing = service.run(store, "card-rules", card="http://localhost:8000/card/brass-golem")
    assert [r["number"] for r in governing] == ["702.1", "702.1a"] and governing[0]["why"] == "keyword"  # (its "a": what it is)
    from rulekb.kb.search.home import index_dir

    assert (index_dir(store) / "cards.json").is_file()


def test_a_bad_card_file_fails_the_build_and_keeps_the_previous_store(tmp_path):
    import os

    store_dir = tmp_path / "store"
    first = run_cli("build", str(RULES), "--store", str(store_dir), "--reasoner", "none",
                    env={**os.environ, "RULEKB_CARDS": str(CARDS)})
    assert first.returncode == 0, first.stderr
    bad = tmp_path / "cards.json.gz"
    bad.write_bytes(gzip.compress(CARDS.read_bytes())[:100])
    result = run_cli("build", str(RULES), "--store", str(store_dir), "--reasoner", "none",
                     env={**os.environ, "RULEKB_CARDS": str(bad)})
    assert_bad_input(result, f"{bad}: not a complete gzip file")  # at the start of the build, before any stage
    card = run_cli("card", "Brass Golem", "--store", str(store_dir), "--format", "json")
    assert card.returncode == 0 and card.json["name"] == "Brass Golem"  # the previous cards are kept


def test_a_card_files_links_stay_cached_while_builds_use_other_card_files(tmp_path, monkeypatch):
    """The links are kept per card file: builds with other card files in between (the tests'
    dozens of small KBs) do not make a rebuild with the real file link its cards again."""
    from rulekb.ingest.parse import parse_path
    from rulekb.kb.cards import build as card_stage
    from rulekb.kb.rdf import concepts as concept_layer

    monkeypatch.setenv("RULEKB_CACHE", str(tmp_path / "cache"))
    editions = parse_path(RULES).editions  # what the build's cards stage is given
    concepts = concept_layer.collect(editions)
    matcher = concept_layer.Matcher(concepts, "en")
    others = [tmp_path / "cards.json.gz", ATOMIC]  # two: a folder keeping its newest two held only these
    others[0].write_bytes(gzip.compress(CARDS.read_bytes()))

    def cached(card_file) -> bool:
        found, report = card_stage.rows(card_stage.read(card_file), editions, concepts, matcher)
        assert found and report["cards"] == len(found), report
        return report["cached"]

    assert cached(CARDS) is False
    assert [cached(other) for other in others] == [False, False]
    assert cached(CARDS) is True


# -- rulekb card -------------------------------------------------------------------

def test_rulekb_card_by_name_face_short_name_and_spelling(kb):
    # the first command as a user starts rulekb; the others of these tests in this process
    # (tests.helpers.invoke_cli: the same app, parsing, errors and output)
    where = ["--store", str(kb[0].root)]
    data = run_cli("card", "Brass Golem", *where, "--format", "json").json
    assert data["how"] == "name" and data["iri"].endswith("/card/brass-golem")
    assert [r["rule"] for r in data["rules"]] == ["702.1", "702.1a"] and data["rules"][0]["text"] == "Gizmoproof"
    assert service.card(kb[0], "Unwind")["name"] == "Wind // Unwind"
    assert service.card(kb[0], "Tinker")["how"] == "short name"
    assert (service.card(kb[0], "Brass")["name"], service.card(kb[0], "Brass")["how"]) == ("Brass Golem", "short name")
    assert service.card(kb[0], "Bras Golemm")["how"] == "spelling"
    text = invoke_cli("card", "Tinker, Keeper of Springs", *where)
    assert text.returncode == 0 and "702.2" in text.stdout and "Clockwork" in text.stdout
    for bad in ("No Such Card At All", "[]", "x" * 500):
        missing = invoke_cli("card", bad, *where)
        assert missing.returncode == 2 and len(missing.stderr.strip().splitlines()) == 1, missing.stderr


# -- card names in questions --------------------------------------------------------------

@pytest.mark.parametrize("question, name, how", [
    ("can my opponent target [Brass Golem] with a sprocket?", "Brass Golem", "brackets"),
    ("can my opponent target [[brass golem]] with a sprocket?", "Brass Golem", "double brackets"),
    ("if I cast Unwind on my own gadget, is it exiled?", "Wind // Unwind", "face"),
    ("my opponent wound Tinker this turn: can it be wound again?", "Tinker, Keeper of Springs", "short name"),
    ("what does [Bras Golem] do when rewound?", "Brass Golem", "spelling"),
    ("I cast Bras Golem with X=2: does it wind?", "Brass Golem", "spelling"),  # "X" ends no name
    ("when Brass Golem is rewound, who loses?", "Brass Golem", "text"),
    ("if I cast Wind // Unwind with both halves, what does it cost?", "Wind // Unwind", "text"),  # one name
])
def test_a_question_names_its_cards(kb, question, name, how):
    found = service.search(kb[0], question)
    assert [(c["name"], c["how"]) for c in found["cards"]] == [(name, how)]
    assert found["cards"][0]["iri"].startswith("http://localhost:8000/card/")


def test_the_cards_knowledge_ranks_its_rules_and_says_why(kb):
    found = service.search(kb[0], "can my opponent's sprocket target [Brass Golem]?")
    top = [hit.get("rule") for hit in found["results"][:3]]
    assert "702.1b" in top
    hit = next(h for h in found["results"] if h.get("rule") == "702.1b")
    assert any(why.startswith("card Brass Golem:") for why in hit["why"])
    assert found["cards"][0]["brought"]["keywords"] == ["Gizmoproof"]
    only = service.search(kb[0], "[[Brass Golem]]")  # nothing but a card: its knowledge is the query
    assert any(hit.get("rule", "").startswith("702.1") for hit in only["results"][:3])


def test_unknown_cards_and_common_words_are_not_cards(kb):
    found = service.search(kb[0], "does [Not A Real Card] stop a gadget?")
    assert found["unknown_cards"] == ["Not A Real Card"] and found["cards"] == []
    plain = service.search(kb[0], "does the wind step come first?")  # "wind" in lower case is a word
    assert "cards" not in plain
    shouted = service.search(kb[0], "if I cast Wind on a gadget, does it wind twice?")  # and a word of the rules
    assert "cards" not in shouted


def test_a_one_word_name_in_lower_case_is_a_card_in_english_only(kb):
    # "unwind" is no word of the rules (they say "winds"): in an English question it is the card's face
    found = service.search(kb[0], "if I cast unwind on a gadget with no springs, what happens to it?")
    assert [c["name"] for c in found["cards"]] == ["Wind // Unwind"]
    # in a French question, a lower-case word is a French word first
    french = service.search(kb[0], "est-ce que je peux lancer unwind sur un gadget ?")
    assert "cards" not in french or not french["cards"]


def test_the_meaning_arm_reads_each_card_as_what_it_is(kb):
    found = service.search(kb[0], "can I cast Unwind on my [Brass Golem] when it has no springs?")
    assert found["understood"]["meaning_reads"] == "can I cast the sprocket on my gadget when it has no springs?"
    plain = service.search(kb[0], "can a gadget be wound twice?")
    assert "meaning_reads" not in plain["understood"]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(
    st.text(max_size=300),
    st.text(alphabet="[] ", max_size=60),
    st.lists(st.sampled_from(["[", "]", "[[", "]]", "Brass", "Golem", "Wind", "Tinker", "\x00", "\x1b", "\u202e",
                              "Unwind", "of", "Springs,", " "]), max_size=40).map(" ".join),
))
def test_fuzz_questions_with_cards_search_or_say_why(kb, question):
    from rulekb.kb.errors import KBError

    try:
        found = service.search(kb[0], question)
    except KBError as exc:
        assert "\n" not in str(exc)
    else:
        assert isinstance(found["results"], list)


def test_a_question_of_ten_thousand_characters_is_one_line(kb):
    result = invoke_cli("search", "[Brass Golem] " * 715, "--store", str(kb[0].root))
    assert_bad_input(result, "at most")
    brackets = invoke_cli("search", "[[[]]] [] [[", "--store", str(kb[0].root))
    assert brackets.returncode == 2 and "Traceback" not in brackets.stderr


def test_ask_shows_the_cards_oracle_text_beside_the_rules(kb):
    result = run_cli("ask", "what happens when [Brass Golem] is rewound?", "--store", str(kb[0].root))
    assert result.returncode == 0
    assert "card: Brass Golem" in result.stdout and "each duelist loses the duel instead" in result.stdout
    data = invoke_cli("ask", "what happens when [Brass Golem] is rewound?", "--store", str(kb[0].root), "--format", "json").json
    assert data["cards"][0]["name"] == "Brass Golem" and data["rules"]
    search = invoke_cli("search", "can [Brass Golem] be targeted by [Foo Bar]?", "--store", str(kb[0].root))
    assert search.returncode == 0 and "card: Brass Golem (Gadget — Golem) brought: Gizmoproof" in search.stdout
    assert "no card is named 'Foo Bar'" in search.stdout


# -- the web -------------------------------------------------------------------------

def test_card_pages_html_and_rdf_escaped(web):
    status, _, page = http(web + "card/spring-trap")
    assert status == 200
    assert b"<script>alert(1)</script>" not in page and b"&lt;script&gt;alert(1)&lt;/script&gt;" in page
    status, headers, body = http(web + "card/brass-golem", headers={"Accept": "text/turtle"})
    assert status == 200 and headers["Content-Type"].startswith("text/turtle")
    assert b"rk:OracleCard" in body and b"/rule/702.1>" in body
    status, _, page = http(web + "card/brass-golem")
    assert b'href="/edition/en/2041-01-01/rule/702.1"' in page
    status, _, face = http(web + "card/wind-unwind/face/2.nt")
    assert status == 200 and b'"Unwind"' in face

    assert http(web + "card/no-such-card")[0] == 404


def test_a_rule_page_counts_its_cards_and_links_to_them(web):
    status, _, page = http(web + "edition/en/2041-01-01/rule/702.1")
    assert status == 200 and b"2 cards</a> governed by this rule" in page
    status, _, listing = http(web + "cards?edition=en/2041-01-01&number=702.1")
    assert status == 200 and b"Brass Golem" in listing and b"Tinker, Keeper of Springs" in listing
    assert http(web + "cards?edition=en/2041-01-01")[0] == 400
    assert http(web + "cards?edition=xx/nope&number=1.1")[0] == 404


def test_the_search_page_shows_the_cards_of_the_question(web):
    status, _, page = http(web + "search?q=" + quote("can [Brass Golem] be targeted by [Foo Bar]?") + f"&edition={EDITION}")
    assert status == 200
    assert b"Cards in the question" in page and b"each duelist loses the duel instead" in page
    assert "No card is named “Foo Bar”".encode() in page


# -- rulekb fetch --cards ---------------------------------------------------------------

class _Files(http_server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def served(tmp_path):
    """A real HTTP server over a folder of files the test writes: yields (folder, root URL)."""
    folder = tmp_path / "www"
    folder.mkdir()
    handler = lambda *a, **k: _Files(*a, directory=str(folder), **k)  # noqa: E731
    server = http_server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield folder, f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def test_fetch_cards_follows_the_bulk_list_and_keeps_the_previous_file_on_bad_input(served, tmp_path):
    folder, root = served
    (folder / "oracle.json").write_bytes(CARDS.read_bytes())
    (folder / "bulk.json").write_text(json.dumps({"object": "list", "has_more": False, "data": [
        {"object": "bulk_data", "type": "default_cards", "download_uri": root + "nothing.json"},
        {"object": "bulk_data", "type": "oracle_cards", "download_uri": root + "oracle.json"}]}))
    (folder / "atomic.json.gz").write_bytes(gzip.compress(ATOMIC.read_bytes()))
    (folder / "broken.json").write_bytes(CARDS.read_bytes()[:500])
    cache = tmp_path / "cache"
    env = {**__import__("os").environ, "RULEKB_CACHE": str(cache)}
    first = run_cli("fetch", "--cards", root + "bulk.json", "--format", "json", env=env)
    assert first.returncode == 0, first.stderr
    assert first.json["cards"] == 5 and first.json["url"] == root + "oracle.json"
    kept = cache / "cards" / "oracle-cards.json.gz"
    assert [c.name for c in card_files.read(kept).cards] == [c.name for c in card_files.read(CARDS).cards]
    before = kept.read_bytes()
    bad = run_cli("fetch", "--cards", root + "broken.json", env=env)
    assert_bad_input(bad, "not a card file")
    missing = run_cli("fetch", "--cards", root + "missing.json", env=env)
    assert_bad_input(missing, "HTTP 404")
    assert kept.read_bytes() == before and not [p for p in kept.parent.iterdir() if p.name.startswith(".")]
    atomic = run_cli("fetch", "--cards", root + "atomic.json.gz", "--format", "json", env=env)
    assert atomic.returncode == 0 and atomic.json["shape"] == "mtgjson" and atomic.json["cards"] == 2
    assert {c.name: c.name_fr for c in card_files.read(kept).cards}["Brass Golem"] == "Golem de laiton"  # kept
    from rulekb.kb.cards.build import card_file

    import os

    old = {k: os.environ.pop(k, None) for k in ("RULEKB_CARDS",)}
    os.environ["RULEKB_CACHE"], cache_before = str(cache), os.environ.get("RULEKB_CACHE")
    try:
        assert card_file() == kept  # the build reads what fetch --cards kept
    finally:
        for k, v in old.items():
            if v is not None:
                os.environ[k] = v
        if cache_before is None:
            os.environ.pop("RULEKB_CACHE", None)
        else:
            os.environ["RULEKB_CACHE"] = cache_before

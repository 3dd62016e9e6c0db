"""Where what a question names meets (kb.search.interactions.meeting, the fifth list of
kb.search.rank.fuse): a rule that speaks of what two named cards bring, or of what a card brings
and what the asker's words name. An invented rules text and two cards of this test's own, a real
build, the real model."""

from __future__ import annotations

import json

import pytest

from rulekb.kb import service
from rulekb.kb.search import interactions, rank

RULES = """Widget Duel Comprehensive Rules

These rules are effective as of March 3, 2042.

Contents

1. Basics
100. General
7. Additional Rules
702. Keyword Abilities

Glossary

Credits

1. Basics

100. General

100.1. A widget duel is played by two duelists, each with a deck of gadget cards.

100.2. A gadget is a card on the battlefield.

100.3. Each turn, the duelist whose turn it is may wind one gadget first, then one more gadget.

100.4. A gadget wound twice in one turn is overwound; an overwound gadget winds first next turn.

100.5. Winding a gadget first each turn is a choice the duelist makes as the turn begins.

100.6. A gadget with gizmoproof that also has clockwork is never overwound.

7. Additional Rules

702. Keyword Abilities

702.1. Gizmoproof

702.1a Gizmoproof is a static ability. A gadget with gizmoproof can't be the target of sprockets your opponents control.

702.2. Clockwork

702.2a Clockwork is a triggered ability. At the beginning of each turn, a gadget with clockwork winds itself once.

Glossary

Clockwork
A keyword ability that winds a gadget at the beginning of each turn. See rule 702.2.

Gizmoproof
A keyword ability that stops sprockets from targeting a gadget. See rule 702.1.

Credits

Invented by the rulekb test suite. Not a real game.
"""

CARDS = [{"name": "Cogwright Sentinel", "mana_cost": "{2}", "type_line": "Gadget — Sentinel",
          "oracle_text": "Gizmoproof", "power": "2", "toughness": "2"},
         {"name": "Tickmaster Drone", "mana_cost": "{1}", "type_line": "Gadget — Drone",
          "oracle_text": "Clockwork", "power": "1", "toughness": "1"}]

QUESTION = "I wind Cogwright Sentinel and Tickmaster Drone each turn: which gadget winds first?"


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    from rulekb.kb.build import build
    from rulekb.kb.store.embedded import EmbeddedStore

    where = tmp_path_factory.mktemp("meeting")
    (where / "cr.txt").write_text(RULES, encoding="utf-8")
    (where / "cards.json").write_text(json.dumps(CARDS), encoding="utf-8")
    store = EmbeddedStore(where / "store")
    build([str(where / "cr.txt")], store, reasoner="none", cards=str(where / "cards.json"))
    return store


def _rank(found: dict, rule: str) -> int:
    return next(i for i, r in enumerate(found["results"], start=1) if r.get("rule") == rule)


def test_the_rule_where_two_named_cards_meet_says_so_and_rises(kb, monkeypatch):
    found = service.search(kb, QUESTION)
    assert found["arms"] == ["words", "meaning"]
    assert {c["name"] for c in found["cards"]} == {"Cogwright Sentinel", "Tickmaster Drone"}
    meets = next(r for r in found["results"] if r.get("rule") == "100.6")
    assert meets["meeting"] == {"parties": ["card Cogwright Sentinel", "card Tickmaster Drone"],
                                "concepts": ["clockwork", "gizmoproof"]}
    assert "where card Cogwright Sentinel and card Tickmaster Drone meet: 'Clockwork', 'Gizmoproof'" in meets["why"]
    monkeypatch.setattr(rank, "RRF_MEETING", 0.0)
    without = service.search(kb, QUESTION)
    assert _rank(found, "100.6") < _rank(without, "100.6")


def test_no_meeting_without_a_named_card_nor_for_one_card_alone():
    class Asked:  # what kb.search.understand makes of a question, as far as parties() reads it
        def __init__(self, cards, concepts):
            self.cards, self.concepts = cards, concepts
            self.card_concepts = {k: 0.7 for c in cards for k in c["keyword_concepts"]}

    sentinel = {"name": "Cogwright Sentinel", "keyword_concepts": ["gizmoproof"], "brought": {}}
    docs = {"a": {"mentions": ["gizmoproof", "clockwork"]}, "b": {"defines": ["gizmoproof"]}}
    specific = lambda key: 0.9  # noqa: E731
    assert interactions.meeting(interactions.parties(Asked([], ["gizmoproof", "clockwork"]), specific), docs) == {}
    assert interactions.meeting(interactions.parties(Asked([sentinel], []), specific), docs) == {}
    met = interactions.meeting(interactions.parties(Asked([sentinel], ["clockwork"]), specific), docs)
    assert met == {"a": {"rank": 1, "parties": ["card Cogwright Sentinel", "your words"],
                         "concepts": ["clockwork", "gizmoproof"]}}
    vague = lambda key: 0.1  # noqa: E731  (every concept too common to say where anything meets)
    assert interactions.meeting(interactions.parties(Asked([sentinel], ["clockwork"]), vague), docs) == {}

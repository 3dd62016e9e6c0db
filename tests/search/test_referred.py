"""The rules the first results cite (kb.search.referred, a list of kb.search.rank.fuse for
questions naming a card): the pure ranking, and a real build of an invented rules text and card
of this test's own with the real model."""

from __future__ import annotations

import pytest

from rulekb.kb import service
from rulekb.kb.search import rank
from rulekb.kb.search.referred import referred

from . import widget_duel

RULES = widget_duel.rules(
    general="""
100.1. A widget duel is played by two duelists, each with a deck of gadget cards.

100.2. A gadget is a card on the battlefield.

100.3. A gadget that jams can't do any more; it is put into its owner's scrapheap the next time a duelist would act.

100.4. Each turn, the duelist whose turn it is may wind one gadget.

100.5. Winding a gadget each turn is a choice the duelist makes as the turn begins.

100.6. A duelist may wind a gadget any number of times each turn, one at a time.
""",
    keywords="""
702.1. Clockwork

702.1a Clockwork is a triggered ability. At the beginning of each turn, a gadget with clockwork winds itself once. A gadget wound twice in one turn jams (see rule 100.3).
""",
    glossary="""
Clockwork
A keyword ability that winds a gadget at the beginning of each turn. See rule 702.1.
""")

CARDS = [{"name": "Cogwright Sentinel", "mana_cost": "{2}", "type_line": "Gadget — Sentinel",
          "oracle_text": "Clockwork", "power": "2", "toughness": "2"}]

QUESTION = "My Cogwright Sentinel winds itself each turn and I wind it once more: what happens to it?"


def test_the_rules_cited_first_by_the_best_results_come_first():
    best = [("702.1a", "... it jams (see rule 100.3) ... (See rules 100.4 and 702.1a.)"),
            ("100.4", "Each turn ... (See rule 100.6.)"),
            ("100.5", "... (See rule 100.6 and section 702.)")]
    assert referred(best) == [("100.3", ["702.1a"]), ("100.4", ["702.1a"]), ("100.6", ["100.4", "100.5"])]
    assert referred([("100.1", "No citation here, only 702.1a in passing.")]) == []
    assert referred([]) == []


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    return widget_duel.built(tmp_path_factory, "referred", RULES, CARDS)


def _rank(found: dict, rule: str) -> int:
    return next(i for i, r in enumerate(found["results"], start=1) if r.get("rule") == rule)


def test_a_rule_the_first_results_cite_rises_and_says_why(kb, monkeypatch):
    found = service.search(kb, QUESTION)
    assert found["arms"] == ["words", "meaning"] and [c["name"] for c in found["cards"]] == ["Cogwright Sentinel"]
    jams = next(r for r in found["results"] if r.get("rule") == "100.3")
    assert jams["referred_by"] == ["702.1a"] and "cited by the first results: 702.1a" in jams["why"]
    monkeypatch.setattr(rank, "RRF_REFERRED", 0.0)
    without = service.search(kb, QUESTION)
    assert not any("referred_by" in r for r in without["results"])
    assert _rank(found, "100.3") < _rank(without, "100.3")


def test_a_question_naming_no_card_takes_no_citations(kb):
    found = service.search(kb, "A gadget winds itself each turn and I wind it once more: what happens to it?")
    assert not any("referred_by" in r for r in found["results"])

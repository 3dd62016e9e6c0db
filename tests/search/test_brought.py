"""What a named card brings, ranked by the question's meaning (kb.search.brought.ranked, the
fourth list of kb.search.rank.fuse): of a card's several keyword abilities, the rules defining
the one the question is about lead. An invented rules text and card of this test's own, a real
build, the real model (a dozen documents embedded: seconds)."""

from __future__ import annotations

import pytest

from rulekb.kb import service

from . import widget_duel

RULES = widget_duel.rules(
    general="""
100.1. A widget duel is played by two duelists, each with a deck of gadget cards.

100.2. A gadget is a card on the battlefield.
""",
    keywords="""
702.1. Gizmoproof

702.1a Gizmoproof is a static ability. A gadget with gizmoproof can't be the target of sprockets your opponents control.

702.2. Clockwork

702.2a Clockwork is a triggered ability. At the beginning of each turn, a gadget with clockwork winds itself once.
""",
    glossary="""
Clockwork
A keyword ability that winds a gadget at the beginning of each turn. See rule 702.2.

Gizmoproof
A keyword ability that stops sprockets from targeting a gadget. See rule 702.1.
""")

CARDS = [{"name": "Cogwright Sentinel", "mana_cost": "{2}", "type_line": "Gadget — Sentinel",
          "oracle_text": "Gizmoproof\nClockwork", "power": "2", "toughness": "2"}]


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    return widget_duel.built(tmp_path_factory, "brought", RULES, CARDS)


def brought(store, question: str) -> list[str]:
    """The rules the card brought, in the order of their meaning's closeness to the question."""
    found = service.search(store, question)
    assert found["arms"] == ["words", "meaning"] and [c["name"] for c in found["cards"]] == ["Cogwright Sentinel"]
    ranked = sorted((r for r in found["results"] if "brought" in r), key=lambda r: r["brought"])
    for r in ranked:
        assert f"what the cards bring: #{r['brought']} in meaning to the question" in r["why"]
    return [r["rule"] for r in ranked]


def test_the_keyword_the_question_is_about_leads_what_the_card_brings(kb):
    assert brought(kb, "how often does my Cogwright Sentinel wind itself?")[0] == "702.2a"
    assert brought(kb, "can my opponent's sprockets target Cogwright Sentinel?")[0] == "702.1a"
    across = service.searcher(kb).search("how often does my Cogwright Sentinel wind itself?", all_editions=True)
    assert min((r for r in across["results"] if "brought" in r), key=lambda r: r["brought"])["rule"] == "702.2a"


def test_a_question_naming_no_card_brings_nothing(kb):
    found = service.search(kb, "how often does a gadget wind itself?")
    assert not any("brought" in r for r in found["results"])
    lexical = service.searcher(kb).search("how often does my Cogwright Sentinel wind itself?", dense=False)
    assert not any("brought" in r for r in lexical["results"])  # the meaning ranks them: no arm, no list

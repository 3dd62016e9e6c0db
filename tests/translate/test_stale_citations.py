"""A citation renumbered between the English base of a French text and the target
English edition is reported for every rule that carries it (kb.translate.stale),
even when the English also changed its typography (which masks cited numbers)."""

from __future__ import annotations

from rulekb.ingest.model import Edition, Rule
from rulekb.kb.translate.stale import stale_items


def _edition(eid: str, language: str, rules: dict[str, str]) -> Edition:
    ed = Edition(eid, language, eid.split("/")[1], "Invented")
    ed.rules = [Rule(n, t, order=i) for i, (n, t) in enumerate(rules.items())]
    return ed


BASE = {
    "100.1": "A widget is a gadget that hums.",
    "100.2": "A widget can be spun (see rule 100.1).",
    "100.3": "A spun widget can't be spun again. See rule 100.1.",
    "100.4": "The \"spin\" keyword means to turn a widget (see rule 100.1).",
}
# the target adds a rule before 100.1: every rule moves down one, and citations follow
TARGET = {
    "100.1": "Widgets are made by duelists.",
    "100.2": "A widget is a gadget that hums.",
    "100.3": "A widget can be spun (see rule 100.2).",  # only the citation changed
    "100.4": "A spun widget can’t be spun again. See rule 100.2.",  # and the apostrophe (typography)
    "100.5": "The “spin” keyword means to turn a widget (see rule 100.2).",  # and the quotes
}
FRENCH = {
    "100.1": "Un machin est un bidule qui bourdonne.",
    "100.2": "Un machin peut être tourné (voir règle 100.1).",
    "100.3": "Un machin tourné ne peut pas être tourné de nouveau. Voir règle 100.1.",
    "100.4": "Le mot-clé « tourner » signifie faire tourner un machin (voir règle 100.1).",
}


def test_every_rule_with_a_renumbered_citation_is_stale():
    base = _edition("en/2030-01-01", "en", BASE)
    target = _edition("en/2031-01-01", "en", TARGET)
    fr = _edition("fr/2030-02-01", "fr", FRENCH)
    items = stale_items(fr, base, target)
    assert sorted((i["fr"], i["us"]) for i in items) == [("100.2", "100.3"), ("100.3", "100.4"), ("100.4", "100.5")]
    assert {i["detail"] for i in items} == {"references"}

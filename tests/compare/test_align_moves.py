"""kb.align.moves: a rule that left its section for another and was reworded finds its
successor anywhere in the newer edition; a rule deleted outright stays removed; an
ordinary update (no section moved) is left exactly as the earlier passes leave it."""

from __future__ import annotations

from rulekb.ingest.model import Edition, Rule
from rulekb.kb.align import align
from rulekb.kb.align.moves import _kept


def _edition(eid: str, rules: list[tuple[str, str]]) -> Edition:
    edition = Edition(eid, "en", eid.split("/")[1], "Invented Rules")
    edition.rules = [Rule(n, t, parent=n[:-1] if n[-1].isalpha() else None) for n, t in rules]
    return edition


# Section 310 of the old edition went, as a whole, to 510; its subrule 310.2c grew into a long
# 510.1c whose first sentences keep its words, reworded ("will assign" -> "assigns", "in play"
# -> "on the battlefield"); 310.4 (damage on the stack) was deleted outright.
OLD = [
    ("310.1", "As the combat damage step begins, the active player announces how each attacking creature will "
              "assign its combat damage, and the defending player does the same for each blocking creature."),
    ("310.2", "A player may divide combat damage among legal recipients subject to the following restrictions:"),
    ("310.2a", "Each attacking creature and each blocking creature will assign combat damage equal to its power."),
    ("310.2b", "An unblocked attacking creature will assign all its combat damage to the player or planeswalker "
               "it is attacking."),
    ("310.2c", "A blocked creature will assign combat damage, divided as its controller chooses, to the creatures "
               "blocking it. If no creatures are currently blocking it (if, for example, they were destroyed or "
               "removed from combat), it will assign no combat damage."),
    ("310.4", "Combat damage goes on the stack as a single object and resolves like a spell, though it can't be "
              "countered by anything that counters spells."),
    ("311.1", "The end of combat step has no turn-based actions. Once it begins, the active player gets priority."),
]
NEW = [
    ("510.1", "First, the active player announces how each attacking creature assigns its combat damage, then "
              "the defending player announces how each blocking creature assigns its combat damage."),
    ("510.1a", "Each attacking creature and each blocking creature assigns combat damage equal to its power."),
    ("510.1b", "An unblocked creature assigns its combat damage to the player or planeswalker it's attacking."),
    ("510.1c", "A blocked creature assigns its combat damage to the creatures blocking it. If no creatures are "
               "currently blocking it (if, for example, they were destroyed or removed from combat), it assigns "
               "no combat damage. If exactly one creature is blocking it, it assigns all its combat damage to "
               "that creature. If two or more creatures are blocking it, it assigns its combat damage to those "
               "creatures according to the damage assignment order announced for it. This may allow the blocked "
               "creature to divide its combat damage. However, it can't assign combat damage to a creature "
               "that's blocking it unless each creature that precedes that blocking creature in its order is "
               "assigned lethal damage. When checking for assigned lethal damage, take into account damage "
               "already marked on the creature and damage from other creatures that's being assigned during "
               "the same combat damage step, but not any abilities or effects that might change the amount."),
    ("510.2", "Second, all combat damage that's been assigned is dealt simultaneously. This turn-based action "
              "doesn't use the stack."),
    ("511.1", "The end of combat step has no turn-based actions. Once it begins, the active player gets priority."),
]


def test_a_reworded_rule_is_found_in_its_new_section_and_a_deleted_one_stays_removed():
    alignment = align(_edition("en/2030-01-01", OLD), _edition("en/2030-02-01", NEW))
    successors = alignment.successors()
    assert successors["310.2c"] == "510.1c"
    assert next(p for p in alignment.pairs if p.old == "310.2c" and p.new == "510.1c").evidence == "moved"
    assert successors["310.4"] is None  # deleted outright: no candidate clears the threshold
    assert successors["311.1"] == "511.1"


def test_an_ordinary_update_is_left_alone():
    old = _edition("en/2030-01-01", OLD)
    kept = [(n, t) for n, t in OLD if n != "310.4"] + [("310.5", "A rule added in the same section, about "
                                                                  "something else entirely: dice and coins.")]
    alignment = align(old, _edition("en/2030-02-01", kept))
    assert all(p.evidence != "moved" for p in alignment.pairs)
    assert alignment.successors()["310.4"] is None


def test_kept_counts_words_in_order_only():
    assert _kept(["a", "b", "c", "d"], ["a", "b", "x", "c", "d", "e"]) == 1.0
    assert _kept(["a", "b", "c", "d"], ["d", "c", "b", "a"]) == 0.25
    assert _kept([], ["a"]) == 0.0

"""kb.align.moves, the last two steps: a free old rule is merged into the free rule its
pointer points to that says the sentence the pointer is about; a rule whose subrules all went under
one new rule goes to that rule (merged into it when it has a predecessor). Texts invented."""

from __future__ import annotations

from rulekb.kb.align import align
from rulekb.kb.align.normalise import tokens
from rulekb.kb.align.reminders import pointer_sentence

from ..helpers import invented_edition


# Section 212 went to 204 and section 402 to 112; old 212.3 kept only its last sentence, which
# its pointer is about, in the abilities section it points to.
KEPT = [
    ("212.1", "A card's type line names its card types, its subtypes after a long dash, and its supertypes."),
    ("212.2", "When an object's card type changes, the new card type replaces every card type it had before."),
]
ABILITIES = [
    ("402.1", "An ability is something an object does or can do; abilities create effects in the game."),
    ("402.2", "Activated abilities have a cost and an effect, written as the cost, a colon, then the effect."),
]
POINTING = ("212.3", "Cards, tokens and spells may have card types and subtypes, but abilities never do. "
                     "Instead, there are various categories of abilities. (See rule 402, \"Abilities.\")")
NEW_ABILITIES = [
    ("112.1", ABILITIES[0][1]),
    ("112.2", ABILITIES[1][1]),
    ("112.3", "There are three general categories of abilities. They are activated, triggered and static."),
    ("112.4", "Mana abilities follow special rules and never wait on the stack for players to respond."),
]


def _successors(old_rules, new_rules):
    return align(invented_edition("en/2030-01-01", old_rules), invented_edition("en/2030-02-01", new_rules)).successors()


def test_the_pointer_sentence_is_the_one_before_the_pointer_or_the_one_holding_it():
    assert pointer_sentence(POINTING[1]) == tokens("Instead, there are various categories of abilities.")
    assert pointer_sentence("Spells go on the stack (see rule 405) when cast.") == tokens("Spells go on the stack when cast.")
    assert pointer_sentence("No pointer at all here.") == []
    assert pointer_sentence("(Reminder only. See rule 300.3.)") == []


def test_a_free_rule_goes_where_its_pointer_points_to_the_rule_saying_that_sentence():
    new = [(n.replace("212", "204"), t) for n, t in KEPT] + NEW_ABILITIES
    alignment = align(invented_edition("en/2030-01-01", KEPT + [POINTING] + ABILITIES), invented_edition("en/2030-02-01", new))
    assert alignment.successors()["212.3"] == "112.3"
    # one sentence says where the old rule went, not what the new rule came from: a merge link
    assert any(p.old == "212.3" and p.new == "112.3" and p.kind == "merged" for p in alignment.pairs)
    # without the pointer, nothing says where the rule went: it stays removed
    unpointed = (POINTING[0], POINTING[1].split(" (See")[0])
    assert _successors(KEPT + [unpointed] + ABILITIES, new)["212.3"] is None


# Section 410 went to 509; old 410.9 introduced two cases that are now the subrules of 509.4,
# which the old 309.4 became.
BLOCKS_OLD = [
    ("309.4", "Fourth, any abilities that triggered on blockers being declared go on the stack, in APNAP order."),
    ("410.9", "Some abilities trigger when creatures block or become blocked during combat. They may trigger "
              "once or again and again, depending on how they are worded."),
    ("410.9a", "An ability that reads \"Whenever this creature blocks\" triggers only once each combat."),
    ("410.9b", "An ability that reads \"Whenever this creature blocks a creature\" triggers once for each "
               "creature it blocks."),
]
BLOCKS_NEW = [
    ("509.4", "Fourth, any abilities that triggered on blockers being declared are put on the stack."),
    ("509.4a", BLOCKS_OLD[2][1]),
    ("509.4b", BLOCKS_OLD[3][1]),
    ("509.5", "Fifth, the active player gets priority, and players may cast spells and activate abilities."),
]


def test_a_rule_whose_subrules_all_went_under_one_rule_is_merged_into_it():
    alignment = align(invented_edition("en/2030-01-01", BLOCKS_OLD), invented_edition("en/2030-02-01", BLOCKS_NEW))
    assert alignment.successors()["410.9"] == "509.4"
    assert alignment.successors()["309.4"] == "509.4"
    assert any(p.old == "410.9" and p.new == "509.4" and p.kind == "merged" for p in alignment.pairs)


def test_subrules_that_went_to_different_rules_say_nothing_of_their_parent():
    new = BLOCKS_NEW[:2] + [("509.5", BLOCKS_NEW[3][1]), ("509.5a", BLOCKS_OLD[3][1])]
    assert _successors(BLOCKS_OLD, new)["410.9"] is None


# Section 500 dissolved into the subrules of 508.1 and 509.1; its first rule is left over.
DISSOLVED_OLD = [
    ("500.1", "Some effects say a creature can't attack or block, or must, and these are called restrictions "
              "and requirements."),
    ("500.2", "The active player checks each creature for attack requirements while declaring attackers."),
    ("500.3", "The defending player checks each creature for block requirements while declaring blockers."),
]
DISSOLVED_NEW = [
    ("508.1", "First, the active player declares attackers, following the steps below in order."),
    ("508.1c", "The active player checks each creature for attack restrictions."),
    ("508.1d", DISSOLVED_OLD[1][1]),
    ("509.1", "First, the defending player declares blockers, following the steps below in order."),
    ("509.1b", DISSOLVED_OLD[2][1]),
    ("510.1", "Something else entirely: each creature assigns combat damage equal to its power."),
    ("510.1a", "An unblocked creature assigns its combat damage to the player or planeswalker it attacks."),
]


def test_a_left_over_rule_is_sought_among_the_subrules_its_section_mates_went_under():
    from rulekb.kb.align import structure

    from .test_align_moves import _matching

    m, _ = _matching(DISSOLVED_OLD, DISSOLVED_NEW)
    left_over = m.old.index["500.1"]
    assert m.o2n[m.old.index["500.2"]] == m.new.index["508.1d"]
    assert structure.block(m, left_over, m.new.index["508.1c"]) == structure.BLOCK  # under 508.1, as 500.2 went
    assert structure.block(m, left_over, m.new.index["510.1a"]) == 0.0  # under a rule nobody went under
    assert structure.block(m, left_over, m.new.index["510.1"]) == 0.0  # no parent
    assert structure.block(m, m.old.index["500.2"], m.new.index["508.1"]) == 0.0
    assert structure.block(m, left_over, m.new.index["509.1b"]) == structure.BLOCK  # under 509.1, as 500.3 went

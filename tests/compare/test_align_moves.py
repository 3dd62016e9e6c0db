"""kb.align.moves: a rule that left its section for another and was reworded finds its
successor anywhere in the newer edition; a rule deleted outright stays removed; an
ordinary update (no section moved) is left exactly as the earlier passes leave it."""

from __future__ import annotations

from rulekb.kb.align import align
from rulekb.kb.align.moves import _kept

from ..helpers import invented_edition


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
    alignment = align(invented_edition("en/2030-01-01", OLD), invented_edition("en/2030-02-01", NEW))
    successors = alignment.successors()
    assert successors["310.2c"] == "510.1c"
    assert next(p for p in alignment.pairs if p.old == "310.2c" and p.new == "510.1c").evidence == "moved"
    assert successors["310.4"] is None  # deleted outright: no candidate clears the threshold
    assert successors["311.1"] == "511.1"


def test_an_ordinary_update_is_left_alone():
    old = invented_edition("en/2030-01-01", OLD)
    kept = [(n, t) for n, t in OLD if n != "310.4"] + [("310.5", "A rule added in the same section, about "
                                                                  "something else entirely: dice and coins.")]
    alignment = align(old, invented_edition("en/2030-02-01", kept))
    assert all(p.evidence != "moved" for p in alignment.pairs)
    assert alignment.successors()["310.4"] is None


def test_kept_counts_words_in_order_only():
    assert _kept(["a", "b", "c", "d"], ["a", "b", "x", "c", "d", "e"]) == 1.0
    assert _kept(["a", "b", "c", "d"], ["d", "c", "b", "a"]) == 0.25
    assert _kept([], ["a"]) == 0.0


# Section 406 went, as a whole, to 605; its rules were reworded ("played" -> "cast" /
# "activated") and two of them landed far from their old neighbours.
MANA_OLD = [
    ("406.1", "A mana ability is an activated ability without a target that could put mana into a player's "
              "mana pool, or a triggered ability without a target that triggers from a mana ability."),
    ("406.2", "Spells that put mana into a player's mana pool aren't mana abilities. They're played and "
              "resolved exactly like any other spells."),
    ("406.3", "Mana abilities can be played whenever a player has priority, or whenever a player is asked to "
              "pay a cost, even in the middle of playing a spell."),
]
MANA_NEW = [
    ("605.1", MANA_OLD[0][1]),
    ("605.1a", "A loyalty ability is never a mana ability, whatever it produces."),
    ("605.3", "Mana abilities can be activated whenever a player has priority, or whenever a player is asked "
              "to pay a cost, even in the middle of casting a spell."),
    ("605.5b", "A spell is never a mana ability, even if it could put mana into a player's mana pool when it "
               "resolves. It's cast and resolves just like any other spell."),
]


def _matching(old_rules, new_rules):
    """The passes before the cross-section one, as kb.align.matcher runs them."""
    from rulekb.kb.align.passes import Matching
    from rulekb.kb.align.profile import build
    from rulekb.kb.align.signals import Context, glossary_anchors
    from rulekb.kb.align.similarity import Scorer

    old, new = build(invented_edition("en/2030-01-01", old_rules)), build(invented_edition("en/2030-02-01", new_rules))
    m = Matching(old, new)
    m.identical()
    m.same_text("text")
    m.same_text("keys")
    m.scorer = Scorer(old, new)
    context = Context(old, new, m.o2n, glossary_anchors(old, new))
    m.scored(context)
    context.refresh()
    return m, context


def test_a_pair_made_on_position_alone_gives_way_to_a_free_rule_that_says_the_same():
    from rulekb.kb.align import moves

    m, context = _matching(MANA_OLD, MANA_NEW)
    i, wrong, right = m.old.index["406.2"], m.new.index["605.1a"], m.new.index["605.5b"]
    # as the gap between two pairs would pair it, when the text alone was too weak
    if i in m.o2n:
        m.unpair_old(i)
    m.pair(i, wrong, "order")
    moves.moved(m, context)
    assert (m.o2n[i], m.evidence[i]) == (right, "moved")
    assert wrong not in m.n2o  # the position-based partner is free again
    # a pair the text made is never given up
    m, context = _matching(MANA_OLD, MANA_NEW)
    if i in m.o2n:
        m.unpair_old(i)
    m.pair(i, wrong, "scored")
    moves.moved(m, context)
    assert m.o2n[i] == wrong


def test_a_candidate_far_above_the_others_is_taken_below_the_usual_threshold():
    from rulekb.kb.align import moves

    m, context = _matching(MANA_OLD, MANA_NEW)
    i, j = m.old.index["406.2"], m.new.index["605.5b"]
    if i in m.o2n:
        m.unpair_old(i)
    everything = moves._pool(m, range(len(m.new)))
    ranked = moves._ranked(m, context, i, everything)
    assert ranked[0][1] == j and ranked[0][0] == moves._evidence(m, context, i, j)
    assert all(a[0] >= b[0] for a, b in zip(ranked, ranked[1:]))
    assert moves._alone(m, context, i, everything, j) == (len(ranked) == 1 or ranked[0][0] >= moves.LONE_RATIO * ranked[1][0])
    assert not moves._alone(m, context, i, everything, m.new.index["605.1a"])  # not the best: never alone


def test_a_lone_free_look_alike_does_not_win_over_a_rule_that_absorbed_the_old_one():
    from rulekb.kb.align import moves

    # "Evasion abilities are cumulative" went into the new evasion rule (which has a
    # predecessor); a free flying rule shares its example's words but is not where it went
    old = [("501.1", "Evasion abilities restrict what can block an attacking creature. These are static "
                     "abilities that modify the declare blockers step of the combat phase."),
           ("501.2", "Evasion abilities are cumulative. A creature with flying and shadow can't be blocked by a "
                     "creature with flying but without shadow.")]
    new = [("500.3a", "An evasion ability is an ability an attacking creature has that restricts what can block "
                      "it. Evasion abilities are static abilities that modify the declare blockers step of the "
                      "combat phase. Evasion abilities are cumulative. A creature with flying and shadow can't be "
                      "blocked by a creature with flying but without shadow."),
           ("502.70b", "A creature with flying can't be blocked except by creatures with flying and/or reach.")]
    m, context = _matching(old, new)
    i, absorbing, free = m.old.index["501.2"], m.new.index["500.3a"], m.new.index["502.70b"]
    m.o2n.clear(), m.n2o.clear(), m.evidence.clear()
    m.pair(m.old.index["501.1"], absorbing, "scored")  # as in the real editions: 501.2 left over
    # among the free rules alone the flying rule would stand out; against all it does not
    assert moves._alone(m, context, i, moves._pool(m, m.free_new()), free)
    assert not moves._alone(m, context, i, moves._pool(m, range(len(m.new))), free)


# A rule about a deleted concept ends with a reminder of another rule; the newer edition keeps
# only the reminded rule's relatives (section 507 went to 710, the mana rules to 500 and 703).
BURN_OLD = [
    ("300.3", "When a phase ends, any unused mana left in a player's mana pool is lost. That player loses 1 life "
              "for each one mana lost this way."),
    ("507.1", "Some effects let one player control another player's next turn; the controlling player makes all "
              "choices and decisions the other player would make."),
    ("507.4", "A player doesn't lose life due to mana burn while another player controls his or her turn. "
              "(Unused mana in players' mana pools is still lost when a phase ends. See rule 300.3.)"),
]
BURN_NEW = [
    ("500.4", "When each step and phase ends, any unused mana left in a player's mana pool empties."),
    ("703.4n", "When each step or phase ends, any unused mana left in a player's mana pool is lost. See rule 500.4."),
    ("710.1", "Some effects let one player control another player's next turn; the controlling player makes all "
              "choices and decisions the other player would make."),
]


def test_a_pair_held_up_only_by_a_reminder_is_given_up():
    from rulekb.kb.align import moves, reminders

    assert reminders.own_text("It stays. (See rule 300.3.)").strip() == "It stays."
    assert reminders.own_text("It stays (for now).") is None  # a parenthetical citing nothing is the rule's own
    m, context = _matching(BURN_OLD, BURN_NEW)
    i, j = m.old.index["507.4"], m.new.index["703.4n"]
    for k in (i, m.old.index["300.3"]):  # as the scored pass pairs them on the real editions
        if k in m.o2n:
            m.unpair_old(k)
    if j in m.n2o:
        m.unpair_new(j)
    m.pair(m.old.index["300.3"], m.new.index["500.4"], "scored")
    m.pair(i, j, "scored")
    assert reminders.reminder_only(m, i, j)
    assert not reminders.reminder_only(m, m.old.index["300.3"], m.new.index["500.4"])  # no reminder at all
    moves.moved(m, context)
    assert i not in m.o2n  # removed: the rule's own words (mana burn) are nowhere
    assert m.o2n[m.old.index["300.3"]] == m.new.index["500.4"]


def test_a_rule_whose_own_words_match_keeps_its_pair_despite_a_reminder():
    from rulekb.kb.align import moves, reminders

    old = [BURN_OLD[0], ("507.4", "Some effects let one player control another player's next turn; the controlling "
                                  "player makes the other player's choices. (See rule 300.3.)")]
    m, context = _matching(old, BURN_NEW)
    i, j = m.old.index["507.4"], m.new.index["710.1"]
    if i in m.o2n:
        m.unpair_old(i)
    if j in m.n2o:
        m.unpair_new(j)
    m.pair(i, j, "scored")
    assert not reminders.reminder_only(m, i, j)
    moves.moved(m, context)
    assert m.o2n[i] == j


# Banding's damage rule was reworded and split in two when section 502 went to 702; the gap
# between two pairs put it next to an unrelated banding rule.
BAND_OLD = [
    ("502.10a", "Banding is a static ability that modifies the rules for combat."),
    ("502.10h", "A player who controls an attacking creature with banding chooses how combat damage is assigned "
                "by creatures blocking that creature. If that creature is removed from combat, or from the band "
                "it was in, before the combat damage step, damage is assigned normally."),
    ("502.10i", "Multiple instances of banding on the same creature are redundant."),
]
BAND_NEW = [
    ("702.19a", "Banding is a static ability that modifies the rules for combat."),
    ("702.19f", "An attacking creature that's removed from combat is also removed from the band it was in."),
    ("702.19k", "During the combat damage step, the player who controls an attacking creature with banding "
                "chooses how the combat damage of the creatures blocking it is assigned. That player may divide "
                "it among any of the attacking creatures they block, as long as each of those in turn is given "
                "lethal damage, regardless of the order the defending player announced for it or of any quality "
                "those creatures share."),
    ("702.19m", "Multiple instances of banding on the same creature are redundant."),
]


def test_a_weak_pair_gives_way_to_the_rule_that_says_the_old_rule_s_first_sentence(monkeypatch):
    from rulekb.kb.align import moves, reminders

    def run():
        m, context = _matching(BAND_OLD, BAND_NEW)
        i, wrong = m.old.index["502.10h"], m.new.index["702.19f"]
        if i in m.o2n:
            m.unpair_old(i)
        if wrong in m.n2o:
            m.unpair_new(wrong)
        m.pair(i, wrong, "family")  # as the subrules of the parent's successor pair it
        moves.moved(m, context)
        return m, i

    m, i = run()
    right = m.new.index["702.19k"]
    assert reminders.lead(m, i, right) > reminders.lead(m, i, m.new.index["702.19f"])
    assert m.o2n[i] == right and m.evidence[i] == "moved"
    monkeypatch.setattr(moves, "LEAD_WEIGHT", 0.0)  # without the first sentence, the weak pair stands
    m, i = run()
    assert m.new.numbers[m.o2n[i]] == "702.19f"


def test_a_sentence_that_only_points_elsewhere_is_not_the_rule_s_own_text():
    from rulekb.kb.align import reminders

    text = 'A copy of an object copies that object\'s mana cost. See rule 503, "Copying Objects."'
    assert reminders.own_text(text).strip() == "A copy of an object copies that object's mana cost."
    assert reminders.sentences("One. Two? \"Three\" four.\nExample: five.") == ["One.", "Two?", "\"Three\" four."]


# The general definitions of section 200 went to other sections; the spell definition was folded
# into the spells section's first rule (which keeps its own predecessor, from 401).
SPELL_OLD = [
    ("200.4", "An object is an ability on the stack, a card, a copy of a card, a token, a spell, or a permanent."),
    ("200.5", "A spell is a card, or a copy of one, that's on the stack. (See rule 213, \"Spells.\")"),
    ("401.1", "A card on the stack is a spell. As the first step of being played, the card becomes a spell and "
              "goes on the stack from the zone it was played from."),
]
SPELL_NEW = [
    ("109.1", "An object is an ability on the stack, a card, a copy of a card, a token, a spell, or a permanent."),
    ("111.1", "A spell is a card, or a copy of one, on the stack. As the first step of being cast, the card "
              "becomes a spell and is moved to the top of the stack from the zone it was in."),
    ("111.1b", "Some effects allow a player to cast a copy of a card; if the player does, that copy is a spell "
               "as well. See rule 706.11."),
]


def test_a_weak_pair_gives_way_to_the_rule_the_old_one_was_folded_into():
    from rulekb.kb.align import moves

    m, context = _matching(SPELL_OLD, SPELL_NEW)
    i, weak, folded = m.old.index["200.5"], m.new.index["111.1b"], m.new.index["111.1"]
    for k in (i, m.old.index["401.1"]):
        if k in m.o2n:
            m.unpair_old(k)
    for k in (weak, folded):
        if k in m.n2o:
            m.unpair_new(k)
    m.pair(m.old.index["401.1"], folded, "scored")
    m.pair(i, weak, "order")  # as the gap between two pairs put it
    moves.moved(m, context)
    assert i not in m.o2n and m.absorbed == {i: folded}
    links = moves.merged(m, context, secondary := [])
    assert [(p.old, p.new, p.kind, p.evidence) for p in links] == [("200.5", "111.1", "merged", "moved")]
    assert secondary == []
    # a pair the text made is no position-only pair: it is left alone
    m, context = _matching(SPELL_OLD, SPELL_NEW)
    for k in (i, m.old.index["401.1"]):
        if k in m.o2n:
            m.unpair_old(k)
    for k in (weak, folded):
        if k in m.n2o:
            m.unpair_new(k)
    m.pair(m.old.index["401.1"], folded, "scored")
    m.pair(i, weak, "scored")
    moves.moved(m, context)
    assert m.o2n[i] == weak and not m.absorbed


def test_a_round_s_pairs_bring_the_next_rule_s_successor_within_reach(monkeypatch):
    from rulekb.kb.align import moves

    # 510.1d's indexed (rarest) words are its long new tail's; "A blocking creature ..." only
    # reaches it as the rule after 510.1c, once 310.2c has found 510.1c
    old = OLD[:5] + [("310.2d", "A blocking creature will assign combat damage, divided as its controller chooses, "
                                "to the attacking creatures it's blocking.")] + OLD[5:6]
    tail = ("See quorums, ledgers, lanterns, spindles, thimbles, zeppelins, marmalades, quinces, yurts, gazebos, "
            "fjords, walruses and xylophones.")
    new = NEW[:4] + [("510.1d", "A blocking creature assigns combat damage to the creatures it's blocking. " + tail)] \
        + NEW[4:5]

    def successor(rounds):
        monkeypatch.setattr(moves, "ROUNDS", rounds)
        return align(invented_edition("en/2030-01-01", old), invented_edition("en/2030-02-01", new)).successors()

    rounds = moves.ROUNDS
    assert successor(1)["310.2c"] == "510.1c" and successor(1)["310.2d"] is None
    assert successor(rounds)["310.2d"] == "510.1d"


# Mana cost's section went to 202 and copying's to 706; the old rule that a copy copies the mana
# cost points to copying, and its words are now in a copy rule.
COPY_OLD = [
    ("203.1", "An object's mana cost is indicated by mana symbols near the top of its card."),
    ("203.1a", "A copy of an object copies that object's mana cost. See rule 503, \"Copying Objects.\""),
    ("503.1", "Some objects become or turn another object into a copy of a spell, permanent, or card."),
]
COPY_NEW = [
    ("202.1", "An object's mana cost is indicated by mana symbols near the top of its card."),
    ("613.1a", "Layer 1: Copy effects are applied. See rule 706, \"Copying Objects.\""),
    ("706.1", "Some objects become or turn another object into a copy of a spell, permanent, or card."),
    ("706.2a", "A copy of an object acquires that object's mana cost, and the color derived from that mana "
               "cost."),
]


def test_a_rule_given_up_for_its_pointer_goes_where_it_points(monkeypatch):
    from rulekb.kb.align import moves

    def run():
        m, context = _matching(COPY_OLD, COPY_NEW)
        i, layer = m.old.index["203.1a"], m.new.index["613.1a"]
        if i in m.o2n:
            m.unpair_old(i)
        for k in (layer, m.new.index["706.2a"]):
            if k in m.n2o:
                m.unpair_new(k)
        m.pair(i, layer, "scored")  # as the scored pass pairs it on "See rule ..., Copying Objects"
        moves.moved(m, context)
        assert (i, layer) in m.given_up
        return m.new.numbers[m.o2n[i]] if i in m.o2n else None

    assert run() == "706.2a"
    monkeypatch.setattr(moves, "POINTED_LEAD", 1.01)  # without the pointer's section, nothing clears a threshold
    assert run() is None

"""A keyword's rules scattered over several sections of an older edition, gathered under that
keyword's rule in the newer one (the 2009 restructure put "bands with other" and the combat rules
about banded creatures under banding's 702.19, the phased-out zone's rules under phasing's 702.23):
the rules whose words went along are found under the keyword's rule, wherever they were; a rule
about the keyword that was deleted stays removed, however many rules of the keyword's section name
the keyword too. Texts invented."""

from __future__ import annotations

from rulekb.kb.align import align

from ..helpers import invented_edition

# Old: the tethering keyword (502.40), its special form in a keyword rule of its own (502.41), and
# two combat rules about tethered creatures (310.3, 310.4). New: the combat section went to 510,
# the keyword rules to 702, and everything tethering does is under the one keyword rule 702.40;
# 310.4 (tethered creatures untap at end of combat) was deleted.
OLD = [
    ("310.1", "As the combat damage step begins, the active player announces how each attacking creature will "
              "assign its combat damage."),
    ("310.2", "Each attacking creature and each blocking creature will assign combat damage equal to its power."),
    ("310.3", "A creature tethered by an attacking creature deals no combat damage to the attacking creature "
              "that tethered it, even if it is blocking that creature."),
    ("310.4", "Tethered creatures untap as the end of combat step begins, before any ability triggers."),
    ("502.1", "Flying is an evasion ability."),
    ("502.1a", "A creature with flying can't be blocked except by creatures with flying or reach."),
    ("502.40", "Tethering"),
    ("502.40a", "Tethering is a triggered ability. \"Tethering\" means \"Whenever this creature attacks, tether "
                "target creature an opponent controls.\""),
    ("502.40b", "A tethered creature can't block, and its activated abilities can't be activated while it "
                "remains tethered."),
    ("502.40c", "Multiple instances of tethering on the same creature each trigger separately."),
    ("502.41", "Tethering Chains"),
    ("502.41a", "Tethering chains is a special form of tethering. If an effect causes a creature to lose "
                "tethering, the creature loses all tethering chains abilities as well."),
    ("502.41b", "Multiple instances of tethering chains of the same kind on the same creature are redundant."),
]
NEW = [
    ("510.1", "First, the active player announces how each attacking creature assigns its combat damage."),
    ("510.1a", "Each attacking creature and each blocking creature assigns combat damage equal to its power."),
    ("702.9", "Flying"),
    ("702.9a", "Flying is an evasion ability."),
    ("702.9b", "A creature with flying can't be blocked except by creatures with flying and/or reach."),
    ("702.40", "Tethering"),
    ("702.40a", OLD[7][1]),
    ("702.40b", "\"Tethering chains\" is a special form of tethering. If an effect causes a creature to lose "
                "tethering, the creature loses all \"tethering chains\" abilities as well."),
    ("702.40c", OLD[8][1]),
    ("702.40d", "A creature tethered by an attacking creature assigns no combat damage to the attacking "
                "creature that tethered it, even if it's blocking that creature."),
    ("702.40e", "Multiple instances of tethering on the same creature trigger separately. Multiple instances "
                "of tethering chains of the same kind on the same creature are redundant."),
]


def _align():
    return align(invented_edition("en/2030-01-01", OLD), invented_edition("en/2030-02-01", NEW))


def test_rules_from_two_old_sections_are_found_under_the_keyword_rule():
    alignment = _align()
    successors = alignment.successors()
    assert alignment.sections["502"] == "702" and alignment.sections["310"] == "510"
    assert successors["310.3"] == "702.40d"  # a combat rule about tethered creatures, now the keyword's
    assert successors["502.41a"] == "702.40b"  # the special form's own keyword rule, now a subrule
    assert successors["502.40a"] == "702.40a" and successors["502.40b"] == "702.40c"
    assert successors["310.1"] == "510.1" and successors["310.2"] == "510.1a"  # the rest of combat went to 510


def test_two_redundancy_rules_of_two_old_keyword_rules_meet_in_one_new_rule():
    alignment = _align()
    went = {p.old: set() for p in alignment.pairs if p.old}
    for p in alignment.pairs:
        if p.old and p.new:
            went[p.old].add(p.new)
    # one is its successor, the other merged into it: both lead to the one rule that says both
    assert went["502.40c"] == {"702.40e"} and went["502.41b"] == {"702.40e"}


def test_a_deleted_rule_about_the_keyword_stays_removed():
    alignment = _align()
    assert alignment.successors()["310.4"] is None  # names tethered creatures, like 702.40c and 702.40d
    assert not [p for p in alignment.pairs if p.old == "310.4" and p.new]
    assert alignment.successors()["502.41"] is None  # the special form's heading: no rule of its own now

"""kb.align.concepts: where a rule's concept went, by a renamed glossary term and by citation
structure, and the cross-section pass's step that merges a free rule under its parent's anchor.
Texts invented."""

from __future__ import annotations

from rulekb.kb.align import align, concepts
from rulekb.kb.align.profile import build

from ..helpers import invented_edition


# Section 217 (zones) went to 400; the faded-out zone was abolished and fading (502.1) became a
# keyword ability (702.5) that changes a permanent's status instead.
ZONES = [
    ("217.1", "A zone is a place where objects can be during a game, and there are seven of them."),
    ("217.2", "The library is where a player's draw pile is kept, face down and in a random order."),
    ("217.3", "The graveyard is a player's discard pile, face up, where destroyed permanents go."),
]
OLD = ZONES + [
    ("217.8", "Faded Out"),
    ("217.8a", "If a permanent fades out, its status is now faded out in the faded-out zone."),
    ("502.1", "Fading"),
    ("502.1a", "Fading is a static ability that modifies the untap step of each player with such permanents."),
    ("502.1b", "Each fading permanent fades out during its controller's untap step, before untapping."),
]
NEW = [(n.replace("217.", "400."), t) for n, t in ZONES] + [
    ("702.5", "Fading"),
    ("702.5a", OLD[6][1].replace("such permanents", "permanents with fading")),
    ("702.5b", OLD[7][1]),
    ("702.5c", "If a permanent fades out, its status changes to \"faded out.\" It is treated as though it "
               "does not exist."),
    ("702.5d", "When a permanent fades in, the game once again treats it as though it exists."),
]
OLD_TERMS = [("Fading", ["502.1"]), ("Faded Out", ["217.8", "502.1"])]
NEW_TERMS = [("Fading", ["702.5"]), ("Faded In, Faded Out", ["702.5"])]


def _align(old_terms, new_terms, old=OLD, new=NEW):
    return align(invented_edition("en/2030-01-01", old, old_terms), invented_edition("en/2030-02-01", new, new_terms))


def test_a_renamed_term_anchors_the_numbers_its_old_entry_cites_to_those_its_new_entry_cites():
    old = build(invented_edition("en/2030-01-01", OLD, OLD_TERMS + [("Order", ["217.1"])]))
    new = build(invented_edition("en/2030-02-01", NEW, NEW_TERMS + [("Damage Assignment Order", ["702.5"])]))
    assert concepts.renamed_terms(old, new) == {"faded out": ["faded in faded out"]}  # not "order"
    assert concepts.concept_anchors(old, new, {})["217.8"] == {"702.5"}


def test_a_free_rule_goes_to_the_rule_under_its_parents_anchor_that_says_its_first_sentence():
    alignment = _align(OLD_TERMS, NEW_TERMS)
    assert alignment.successors()["217.8a"] == "702.5c"
    assert any(p.old == "217.8a" and p.new == "702.5c" and p.kind == "merged" for p in alignment.pairs)


def test_without_an_heir_to_the_term_the_rule_stays_removed():
    # the concept disappeared from the glossary: nothing says where its rules went
    assert _align(OLD_TERMS, [("Fading", ["702.5"])]).successors()["217.8a"] is None


def test_a_citer_whose_successor_cites_elsewhere_anchors_the_rule_it_cited():
    old = OLD + [("303.1", "The untap step's first action: faded-out permanents fade in (see rule 217.8).")]
    new = NEW + [("503.1", "The untap step's first action: faded-out permanents fade in (see rule 702.5).")]
    old_p, new_p = build(invented_edition("en/2030-01-01", old)), build(invented_edition("en/2030-02-01", new))
    citer = {old_p.index["303.1"]: new_p.index["503.1"]}
    assert concepts.concept_anchors(old_p, new_p, citer)["217.8"] == {"702.5"}
    # a citer whose successor still cites the cited rule's successor anchors nothing
    same = {old_p.index["303.1"]: new_p.index["503.1"], old_p.index["217.8"]: new_p.index["702.5"]}
    assert "217.8" not in concepts.concept_anchors(old_p, new_p, same)
    # and the whole alignment finds 217.8a's successor on the citation alone, no glossary
    assert _align([], [], old, new).successors()["217.8a"] == "702.5c"

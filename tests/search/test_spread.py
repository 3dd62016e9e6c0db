"""One rule's family capped in the first ten results of a question naming a card
(kb.search.rank.spread): the pure reordering."""

from __future__ import annotations

from rulekb.kb.search import rank


def test_one_rules_family_holds_at_most_four_of_the_first_ten():
    assert rank.family("702.19b") == rank.family("702.19") == "702.19" and rank.family("704.5m") == "704.5"
    assert rank.family("100.1") == "100.1"
    ordered = ["702.19b", "702.19d", "702.19c", "702.19a", "702.19e", "702.15b", "510.2", "702.19f", "704.3"]
    spread = rank.spread(ordered, rank.family)
    assert spread[:5] == ["702.19b", "702.19d", "702.19c", "702.19a", "702.15b"]  # the fifth of trample's waits
    assert spread[5:] == ["510.2", "704.3", "702.19e", "702.19f"] and sorted(spread) == sorted(ordered)
    assert rank.spread(["a", "b"], lambda k: None) == ["a", "b"]  # no family: each its own


def test_more_than_ten_results_keep_their_order_after_the_first_ten():
    ordered = [f"100.{n}" for n in range(1, 16)]  # fifteen families of one each: nothing moves
    assert rank.spread(ordered, rank.family) == ordered
    one_family = [f"702.19{c}" for c in "abcdefghjk"] + ["510.2"]
    assert rank.spread(one_family, rank.family)[:5] == ["702.19a", "702.19b", "702.19c", "702.19d", "510.2"]

"""The 2009 gold of rules that moved section and were reworded
(kb/bench/gold/alignment_gold_2009_moves.tsv): read by the evaluator, half held out,
independent of the two other gold files, every row still pointing at its rule; and on the
corpus the aligner keeps at least the figures measured when the cross-section pass came in
(a floor against regressions, not the target: see docs/consistency-and-alignment.md)."""

from __future__ import annotations

from rulekb.kb.align import align
from rulekb.kb.bench.align_eval import GOLD, INDEPENDENT_GOLD, MOVES_GOLD, load_editions, load_gold, score_gold, verify

ROWS = load_gold(MOVES_GOLD)
PAIR = ("en/2009-05-01", "en/2009-07-08")


def test_rows_are_read_and_half_is_held_out():
    groups = {r.group for r in ROWS}
    assert groups == {"restructure-2009-moves-held", "restructure-2009-moves-tune", "restructure-2009-moves-tune2",
                      "restructure-2009-moves-tune3"}
    later = ("restructure-2009-moves-tune2", "restructure-2009-moves-tune3")
    first = [r for r in ROWS if r.group not in later]  # the part written with a held-out half
    assert len(first) >= 60
    held = [r for r in first if r.group.endswith("-held")]
    assert abs(2 * len(held) - len(first)) <= 2
    # the second tuning part: at least 30 rows, each saying what the aligner of the day did
    second = [r for r in ROWS if r.group == "restructure-2009-moves-tune2"]
    assert len(second) >= 30 and all(r.note.endswith(("[main: right]", "[main: wrong]")) for r in second)
    # the third: rules that name a keyword as what they are about, at least 10 rows, tagged the same way
    third = [r for r in ROWS if r.group == "restructure-2009-moves-tune3"]
    assert len(third) >= 10 and all(r.note.endswith(("[main: right]", "[main: wrong]")) for r in third)
    assert {(r.old_edition, r.new_edition) for r in ROWS} == {PAIR}
    olds = [r.old for r in ROWS]
    assert len(olds) == len(set(olds))
    assert all(len(r.check) == 8 and r.note for r in ROWS)
    # every row's old rule moved: its accepted successors are in a section of another number
    assert all(n is None or n.split(".")[0] != r.old.split(".")[0] for r in ROWS for n in r.accepted)


def test_independent_of_the_other_gold_files():
    others = {r.old for path in (GOLD, INDEPENDENT_GOLD) for r in load_gold(path) if r.old_edition == PAIR[0]}
    assert not others & {r.old for r in ROWS}


def test_rows_point_at_their_rules_and_the_floor_holds(corpus):
    editions = load_editions(corpus, set(PAIR))
    assert verify(ROWS, editions) == []
    scores = score_gold(ROWS, editions, align)
    assert scores["restructure-2009-moves-held"]["correct"] >= 23, scores["restructure-2009-moves-held"]["misses"]
    assert scores["restructure-2009-moves-tune"]["correct"] >= 30, scores["restructure-2009-moves-tune"]["misses"]
    assert scores["restructure-2009-moves-tune2"]["correct"] >= 38, scores["restructure-2009-moves-tune2"]["misses"]
    assert scores["restructure-2009-moves-tune3"]["correct"] >= 17, scores["restructure-2009-moves-tune3"]["misses"]
    got = align(editions[PAIR[0]], editions[PAIR[1]]).successors()
    assert got["310.2c"] == "510.1c"  # combat damage: a blocked creature's damage, reworded, in 510
    assert got["408.2f"] == "405.6b"  # characteristic-defining abilities folded into the stack's rule
    assert got["406.2"] == "605.5b"  # spells are never mana abilities: was paired by position with 605.1b
    assert got["406.5"] == "605.5a"  # the one mana-ability rule holding most of it, below the usual threshold
    assert got["502.15f"] == "702.23d"  # phasing: same permanent, no zone change
    assert got["217.5d"] == "109.4"  # objects off the battlefield and stack have no controller: alone in 109
    assert got["310.3"] is None and got["408.1g"] is None  # combat damage on the stack: gone
    assert got["507.4"] is None  # mana burn, abolished: only its reminder of 300.3 matched 703.4n
    assert got["502.10h"] == "702.19k"  # banding's damage: its first sentence, not the gap's 702.19f
    assert got["203.1a"] == "706.2a"  # a copy copies the mana cost: the copy rules it points to, not the layer rule
    assert got["200.6"] == "110.1"
    assert got["310.2d"] == "510.1d"  # a blocking creature's damage: the rule after 310.2c's, reached next round
    assert got["200.5"] == "111.1"  # the spell definition, folded into 111.1: no longer put by position at 111.1b  # a permanent is a card or token on the battlefield: not the reminder's 403.3
    assert got["212.1a"] == "112.3"  # its pointer's sentence, said by the abilities section it points to
    assert got["410.9"] == "509.4"  # its five subrules all went under 509.4: merged into it
    assert got["500.1"] == "508.1c"  # its section-mates went under 508.1 and 509.1: sought there first
    assert got["217.8a"] == "702.23b"  # the phased-out zone: its parent's renamed glossary term points to phasing
    # words and meaning agree on a rule with a predecessor: merged into it
    assert got["401.4"] == "604.6"  # abilities letting an object be played from another zone
    assert got["502.11b"] == "702.19c"  # "bands with other": the band rule's second sentence
    # deleted rules whose word look-alike is not what they mean stay removed
    assert got["310.4a"] is None and got["502.15k"] is None and got["502.15n"] is None and got["502.34b"] is None

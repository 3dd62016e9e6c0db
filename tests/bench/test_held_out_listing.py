"""`rulekb bench align` lists the misses of tuned gold groups one by one, and only counts
those of held-out groups: whoever tunes the aligner reads that list."""

from __future__ import annotations

from rulekb.kb.bench.align_eval import INDEPENDENT_GOLD, MOVES_GOLD, GOLD, load_gold
from rulekb.kb.cli.bench import _held_out


def test_held_out_groups_are_recognised():
    assert _held_out("restructure-2009-moves-held")
    assert _held_out("restructure-2009-holdout")
    assert not _held_out("restructure-2009-moves-tune")
    assert not _held_out("restructure-2009")
    assert not _held_out("restructure-2009-independent")


def test_every_gold_file_with_a_held_out_half_names_it_so():
    groups = {r.group for path in (GOLD, INDEPENDENT_GOLD, MOVES_GOLD) for r in load_gold(path)}
    held = {g for g in groups if _held_out(g)}
    assert held == {"restructure-2009-moves-held", "restructure-2009-holdout"}, groups

"""The baseline: the greedy difflib matcher of the best-known public CR diff tool.

Academy Ruins (lunakv/academyruins-api) diffs two CR editions by pruning rules
with the same number and text, then pairing the rest with
``difflib.get_close_matches`` -- comparing each old rule with every unmatched new
rule (quadratic), on whole words, with no terminology normalisation and no
structure. It is kept here, as specified for this project's benchmark, to
measure :func:`kb.align.align` against:

    for each old rule not matched by identical number+text (in document order),
    pick get_close_matches(old_words, unmatched_new_words, n=1, cutoff=0.6),
    and take that new rule out of the pool.

Everything left is removed / added. The result uses the same :class:`Alignment`
shape (kinds unchanged, renumbered, modified, added, removed; no splits or
merges), so the two are scored by the same code.
"""

from __future__ import annotations

import difflib

from rulekb.ingest.model import Edition

from .model import ADDED, MODIFIED, REMOVED, RENUMBERED, UNCHANGED, Alignment, Pair
from .profile import content

CUTOFF = 0.6


def align_baseline(old: Edition, new: Edition, cutoff: float = CUTOFF) -> Alignment:
    old_texts = {r.number: content(r) for r in old.rules}
    new_texts = {r.number: content(r) for r in new.rules}
    pairs: list[Pair] = []
    pending_new = dict(new_texts)
    unmatched_old = []
    for number, text in old_texts.items():
        if new_texts.get(number) == text:
            pairs.append(Pair(number, number, UNCHANGED, 1.0, "identical"))
            pending_new.pop(number, None)
        else:
            unmatched_old.append(number)
    # the pool: unmatched new rules as word lists (what the tool compares)
    pool_numbers = list(pending_new)
    pool_words = [pending_new[n].split(" ") for n in pool_numbers]
    for number in unmatched_old:
        words = old_texts[number].split(" ")
        best = difflib.get_close_matches(words, pool_words, n=1, cutoff=cutoff)
        if not best:
            pairs.append(Pair(number, None, REMOVED, 0.0))
            continue
        k = pool_words.index(best[0])
        match = pool_numbers.pop(k)
        pool_words.pop(k)
        sim = difflib.SequenceMatcher(None, words, best[0]).ratio()
        if old_texts[number] == new_texts[match]:
            pairs.append(Pair(number, match, RENUMBERED, 1.0, "baseline"))
        else:
            pairs.append(Pair(number, match, MODIFIED, sim, "baseline"))
    for number in pool_numbers:
        pairs.append(Pair(None, number, ADDED, 0.0))
    return Alignment(old.id, new.id, pairs)

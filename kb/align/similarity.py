"""Text similarity between one old and one new rule, fast enough for thousands of candidates.

Two measures, averaged:

- weighted Dice over the rules' token sets, each token weighed by its inverse
  document frequency, so that sharing "horsemanship" counts far more than
  sharing "creature" (formulaic rules -- "X is an evasion ability." -- differ
  only in such rare words);
- ``difflib.SequenceMatcher.ratio`` over the token lists (not characters: ten
  times fewer elements), which sees order and repetition (cydifflib's compiled
  SequenceMatcher: difflib's blocks and ratios, four times faster).

Only candidate pairs (see :mod:`kb.align.candidates`) are ever scored, never all
pairs; results are memoised per pair.
"""

from __future__ import annotations

import math
from cydifflib import SequenceMatcher  # difflib's, compiled: the same blocks and ratios
from typing import Hashable, Protocol

from .profile import Profile, idf_table


class Similarity(Protocol):
    """The scoring strategy of an alignment: how alike a rule of one side and a rule of
    the other are, in 0..1. :class:`Scorer` is the one for two editions of a language
    (token weights and order); :class:`kb.translate.align.EvidenceScorer` the one for
    a French text and an English edition (citations, numbers, names, lexicon terms)."""

    def similarity(self, i: Hashable, j: Hashable) -> float: ...


class Scorer:
    def __init__(self, old: Profile, new: Profile):
        self.old, self.new = old, new
        self.idf = idf_table(old, new)
        self.unseen = self.idf[""]  # a token outside the samples: as rare as one seen once
        self._memo: dict[tuple[int, int], float] = {}
        self._weight_old: dict[int, float] = {}
        self._weight_new: dict[int, float] = {}

    def weight(self, tokens) -> float:
        idf, unseen = self.idf, self.unseen
        # fsum: exactly rounded whatever the set's order, so Python's hash seed cannot tip a tie
        return math.fsum(idf.get(t, unseen) for t in tokens)

    def _w(self, side: str, i: int) -> float:
        cache = self._weight_old if side == "old" else self._weight_new
        found = cache.get(i)
        if found is None:
            profile = self.old if side == "old" else self.new
            found = self.weight(profile.tokenset(i))
            cache[i] = found
        return found

    def dice(self, i: int, j: int) -> float:
        """Weighted Dice of old rule ``i`` and new rule ``j`` (0..1)."""
        a, b = self.old.tokenset(i), self.new.tokenset(j)
        total = self._w("old", i) + self._w("new", j)
        if not total:
            return 1.0 if self.old.key(i) == self.new.key(j) else 0.0
        return min(1.0, 2 * self.weight(a & b) / total)

    def similarity(self, i: int, j: int) -> float:
        """The text similarity a pair reports (0..1)."""
        key = (i, j)
        found = self._memo.get(key)
        if found is None:
            if self.old.key(i) == self.new.key(j):
                found = 1.0
            else:
                a, b = self.old.tokens(i), self.new.tokens(j)
                seq = SequenceMatcher(None, a, b, autojunk=False).ratio() if a and b else 0.0
                found = 0.5 * self.dice(i, j) + 0.5 * seq
            self._memo[key] = found
        return found

    def contained(self, small: frozenset, big: frozenset, minus: frozenset = frozenset()) -> float:
        """The weighted share of ``small``'s tokens found in ``big`` but not in ``minus``
        (for splits and merges: how much of a new rule came from an old one, beyond
        what the old rule's primary successor already holds)."""
        total = self.weight(small)
        if not total:
            return 0.0
        return min(1.0, self.weight((small & big) - minus) / total)

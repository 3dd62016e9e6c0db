"""Candidate partners for a rule, from an inverted index of rare tokens.

Comparing every unmatched old rule with every unmatched new rule is quadratic
(the 2009 restructure leaves hundreds on each side; the greedy difflib baseline
spends most of its time there). Instead each rule of one side is indexed under
its rarest tokens; a rule of the other side looks up its own rarest tokens and
accumulates their weights per indexed rule, and only the best-scoring few are
compared properly. Rare tokens are what distinguish rules (keyword names,
"horsemanship", "phased"), so the true partner is nearly always among them.

Two candidate strategies (:class:`Candidates`): :class:`Index` (rare tokens, for two
editions of a language) and :class:`Nearby` (the rules of the same and the neighbouring
sections, by number: for a translation, whose words are of another language but whose
numbering is the English one's, give or take a rule or a section).
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from typing import Protocol

RARE_PER_RULE = 12  # how many of a rule's tokens are indexed / looked up
TOP_K = 8  # candidates kept per rule


class Index:
    """Rules (index -> token set) of one edition, searchable by another's tokens."""

    def __init__(self, idf: dict[str, float], rules: dict[int, frozenset]):
        self.idf = idf
        self.unseen = idf.get("", 1.0)
        self.postings: dict[str, list[int]] = defaultdict(list)
        for k, tokens in rules.items():
            for token in self._rare(tokens):
                self.postings[token].append(k)

    def _rare(self, tokens) -> list[str]:
        idf, unseen = self.idf, self.unseen
        if len(tokens) <= RARE_PER_RULE:
            return list(tokens)
        return heapq.nlargest(RARE_PER_RULE, tokens, key=lambda t: (idf.get(t, unseen), t))

    def candidates(self, tokens: frozenset, k: int = TOP_K) -> list[int]:
        """Indexed rules most likely to be the partner of a rule with ``tokens`` (unscored)."""
        idf, unseen = self.idf, self.unseen
        acc: dict[int, float] = defaultdict(float)
        for token in self._rare(tokens):
            posting = self.postings.get(token)
            if posting:
                w = idf.get(token, unseen)
                for j in posting:
                    acc[j] += w
        if not acc:
            return []
        return heapq.nlargest(k, acc, key=lambda j: (acc[j], -j))


class Candidates(Protocol):
    """The candidate strategy of an alignment: which rules of the other side are worth scoring."""

    def candidates(self, key) -> Iterable[Hashable]: ...


class Nearby:
    """Rules of the other side in the same section as a rule number and in the ``span``
    sections either side (``702.9a`` with span 1: 701, 702, 703), in that side's order."""

    def __init__(self, numbers: Sequence[str], span: int = 1):
        self.span = span
        self.by_section: dict[str, list[tuple[int, str]]] = defaultdict(list)
        for position, number in enumerate(numbers):
            self.by_section[number.split(".")[0]].append((position, number))

    def candidates(self, number: str) -> list[str]:
        try:
            section = int(number.split(".")[0])
        except ValueError:
            return []
        found = [entry for d in range(-self.span, self.span + 1) for entry in self.by_section.get(str(section + d), ())]
        return [n for _, n in sorted(found)]

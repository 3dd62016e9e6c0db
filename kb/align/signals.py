"""Evidence beyond a pair's own text: structure, order, cross-references, glossary.

Each signal is a small bonus added to a candidate pair's text similarity when
the pairs already found support it. They decide between near-equal candidates
(the formulaic rules of keyword abilities, "Multiple instances of X are
redundant") and rescue rules reworded beyond recognition by text alone:

- parent: the old rule's parent is paired with the new rule's parent
  (111.2a follows 111.2);
- section: the share of the old rule's section that went to the new rule's
  section (all of 504 stayed in 504; a twelfth of 212 went to 301) -- this is
  what keeps formulaic rules ("Third, the active player gets priority") in
  their own section;
- neighbours: the rule before (or after) the old one is paired with the rule
  before (after) the new one -- rules move in blocks;
- references: the numbers the old rule cites, mapped through the pairs found so
  far, are the numbers the new rule cites;
- glossary anchors: a term whose entry cites 200.5a in the old edition and 111.2
  in the new is direct evidence that 200.5a became 111.2;
- number: the same number in both editions (a weak hint: numbers shift).
"""

from __future__ import annotations

from collections import Counter, defaultdict

from .profile import Profile

PARENT = 0.12
SECTION = 0.15  # times the share of the old section's rules that went to the new one
NEIGHBOUR = 0.05
REFERENCES = 0.06
ANCHOR = 0.2
NUMBER = 0.04


def glossary_anchors(old: Profile, new: Profile) -> dict[int, dict[int, float]]:
    """old rule index -> {new rule index: strength} from glossary terms citing rules.

    A term citing as many rule-level numbers in both editions pairs them in order
    (strength 1); otherwise each cited old rule is anchored, more weakly (1/2), to
    each cited new rule -- "Owner" cites three rules in 2009-05-01 and four in
    2009-07-08, one of which is each old rule's successor."""
    anchors: dict[int, dict[int, float]] = defaultdict(dict)
    for key, old_refs in old.glossary.items():
        new_refs = new.glossary.get(key)
        if not new_refs:
            continue
        a = [old.index[n] for n in old_refs if "." in n and n in old.index]
        b = [new.index[n] for n in new_refs if "." in n and n in new.index]
        if not a or not b:
            continue
        if len(a) == len(b):
            for x, y in zip(a, b):
                anchors[x][y] = 1.0
        else:
            for x in a:
                for y in b:
                    anchors[x].setdefault(y, 0.5)
    return anchors


def _votes(old: Profile, new: Profile, pairs: dict[int, int]) -> dict[str, Counter]:
    votes: dict[str, Counter] = defaultdict(Counter)
    for i, j in pairs.items():
        votes[old.section[i]][new.section[j]] += 1
    return votes


def section_votes(old: Profile, new: Profile, pairs: dict[int, int]) -> dict[str, str]:
    """old section -> the new section most of its paired rules went to."""
    return {sec: counter.most_common(1)[0][0] for sec, counter in _votes(old, new, pairs).items()}


def section_shares(old: Profile, new: Profile, pairs: dict[int, int]) -> dict[tuple[str, str], float]:
    """(old section, new section) -> the share of the old section's paired rules that
    went there: 1.0 for a section that stayed whole, small for one the 2009
    restructure spread over many (212 "Card Types" -> 301..308)."""
    shares = {}
    for sec, counter in _votes(old, new, pairs).items():
        total = sum(counter.values())
        for target, n in counter.items():
            shares[(sec, target)] = n / total
    return shares


class Context:
    """The bonus for a candidate pair, given the pairs found so far."""

    def __init__(self, old: Profile, new: Profile, pairs: dict[int, int], anchors: dict[int, dict[int, float]]):
        self.old, self.new, self.pairs, self.anchors = old, new, pairs, anchors
        self.refresh()

    def refresh(self) -> None:
        self.sections = section_votes(self.old, self.new, self.pairs)
        self.shares = section_shares(self.old, self.new, self.pairs)

    def mapped_cites(self, i: int) -> set[str]:
        """The numbers old rule ``i`` cites, in the new edition's numbering where known."""
        old, new, pairs = self.old, self.new, self.pairs
        found = set()
        for number in old.cites(i):
            k = old.index.get(number)
            if k is not None and k in pairs:
                found.add(new.numbers[pairs[k]])
            elif len(number) == 3 and number in self.sections:
                found.add(self.sections[number])
        return found

    def bonus(self, i: int, j: int) -> float:
        old, new, pairs = self.old, self.new, self.pairs
        score = 0.0
        pi, pj = old.parent[i], new.parent[j]
        if pi is not None and pj is not None and pairs.get(pi) == pj:
            score += PARENT
        score += SECTION * self.shares.get((old.section[i], new.section[j]), 0.0)
        prev_i, prev_j = old.prev(i), new.prev(j)
        if prev_i is not None and prev_j is not None and pairs.get(prev_i) == prev_j:
            score += NEIGHBOUR
        next_i, next_j = old.next(i), new.next(j)
        if next_i is not None and next_j is not None and pairs.get(next_i) == next_j:
            score += NEIGHBOUR
        strength = self.anchors.get(i, {}).get(j)
        if strength:
            score += ANCHOR * strength
        if old.numbers[i] == new.numbers[j]:
            score += NUMBER
        if old.cites(i) or new.cites(j):
            a, b = self.mapped_cites(i), set(new.cites(j))
            if a and b:
                score += REFERENCES * len(a & b) / len(a | b)
        return score

    def structural_candidates(self, i: int) -> list[int]:
        """New rules where the structure says old rule ``i`` should land: the
        children of its parent's successor, the rules after its predecessor's
        successor, the glossary anchors, the same number."""
        old, new, pairs = self.old, self.new, self.pairs
        found: list[int] = list(self.anchors.get(i, ()))
        same = new.index.get(old.numbers[i])
        if same is not None:
            found.append(same)
        for k, step in ((old.prev(i), 1), (old.next(i), -1)):
            if k is not None and k in pairs:
                j = pairs[k] + step
                for _ in range(3):
                    if 0 <= j < len(new):
                        found.append(j)
                    j += step
        return found

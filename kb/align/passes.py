"""The alignment passes, cheapest and surest first (run by :func:`kb.align.align`).

1. identical: same number, same text -- nearly every rule of an ordinary update;
2. same text elsewhere: identical text, then -- after setting aside old title
   rules that became section headings -- text equal once terminology, typography
   and cited numbers are evened out (the bulk of the 2009 restructure), paired
   where the text occurs once on each side (or as often, in order);
3. scored: candidates from the rare-token index and from structure, scored by
   text similarity plus context bonuses (:mod:`kb.align.signals`), assigned
   greedily best-first, in rounds of falling thresholds so that each round's
   pairs give context to the next; one early round stays inside sections that
   kept together;
4. anchored: rules a glossary term cites in the same place in both editions;
   contained: one rule's text mostly inside the other's (a rule cut down to its
   first sentence, its list moved to subrules);
5. family: a subrule within its parent's successor, on weaker evidence;
6. order: a rule between two pairs, within the gap between their successors.

Splits and merges come after (:mod:`kb.align.splits`); whatever is left is
removed (old) or added (new). Thresholds were set on the 2009 restructure, the
2016 turn-structure rewrite, ordinary updates and synthetic editions
(:mod:`kb.bench.align_eval`), and checked on a held-out sample.
"""

from __future__ import annotations

from .assign import best_first
from .candidates import Index
from .normalise import tokens
from .profile import Profile
from .signals import Context
from .similarity import Scorer

# (minimum score = similarity + bonus, minimum similarity, section-local) per round.
# The local round comes early: a rule whose section stayed together (all of 504 went
# to 504) is paired inside it on weaker text evidence, before a near-copy elsewhere
# ("Third, the active player gets priority" is in nine sections) can take it.
ROUNDS = ((0.85, 0.7, False), (0.45, 0.3, True), (0.7, 0.55, False), (0.6, 0.45, False),
          (0.5, 0.38, False))
LOCAL_SHARE = 0.5  # a section counts as staying together when half its rules went to one
LOCAL_MARGIN = 0.3  # ... and the local candidate is not far worse than the best elsewhere
LOCAL_MOVED_MIN = 0.4  # local similarity needed when the section was renumbered as a whole
ANCHOR_MIN = 0.15  # similarity to pair two rules a glossary term cites in the same place
CONTAINED_MIN = 0.85  # weighted share of the shorter rule found in the longer
MIN_PART = 6  # tokens, for containment (short texts are contained anywhere)
FAMILY_MIN = 0.22  # similarity to pair a subrule within its parent's successor
FAMILY_MARGIN = 0.1  # ... when no rule anywhere is clearly closer
ORDER_MIN = 0.4  # similarity to pair a rule with one in the matching gap
SANDWICH_MIN = 0.25  # ... when the gap holds exactly one rule on each side


class Matching:
    def __init__(self, old: Profile, new: Profile):
        self.old, self.new = old, new
        self.o2n: dict[int, int] = {}
        self.n2o: dict[int, int] = {}
        self.evidence: dict[int, str] = {}
        self.scorer: Scorer | None = None
        self.headings: dict[int, str] = {}  # old title rule -> the new section heading it became
        self._everything: Index | None = None

    def pair(self, i: int, j: int, evidence: str) -> None:
        self.o2n[i] = j
        self.n2o[j] = i
        self.evidence[i] = evidence

    def unpair_old(self, i: int) -> int:
        """Give up old rule ``i``'s pair (it must have one); its successor, now free."""
        j = self.o2n.pop(i)
        del self.n2o[j]
        self.evidence.pop(i, None)
        return j

    def unpair_new(self, j: int) -> int:
        """Give up new rule ``j``'s pair (it must have one); its predecessor, now free."""
        i = self.n2o[j]
        self.unpair_old(i)
        return i

    def free_old(self) -> list[int]:
        return [i for i in range(len(self.old)) if i not in self.o2n]

    def free_new(self) -> list[int]:
        return [j for j in range(len(self.new)) if j not in self.n2o]

    # 1
    def identical(self) -> None:
        old, new = self.old, self.new
        for i, number in enumerate(old.numbers):
            j = new.index.get(number)
            if j is not None and j not in self.n2o and old.texts[i] == new.texts[j]:
                self.pair(i, j, "identical")

    # 2
    def same_text(self, key: str) -> None:
        old, new = self.old, self.new
        free_old, free_new = self.free_old(), self.free_new()
        if key == "text":
            old_text, new_text = old.texts.__getitem__, new.texts.__getitem__
        else:
            old.prepare(free_old)
            new.prepare(free_new)
            old_text, new_text = old.key, new.key
        buckets: dict[str, tuple[list[int], list[int]]] = {}
        for i in free_old:
            buckets.setdefault(old_text(i), ([], []))[0].append(i)
        for j in free_new:
            bucket = buckets.get(new_text(j))
            if bucket is not None:
                bucket[1].append(j)
        for olds, news in buckets.values():
            if olds and len(olds) == len(news):
                for i, j in zip(olds, news):
                    if new_text(j) and i not in self.headings:  # empty text: no evidence
                        self.pair(i, j, "same-text" if key == "text" else "same-terms")

    # 2b
    def became_headings(self) -> None:
        """Old rules that are only a title ("212.2 Artifacts", "419.9 Interaction of
        Replacement or Prevention Effects") and whose title is now a section heading
        (301 "Artifacts", 615 ...): the heading is their successor, not a rule, so
        they are set aside before they can be paired with some rule by mistake."""
        titles: dict[str, str | None] = {}
        for heading in self.new.edition.sections:
            key = " ".join(tokens(heading.title))
            titles[key] = None if key in titles else heading.number  # "General": no evidence
        titles = {key: number for key, number in titles.items() if number}
        for i in self.free_old():
            text = self.old.texts[i].strip()
            if not text or text.endswith(".") or len(self.old.tokens(i)) > 8:
                continue
            number = titles.get(self.old.key(i))
            if number is None:
                number = _close_title(self.old.tokenset(i), titles)
            if number is not None:
                self.headings[i] = number

    # 3
    def scored(self, context: Context) -> None:
        scorer = self.scorer
        new = self.new
        index = Index(scorer.idf, {j: new.tokenset(j) for j in self.free_new()})
        candidates = {i: set(index.candidates(self.old.tokenset(i))) for i in self.free_old()}
        for min_score, min_sim, local in ROUNDS:
            edges = []
            for i in self.free_old():
                if i in self.headings:
                    continue
                found = [(scorer.similarity(i, j), j) for j in candidates[i] | set(context.structural_candidates(i))
                         if j not in self.n2o]
                if local:
                    best = max((sim for sim, _ in found), default=0.0)
                    section = self.old.section[i]
                    found = [(sim, j) for sim, j in found if sim >= best - LOCAL_MARGIN
                             and context.shares.get((section, new.section[j]), 0.0) >= LOCAL_SHARE]
                for sim, j in found:
                    if sim < min_sim or (local and sim < LOCAL_MOVED_MIN and new.section[j] != self.old.section[i]
                                         and not self._same_parent(i, j)):
                        continue
                    score = sim + context.bonus(i, j)
                    if score >= min_score:
                        edges.append((score, sim, -i, -j))
            self._greedy(edges, "scored")
            context.refresh()

    def _same_parent(self, i: int, j: int) -> bool:
        """Whether old rule ``i``'s parent is paired with new rule ``j``'s parent: the
        subrules of a keyword whose section was renumbered as a whole (502.63
        "Deathtouch" -> 702.2) stay under their keyword, however much their wording
        changed ("a triggered ability" -> "a static ability"), before another keyword's
        formulaic subrule ("Substance is a static ability ...") can take their place."""
        p, q = self.old.parent[i], self.new.parent[j]
        return p is not None and q is not None and self.o2n.get(p) == q

    def _greedy(self, edges: list, evidence: str) -> None:
        """Edges ``(score, similarity, -i, -j)``, best first (:func:`kb.align.assign.best_first`)."""
        ranked = [((-score, -sim), -mi, -mj) for score, sim, mi, mj in edges]
        for i, j in best_first(ranked, self.o2n, self.n2o):
            self.pair(i, j, evidence)

    # 3a
    def anchored(self, context: Context) -> None:
        """A glossary term citing one old rule and one new rule in the same place is
        direct evidence (the rules may be reworded beyond text similarity): pair them
        when some text supports it and neither has a partner yet."""
        edges = []
        for i, targets in context.anchors.items():
            if i in self.o2n or i in self.headings:
                continue
            for j, strength in targets.items():
                if strength >= 1.0 and j not in self.n2o:
                    sim = self.scorer.similarity(i, j)
                    if sim >= ANCHOR_MIN:
                        edges.append((sim + context.bonus(i, j), sim, -i, -j))
        self._greedy(edges, "anchor")

    # 3b
    def contained(self) -> None:
        """Pairs one side of which is mostly inside the other: a long old rule cut
        down to its first sentence with the rest moved to new subrules ("There are
        seven exceptions: (1) ..." -> "There are six exceptions:" + 400.7a-f), or a
        short old rule grown into a long one. Text similarity is low for those, so
        they are left over by the scored rounds."""
        scorer, new = self.scorer, self.new
        free_new = [j for j in self.free_new() if len(new.tokenset(j)) >= MIN_PART]
        if not free_new:
            return
        index = Index(scorer.idf, {j: new.tokenset(j) for j in free_new})
        edges = []
        for i in self.free_old():
            a = self.old.tokenset(i)
            if i in self.headings or len(a) < MIN_PART:
                continue
            for j in index.candidates(a, 4):
                b = new.tokenset(j)
                share = max(scorer.contained(b, a), scorer.contained(a, b))
                if share >= CONTAINED_MIN:
                    edges.append((share, scorer.similarity(i, j), -i, -j))
        self._greedy(edges, "contained")

    def best_anywhere(self, i: int) -> float:
        """The best similarity of old rule ``i`` with any new rule, paired or not."""
        if self._everything is None:
            new = self.new
            # every new rule that could be a better partner: not those paired with an old
            # rule of identical text (their text is some other old rule's)
            pool = [j for j in range(len(new)) if self.evidence.get(self.n2o.get(j, -1)) != "identical"]
            new.prepare(pool)
            self._everything = Index(self.scorer.idf, {j: new.tokenset(j) for j in pool})
        return max((self.scorer.similarity(i, j) for j in self._everything.candidates(self.old.tokenset(i))),
                   default=0.0)

    # 3c
    def family(self, context: Context) -> None:
        """An unpaired subrule whose parent is paired is compared with the unpaired
        subrules of its parent's successor (a title rule that became a heading
        counts as paired with that section), on weaker text evidence."""
        scorer, old, new = self.scorer, self.old, self.new
        edges = []
        for i in self.free_old():
            p = old.parent[i]
            if p is None or i in self.headings:
                continue
            if p in self.o2n:
                kids = new.children(self.o2n[p])
            elif p in self.headings:
                kids = [j for j in range(len(new)) if new.parent[j] is None and new.section[j] == self.headings[p]]
            else:
                continue
            best = self.best_anywhere(i)
            for j in kids:
                if j not in self.n2o:
                    sim = scorer.similarity(i, j)
                    if sim >= FAMILY_MIN and sim >= best - FAMILY_MARGIN:
                        edges.append((sim + context.bonus(i, j), sim, -i, -j))
        self._greedy(edges, "family")

    # 4
    def order(self, context: Context) -> None:
        scorer, o2n = self.scorer, self.o2n
        n_old = len(self.old)
        edges = []
        for i in self.free_old():
            if i in self.headings:
                continue
            before = next((k for k in range(i - 1, -1, -1) if k in o2n), None)
            after = next((k for k in range(i + 1, n_old) if k in o2n), None)
            lo = o2n[before] if before is not None else -1
            hi = o2n[after] if after is not None else len(self.new)
            if hi - lo <= 1 or hi - lo > 40:
                continue
            gap = [j for j in range(lo + 1, hi) if j not in self.n2o]
            olds = (after if after is not None else n_old) - (before if before is not None else -1) - 1
            for j in gap:
                sim = scorer.similarity(i, j)
                sandwich = len(gap) == 1 and olds == 1
                if sim >= ORDER_MIN or (sandwich and sim >= SANDWICH_MIN):
                    edges.append((sim + context.bonus(i, j), sim, -i, -j))
        self._greedy(edges, "order")


def _close_title(words: frozenset, titles: dict[str, str]) -> str | None:
    """The heading whose title has nearly the same words (Dice >= 0.75)."""
    best, found = 0.75, None
    for key, number in titles.items():
        other = set(key.split())
        score = 2 * len(words & other) / (len(words) + len(other) or 1)
        if score >= best:
            best, found = score, number
    return found

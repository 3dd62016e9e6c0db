"""Pair each French rule with its English counterpart, from :mod:`kb.align`'s parts.

The French alignment is an alignment like the editions' one (:mod:`kb.align`), with
its own signal plugged in: the same pair type (:class:`kb.align.model.Pair`, ``old``
the English number, ``new`` the French one, kinds ``same-number``, ``moved``, ``extra``,
``missing``), the same best-first assignment (:func:`kb.align.assign.best_first`), a
candidate strategy of :mod:`kb.align.candidates` (:class:`~kb.align.candidates.Nearby`:
the same and neighbouring sections) and a scoring strategy of its own,
:class:`EvidenceScorer` -- the French-English signal: the language-independent evidence of
:mod:`.evidence` (the rules cited, the numbers stated, card names, shape, lexicon terms),
since the words of the two sides cannot be compared.

Why number-first: a translation keeps the numbering of the English edition it
translates, so the same number in the base edition is the first candidate; the
evidence score confirms it. When it does not, the rule may have moved: the best-scoring
English rule of the same or a neighbouring section is taken if it is clearly better.
English rules without French are reported only inside what the French text covers
(:func:`coverage`): a French excerpt of 98 rules must not "miss" 3,000 rules.
"""

from __future__ import annotations

from rulekb.ingest.model import Edition, Rule

from ..align.assign import best_first
from ..align.candidates import Nearby
from ..align.model import EXTRA, MISSING, MOVED, SAME_NUMBER, Pair
from .evidence import Features, features, score

SURE = 0.8  # a same-number pair at or above this is taken as is
MOVE_MARGIN = 0.25  # a moved rule must beat the same-number rule by this much
MOVED_MIN = 0.7  # a rule of a neighbouring section is a candidate from this score


class FeatureCache:
    """Features per (edition id, rule number), computed on first use only: base
    detection touches the same few numbers in 128 editions."""

    def __init__(self) -> None:
        self._cache: dict[tuple[str, str], Features | None] = {}
        self._index: dict[str, dict[str, Rule]] = {}
        # base detection's neighbourhoods (:func:`kb.translate.base._neighbourhood`)
        self.neighbourhoods: dict = {}
        self.section_numbers: dict = {}
        self.interned: dict = {}

    def rules(self, edition: Edition) -> dict[str, Rule]:
        found = self._index.get(edition.id)
        if found is None:
            found = self._index[edition.id] = {}
            for rule in edition.rules:
                found.setdefault(rule.number, rule)
        return found

    def seed(self, edition: str, found: dict[str, Features]) -> None:
        """The features of rules of edition ``edition`` (an id), by number, computed before
        (kept by the build: :mod:`kb.translate.kept`)."""
        self._cache.update(((edition, number), f) for number, f in found.items())

    def get(self, edition: Edition, number: str) -> Features | None:
        key = (edition.id, number)
        if key not in self._cache:
            rule = self.rules(edition).get(number)
            self._cache[key] = None if rule is None else features(rule.text, rule.examples, edition.language)
        return self._cache[key]


_DEFAULT = FeatureCache()


def section_of(number: str) -> str:
    return number.split(".")[0]


def coverage(fr: Edition, en: Edition, english: list[str] | None = None) -> dict:
    """What the French text covers: per section, the first and last English rule
    the French rules are aligned to (``english``; default: the French numbers), in
    English order, and how many English rules fall inside those spans. Why the
    aligned numbers: a text numbered one section off (a site's French 208 is the
    English 207) covers the English rules it translates, not those of its numbers."""
    order = {rule.number: i for i, rule in enumerate(en.rules)}
    spans: dict[str, list[int]] = {}
    for number in (english if english is not None else [rule.number for rule in fr.rules]):
        if number in order:
            span = spans.setdefault(section_of(number), [order[number], order[number]])
            span[0] = min(span[0], order[number])
            span[1] = max(span[1], order[number])
    if not fr.partial:  # a whole text covers its sections entirely
        for section in spans:
            idx = [i for i, r in enumerate(en.rules) if section_of(r.number) == section]
            spans[section] = [min(idx), max(idx)]
    inside = sum(b - a + 1 for a, b in spans.values())
    return {"sections": sorted(spans), "english_rules_in_span": inside,
            "english_rules_total": len(en.rules), "french_rules": len(fr.rules),
            "spans": {s: [en.rules[a].number, en.rules[b].number] for s, (a, b) in spans.items()}}


def _may_be_cut(fr: Edition, i: int) -> bool:
    """In an excerpt (a site's page, a quotation), the last rule of each run of a
    section may have been cut at a sentence end: its missing sentences, citations
    and numbers are not the translation's (lotusnoir's 609.4 ends its page two
    sentences short of the English)."""
    if not fr.partial:
        return False
    rules = fr.rules
    return i == len(rules) - 1 or section_of(rules[i + 1].number) != section_of(rules[i].number)


class EvidenceScorer:
    """The scoring strategy (:class:`kb.align.similarity.Similarity`) of a French text
    against an English edition: French rule index -> English rule number, the evidence
    score of their features (:func:`.evidence.score`), 0 for an English number the edition
    lacks."""

    def __init__(self, fr: Edition, en: Edition, cache: FeatureCache):
        self.en, self.cache = en, cache
        self.french = [features(rule.text, rule.examples, fr.language) for rule in fr.rules]

    def english(self, number: str) -> Features | None:
        return self.cache.get(self.en, number)

    def similarity(self, i: int, number: str) -> float:
        other = self.english(number)
        return score(self.french[i], other) if other else 0.0


def align_translation(fr: Edition, en: Edition, cache: FeatureCache | None = None) -> list[Pair]:
    """French rule -> English rule, plus English rules missing from the French
    (within the French coverage) and French rules with no English counterpart.

    A same-number pair scoring at least :data:`SURE` is taken as is, and so is the
    same number for a French rule cut off mid-sentence (it has lost its tail,
    citations included: its score says nothing). The other French rules are
    assigned together, best score first (:func:`kb.align.assign.best_first`): each to
    its same number (favoured by :data:`MOVE_MARGIN`) or to a free rule of a
    neighbouring section (:class:`kb.align.candidates.Nearby`) scoring
    :data:`MOVED_MIN` or more. Why together: a French text one rule off (the 2008
    article's 201.2 is the English 201.1, its 201.1 a rule the English no longer has)
    must give 201.1 to the French rule that says it, whatever the order."""
    cache = cache or _DEFAULT
    en_rules = cache.rules(en)
    scorer = EvidenceScorer(fr, en, cache)
    nearby = Nearby([rule.number for rule in en.rules])
    chosen: dict[int, tuple[str, float]] = {}  # French rule index -> (English number, score)
    used: set[str] = set()
    open_rules = []
    for i, rule in enumerate(fr.rules):
        same = scorer.english(rule.number)
        same_score = scorer.similarity(i, rule.number) if same else 0.0
        if same and rule.number not in used and (same_score >= SURE or not scorer.french[i].complete):
            chosen[i] = (rule.number, same_score)
            used.add(rule.number)
        else:
            open_rules.append((i, rule, same_score if same else None))
    edges = []  # ((-ranking score,), French index, English number); the pair's score beside
    scores: dict[tuple[int, str], float] = {}
    for i, rule, same_score in open_rules:
        if same_score is not None:
            edges.append(((-(same_score + MOVE_MARGIN),), i, rule.number))
            scores.setdefault((i, rule.number), same_score)
        for number in nearby.candidates(rule.number):
            if number == rule.number or number in used:
                continue
            s = scorer.similarity(i, number)
            if s >= MOVED_MIN:
                edges.append(((-s,), i, number))
                scores.setdefault((i, number), s)
    for i, number in best_first(edges, chosen, used):
        chosen[i] = (number, scores[(i, number)])
        used.add(number)
    pairs: list[Pair] = []
    for i, rule in enumerate(fr.rules):
        complete = scorer.french[i].complete and not _may_be_cut(fr, i)
        if i not in chosen:
            pairs.append(Pair(None, rule.number, EXTRA, 0.0, complete=complete))
            continue
        number, s = chosen[i]
        pairs.append(Pair(number, rule.number, SAME_NUMBER if number == rule.number else MOVED, s, complete=complete))
    spans = coverage(fr, en, [p.old for p in pairs if p.old])["spans"]
    order = {rule.number: i for i, rule in enumerate(en.rules)}
    for rule in en.rules:
        span = spans.get(section_of(rule.number))
        if span and rule.number not in used and order[span[0]] <= order[rule.number] <= order[span[1]]:
            if rule.number in en_rules:
                pairs.append(Pair(rule.number, None, MISSING, 0.0))
    return pairs

"""Pair each French rule with its English counterpart.

Why number-first: a translation keeps the numbering of the English edition it
translates, so the same number in the base edition is the first candidate; the
evidence score (:mod:`.evidence`) confirms it. When it does not, the rule may
have moved: the best-scoring English rule of the same or a neighbouring
section is taken if it is clearly better. English rules without French are
reported only inside what the French text covers (:func:`coverage`): a French
excerpt of 98 rules must not "miss" 3,000 rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from ingest.model import Edition, Rule

from .evidence import Features, features, score

SURE = 0.8  # a same-number pair at or above this is taken as is
MOVE_MARGIN = 0.25  # a moved rule must beat the same-number rule by this much


@dataclass(slots=True)
class TPair:
    fr: str | None  # French rule number (None: an English rule with no French)
    en: str | None  # English rule number (None: a French rule with no English)
    score: float = 0.0
    status: str = "same-number"  # same-number | moved | extra | missing
    complete: bool = True  # False when the French text looks cut off


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


def _neighbours(en: Edition, number: str) -> list[Rule]:
    try:
        section = int(section_of(number))
    except ValueError:
        return []
    wanted = {str(section - 1), str(section), str(section + 1)}
    return [r for r in en.rules if section_of(r.number) in wanted]


def _may_be_cut(fr: Edition, i: int) -> bool:
    """In an excerpt (a site's page, a quotation), the last rule of each run of a
    section may have been cut at a sentence end: its missing sentences, citations
    and numbers are not the translation's (lotusnoir's 609.4 ends its page two
    sentences short of the English)."""
    if not fr.partial:
        return False
    rules = fr.rules
    return i == len(rules) - 1 or section_of(rules[i + 1].number) != section_of(rules[i].number)


def align_translation(fr: Edition, en: Edition, cache: FeatureCache | None = None) -> list[TPair]:
    """French rule -> English rule, plus English rules missing from the French
    (within the French coverage) and French rules with no English counterpart.

    A same-number pair scoring at least :data:`SURE` is taken as is, and so is the
    same number for a French rule cut off mid-sentence (it has lost its tail,
    citations included: its score says nothing). The other French rules are
    assigned together, best score first: each to its same number (favoured by
    :data:`MOVE_MARGIN`) or to a free rule of a neighbouring section scoring 0.7 or
    more. Why together: a French text one rule off (the 2008 article's 201.2 is the
    English 201.1, its 201.1 a rule the English no longer has) must give 201.1 to
    the French rule that says it, whatever the order."""
    cache = cache or _DEFAULT
    en_rules = cache.rules(en)
    chosen: dict[int, tuple[str, float]] = {}  # French rule index -> (English number, score)
    used: set[str] = set()
    open_rules = []
    for i, rule in enumerate(fr.rules):
        f = features(rule.text, rule.examples, fr.language)
        same = cache.get(en, rule.number)
        same_score = score(f, same) if same else 0.0
        if same and rule.number not in used and (same_score >= SURE or not f.complete):
            chosen[i] = (rule.number, same_score)
            used.add(rule.number)
        else:
            open_rules.append((i, rule, f, same_score if same else None))
    candidates = []  # (ranking score, French index, English number, score)
    for i, rule, f, same_score in open_rules:
        if same_score is not None:
            candidates.append((same_score + MOVE_MARGIN, i, rule.number, same_score))
        for other in _neighbours(en, rule.number):
            if other.number == rule.number or other.number in used:
                continue
            s = score(f, cache.get(en, other.number))
            if s >= 0.7:
                candidates.append((s, i, other.number, s))
    for _, i, number, s in sorted(candidates, key=lambda c: (-c[0], c[1], c[2])):
        if i not in chosen and number not in used:
            chosen[i] = (number, s)
            used.add(number)
    pairs: list[TPair] = []
    for i, rule in enumerate(fr.rules):
        complete = features(rule.text, rule.examples, fr.language).complete and not _may_be_cut(fr, i)
        if i not in chosen:
            pairs.append(TPair(rule.number, None, 0.0, "extra", complete))
            continue
        number, s = chosen[i]
        pairs.append(TPair(rule.number, number, s, "same-number" if number == rule.number else "moved", complete))
    spans = coverage(fr, en, [p.en for p in pairs if p.en])["spans"]
    order = {rule.number: i for i, rule in enumerate(en.rules)}
    for rule in en.rules:
        span = spans.get(section_of(rule.number))
        if span and rule.number not in used and order[span[0]] <= order[rule.number] <= order[span[1]]:
            if rule.number in en_rules:
                pairs.append(TPair(None, rule.number, 0.0, "missing"))
    return pairs

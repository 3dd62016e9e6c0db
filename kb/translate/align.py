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

CONFIRMED = 0.5  # a same-number pair at or above this is taken as is
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


def coverage(fr: Edition, en: Edition) -> dict:
    """What the French text covers: per section, the first and last French rule
    (in English order), and how many English rules fall inside those spans."""
    order = {rule.number: i for i, rule in enumerate(en.rules)}
    spans: dict[str, list[int]] = {}
    for rule in fr.rules:
        if rule.number in order:
            span = spans.setdefault(section_of(rule.number), [order[rule.number], order[rule.number]])
            span[0] = min(span[0], order[rule.number])
            span[1] = max(span[1], order[rule.number])
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


def align_translation(fr: Edition, en: Edition, cache: FeatureCache | None = None) -> list[TPair]:
    """French rule -> English rule, plus English rules missing from the French
    (within the French coverage) and French rules with no English counterpart."""
    cache = cache or _DEFAULT
    en_rules = cache.rules(en)
    pairs: list[TPair] = []
    used: set[str] = set()
    french_numbers = {rule.number for rule in fr.rules}
    for rule in fr.rules:
        f = features(rule.text, rule.examples, fr.language)
        same = cache.get(en, rule.number)
        same_score = score(f, same) if same else 0.0
        best, best_score = (rule.number, same_score) if same else (None, 0.0)
        if same_score < CONFIRMED:
            for other in _neighbours(en, rule.number):
                if other.number == rule.number or other.number in french_numbers:
                    continue  # a rule the French has under its own number did not move here
                s = score(f, cache.get(en, other.number))
                if s > best_score + (MOVE_MARGIN if best == rule.number else 0.0) and s >= 0.7:
                    best, best_score = other.number, s
        if best is None:
            pairs.append(TPair(rule.number, None, 0.0, "extra", f.complete))
            continue
        status = "same-number" if best == rule.number else "moved"
        pairs.append(TPair(rule.number, best, best_score, status, f.complete))
        used.add(best)
    spans = coverage(fr, en)["spans"]
    order = {rule.number: i for i, rule in enumerate(en.rules)}
    for rule in en.rules:
        span = spans.get(section_of(rule.number))
        if span and rule.number not in used and order[span[0]] <= order[rule.number] <= order[span[1]]:
            if rule.number in en_rules:
                pairs.append(TPair(None, rule.number, 0.0, "missing"))
    return pairs

"""The translation report: where a French text and an English edition disagree.

Why each check is narrow: a report a translator cannot trust is worse than
none, so every kind fires only on evidence that is language-independent and
exact, and never on a rule whose French text looks cut off (excerpt pages stop
mid-rule). Kinds:

- ``missing``: an English rule with no French, inside the French coverage;
- ``extra``: a French rule with no English counterpart;
- ``reference-mismatch``: the French cites other rules than the English;
- ``number-mismatch``: a number or quantity differs (digits and number words);
- ``name-mismatch``: the French uses an English card name the English rule does
  not, where the English rule has a name the French lacks (translated card names
  are never flagged: they are not English names);
- ``sentence-missing`` / ``sentence-added``: the sentence count differs and the
  length ratio moves the same way;
- ``terminology-inconsistency`` (report level, one item per term): the same English
  term rendered two ways across the French text, counting only renderings listed as
  alternatives (``evidence.ALTERNATIVE_RENDERINGS``, e.g. "blessures" / "dégâts" for
  damage) and only in French rules whose aligned English rule has the term.

Hooks: ``stale`` (French text of an older English edition) is the lead's
follow-up; add a per-rule function to :data:`CHECKS`, a whole-text one to
:data:`REPORT_CHECKS`.
"""

from __future__ import annotations

from typing import Callable

from rulekb.ingest.model import Edition

from ..align.model import EXTRA, MISSING, Pair
from .align import FeatureCache, align_translation
from .evidence import CORE_TERMS, Features, features, names_in, renderings_in, term_table

Item = dict
Check = Callable[[Pair, Features, Features, dict], list[Item]]  # a translation pair: old English, new French

NORMAL_RATIO = (0.95, 1.6)  # French length / English length for a full translation


def _item(pair: Pair, kind: str, fr_value=None, us_value=None) -> Item:
    return {"fr": pair.new, "us": pair.old, "kind": kind, "fr_value": fr_value, "us_value": us_value}


def check_references(pair, f, e, ctx):
    """A cut-off French rule has lost its tail, citations included: not a mismatch."""
    if pair.complete and f.refs != e.refs:
        return [_item(pair, "reference-mismatch", sorted(f.refs - e.refs), sorted(e.refs - f.refs))]
    return []


def check_numbers(pair, f, e, ctx):
    """Cardinals only: ordinals ("first", "premier") are too often idiom. And only a
    number stated instead of another: a number on one side alone is mostly idiom
    ("one of two things" / "soit ... soit"; "has two creature types, Goblin and
    Wizard" / "the subtypes Goblin and Wizard")."""
    from collections import Counter

    fr_n = Counter(n for n in f.number_tokens if n.isdigit() or n == "both")
    en_n = Counter(n for n in e.number_tokens if n.isdigit() or n == "both")
    if pair.complete and fr_n - en_n and en_n - fr_n:  # counted: "three ... three" is not "two ... three"
        return [_item(pair, "number-mismatch", sorted(fr_n - en_n), sorted(en_n - fr_n))]
    return []


def check_names(pair, f, e, ctx):
    known = ctx["english_names"]
    foreign = sorted(n for n in f.names - e.names if n in known)
    lost = sorted(e.names - f.names)
    if pair.complete and foreign and lost:
        return [_item(pair, "name-mismatch", foreign, lost)]
    return []


def check_sentences(pair, f, e, ctx):
    """Sentences of the rule text; of text and examples together when the two sides
    split them differently (a French "Note :" read as text, an English note as an
    example)."""
    if f.examples == e.examples:
        fr_count, en_count, ratio = f.sentences, e.sentences, f.length / max(e.length, 1)
    else:
        fr_count, en_count, ratio = f.all_sentences, e.all_sentences, f.full_length / max(e.full_length, 1)
    if not pair.complete or fr_count == en_count:
        return []
    if fr_count < en_count and ratio < NORMAL_RATIO[0]:
        return [_item(pair, "sentence-missing", fr_count, en_count)]
    if fr_count > en_count and ratio > NORMAL_RATIO[1]:
        return [_item(pair, "sentence-added", fr_count, en_count)]
    return []


CHECKS: list[Check] = [check_references, check_numbers, check_names, check_sentences]


def check_terminology(pairs: list[Pair], fr: Edition, en: Edition, cache: FeatureCache) -> list[Item]:
    """One item per English term whose French renderings differ across the text:
    ``fr_value`` maps each rendering to the French rules using it, ``us_value`` is
    the term. A rendering counts only where the aligned English rule has the term."""
    french = {r.number: r for r in fr.rules}
    english = cache.rules(en)
    table = term_table()
    used: dict[str, dict[str, list[str]]] = {}
    for pair in pairs:
        if pair.new is None or pair.old is None or pair.new not in french or pair.old not in english:
            continue
        rule = french[pair.new]
        found = renderings_in(" ".join([rule.text, *rule.examples]))
        if not found:
            continue
        source = english[pair.old]
        en_text = " ".join([source.text, *source.examples])
        for key, names in found.items():
            if key in table and any(p.search(en_text) for p in table[key][0]):
                for name in names:
                    used.setdefault(key, {}).setdefault(name, []).append(pair.new)
    return [{"fr": None, "us": None, "kind": "terminology-inconsistency",
             "fr_value": {name: numbers for name, numbers in sorted(renderings.items())},
             "us_value": CORE_TERMS[key][0][0] if key in CORE_TERMS else key.replace("-", " ")}
            for key, renderings in sorted(used.items()) if len(renderings) >= 2]


ReportCheck = Callable[[list[Pair], Edition, Edition, FeatureCache], list[Item]]
REPORT_CHECKS: list[ReportCheck] = [check_terminology]


def english_names(en: Edition) -> frozenset[str]:
    """Names in the English examples: where card names live (rule text names
    game terms such as "Planeswalker" that a French text may keep)."""
    names: set[str] = set()
    for rule in en.rules:
        if rule.examples:
            names |= names_in(" ".join(rule.examples))
    return frozenset(names)


def report_items(fr: Edition, en: Edition, cache: FeatureCache | None = None) -> tuple[list[Pair], list[Item]]:
    cache = cache or FeatureCache()
    pairs = align_translation(fr, en, cache)
    ctx = {"english_names": english_names(en), "fr": fr, "en": en}
    french = {r.number: r for r in fr.rules}
    items: list[Item] = []
    for pair in pairs:
        if pair.kind == MISSING:
            items.append(_item(pair, "missing"))
            continue
        if pair.kind == EXTRA:
            items.append(_item(pair, "extra"))
            continue
        rule = french[pair.new]
        f = features(rule.text, rule.examples, fr.language)
        e = cache.get(en, pair.old)
        for check in CHECKS:
            items.extend(check(pair, f, e, ctx))
    for report_check in REPORT_CHECKS:
        items.extend(report_check(pairs, fr, en, cache))
    return pairs, items


def translation_report(fr: Edition, en: Edition, base_detected: str | None = None,
                       cache: FeatureCache | None = None) -> dict:
    """The ``rulekb translation-report`` JSON (DESIGN.md), plus ``coverage``."""
    from .align import coverage

    pairs, items = report_items(fr, en, cache)
    return {"fr_edition": fr.id, "us_edition": en.id, "base_detected": base_detected,
            "items": items, "coverage": coverage(fr, en, [p.old for p in pairs if p.new and p.old]),
            "pairs": {p.new: p.old for p in pairs if p.new and p.old}}  # French number -> English

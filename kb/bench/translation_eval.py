"""Precision and recall of the translation report on an invented set.

Why invented: the corpus has no answer key, and rules text may not be copied.
kb/bench/gold/translate holds an invented "widget duel" rules text written for
this project, in English and in a faithful French translation. Each mutation
below damages one French rule in a known way (swap a citation, drop or add a
sentence, change a number or number word, change a card name, drop a rule, add
a rule); the report on the mutated text must find exactly that, and nothing on
the agreeing rules.

Run: ``python -m rulekb.kb.bench.translation_eval`` prints the figures per kind.
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from pathlib import Path
from importlib import resources

from rulekb.ingest import numbers as rule_numbers
from rulekb.ingest.model import Edition, Rule
from rulekb.ingest.parse import parse_file

from ..translate.evidence import count_sentences, names_in, numbers_in
from ..translate.report import english_names, report_items

FIXTURES = resources.files("rulekb.kb.bench").joinpath("gold", "translate")
ADDED = "Cette précision vaut aussi pendant le tour des autres duellistes, sans restriction particulière."
_NUMBER_SWAP = {"deux": "trois", "trois": "quatre", "quatre": "cinq", "sept": "huit",
                "vingt": "trente", "quarante": "cinquante", "cinquante": "quarante",
                "premier": "deuxième", "zéro": "cinq"}


def load() -> tuple[Edition, Edition]:
    fr = parse_file(FIXTURES / "widget-fr-2030-05-05.txt")[0]
    en = parse_file(FIXTURES / "widget-en-2030-05-05.txt")[0]
    return fr, en


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+(?=[A-ZÀ-Ö])", text.strip()) if s]


def mutations(fr: Edition, en: Edition):
    """Yield ``(name, mutated French edition, {(fr, us, kind)})``."""
    names = sorted(english_names(en))
    numbers = [r.number for r in fr.rules]
    for i, rule in enumerate(fr.rules):
        def variant(text=None, examples=None):
            out = copy.deepcopy(fr)
            target = out.rules[i]
            if text is not None:
                target.text = text
            if examples is not None:
                target.examples = examples
            return out

        key = (rule.number, rule.number)
        cited = re.search(rf"(règles? )({rule_numbers.CITED})", rule.text)
        if cited:
            other = next(n for n in numbers if n != cited.group(2) and n not in rule.text)
            text = rule.text[:cited.start(2)] + other + rule.text[cited.end(2):]
            yield "swap-reference", variant(text=text), {key + ("reference-mismatch",)}
        parts = _sentences(rule.text)
        plain = [s for s in parts if not re.search(r"\d|Cf\.|cf\.", s) and not numbers_in(s, "fr")
                 and not names_in(s)]
        if len(parts) >= 2 and plain:
            text = " ".join(s for s in parts if s is not plain[-1])
            yield "drop-sentence", variant(text=text), {key + ("sentence-missing",)}
        if count_sentences(rule.text) <= 2:
            yield "add-sentence", variant(text=rule.text + " " + ADDED), {key + ("sentence-added",)}
        full = " ".join([rule.text, *rule.examples])
        word = next((w for w in _NUMBER_SWAP if re.search(rf"\b{w}\b", full)), None)
        if word:
            sub = lambda s: re.sub(rf"\b{word}\b", _NUMBER_SWAP[word], s)
            yield "change-number", variant(text=sub(rule.text), examples=[sub(x) for x in rule.examples]), \
                {key + ("number-mismatch",)}
        present = [n for n in names if n in full and len(n) > 3 and n not in ("Oracle",)]
        if present:
            old = present[0]
            new = next(n for n in names if n not in full and len(n) > 3)
            sub = lambda s: s.replace(old, new)
            yield "change-name", variant(text=sub(rule.text), examples=[sub(x) for x in rule.examples]), \
                {key + ("name-mismatch",)}
        if 0 < i < len(fr.rules) - 1 and fr.rules[i - 1].number.split(".")[0] == rule.number.split(".")[0] \
                == fr.rules[i + 1].number.split(".")[0]:
            out = copy.deepcopy(fr)
            del out.rules[i]
            yield "drop-rule", out, {(None, rule.number, "missing")}
    out = copy.deepcopy(fr)
    out.rules.append(Rule("201.9", "Un gadget remonté ne peut pas être retourné.", [], order=999))
    yield "extra-rule", out, {("201.9", None, "extra")}


def pair_mutations(fr: Edition, en: Edition):
    """Mutations of both texts, for the kinds that need the English side too. Yield
    ``(name, French, English checked against, base or None, {(fr, us, kind)})``:

    - rename-term: two aligned rule pairs gain a sentence about damage, rendered
      "dégâts" in one French rule and "blessures" in the other (terminology);
      the same with "dégâts" in both is a control that must give nothing;
    - stale: a later English edition changes one rule's number word, or adds a
      sentence to it, after the edition the French translates; a change of
      apostrophes only (typography) is a control that must give nothing."""
    numbers = [r.number for r in fr.rules if r.number in {e.number for e in en.rules}]
    picks = [(numbers[i], numbers[j]) for i, j in ((1, 5), (3, 9), (6, 12)) if j < len(numbers)]
    for a, b in picks:
        for name, words, expected in (("rename-term", ("dégâts", "blessures"), {(None, None, "terminology-inconsistency")}),
                                      ("same-term", ("dégâts", "dégâts"), set())):
            fr2, en2 = copy.deepcopy(fr), copy.deepcopy(en)
            for rule in en2.rules:
                if rule.number in (a, b):
                    rule.text += " Widgets deal damage."
            for rule in fr2.rules:
                if rule.number in (a, b):
                    rule.text += f" Les widgets infligent des {words[0] if rule.number == a else words[1]}."
            yield name, fr2, en2, None, expected
    english_swap = {"two": "three", "three": "four", "four": "five", "forty": "fifty", "twenty": "thirty"}
    for rule in en.rules:
        word = next((w for w in english_swap if re.search(rf"\b{w}\b", rule.text)), None)
        if rule.number not in numbers:
            continue
        variants = [("stale-sentence", rule.text + " This also applies during other turns.", True)]
        if word:
            variants.append(("stale-number", re.sub(rf"\b{word}\b", english_swap[word], rule.text), True))
        if "'" in rule.text:
            variants.append(("typography-only", rule.text.replace("'", "’"), False))
        for name, text, stale in variants:
            later = copy.deepcopy(en)
            later.id, later.effective_date = "en/2030-09-01", "2030-09-01"
            next(r for r in later.rules if r.number == rule.number).text = text
            yield name, fr, later, en, {(rule.number, rule.number, "stale")} if stale else set()


def _found(fr: Edition, en: Edition, base: Edition | None) -> set:
    from ..translate.drift import drift_report

    if base is None:
        _, items = report_items(fr, en)
    else:
        items = drift_report(fr, en, base=base)["items"]
    return {(i["fr"], i["us"], i["kind"]) for i in items}


def evaluate() -> dict:
    """Per kind: true/false positives, false negatives, precision, recall; and
    the false alarms on the unmutated (agreeing) text."""
    fr, en = load()
    _, clean = report_items(fr, en)
    tp, fp, fn = Counter(), Counter(), Counter()
    runs = Counter()
    runs_of = [(name, mutated, en, None, expected) for name, mutated, expected in mutations(fr, en)]
    for name, mutated, against, base, expected in runs_of + list(pair_mutations(fr, en)):
        runs[name] += 1
        got = _found(mutated, against, base)
        for item in got:
            (tp if item in expected else fp)[item[2]] += 1
        for item in expected - got:
            fn[item[2]] += 1
    kinds = sorted(set(tp) | set(fp) | set(fn))
    per_kind = {}
    for kind in kinds:
        p = tp[kind] / (tp[kind] + fp[kind]) if tp[kind] + fp[kind] else 1.0
        r = tp[kind] / (tp[kind] + fn[kind]) if tp[kind] + fn[kind] else 1.0
        per_kind[kind] = {"tp": tp[kind], "fp": fp[kind], "fn": fn[kind],
                          "precision": round(p, 3), "recall": round(r, 3)}
    return {"clean_false_alarms": clean, "mutations": dict(runs), "per_kind": per_kind}


if __name__ == "__main__":  # pragma: no cover
    import json

    print(json.dumps(evaluate(), indent=2, ensure_ascii=False))

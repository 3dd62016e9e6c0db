"""Synthetic editions: a real edition, changed on purpose, with the answer known.

:func:`mutate` copies an edition and applies the kinds of change the real
editions show, at a given rate, then renumbers the rules consecutively (as the
CR editors do) and rewrites cross-references to follow the renumbering:

- delete rules (leaf rules only), insert invented rules (templated sentences
  over a small invented vocabulary -- never rules text);
- reword rules (words replaced, dropped, a clause appended);
- roll the terminology back (battlefield -> play, cast -> play, exile ->
  remove from the game), as across the 2009 restructure;
- move a rule with its subrules to the end of another section;
- split a rule's second sentence into a new subrule; merge a subrule into the
  one before it.

The truth maps every old rule number to its successor's number (the first part
of a split; the rule a merged subrule went into; None when deleted).
"""

from __future__ import annotations

import copy
import random
import re
from dataclasses import dataclass, field

from rulekb.ingest.model import Edition, Rule
from rulekb.ingest import numbers as rule_numbers

from .normalise import CITED

_INVENTED = ("glimmerstone", "vorpalite", "quorumcall", "lanternfall", "cobaltmark", "mirthbane",
             "tesselate", "brambleguard", "driftsong", "emberquill", "hollowgate", "sableroot")
_NOUNS = ("card", "permanent", "token", "counter", "player", "spell", "ability", "zone", "library", "marker")
_VERBS = ("reveal", "sacrifice", "tap", "untap", "draw", "discard", "choose", "exchange", "shuffle", "name")
_TEMPLATES = (
    "If a player would {v} a {n} with {i}, that player may {v2} a {n2} instead.",
    "{I} is a keyword action. To {i} a {n} means to {v} it and then {v2} a {n2}.",
    "A {n} with {i} can't be the target of abilities that {v} a {n2}.",
    "Some effects refer to a {n} being {i}ed. This means it was chosen as the {n2} to {v}.",
    "When a {n} becomes {i}, its controller may {v} one {n2}.",
)
_TERMS_BACK = ((r"\benters the battlefield\b", "comes into play"), (r"\bonto the battlefield\b", "into play"),
               (r"\bon the battlefield\b", "in play"), (r"\bthe battlefield\b", "play"),
               (r"\bexiled?\b", "removed from the game"), (r"\bcasts?\b", "plays"), (r"\bcasting\b", "playing"))


@dataclass
class _Item:
    old: str | None
    text: str
    examples: list[str] = field(default_factory=list)
    sub: bool = False
    section: str = ""


def _invented(rng: random.Random) -> str:
    word = rng.choice(_INVENTED)
    return rng.choice(_TEMPLATES).format(
        i=word, I=word.capitalize(), n=rng.choice(_NOUNS), n2=rng.choice(_NOUNS),
        v=rng.choice(_VERBS), v2=rng.choice(_VERBS))


def _reword(text: str, rng: random.Random) -> str:
    words = text.split(" ")
    for _ in range(max(1, len(words) // 7)):
        k = rng.randrange(len(words))
        if CITED.search(words[k]):
            continue
        if rng.random() < 0.5:
            words[k] = rng.choice(_INVENTED)
        elif len(words) > 3:
            del words[k]
    if rng.random() < 0.3:
        words.append(_invented(rng))
    return " ".join(words)


def _terms_back(text: str) -> str:
    for pattern, replacement in _TERMS_BACK:
        text = re.sub(pattern, replacement, text)
    return text


def _renumber(items: list[_Item]) -> list[str]:
    numbers, counters = [], {}
    letter = ""
    current = None
    for item in items:
        if not item.sub:
            counters[item.section] = counters.get(item.section, 0) + 1
            current = f"{item.section}.{counters[item.section]}"
            letter = ""
            numbers.append(current)
        else:
            letter = rule_numbers.next_letter(letter) if letter else "a"
            numbers.append(f"{current}{letter}")
    return numbers


def mutate(edition: Edition, seed: int = 0, rate: float = 0.04) -> tuple[Edition, dict[str, str | None]]:
    rng = random.Random(seed)
    items = [_Item(r.number, r.text, list(r.examples), r.number[-1].isalpha(), r.number[:3])
             for r in edition.rules if "." in r.number]
    count = max(1, int(rate * len(items)))
    small = max(1, count // 8)
    truth: dict[str, str | None] = {}
    merged_into: dict[str, str] = {}  # old number -> old number of the rule it merged into

    def leaf(k: int) -> bool:
        return k + 1 >= len(items) or not items[k + 1].sub or items[k].sub

    for k in sorted(rng.sample(range(len(items)), count), reverse=True):  # delete
        if leaf(k) and k > 0 and items[k].section == items[k - 1].section:
            truth[items[k].old] = None
            del items[k]
    for k in rng.sample(range(len(items)), count):  # reword
        items[k].text = _reword(items[k].text, rng)
    for k in rng.sample(range(len(items)), count):  # terminology back to the old words
        items[k].text = _terms_back(items[k].text)
    for _ in range(small):  # merge a subrule into the one before it
        k = rng.randrange(1, len(items))
        a, b = items[k - 1], items[k]
        if a.sub and b.sub and a.old and b.old and b.old not in merged_into and not b.examples:
            a.text = f"{a.text} {b.text}"
            merged_into[b.old] = a.old
            del items[k]
    for _ in range(small):  # split a rule's second sentence into a new subrule
        k = rng.randrange(len(items))
        parts = re.split(r"(?<=\.) (?=[A-Z])", items[k].text, maxsplit=1)
        if not items[k].sub and len(parts) == 2 and leaf(k):
            items[k].text = parts[0]
            items.insert(k + 1, _Item(None, parts[1], [], True, items[k].section))
    for _ in range(small):  # move a rule and its subrules to the end of another section
        k = rng.randrange(len(items))
        if items[k].sub:
            continue
        end = k + 1
        while end < len(items) and items[end].sub:
            end += 1
        group = items[k:end]
        del items[k:end]
        target = rng.choice(sorted({i.section for i in items}))
        last = max(n for n, i in enumerate(items) if i.section == target)
        for item in group:
            item.section = target
        items[last + 1:last + 1] = group
    for k in rng.sample(range(len(items)), count):  # insert invented rules
        section, sub = items[k].section, items[k].sub or rng.random() < 0.5
        if sub or k + 1 >= len(items) or not items[k + 1].sub:
            items.insert(k + 1, _Item(None, _invented(rng), [], sub, section))

    numbers = _renumber(items)
    mapping = {item.old: number for item, number in zip(items, numbers) if item.old}
    for old, into in merged_into.items():
        while into not in mapping:  # merged into a rule that was merged in turn
            into = merged_into[into]
        truth[old] = mapping[into]
    for old, number in mapping.items():
        truth[old] = number

    def follow(match: re.Match) -> str:
        return mapping.get(match.group(0), match.group(0))

    mutated = copy.copy(edition)
    mutated.id = f"{edition.id}+synthetic{seed}"
    mutated.rules = []
    for order, (item, number) in enumerate(zip(items, numbers)):
        parent = rule_numbers.parent(number) if item.sub else number[:3]
        mutated.rules.append(Rule(number, CITED.sub(follow, item.text),
                                  [CITED.sub(follow, e) for e in item.examples], parent, order))
    mutated.glossary = []  # the glossary would give the answer away
    return mutated, truth

"""Terms the edition disagrees with itself about.

- *obsolete-term*: a term the glossary marks "(Obsolete)" still used in the rules' own
  voice. Only noun terms of two words or more count ("Mana Burn", "Converted Mana Cost",
  "Damage Assignment Order", "In Play"): the glossary also marks card wordings obsolete
  ("During", "Counts As", "Set Aside", "Redirect") whose words the rules rightly keep in
  their ordinary sense. A sentence speaking of the term as history ("used to", "older",
  "previously", "renamed", "printed", "errata") is no use of it, nor is a term the rules
  use in more than three rules (then it is the edition's vocabulary, not a leftover);
- *undefined-keyword*: a glossary entry defining a keyword ability or action ("A keyword
  ability that ...") for which the edition has no rule of that title (702.19.
  "Trample"), unless the entry says the rules leave it out ("aren't included in these
  rules", the Un-sets).
"""

from __future__ import annotations

import re

from rulekb.kb.define import sentences

from ..define.titles import norm, titles
from .model import Finding

OBSOLETE = re.compile(r"\s*\((?:obsolete|obsolète)\)\s*$", re.IGNORECASE)
HISTORY = re.compile(r"obsolete|used to|previous|formerly|former|older|earlier|printed|errata|oracle|renamed|"
                     r"no longer|were called|was called|now called|replaced|known as|\bold\b", re.IGNORECASE)
PARTICLES = {"as", "aside", "of", "from", "into", "to"}
MAX_RULES = 3
KEYWORD = re.compile(r"^(?:an?\s+)?(?:\S+\s+){0,2}?(?:is\s+an?\s+)?(?:(?:static|triggered|activated|evasion)\s+)?"
                     r"keyword\s+(ability|action)\b", re.IGNORECASE)
LEFT_OUT = re.compile(r"aren[’']t included in these rules|not included in these rules|un-?sets?\b|unstable|unhinged|"
                      r"unglued|unsanctioned|obsolete", re.IGNORECASE)


def obsolete_terms(edition) -> dict[str, str]:
    """normalised term -> the glossary term as printed, for every entry marked obsolete."""
    out = {}
    for entry in edition.glossary:
        if OBSOLETE.search(entry.term):
            for part in OBSOLETE.sub("", entry.term).split(","):
                if norm(part):
                    out.setdefault(norm(part), entry.term)
    return out


def obsolete_used(edition) -> list[Finding]:
    out = []
    rules_text = [(r.number, r.text) for r in edition.rules]
    blob = " ".join(text for _, text in rules_text).lower().replace("-", " ")
    for entry in edition.glossary:
        if not OBSOLETE.search(entry.term):
            continue
        for part in OBSOLETE.sub("", entry.term).split(","):
            phrase = part.strip()
            words = phrase.lower().split()
            if len(words) < 2 or words[-1] in PARTICLES or " ".join(words).replace("-", " ") not in blob:
                continue
            pattern = re.compile(r"(?<![\w“\"'-])" + re.escape(phrase).replace(r"\ ", r"[\s-]+") +
                                 r"(?:s|es)?(?![\w”\"'-])", re.IGNORECASE)
            hits = [(number, s) for number, text in rules_text if pattern.search(text)
                    for s in sentences(text) if pattern.search(s)]
            if not hits or len({n for n, _ in hits}) > MAX_RULES:
                continue
            for number, sentence in hits:
                if HISTORY.search(sentence) or re.search(r"[“\"]" + re.escape(phrase), sentence, re.IGNORECASE):
                    continue
                text = next(t for n, t in rules_text if n == number)
                out.append(Finding(
                    "obsolete-term", "inconsistency", (number, f"glossary: {entry.term}"), (text, entry.definition),
                    f"rule {number} says \"{phrase.lower()}\", which the glossary marks obsolete",
                    f"the glossary of {edition.id} calls \"{phrase}\" obsolete; rule {number} still uses it: "
                    f"\"{sentence}\""))
    return out


def undefined_keywords(edition) -> list[Finding]:
    named = {norm(t) for t in titles(edition).values()}
    out = []
    for entry in edition.glossary:
        m = KEYWORD.match(entry.definition.strip())
        if not m or LEFT_OUT.search(entry.definition) or OBSOLETE.search(entry.term):
            continue
        term = entry.term.split(",")[0].strip()
        if norm(term) in named or any(norm(term) in t.split(" and ") for t in named):
            continue
        if edition.partial:
            continue  # a partial text need not hold the rule
        out.append(Finding(
            "undefined-keyword", "inconsistency", (f"glossary: {entry.term}",), (entry.definition,),
            f"the glossary calls {term} a keyword {m.group(1)}; no rule of {edition.id} is titled \"{term}\"",
            f"keyword {m.group(1)}s are each defined by a rule of their name (701 or 702); this one has none"))
    return out


def keyword_kinds(edition) -> list[Finding]:
    """A glossary entry calling a term a keyword ability when the rule of that title is
    among the keyword actions (701), or an action when it is among the abilities (702)."""
    by_title: dict[str, list[str]] = {}
    for number, title in titles(edition).items():
        by_title.setdefault(norm(title), []).append(number)
    rules = {r.number: r.text for r in edition.rules}
    out = []
    for entry in edition.glossary:
        m = KEYWORD.match(entry.definition.strip())
        if not m or OBSOLETE.search(entry.term):
            continue
        kind = m.group(1).lower()
        numbers = [n for n in by_title.get(norm(entry.term.split(",")[0]), []) if n.startswith(("701.", "702."))]
        want = "701." if kind == "action" else "702."
        if not numbers or any(n.startswith(want) for n in numbers):
            continue
        number = numbers[0]
        other = "ability" if kind == "action" else "action"
        out.append(Finding(
            "glossary-vs-rules", "inconsistency", (f"glossary: {entry.term}", number),
            (entry.definition, f"{number} {rules.get(number, '')}"),
            f"the glossary calls {entry.term} a keyword {kind}; rule {number} defines it among the keyword {other}s",
            f"rule {number[:3]} holds the keyword {other}s; the glossary entry says keyword {kind}"))
    return out

"""Lists, owners, controllers and negations that disagree inside one edition, found on
the same path as between editions: each side's definitional statements (kb.define)
become a :class:`kb.compare.definitional.Claims` and :func:`kb.compare.definitional.compare`
does the comparison, with its normalisation (order, articles, plurals, renamed members,
"in play" / "on the battlefield", "one of the following" vs a comma list never count).

Sides compared:

- two rules of the edition making statements about the same concept (each rule a side):
  a list that differs is *two-lists* for the game's core lists (card types, supertypes,
  characteristics, zones, object kinds, permanent types...) and *defined-twice* for any
  other concept; a different owner or controller, or "X is a Y" against "X is not a Y",
  is *defined-twice*;
- a glossary entry's own definitional sentences against the rules' statements about the
  same concept (*glossary-vs-rules*).

What between editions is a change and inside one edition is not a disagreement is left
out: an exception one rule adds ("unless it's a delayed triggered ability") to what
another states generally, a statement one side does not make, two is-a values (a thing
is many things), a renamed member.
"""

from __future__ import annotations

import re
from collections import defaultdict

from rulekb.kb.compare import definitional
from rulekb.kb.compare.terminology import canonical_key, key_words, stem
from rulekb.kb.rdf.concepts import concept_key
from rulekb.kb.define import extract

from .model import Finding

KEPT = {"owner-changed", "controller-changed", "members-changed", "negation-reversed"}
HEDGES = ("by-default", "normally", "usually")


class _NoIndex:
    """kb.compare asks "is it still said?" only for a statement one side lacks, which
    inside one edition is no finding (dropped): answer at once."""

    def find(self, *args, **kwargs):
        return None


def _glossary_place(term: str) -> str:
    return f"glossary: {term}"


def rule_pairs(edition, statements, texts: dict[str, str]) -> list[Finding]:
    """Two rules of one edition saying different things about one concept."""
    by_concept: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    for rule, st in statements:
        by_concept[canonical_key(st.concept)][rule].append((rule, st))
        if st.aspect == "kinds":  # "Y is one of ..., X" against "X is not a Y": a statement about X too
            for member in st.members:
                by_concept[canonical_key(member)][rule].append((rule, st))
    index = _NoIndex()
    out: list[Finding] = []
    seen: set = set()
    for concept in sorted(by_concept):
        rules = by_concept[concept]
        if len(rules) < 2:
            continue
        numbers = sorted(rules, key=_rule_order(edition))
        for i, a in enumerate(numbers):
            for b in numbers[i + 1:]:
                left = definitional.Claims(edition.id, rules[a], texts)
                right = definitional.Claims(edition.id, rules[b], texts)
                for f in definitional.compare(left, right, index, index):
                    if f.kind not in KEPT or not (f.old and f.new) or not (f := _named_elsewhere(f, texts)):
                        continue
                    key = (f.kind, f.concept, f.aspect, a, b)
                    if key in seen:
                        continue
                    seen.add(key)
                    out.append(_finding(f, "rule", a, b, texts))
    return out


def glossary_vs_rules(edition, statements, texts: dict[str, str]) -> list[Finding]:
    """Each glossary entry's definitional sentences against the rules' statements."""
    by_concept: dict[str, list] = defaultdict(list)
    for rule, st in statements:
        by_concept[canonical_key(st.concept)].append((rule, st))
        if st.aspect == "kinds":
            for member in st.members:
                by_concept[canonical_key(member)].append((rule, st))
    index = _NoIndex()
    out: list[Finding] = []
    for entry in edition.glossary:
        place = _glossary_place(entry.term)
        found = [(place, st) for st in extract(entry.definition, edition.language)]
        if not found:
            continue
        concepts = {canonical_key(st.concept) for _, st in found}
        if concept_key(entry.term) not in concepts and canonical_key(concept_key(entry.term)) not in concepts:
            continue  # the entry's sentences define something else: not this entry's definition
        about = [pair for c in sorted(concepts) for pair in by_concept.get(c, ())]
        if not about:
            continue
        side_texts = dict(texts)
        side_texts[place] = entry.definition
        gloss = definitional.Claims(edition.id, found, side_texts)
        rules = definitional.Claims(edition.id, list(dict.fromkeys(about)), side_texts)
        for f in definitional.compare(gloss, rules, index, index):
            if f.kind in KEPT and f.old and f.new and (f := _named_elsewhere(f, side_texts)):
                out.append(_finding(f, "glossary", place, f.new.rule, side_texts))
    return out


def _named_elsewhere(f, texts: dict[str, str]):
    """A list finding without the members the other side's own text names outside its
    list ("An object is an ability on the stack, a card ... Combat damage on the stack is
    also an object"): None when no member is left."""
    if f.kind != "members-changed":
        return f
    from dataclasses import replace

    def named(member: str, place: str) -> bool:
        words = key_words(member)
        text = {stem(w) for w in re.findall(r"[a-z]+", texts.get(place, "").lower())}
        return bool(words) and words <= text

    removed = tuple(m for m in f.removed if not named(m, f.new.rule))
    added = tuple(m for m in f.added if not named(m, f.old.rule))
    if not removed and not added:
        return None
    return replace(f, removed=removed, added=added)


def _finding(f, where: str, a: str, b: str, texts: dict[str, str]) -> Finding:
    """A kb.compare finding (old side = a, new side = b) as a consistency finding."""
    left, right = f.old.statement, f.new.statement
    a, b = f.old.rule or a, f.new.rule or b
    if where == "glossary":
        kind = "glossary-vs-rules"
    elif f.kind == "members-changed" and f.concept in definitional.CORE_LISTS:
        kind = "two-lists"
    else:
        kind = "defined-twice"
    if f.kind == "negation-reversed":
        severity = "contradiction"
    elif f.kind in ("owner-changed", "controller-changed"):
        hedged = any(h in (s.qualifier or "").split("+") for s in (left, right) for h in HEDGES)
        severity = "inconsistency" if hedged else "contradiction"
    else:
        severity = "inconsistency"
    names = [_name(a), _name(b)]
    detail = _detail(f, names)
    why = (f"{names[0]} says: {_describe(left)}; {names[1]} says: {_describe(right)} "
           f"(compared as kb.compare compares two editions: {f.kind})")
    return Finding(kind, severity, (a, b), (texts.get(a, ""), texts.get(b, "")), detail, why)


def _detail(f, names) -> str:
    words = f.concept.replace("-", " ")
    if f.kind == "members-changed":
        parts = []
        if f.removed:
            parts.append(f"only {names[0]} has {', '.join(f.removed)}")
        if f.added:
            parts.append(f"only {names[1]} has {', '.join(f.added)}")
        return f"two lists of {words}: " + "; ".join(parts)
    if f.kind == "negation-reversed":
        value = (f.removed or f.added or ("",))[0].replace("-", " ")
        return f"one says {words} is {_a(value)}, the other that it is not"
    aspect = f.aspect
    return (f"the {aspect} of {_a(words)}: {names[0]} says the {f.removed[0] if f.removed else '?'}, "
            f"{names[1]} the {f.added[0] if f.added else '?'}")


def _describe(st) -> str:
    from rulekb.kb.reason.axioms import describe_statement

    return describe_statement(st)


def _name(place: str) -> str:
    return place if place.startswith("glossary: ") else f"rule {place}"


def _a(words: str) -> str:
    return ("an " if words[:1] in tuple("aeiou") else "a ") + words


def _rule_order(edition):
    order = {r.number: i for i, r in enumerate(edition.rules)}
    return lambda number: order.get(number, 1 << 30)

"""Two editions' definitional statements compared per concept and aspect.

Families compared (each on normalised keys and values, see kb.compare.terminology):

- owner / controller: the sets of normalised values; a value gone and another come is
  a changed owner/controller; the same value with an exception added or dropped is an
  exception change; a value only added beside the old one is no finding (the edition
  says more, not something else);
- members / kinds: the union of an edition's lists for the concept (two rules may print
  the same list); members added or removed; renamed members apart;
- is-a with kinds: "X is a Y" and "X is one of A, B, C" are one family, so that "a spell
  is a card, or a copy of a spell or card, on the stack" against "a spell is a card on
  the stack" is one narrowing, not a removal plus an addition; a value made more or
  less specific by its head ("an upkeep-triggered ability" -> "a triggered ability")
  with the same scope is no finding (one entails the other), with another scope a
  low-severity one ("a nonland card" -> "a card on the stack");
- not-a: "X is not a Y" against "X is a Y" (or "Y is one of ..., X") is a reversed
  negation, in either direction;
- multiple instances: redundant in one edition, each working on its own in the
  other (kb.define.instances), said by both;
- what a keyword means (kb.define.meanings), said by both: optional in one edition and
  mandatory in the other, another moment or duration, another zone it works from or
  moves things to; historical names are one value there already ("remove from the
  game" is "exile"), so an era's renaming gives nothing.

A statement with no counterpart is a removed (or added) definition, unless the other
edition still relates the same words in some sentence (:func:`terminology.still_said`).
"""

from __future__ import annotations

from collections import defaultdict

from rulekb.kb.define.meanings import ASPECTS as MEANING_ASPECTS

from .model import Finding, Side
from .terminology import SentenceIndex, canonical_key, canonical_members, canonical_value, exceptions, still_said

# lists that are not subtypes: additions there change the game's vocabulary
CORE_LISTS = frozenset({"card-type", "permanent-type", "supertype", "characteristic", "zone", "object",
                        "part-of-a-card", "color", "mana-type", "color-of-mana", "basic-land-type",
                        "ability-type", "spell", "permanent", "cost", "double-faced-card"})


class Claims:
    """One edition's statements, grouped by normalised concept and family."""

    def __init__(self, edition_id: str, statements, rule_text):
        self.edition = edition_id
        self.rule_text = rule_text  # rule number -> text
        self.isa = defaultdict(lambda: defaultdict(list))  # concept -> value -> [(rule, st)]
        self.nota = defaultdict(lambda: defaultdict(list))
        self.kinds = defaultdict(lambda: defaultdict(list))  # concept -> member -> [(rule, st)]
        self.members = defaultdict(lambda: defaultdict(list))
        self.printed = defaultdict(dict)  # (concept, aspect) -> normalised member -> printed member
        self.roles = defaultdict(lambda: defaultdict(list))  # (concept, aspect) -> value -> [(rule, st)]
        self.instances = defaultdict(lambda: defaultdict(list))  # concept -> redundant|separate -> [(rule, st)]
        self.meanings = defaultdict(lambda: defaultdict(list))  # (concept, aspect) -> item -> [(rule, st)]
        self.meaning_rules = defaultdict(list)  # (concept, aspect) -> [(rule, st)], every statement
        for rule, st in statements:
            concept = canonical_key(st.concept)
            if st.aspect in ("is-a", "not-a"):
                table = self.isa if st.aspect == "is-a" else self.nota
                table[concept][canonical_key(st.value)].append((rule, st))
            elif st.aspect in ("kinds", "members"):
                table = self.kinds if st.aspect == "kinds" else self.members
                for member, printed in canonical_members(concept, st.members):
                    table[concept][member].append((rule, st))
                    self.printed[(concept, st.aspect)].setdefault(member, printed)
            elif st.aspect in ("owner", "controller"):
                self.roles[(concept, st.aspect)][canonical_value(st.value, concept)].append((rule, st))
            elif st.aspect == "multiple-instances":
                self.instances[concept][st.value].append((rule, st))
            elif st.aspect in MEANING_ASPECTS:
                self.meaning_rules[(concept, st.aspect)].append((rule, st))
                for item in st.value.split("+"):
                    if item:
                        self.meanings[(concept, st.aspect)][item].append((rule, st))

    def side(self, source) -> Side:
        rule, st = source
        return Side(self.edition, rule, self.rule_text.get(rule, ""), st)


def compare(old: Claims, new: Claims, old_index: SentenceIndex, new_index: SentenceIndex) -> list[Finding]:
    out: list[Finding] = []
    for key in sorted(set(old.roles) | set(new.roles)):
        out += _roles(key, old, new, old_index, new_index)
    for aspect in ("members", "kinds"):
        for concept in sorted(set(getattr(old, aspect)) | set(getattr(new, aspect))):
            out += _lists(concept, aspect, old, new, old_index, new_index)
    for concept in sorted(set(old.isa) | set(new.isa) | set(old.kinds) | set(new.kinds)):
        out += _isa(concept, old, new, old_index, new_index)
    for concept in sorted(set(old.instances) & set(new.instances)):
        out += _instances(concept, old, new)
    for key in sorted(set(old.meaning_rules) & set(new.meaning_rules)):
        out += _meaning(key, old, new)
    negations = _negations(old, new, old_index, new_index)
    reversed_ = {(f.concept, v) for f in negations if f.kind == "negation-reversed" for v in f.removed + f.added}
    out = [f for f in out  # "X is a Y" come or gone is the other half of a reversed negation
           if not (f.kind in ("definition-added", "definition-removed") and f.aspect == "is-a"
                   and (f.concept, canonical_key((f.old or f.new).statement.value)) in reversed_)]
    return out + negations


# ---------------------------------------------------------------- owner / controller


def _roles(key, old: Claims, new: Claims, old_index, new_index) -> list[Finding]:
    concept, aspect = key
    before, after = old.roles.get(key, {}), new.roles.get(key, {})
    gone = [v for v in before if v not in after]
    come = [v for v in after if v not in before]
    out = []
    if before and after and gone and come and not set(before) & set(after):
        o, n = before[gone[0]][0], after[come[0]][0]
        out.append(Finding(
            f"{aspect}-changed", concept, aspect, old.side(o), new.side(n),
            f"the {aspect} of {_a(concept)} was the {gone[0]}; it is now the {come[0]}",
            "high", tuple(gone), tuple(come)))
    elif before and not after:
        out += _removed(concept, aspect, before[gone[0]][0], old, new, new_index)
    elif after and not before:
        out += _added(concept, aspect, after[come[0]][0], old, new, old_index)
    for value in sorted(set(before) & set(after)):
        was = frozenset().union(*(exceptions(st.qualifier) for _, st in before[value]))
        now = frozenset().union(*(exceptions(st.qualifier) for _, st in after[value]))
        if was != now:
            dropped, added = sorted(was - now), sorted(now - was)
            what = ", ".join([f"now {q}" for q in added] + [f"no longer {q}" for q in dropped])
            out.append(Finding(
                "exception-changed", concept, aspect, old.side(before[value][0]), new.side(after[value][0]),
                f"the {aspect} of {_a(concept)} is still the {value}, but with another exception "
                f"({what.replace('-', ' ')})", "medium", tuple(dropped), tuple(added)))
    return out


# ---------------------------------------------------------------- lists


def _lists(concept, aspect, old: Claims, new: Claims, old_index, new_index) -> list[Finding]:
    before, after = getattr(old, aspect).get(concept, {}), getattr(new, aspect).get(concept, {})
    if not before or not after:
        if aspect == "kinds" and (old.isa.get(concept) or new.isa.get(concept)):
            return []  # a list against an is-a: the is-a family compares them
        if before:
            return _removed(concept, aspect, _first(before), old, new, new_index)
        return _added(concept, aspect, _first(after), old, new, old_index)
    out = []
    printed_old, printed_new = old.printed[(concept, aspect)], new.printed[(concept, aspect)]
    renamed = [(printed_old[m], printed_new[m]) for m in before if m in after and printed_old[m] != printed_new[m]]
    if renamed:
        src = next(s for m, s in before.items() if printed_old[m] != printed_new.get(m, printed_old[m]))
        dst = next(s for m, s in after.items() if printed_new[m] != printed_old.get(m, printed_new[m]))
        out.append(Finding(
            "renamed", concept, aspect, old.side(src[0]), new.side(dst[0]),
            "same list, members renamed: " + ", ".join(f"{a} -> {b}" for a, b in renamed),
            "info", tuple(a for a, _ in renamed), tuple(b for _, b in renamed)))
    gone = [m for m in before if m not in after]
    come = [m for m in after if m not in before]
    if gone or come:
        subtypes = concept not in CORE_LISTS
        severity = ("medium" if subtypes else "high") if gone else ("low" if subtypes else "medium")
        o = before[gone[0]][0] if gone else _first(before)
        n = after[come[0]][0] if come else _first(after)
        gone = [printed_old.get(m, m) for m in gone]  # as each edition prints them
        come = [printed_new.get(m, m) for m in come]
        parts = ([f"adds {', '.join(come)}"] if come else []) + ([f"drops {', '.join(gone)}"] if gone else [])
        label = "kinds of" if aspect == "kinds" else "list of"
        out.append(Finding("members-changed", concept, aspect, old.side(o), new.side(n),
                           f"the {label} {_words(concept)} " + " and ".join(parts), severity,
                           tuple(gone), tuple(come)))
    return out


# ---------------------------------------------------------------- is-a (with kinds)


def _isa(concept, old: Claims, new: Claims, old_index, new_index) -> list[Finding]:
    before, after = old.isa.get(concept, {}), new.isa.get(concept, {})
    kinds_before, kinds_after = old.kinds.get(concept, {}), new.kinds.get(concept, {})
    out = []
    if kinds_before and not kinds_after and after:
        narrowed = [v for v in after if v in kinds_before]
        if narrowed and not before:
            gone = [m for m in kinds_before if m not in after]
            out.append(Finding(
                "is-a-changed", concept, "is-a", old.side(_first(kinds_before)), new.side(after[narrowed[0]][0]),
                f"{_a(concept)} was one of {', '.join(kinds_before)}; it is now defined as a "
                f"{_words(narrowed[0])} only (no longer {', '.join(gone)})", "high", tuple(gone), ()))
            return out
    if before and not kinds_before and kinds_after and not after:
        broadened = [v for v in before if v in kinds_after]
        if broadened:
            come = [m for m in kinds_after if m not in before]
            out.append(Finding(
                "is-a-changed", concept, "is-a", old.side(before[broadened[0]][0]), new.side(_first(kinds_after)),
                f"{_a(concept)} was defined as {_a(broadened[0])}; it is now one of "
                f"{', '.join(kinds_after)}", "high", (), tuple(come)))
            return out
    gone = [v for v in before if v not in after and v not in kinds_after]
    come = [v for v in after if v not in before and v not in kinds_before]
    paired = []
    for v in gone:
        w = next((w for w in come if w not in paired and _related(v, w)), None) or \
            next((w for w in come if w not in paired), None)
        if w is None:
            continue
        paired += [v, w]
        broader = w.endswith("-" + v) or v.endswith("-" + w)
        if broader and _scopes(before[v]) == _scopes(after[w]):
            continue  # "an upkeep-triggered ability" -> "a triggered ability": one entails the other
        severity = "low" if broader else "high"
        how = ("broadened" if v.endswith("-" + w) else "narrowed") if broader else "changed"
        out.append(Finding(
            "is-a-changed", concept, "is-a", old.side(before[v][0]), new.side(after[w][0]),
            f"{_a(concept)} was {_a(v)}; it is now {_a(w)} ({how})", severity, (v,), (w,)))
    if not before and not kinds_before or not after and not kinds_after:
        # the whole family comes or goes: one finding, not one per value
        if before and not after and not kinds_after:
            return out + _removed(concept, "is-a", _first(before), old, new, new_index)
        if after and not before and not kinds_before:
            return out + _added(concept, "is-a", _first(after), old, new, old_index)
        return out
    for v in gone:
        if v not in paired:
            out += _removed(concept, "is-a", before[v][0], old, new, new_index)
    for w in come:
        if w not in paired:
            out += _added(concept, "is-a", after[w][0], old, new, old_index)
    return out


def _scopes(sources) -> set[str]:
    return {st.qualifier for _, st in sources}


def _related(a: str, b: str) -> bool:
    return bool(set(a.split("-")) & set(b.split("-")))


# ---------------------------------------------------------------- negations


def _negations(old: Claims, new: Claims, old_index, new_index) -> list[Finding]:
    out = []
    for concept in sorted(set(old.nota) | set(new.nota)):
        for value in sorted(set(old.nota.get(concept, {})) | set(new.nota.get(concept, {}))):
            o, n = old.nota.get(concept, {}).get(value), new.nota.get(concept, {}).get(value)
            if o and not n:
                positive = _positive(new, concept, value)
                if positive:
                    out.append(Finding(
                        "negation-reversed", concept, "not-a", old.side(o[0]), new.side(positive),
                        f"{_a(concept)} was not {_a(value)}; it now is one", "high", (value,), ()))
                else:
                    out += _removed(concept, "not-a", o[0], old, new, new_index)
            elif n and not o:
                positive = _positive(old, concept, value)
                if positive:
                    out.append(Finding(
                        "negation-reversed", concept, "not-a", old.side(positive), new.side(n[0]),
                        f"{_a(concept)} was {_a(value)}; it now is not", "high", (), (value,)))
                else:
                    out += _added(concept, "not-a", n[0], old, new, old_index)
    return out


def _positive(claims: Claims, concept: str, value: str):
    """The statement of ``claims`` saying that concept is a value, if any."""
    if value in claims.isa.get(concept, {}):
        return claims.isa[concept][value][0]
    if concept in claims.kinds.get(value, {}):
        return claims.kinds[value][concept][0]
    return None


# ---------------------------------------------------------------- a side missing


def _removed(concept, aspect, source, old: Claims, new: Claims, new_index) -> list[Finding]:
    rule, st = source
    if still_said(new_index, st, concept):
        return []
    return [Finding("definition-removed", concept, aspect, old.side(source), None,
                    f"{new.edition} no longer says this about {_words(concept)} ({_describe(st)})", "medium",
                    _values(st), ())]


def _added(concept, aspect, source, old: Claims, new: Claims, old_index) -> list[Finding]:
    rule, st = source
    if still_said(old_index, st, concept):
        return []
    return [Finding("definition-added", concept, aspect, None, new.side(source),
                    f"{old.edition} did not say this about {_words(concept)} ({_describe(st)})", "low",
                    (), _values(st))]


def _values(st) -> tuple[str, ...]:
    return tuple(st.members) if st.members else ((st.value,) if st.value else ())


def _describe(st) -> str:
    from rulekb.kb.reason.axioms import describe_statement

    return describe_statement(st)


def _first(table: dict):
    return next(iter(table.values()))[0]


def _words(key: str) -> str:
    return key.replace("-", " ")


def _a(key: str) -> str:
    """ "a token", "an emblem" """
    words = _words(key)
    return ("an " if words[:1] in tuple("aeiou") else "a ") + words


# ---------------------------------------------------------------- multiple instances

_INSTANCES = {"redundant": "are redundant", "separate": "each work on their own"}


def _instances(concept, old: Claims, new: Claims) -> list[Finding]:
    """Multiple instances of an ability were redundant and now each works on its own,
    or the reverse (lifelink and deathtouch, 2009: "each triggers separately" ->
    "redundant", as they became static). Said by both editions, and differently."""
    before, after = old.instances[concept], new.instances[concept]
    if set(before) & set(after):
        return []
    was, now = sorted(before)[0], sorted(after)[0]
    return [Finding("multiple-instances-changed", concept, "multiple-instances", old.side(before[was][0]),
                    new.side(after[now][0]),
                    f"multiple instances of {concept.replace('-', ' ')} {_INSTANCES.get(was, was)}; "
                    f"now they {_INSTANCES.get(now, now)}", "medium", (was,), (now,))]


# ---------------------------------------------------------------- optionality, timing, zone

_SAID = {"optionality": "is {}", "timing": "names {}", "zone": "works with {}"}


def _meaning(key, old: Claims, new: Claims) -> list[Finding]:
    """What a keyword means, aspect by aspect, when both editions spell it out: a "may"
    that became mandatory (or the reverse), a moment or duration, a zone gone or come."""
    concept, aspect = key
    before, after = old.meanings.get(key, {}), new.meanings.get(key, {})
    gone = tuple(sorted(set(before) - set(after)))
    come = tuple(sorted(set(after) - set(before)))
    if not gone and not come:
        return []
    o = before[gone[0]][0] if gone else old.meaning_rules[key][0]
    n = after[come[0]][0] if come else new.meaning_rules[key][0]
    word = _words(concept)
    if aspect == "optionality":
        was, now = (gone or ("",))[0], (come or ("",))[0]
        text = f"{word} was {was}; it is now {now}"
    else:
        parts = ([f"now {', '.join(_items(come))}"] if come else []) + \
            ([f"no longer {', '.join(_items(gone))}"] if gone else [])
        text = f"what {word} means changed its {aspect}: " + "; ".join(parts)
    return [Finding(f"{aspect}-changed", concept, aspect, old.side(o), new.side(n), text, "medium", gone, come)]


def _items(items) -> list[str]:
    return [i.replace(":", " (") + ")" if ":" in i else i for i in (x.replace("-", " ") for x in items)]

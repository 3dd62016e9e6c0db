"""A glossary entry enumerating a set with a member more or less than the rule that
defines the same set: *glossary-vs-rules*, severity *contradiction*.

The glossary entry's enumeration (:func:`kb.define.glossary.glossary_statements`:
"Object: An ability on the stack, a card, a copy of a card, a token, a spell, or a
permanent.") and the statements of the rule that defines the term in the same edition
(:func:`kb.define.defining.defining_rules`: the rule the entry cites, or the rule of the
cited section that states what the thing is -- 109.1 "An object is an ability on the
stack, a card, a copy of a card, a token, a spell, a permanent, or an emblem.") are
compared by :func:`kb.compare.definitional.compare`, the comparison ``rulekb
contradictions`` makes between editions, with its normalisation (order, articles,
plurals, renamed members, "in play" / "on the battlefield" never count). A member on
one side only is the finding; it names the member and cites both texts.

Not a finding: a member the other side's own text names outside its list ("Combat
damage on the stack is also an object"); a list the words after it narrow or leave
open; a rule that makes no list of the set (the entry is then checked against nothing,
not against every rule that mentions the set).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from rulekb.kb.compare import definitional
from rulekb.kb.compare.terminology import canonical_key
from rulekb.kb.define.defining import SectionIndex, defining_rules
from rulekb.kb.define.glossary import LISTS, _closed, glossary_statements

from .model import Finding


class _NoIndex:
    def find(self, *args, **kwargs):
        return None


def check(edition, statements, texts: dict[str, str]) -> list[Finding]:
    """Every glossary entry's enumeration against its defining rule's."""
    from .definitions import _named_elsewhere

    if not edition.glossary:
        return []
    by_rule: dict[str, list] = defaultdict(list)
    for rule, st in statements:
        if st.aspect in LISTS and _closed(st.qualifier):
            by_rule[rule].append(st)
    index, nothing = SectionIndex(edition), _NoIndex()
    out: list[Finding] = []
    for entry in edition.glossary:
        gloss = glossary_statements(entry.term, entry.definition, edition.language)
        if not gloss:
            continue
        place = f"glossary: {entry.term}"
        side_texts = {**texts, place: entry.definition}
        for rule in defining_rules(index, entry.term, entry.refs, entry.definition):
            for g in gloss:
                key = canonical_key(g.concept)
                about = [st for st in by_rule.get(rule, ()) if canonical_key(st.concept) == key]
                if not about:
                    continue
                # "kinds" and "members" both say what the set is: compare them as one
                left = definitional.Claims(edition.id, [(place, replace(g, aspect="kinds"))], side_texts)
                right = definitional.Claims(edition.id, [(rule, replace(st, aspect="kinds")) for st in about],
                                            side_texts)
                for f in definitional.compare(left, right, nothing, nothing):
                    if f.kind != "members-changed" or not (f.old and f.new):
                        continue
                    f = _named_elsewhere(f, side_texts)
                    if f is not None:
                        out.append(_finding(edition, entry, place, rule, f, side_texts))
    return list(dict.fromkeys(out))


def _finding(edition, entry, place: str, rule: str, f, texts: dict[str, str]) -> Finding:
    words = f.concept.replace("-", " ")
    parts = []
    if f.removed:
        parts.append(f"the glossary entry {entry.term} lists {_names(f.removed)}, which rule {rule} does not")
    if f.added:
        parts.append(f"rule {rule} lists {_names(f.added)}, which the glossary entry {entry.term} does not")
    detail = f"two lists of {words}: " + "; ".join(parts)
    why = (f"the glossary of {edition.id} enumerates the {words} set as {_names(f.old.statement.members)}; "
           f"rule {rule}, which defines it, as {_names(f.new.statement.members)}")
    return Finding("glossary-vs-rules", "contradiction", (place, rule), (entry.definition, texts.get(rule, "")),
                   detail, why)


def _names(members) -> str:
    return ", ".join(m.replace("-", " ") for m in members)

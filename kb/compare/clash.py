"""Where the reasoner helps: two editions' axioms that cannot both hold.

kb.reason.infer.clashes reasons over the axioms of both editions together (the ontology as
background) and returns each clash that needs a statement of each edition, with the
chain of axioms behind it. Each becomes an "axiom-clash" finding: the concept, one
statement of each edition, and the clashing axioms rendered with their rules. It finds
what a per-aspect comparison cannot: "a spell is a card" (old) against "a copy of a
spell is a spell" (new) with the ontology's "no copy of a spell is a card" is a
contradiction no single pair of statements shows. A closed list (characteristics,
card types) clashes with any longer list of the other edition: those clashes repeat a
members-changed finding, and say so.
"""

from __future__ import annotations

from .model import Finding, Side


def clash_findings(old, new, old_statements, new_statements, reasoner: str, rule_texts) -> list[Finding]:
    """``rule_texts``: {edition id: {rule number: text}}."""
    from rulekb.kb.reason import infer
    from rulekb.kb.rdf.lexicon import ontology_labels

    terms = {key: value["denotes"][0] for key, value in ontology_labels().items()}
    found = infer.clashes((old.id, old_statements), (new.id, new_statements), terms, reasoner=reasoner)
    out = []
    for clash in found:
        sides = {}
        for edition, rule, statement in clash.statements:
            sides.setdefault(edition, Side(edition, rule, rule_texts[edition].get(rule, ""), statement))
        o, n = sides.get(old.id), sides.get(new.id)
        anchor = n or o
        concept = clash.concept or anchor.statement.concept
        lists = clash.concept is None and all(s.statement.aspect == "members" for s in (o, n) if s)
        note = " (two closed lists that differ: see the members-changed finding)" if lists else ""
        out.append(Finding(
            "axiom-clash", concept, anchor.statement.aspect, o, n,
            clash.lines[0].rstrip(":") + note, "high", axioms=tuple(line.strip() for line in clash.lines[1:])))
    return out

"""contradictions(old, new): what two editions' definitions say differently.

Three sources, one list of findings (kb.compare.model.Finding), most severe first:

1. the glossaries, checked against the rules (kb.compare.glossary): concepts that became
   obsolete, came back, disappeared, appeared or were renamed;
2. the definitional statements (kb.define), compared per concept and aspect on
   normalised keys and values (kb.compare.definitional, kb.compare.terminology): a
   different owner or controller, a changed list, a changed or reversed is-a, a dropped
   or added exception, a definition no longer (or newly) made in any wording;
3. with ``reasoner`` ("hermit" or "owlrl"), the axioms of both editions reasoned over
   together (kb.compare.clash): the clashes that need a statement of each edition.

A definition found both ways is reported once: when the glossary says a concept is new
(or gone), its statements added (or removed) are not reported again.
"""

from __future__ import annotations

from rulekb.kb.define import edition_statements

from . import definitional, glossary
from .model import SEVERITIES, Finding
from .terminology import SentenceIndex

_ORDER = {s: i for i, s in enumerate(SEVERITIES)}


def contradictions(old, new, *, reasoner: str | None = None, old_statements=None,
                   new_statements=None) -> list[Finding]:
    """Findings between two Editions (ingest.model.Edition), the old one first.

    ``old_statements``/``new_statements``: the editions' (rule, Statement) pairs when the
    caller has them already (default: kb.define.edition_statements)."""
    if reasoner not in (None, "hermit", "owlrl"):
        raise ValueError(f"unknown reasoner {reasoner!r} (choose hermit or owlrl)")
    old_statements = edition_statements(old) if old_statements is None else old_statements
    new_statements = edition_statements(new) if new_statements is None else new_statements
    texts = {old.id: {r.number: r.text for r in old.rules}, new.id: {r.number: r.text for r in new.rules}}
    changes = []

    def term_changes():  # asked only when a glossary term disappears
        if not changes:
            from .terms import term_changes as compute

            changes.append(compute(old, new))
        return changes[0]

    concept_level = glossary.compare(glossary.Glossary(old), glossary.Glossary(new), term_changes)
    statement_level = definitional.compare(
        definitional.Claims(old.id, old_statements, texts[old.id]),
        definitional.Claims(new.id, new_statements, texts[new.id]),
        SentenceIndex(old), SentenceIndex(new))
    came = {f.concept for f in concept_level if f.kind == "concept-added"}
    went = {f.concept for f in concept_level if f.kind in ("concept-removed", "concept-obsolete")}
    findings = concept_level + [
        f for f in statement_level
        if not (f.kind == "definition-added" and f.concept in came)
        and not (f.kind == "definition-removed" and f.concept in went)]
    if reasoner:
        from .clash import clash_findings

        findings += clash_findings(old, new, old_statements, new_statements, reasoner, texts)
    return sorted(findings, key=lambda f: (_ORDER.get(f.severity, 9), f.kind, f.concept, f.aspect))

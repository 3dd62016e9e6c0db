"""Where one edition of the rules disagrees with itself: the consistency check.

    from rulekb.kb.consistency import check, to_json
    findings = check(edition)                       # an ingest.model.Edition
    print(to_json(edition.id, findings, notes(edition)))

Kinds (kb.consistency.model.KINDS) and where each is found:

- glossary_lists: glossary-vs-rules (contradiction) -- a glossary entry enumerating a
  set with a member more or less than the rule that defines the set;
- definitions: two-lists, defined-twice, glossary-vs-rules -- the definitional
  statements of each side compared by :func:`kb.compare.definitional.compare`, the very
  comparison ``rulekb contradictions`` makes between two editions (one path, not two);
- terms: glossary-vs-rules (a keyword "ability" defined among the keyword actions),
  obsolete-term, undefined-keyword;
- citations: citation-title, citation-range, citation-dangling, citation-obsolete;
- numbering: the numbers ingest repaired or could not, with the printed form;
- reasoner: the reasoner's inconsistency (kb.reason.infer), with its explanation.

Severities: contradiction (the two cannot both hold), inconsistency (lists or citations
that disagree), notice (typography and numbering). The build computes every edition's
findings once, cached by content (:mod:`kb.consistency.store`), and stores them as
``rk:ConsistencyFinding``.
"""

from __future__ import annotations

from .model import KINDS, SEVERITIES, Finding, to_json

__all__ = ["check", "notes", "to_json", "Finding", "KINDS", "SEVERITIES"]


def check(edition, statements=None, reasoning=None, kinds=None) -> list[Finding]:
    """Every finding of one Edition, most severe first.

    ``statements``: its (rule number, Statement) pairs (default: extracted now);
    ``reasoning``: its kb.reason.infer.Result, or a list of findings already made from one
    (None: no reasoner finding); ``kinds``: keep only these kinds."""
    from rulekb.kb.define import edition_statements

    from . import citations, definitions, glossary_lists, numbering, reasoner, terms

    statements = edition_statements(edition) if statements is None else statements
    texts = {r.number: r.text for r in edition.rules}
    found: list[Finding] = []
    found += definitions.rule_pairs(edition, statements, texts)
    lists = glossary_lists.check(edition, statements, texts)
    listed = {f.rules for f in lists}
    found += [f for f in definitions.glossary_vs_rules(edition, statements, texts) if f.rules not in listed]
    found += lists
    found += terms.keyword_kinds(edition)
    found += terms.obsolete_used(edition)
    found += terms.undefined_keywords(edition)
    found += citations.check(edition, terms.obsolete_terms(edition))
    found += numbering.check(edition)
    if isinstance(reasoning, list):
        found += reasoning
    elif reasoning is not None:
        found += reasoner.check(edition, reasoning)
    unique = list(dict.fromkeys(found))
    if kinds:
        unique = [f for f in unique if f.kind in kinds]
    return sorted(unique, key=Finding.sort_key)


def notes(edition) -> list[str]:
    """What the edition lacks, said once, so that no absence reads as a finding."""
    out = []
    if edition.partial:
        out.append(f"{edition.id} is a partial text: only the rules it holds are checked, and no citation "
                   "of a rule it does not hold is reported")
    if not edition.glossary:
        out.append(f"{edition.id} has no glossary: nothing is checked against one")
    elif any(w.code == "truncated" for w in edition.warnings):
        last = edition.glossary[-1].term
        out.append(f"{edition.id} is cut short: its glossary ends at \"{last}\" "
                   f"({len(edition.glossary)} entries); what follows is not checked")
    return out

"""Comparing two editions of the rules: contradictions and changes of meaning between
their definitions, and the terms that changed.

    from rulekb.kb.compare import contradictions, term_changes, to_json
    findings = contradictions(old_edition, new_edition)            # reasoner=None|"hermit"|"owlrl"
    print(to_json(findings, old_edition.id, new_edition.id))       # the `rulekb contradictions` shape
    for change in term_changes(old_edition, new_edition):          # "in play" -> "on the battlefield"
        print(change.old_term, "->", change.new_term, change.rules)

Modules, one job each: model (Finding, Side, TermChange, JSON), terminology (what counts
as the same meaning), definitional (statements compared per concept and aspect),
glossary (concept-level changes), clash (the reasoner's clashes), terms (term changes),
contradictions (the three put together).
"""

from .contradictions import contradictions
from .model import KINDS, SEVERITIES, Finding, Side, TermChange, to_json
from .terms import align, term_changes

__all__ = ["contradictions", "term_changes", "align", "to_json", "Finding", "Side", "TermChange", "KINDS",
           "SEVERITIES"]

"""The reasoner's verdict folded in: an edition whose definitional statements have no
model (kb.reason.infer: HermiT, or OWL 2 RL without Java) is a *contradiction* finding citing
the statements of the clash, with the reasoner's explanation (the chain of axioms) as
its why. The two-lists finding for the same lists says which members differ; this one
says that the ontology's closed lists make the difference a contradiction."""

from __future__ import annotations

from .model import Finding


def check(edition, result) -> list[Finding]:
    """``result``: the edition's kb.reason.infer.Result (None: not reasoned about)."""
    if result is None or result.consistent:
        return []
    texts = {r.number: r.text for r in edition.rules}
    rules = tuple(dict.fromkeys(rule for rule, _ in result.clashing))
    lines = [line.strip() for line in result.explanation_of_inconsistency]
    head = lines[0] if lines else f"{edition.id}: the statements contradict each other"
    return [Finding(
        "reasoner", "contradiction", rules, tuple(texts.get(r, "") for r in rules),
        head.split(": ", 1)[-1].rstrip(":"), f"{result.reasoner}: " + " | ".join(lines))]


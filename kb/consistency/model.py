"""What a consistency check reports: one finding inside one edition, and its JSON form
(the ``rulekb consistency`` shape)."""

from __future__ import annotations

from dataclasses import dataclass

# contradiction: the two statements cannot both hold; inconsistency: lists or citations
# that disagree; notice: typography and numbering (the source, not the meaning)
SEVERITIES = ("contradiction", "inconsistency", "notice")

KINDS = {
    "glossary-vs-rules": "a glossary definition whose list, owner, controller or negation differs from the rules",
    "two-lists": "two rules enumerating the same set (card types, supertypes, zones...) differently",
    "defined-twice": "one concept defined in two rules with a different owner, controller, negation or members",
    "citation-title": "a citation whose quoted title is not the title of the rule or section it names",
    "citation-range": "a citation range (\"rules 112.5a-j\") that runs past the subrules the edition has",
    "citation-obsolete": "a citation of a rule the same edition calls obsolete",
    "numbering": "a rule number misprinted, duplicated or outside its section (as ingest read it)",
    "obsolete-term": "a term the glossary marks obsolete still used in the rules' own voice",
    "undefined-keyword": "a keyword ability or action the edition names with no rule defining it",
    "reasoner": "the reasoner finds the edition's definitional statements inconsistent",
}

_ORDER = {s: i for i, s in enumerate(SEVERITIES)}


@dataclass(frozen=True)
class Finding:
    kind: str  # one of KINDS
    severity: str  # one of SEVERITIES
    rules: tuple[str, ...]  # "305.4", "section 212", "glossary: Endure"; the citing place first
    texts: tuple[str, ...]  # what each of those says, as printed (same order)
    detail: str  # what differs, in a few words
    why: str  # why it is a finding (the statements, the titles, the reasoner's chain)

    def to_dict(self) -> dict:
        return {"kind": self.kind, "severity": self.severity, "rules": list(self.rules),
                "texts": list(self.texts), "detail": self.detail, "why": self.why}

    @classmethod
    def from_dict(cls, data: dict) -> "Finding":
        return cls(data["kind"], data["severity"], tuple(data["rules"]), tuple(data["texts"]),
                   data["detail"], data["why"])

    def sort_key(self):
        return (_ORDER.get(self.severity, 9), self.kind, self.rules)


def to_json(edition_id: str, findings: list[Finding], notes: list[str] | None = None) -> dict:
    """``{"edition", "findings": [...], "notes": [...]}``: notes say what the edition
    lacks (no glossary, a glossary cut short), so an absence is never read as a finding."""
    return {"edition": edition_id, "findings": [f.to_dict() for f in findings], "notes": list(notes or ())}

"""What comparing two editions reports: findings (contradictions, changes of meaning)
and term changes, each with a JSON form (the ``rulekb contradictions`` and
``rulekb diff`` shapes of DESIGN.md)."""

from __future__ import annotations

from dataclasses import dataclass, field

SEVERITIES = ("high", "medium", "low", "info")

# kind -> what it means (the vocabulary of Finding.kind)
KINDS = {
    "owner-changed": "the same kind of object has a different owner",
    "controller-changed": "the same kind of object has a different controller",
    "members-changed": "a list (kinds of object, characteristics, supertypes, card types, zones...) "
                       "gained or lost members",
    "renamed": "a member or concept of a list is now called by another name (same meaning)",
    "is-a-changed": "what the concept is a kind of changed",
    "negation-reversed": "X is a Y in one edition, X is not a Y in the other",
    "exception-changed": "the same value with an exception added or dropped (\"unless it's a copy\")",
    "definition-removed": "a definitional statement the new edition no longer makes in any wording",
    "definition-added": "a definitional statement the old edition did not make",
    "concept-obsolete": "the glossary now marks the concept obsolete",
    "concept-revived": "a concept the old glossary marked obsolete is current again",
    "concept-removed": "the concept is gone from the glossary and the rules",
    "concept-added": "a concept new to the glossary and the rules",
    "multiple-instances-changed": "multiple instances of an ability were redundant and now each works on its own, "
                                  "or the reverse",
    "optionality-changed": "what a keyword does became mandatory where its controller could choose (\"may\"), "
                           "or the reverse",
    "timing-changed": "what a keyword does happens at another moment or lasts another time "
                      "(\"until end of turn\", \"for as long as\", \"at the beginning of your upkeep\")",
    "zone-changed": "what a keyword does works from, or moves things to, another zone",
    "axiom-clash": "the two editions' axioms about the concept cannot both hold (reasoner)",
}


@dataclass(frozen=True)
class Side:
    """One edition's side of a finding: the rule (or glossary entry) and what it says."""

    edition: str  # "en/2009-05-01"
    rule: str = ""  # rule number; "" for a glossary entry
    text: str = ""  # the rule's text (or the glossary definition), as printed
    statement: object = None  # kb.define.Statement, when a statement is behind it
    term: str = ""  # the glossary term, for a glossary entry
    definition: str = ""  # the glossary definition, when ``rule`` is the rule that defines the term

    def to_dict(self) -> dict:
        out = {"edition": self.edition, "rule": self.rule or None, "text": self.text}
        if self.term:
            out["term"] = self.term
        if self.definition:
            out["glossary"] = self.definition
        s = self.statement
        if s is not None:
            out["statement"] = {"concept": s.concept, "aspect": s.aspect, "value": s.value,
                                "members": list(s.members), "qualifier": s.qualifier,
                                "negated": s.negated, "sentence": s.sentence}
        return out


@dataclass(frozen=True)
class Finding:
    kind: str  # one of KINDS
    concept: str  # concept key
    aspect: str  # a Statement aspect, or "concept" for glossary-level findings
    old: Side | None  # None: the old edition says nothing
    new: Side | None  # None: the new edition says nothing
    explanation: str
    severity: str = "medium"  # one of SEVERITIES
    removed: tuple[str, ...] = ()  # members or values only the old edition has
    added: tuple[str, ...] = ()  # members or values only the new edition has
    axioms: tuple[str, ...] = ()  # axiom-clash: the clashing axioms, rendered with their rules

    def to_dict(self) -> dict:
        """The item shape of ``rulekb contradictions --format json`` (DESIGN.md), with
        the severity, the explanation and the member/value differences beside it."""
        out = {
            "concept": self.concept,
            "aspect": self.aspect,
            "kind": self.kind,
            "severity": self.severity,
            "explanation": self.explanation,
            "old": self.old.to_dict() if self.old else None,
            "new": self.new.to_dict() if self.new else None,
        }
        if self.removed:
            out["removed"] = list(self.removed)
        if self.added:
            out["added"] = list(self.added)
        if self.axioms:
            out["axioms"] = list(self.axioms)
        return out


@dataclass(frozen=True)
class TermChange:
    """A term that gives way to another across many rules ("in play" -> "on the battlefield")."""

    old_term: str
    new_term: str
    rules: int  # aligned rule pairs where the new text puts new_term where the old had old_term
    old_count: int  # occurrences of old_term in the old edition's rules
    old_count_after: int  # ... in the new edition's rules
    new_count_before: int  # occurrences of new_term in the old edition's rules
    new_count: int  # ... in the new edition's rules
    examples: tuple[tuple[str, str], ...] = field(default_factory=tuple)  # (old rule, new rule)

    def to_dict(self) -> dict:
        return {"old": self.old_term, "new": self.new_term, "rules": self.rules,
                "old_count": self.old_count, "old_count_after": self.old_count_after,
                "new_count_before": self.new_count_before, "new_count": self.new_count,
                "examples": [{"old": a, "new": b} for a, b in self.examples]}


def to_json(findings: list[Finding], old_id: str = "", new_id: str = "") -> dict:
    """``{"old", "new", "items": [...]}``: the ``rulekb contradictions`` shape."""
    return {"old": old_id, "new": new_id, "items": [f.to_dict() for f in findings]}

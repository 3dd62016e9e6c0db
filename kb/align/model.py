"""What an alignment says: pairs of rule numbers between two editions, and why.

Kept as plain data (numbers and strings, no Edition objects) so that an
alignment can be cached, printed as the ``rulekb diff`` JSON contract, and put
into RDF by the caller (rk:previousVersion / rk:nextVersion, rk:Lineage).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

# A rule of the older edition and its successor in the newer one:
UNCHANGED = "unchanged"  # same number, same text
RENUMBERED = "renumbered"  # same text, new number
MODIFIED = "modified"  # text changed (possibly renumbered too)
# no successor / no predecessor:
REMOVED = "removed"
ADDED = "added"
# secondary links, beside a primary pair (see kb.align.splits):
SPLIT = "split"  # part of the old rule's text went to this further new rule
MERGED = "merged"  # this further old rule's text went into the new rule

KINDS = (UNCHANGED, RENUMBERED, MODIFIED, ADDED, REMOVED, SPLIT, MERGED)
PRIMARY = (UNCHANGED, RENUMBERED, MODIFIED)

# A French rule and the English rule it translates (kb.translate.align: ``old`` the English
# number, ``new`` the French one; ``similarity`` the evidence score):
SAME_NUMBER = "same-number"  # the number of the English rule it translates
MOVED = "moved"  # an English rule of another number
EXTRA = "extra"  # a French rule with no English counterpart (old None)
MISSING = "missing"  # an English rule inside the French coverage with no French (new None)
TRANSLATION_KINDS = (SAME_NUMBER, MOVED, EXTRA, MISSING)

# ``detail`` of a modified pair: what differs
REFERENCES = "references"  # only the numbers it cites, and they follow the renumbering
TYPOGRAPHY = "typography"  # quotes, dashes, spacing (and cited numbers)
TERMINOLOGY = "terminology"  # equal once terms (and typography, cited numbers) are evened out
TEXT = "text"  # a real change of wording


@dataclass(frozen=True, slots=True)
class Pair:
    """One line of an alignment. ``old``/``new`` are rule numbers (None for
    added/removed). ``similarity`` is the text similarity in 0..1 after
    terminology normalisation (1.0 for identical text; 0.0 for added/removed).
    ``evidence`` names the pass that found the pair (identical, text, anchor,
    context, order, split, merge, ...), for inspection and evaluation.
    ``complete`` is False for a French rule whose text looks cut off (an excerpt's
    last rule): its missing tail says nothing about the translation."""

    old: str | None
    new: str | None
    kind: str
    similarity: float
    evidence: str = ""
    detail: str = ""
    complete: bool = True

    def to_dict(self) -> dict:
        row = {"old": self.old, "new": self.new, "kind": self.kind, "similarity": round(self.similarity, 4)}
        if self.detail:
            row["detail"] = self.detail
        if self.evidence:
            row["evidence"] = self.evidence
        if not self.complete:
            row["complete"] = False
        return row


@dataclass(slots=True)
class Alignment:
    old: str  # edition id
    new: str
    pairs: list[Pair] = field(default_factory=list)
    # the section-level map the rules' pairs imply (old section -> new section, by majority)
    sections: dict[str, str] = field(default_factory=dict)

    def successor(self, number: str) -> str | None:
        """The primary successor of an old rule (None: removed)."""
        for pair in self.pairs:
            if pair.old == number and pair.kind in PRIMARY:
                return pair.new
        return None

    def successors(self, merges: bool = True) -> dict[str, str | None]:
        """Every old rule -> its primary successor (None when removed). With
        ``merges``, a rule merged into another has that rule as its successor."""
        found: dict[str, str | None] = {}
        for pair in self.pairs:
            if pair.old is not None and (pair.kind in PRIMARY or pair.kind == REMOVED):
                found[pair.old] = pair.new
        if merges:
            for pair in self.pairs:
                if pair.kind == MERGED and found.get(pair.old) is None:
                    found[pair.old] = pair.new
        return found

    def predecessors(self) -> dict[str, str | None]:
        """Every new rule -> its primary predecessor (None when added)."""
        found: dict[str, str | None] = {}
        for pair in self.pairs:
            if pair.new is not None and (pair.kind in PRIMARY or pair.kind == ADDED):
                found[pair.new] = pair.old
        return found

    def secondary(self) -> list[Pair]:
        """Split and merge links."""
        return [p for p in self.pairs if p.kind in (SPLIT, MERGED)]

    def counts(self) -> dict[str, int]:
        counted = Counter(p.kind for p in self.pairs)
        return {kind: counted.get(kind, 0) for kind in KINDS}

    def changes(self) -> list[Pair]:
        """Every pair except the unchanged ones: what a diff shows."""
        return [p for p in self.pairs if p.kind != UNCHANGED]

    def to_dict(self, unchanged: bool = False) -> dict:
        """The ``rulekb diff`` JSON shape: ``{"old","new","changes":[{"old","new","kind","similarity"}]}``."""
        pairs = self.pairs if unchanged else self.changes()
        return {
            "old": self.old,
            "new": self.new,
            "counts": self.counts(),
            "changes": [p.to_dict() for p in pairs],
        }

"""Stale rule numbers in notes and code (``rulekb cite-check``).

A text written against one edition cites rules as "CR 702.19b", "rule 111.2",
"rules 510.1c-d", "see 613.1f", "§702.19b" or "Comprehensive Rules 601.2". Each
citation is mapped through the alignment of that edition with the target edition
(kb.align: it follows renumbering across the 2009 restructure): same number, a new
number, or removed. A number the as-of edition does not have is reported as such,
not guessed at.

Only numbers with a cue are citations: "CR", "rule(s)", "section", "see", "§",
"Comprehensive Rules", French "règle(s)"/"cf.". A bare "111.2" in code is too often
a version or a price; ``bare=True`` accepts a bare number that has the shape of a
subrule (three digits, a dot, digits and a letter: "702.19b").
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

from rulekb.ingest import numbers
from rulekb.ingest.model import Edition
from rulekb.ingest.refs import find as find_rule_refs

from ..lineage.cache import aligned

_NUMBER = numbers.CITED
_CUED = re.compile(
    rf"(?:\bCR\b\.?|\bComprehensive\s+Rules?\b|§|\bsee\b|\bcf\.)\s*(?:rules?\s+)?({_NUMBER})(?![\d.]\d)",
    re.IGNORECASE,
)
_BARE_SUBRULE = re.compile(rf"(?<![\w.])({numbers.SUBRULE})(?![\w])")


@dataclass(frozen=True)
class Finding:
    line: int
    column: int
    cited: str  # as written
    number: str  # the rule number it names
    status: str  # unchanged | renumbered | modified | removed | not-in-edition
    new_number: str | None
    similarity: float | None
    change: str | None  # what changed in a modified rule: text, typography, references, terminology
    old_text: str | None
    new_text: str | None

    def to_dict(self) -> dict:
        return asdict(self)


def citations(text: str, bare: bool = False) -> list[tuple[int, int, str, str]]:
    """(line, column, as written, number) for every rule citation, in order."""
    found: dict[tuple[int, str], tuple[int, int, str, str]] = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        for citation in find_rule_refs(line):  # "rule 111.2", "rules 510.1c-d", "règle 601"
            for number in citation.numbers:
                found.setdefault((lineno, citation.start, number), (lineno, citation.start + 1, citation.text, number))
        for match in _CUED.finditer(line):
            key = (lineno, match.start(), match.group(1))
            if not any(k[0] == lineno and k[2] == match.group(1) for k in found):
                found[key] = (lineno, match.start() + 1, match.group(0).strip(), match.group(1))
        if bare:
            for match in _BARE_SUBRULE.finditer(line):
                if not any(k[0] == lineno and k[2] == match.group(1) for k in found):
                    found[(lineno, match.start(), match.group(1))] = (lineno, match.start() + 1, match.group(1), match.group(1))
    return sorted(found.values())


def check(text: str, old: Edition, new: Edition, bare: bool = False) -> list[Finding]:
    """Every citation of ``text`` (written against ``old``) and what it is in ``new``."""
    alignment = aligned(old, new)  # (kb.align's, read back when the two texts were aligned before)
    successors = alignment.successors(merges=True)
    by_old = {}  # the pair that leads to the successor (not a secondary half of a split)
    for pair in alignment.pairs:
        if pair.old is not None and (pair.old not in by_old or pair.new == successors.get(pair.old)):
            by_old[pair.old] = pair
    old_rules = {r.number: r for r in old.rules}
    old_sections = {s.number for s in old.sections}
    new_rules = {r.number: r for r in new.rules}
    out = []
    for line, column, cited, number in citations(text, bare):
        if number not in old_rules:
            status = "unchanged" if number in old_sections and number in {s.number for s in new.sections} else "not-in-edition"
            out.append(Finding(line, column, cited, number, status, number if status == "unchanged" else None,
                               None, None, None, None))
            continue
        pair = by_old.get(number)
        successor = successors.get(number)
        if successor is None:
            status = "removed"
        elif successor == number:
            status = "unchanged" if pair and pair.kind == "unchanged" else "modified"
        else:
            status = "renumbered" if pair and pair.kind == "renumbered" else "modified"
        new_rule = new_rules.get(successor) if successor else None
        out.append(Finding(
            line, column, cited, number, status, successor,
            round(pair.similarity, 3) if pair else None,
            (pair.detail or None) if pair and status == "modified" else None,
            old_rules[number].text, new_rule.text if new_rule else None,
        ))
    return out


def summary(findings: list[Finding]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for finding in findings:
        counts[finding.status] = counts.get(finding.status, 0) + 1
    return counts

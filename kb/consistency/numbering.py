"""Numbering faults of the source, as ingest read them: each warning of
:mod:`ingest.repair` and the layouts about a rule number (a misprint read back, a
malformed label, a duplicate, a rule outside its section, a number out of order)
becomes a *notice* that gives the number as printed and as read."""

from __future__ import annotations

from .model import Finding

CODES = {
    "misprinted-number": "a misprinted number, read as the one successor it can be",
    "malformed-number": "a malformed number label, read back",
    "duplicate-number": "the same number printed twice",
    "rule-outside-section": "a rule numbered outside the section it is printed in",
    "out-of-order": "a rule number out of order",
    "section-outside-part": "a section numbered outside the part it is printed in",
}


def check(edition) -> list[Finding]:
    by_line = {r.line: r for r in edition.rules if r.line is not None}
    out = []
    for warning in edition.warnings:
        if warning.code not in CODES:
            continue
        rule = by_line.get(warning.line)
        place = rule.number if rule else (f"line {warning.line}" if warning.line else edition.id)
        printed = f" (printed {rule.printed!r})" if rule is not None and rule.printed else ""
        out.append(Finding(
            "numbering", "notice", (place,), (rule.text if rule else "",),
            warning.message, f"{CODES[warning.code]}{printed}; ingest: {warning.code}"))
    return out

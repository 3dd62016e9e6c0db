"""One rule of one edition as ``rulekb rule`` answers it: its text, examples, references
(resolved and dangling), back-references, concepts and lineage, read through named queries;
a section or part number where a rule was expected gives the section (kb.sections).
"""

from __future__ import annotations

from rulekb.ingest import numbers

from ..errors import NotFound
from ..store.queries import run


def rule(store, edition: str, number: str) -> dict:
    """``rulekb rule EDITION NUMBER`` (DESIGN.md): the rule, its links and concepts; a section
    or part number gives the section (kb.sections)."""
    from ..lineage.history import lineage

    found = run(store, "rule", edition=edition, number=number)
    if not found:
        known = run(store, "edition-exists", edition=edition)
        if not known:
            raise NotFound(f"no edition {edition!r} in the knowledge base (rulekb editions lists them)")
        from ..sections import heading

        section = heading(store, edition, number)  # "601": the section, not a missing rule
        if section is not None:
            return section
        raise NotFound(f"edition {edition} has no rule {number}")
    row = found[0]
    references, dangling = [], []
    for ref in run(store, "rule-references", edition=edition, number=number):
        target = ref["cited_number"]
        bucket = references if "target" in ref else dangling
        if target not in bucket:
            bucket.append(target)
    references.sort(key=numbers.sort_key)
    dangling.sort(key=numbers.sort_key)
    return {
        "iri": row["rule"],
        "edition": edition,
        "number": number,
        "text": row.get("text", ""),
        "parent": row.get("parent"),
        "printed_number": row.get("printed"),
        "examples": [r["text"] for r in run(store, "rule-examples", edition=edition, number=number)],
        "references": references,
        "dangling": dangling,
        "referenced_by": [
            r.get("source_number") or f"glossary: {r['term']}"
            for r in run(store, "rule-referenced-by", edition=edition, number=number)
        ],
        "concepts": [
            {"iri": r["concept"], "label": r.get("label")}
            for r in run(store, "rule-concepts", edition=edition, number=number)
        ],
        "same_number_in": [r["edition"] for r in run(store, "rule-across-editions", number=number)],
        "lineage": lineage(store, edition, number),  # the same rule across editions, even renumbered
    }

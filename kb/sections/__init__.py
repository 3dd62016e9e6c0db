"""A section or part number where a rule number was expected.

Users type section numbers (``!cr 601``): ``rulekb rule en/2011-09-30 601`` and
``rulekb history 601`` then show the section -- its title, its rules, the
citations its rules make, and what cites it -- instead of "no rule 601".
Plain data from named queries, the JSON shapes of DESIGN.md's ``rule`` with
``"kind": "section"`` (or ``"part"``).
"""

from __future__ import annotations

from rulekb.ingest import numbers

from ..store.queries import run  # the store's named queries, not the front-ends' facade (kb.service imports this module)

def is_heading_number(number: str) -> bool:
    return numbers.is_heading(number)


def heading(store, edition: str, number: str) -> dict | None:
    """The section (or part) ``number`` of ``edition``, or None when it has none."""
    if not is_heading_number(number):
        return None
    found = run(store, "heading", edition=edition, number=number)
    if not found:
        return None
    row = found[0]
    if row["kind"] == "section":
        rules = [{"number": r["number"], "text": r.get("text", "")}
                 for r in run(store, "section-rules", edition=edition, section=number)]
        references, dangling = [], []
        for ref in run(store, "section-references", edition=edition, section=number):
            bucket = dangling if ref.get("dangling") else references
            if ref["cited_number"] not in bucket:
                bucket.append(ref["cited_number"])
        sections = []
    else:
        rules, references, dangling = [], [], []
        sections = [{"number": s["number"], "title": s["title"]}
                    for s in run(store, "edition-sections", edition=edition)
                    if s["kind"] == "section" and s["number"][:1] == number]
    return {
        "kind": row["kind"],
        "iri": row["heading"],
        "edition": edition,
        "number": number,
        "title": row["title"],
        "rules": rules,
        "sections": sections,
        "references": sorted(references, key=numbers.sort_key),
        "dangling": sorted(dangling, key=numbers.sort_key),
        "referenced_by": [
            r.get("source_number") or f"glossary: {r['term']}"
            for r in run(store, "rule-referenced-by", edition=edition, number=number)
        ],
        "same_number_in": [r["edition"] for r in run(store, "heading-across-editions", number=number)],
    }


def heading_history(store, number: str, edition: str) -> list[dict] | None:
    """``rulekb history 601``: the section with this number in every edition of
    ``edition``'s language, oldest first, in the shape of a rule's history
    (``text`` is the title; ``kind`` "retitled" when the title changed)."""
    if not is_heading_number(number):
        return None
    language = edition.split("/", 1)[0]
    rows = [r for r in run(store, "heading-across-editions", number=number) if r["language"] == language]
    if not any(r["edition"] == edition for r in rows):
        return None
    entries, previous = [], None
    for row in rows:
        kind = None if previous is None else "unchanged" if row["title"] == previous else "retitled"
        entries.append({"edition": row["edition"], "number": number, "text": row["title"], "kind": kind,
                        "effective_date": row.get("effective_date"), "section": row["kind"]})
        previous = row["title"]
    return entries

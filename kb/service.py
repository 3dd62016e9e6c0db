"""Plain functions over a store, shared by the CLI and the web endpoint.

Each answers one question with named queries from ``queries/`` and returns
plain data (the JSON shapes of DESIGN.md); none of them builds SPARQL text.
"""

from __future__ import annotations

from ingest import numbers

from . import queries
from .errors import NotFound


def run(store, name: str, **params) -> list[dict[str, str]]:
    query = queries.get(name)
    return store.select(query.text, query.bindings(params))


def editions(store) -> list[dict]:
    rows = run(store, "editions")
    return [
        {
            "edition": row["edition"],
            "language": row["language"],
            "effective_date": row.get("effective_date"),
            "partial": row.get("partial") == "true",
            "rules": int(row.get("rules", 0)),
            "source": row.get("source"),
        }
        for row in _one_per(rows, "edition")
    ]


def _one_per(rows: list[dict], key: str) -> list[dict]:
    """Editions with several sources come back once per source: keep the first."""
    seen: dict[str, dict] = {}
    for row in rows:
        seen.setdefault(row[key], row)
    return list(seen.values())


def rule(store, edition: str, number: str) -> dict:
    """``rulekb rule EDITION NUMBER`` (DESIGN.md): the rule, its links and concepts."""
    from .history import lineage

    found = run(store, "rule", edition=edition, number=number)
    if not found:
        known = run(store, "edition-exists", edition=edition)
        if not known:
            raise NotFound(f"no edition {edition!r} in the knowledge base (rulekb editions lists them)")
        from .sections import heading

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


def built_base(store) -> str | None:
    """The base IRI the KB was built with (``{base}edition/{id}``), None for an empty KB."""
    rows = run(store, "kb-base")
    if not rows:
        return None
    iri, edition_id = rows[0]["edition"], rows[0]["id"]
    suffix = f"edition/{edition_id}"
    return iri[: -len(suffix)] if iri.endswith(suffix) else None

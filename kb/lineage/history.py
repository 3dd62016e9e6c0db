"""A rule through the editions: ``rulekb history`` and the ``lineage`` of ``rulekb rule``.

Both read the lineages the build stored (:mod:`kb.rdf.lineage`) with the named
query ``rule-history``; nothing here aligns editions or builds SPARQL.
"""

from __future__ import annotations


from ..errors import NotFound
from ..store.queries import run

# kinds of the row that closes a lineage ended before the newest edition
ENDINGS = ("removed", "merged")


def default_edition(store, language: str = "en") -> str:
    """The newest complete edition of a language."""
    rows = [r for r in run(store, "edition-graphs") if r["language"] == language and r.get("partial") != "true"]
    if not rows:
        raise NotFound(f"no complete {language} edition in the knowledge base (rulekb build)")
    return rows[-1]["edition"]  # the query lists editions oldest first


def history(store, number: str, edition: str | None = None) -> list[dict]:
    """``rulekb history RULE [--edition]`` (DESIGN.md): every version of the rule,
    oldest first: ``[{"edition","number","text","kind", ...}]``.

    ``kind`` says how a version came from the one before (unchanged, renumbered,
    modified, added, split; None in the oldest edition the KB has); a modified
    one has ``detail`` and ``similarity``. When the rule was removed or merged
    into another before the newest edition, a last entry has ``number`` None
    and ``kind`` "removed" or "merged" (``into``: the rule it went into).
    A rule of an edition that is not chained (a partial one) has itself only.
    """
    edition = edition or default_edition(store)
    rows = run(store, "rule-history", edition=edition, number=number)
    if not rows:
        found = run(store, "rule", edition=edition, number=number)
        if not found:
            if not run(store, "edition-exists", edition=edition):
                raise NotFound(f"no edition {edition!r} in the knowledge base (rulekb editions lists them)")
            from ..sections import heading_history

            sections = heading_history(store, number, edition)  # "601": the section through the editions
            if sections is not None:
                return sections
            raise NotFound(f"edition {edition} has no rule {number}")
        return [{"edition": edition, "number": number, "text": found[0].get("text", ""), "kind": None,
                 "effective_date": None}]
    entries = [_entry(row) for row in rows]
    end = _ending(rows[-1])
    if end:
        entries.append({"edition": end["edition"], "number": None, "text": None, "kind": end["kind"],
                        "effective_date": None, **({"into": end["into"]} if "into" in end else {})})
    return entries


def _entry(row: dict) -> dict:
    entry = {
        "edition": row["version_edition"],
        "number": row["version_number"],
        "text": row.get("text", ""),
        "kind": row.get("kind"),
        "effective_date": row.get("effective_date"),
    }
    if row.get("detail"):
        entry["detail"] = row["detail"]
    if row.get("similarity") and entry["kind"] in ("renumbered", "modified", "split"):
        entry["similarity"] = float(row["similarity"])
    return entry


def _ending(last: dict) -> dict | None:
    """How a lineage ended before the newest edition, from its last row."""
    if last.get("ended") not in ENDINGS:
        return None
    return {"kind": last["ended"], "edition": last["ended_in"], **({"into": last["into"]} if last.get("into") else {})}


def lineage(store, edition: str, number: str) -> dict | None:
    """The ``lineage`` of ``rulekb rule``: its IRI and the numbers the rule had,
    each with the first and last edition it had it (None for a rule no lineage
    holds: one of a partial edition)."""
    rows = run(store, "rule-history", edition=edition, number=number)
    if not rows:
        return None
    iri = rows[0]["lineage"]
    numbers: list[dict] = []
    for row in rows:
        if numbers and numbers[-1]["number"] == row["version_number"]:
            numbers[-1]["last"] = row["version_edition"]
            numbers[-1]["editions"] += 1
        else:
            numbers.append({"number": row["version_number"], "first": row["version_edition"],
                            "last": row["version_edition"], "editions": 1})
    return {"iri": iri, "id": iri.partition("/lineage/")[2], "numbers": numbers, "ended": _ending(rows[-1])}


def periods(entries: list[dict]) -> list[dict]:
    """Consecutive unchanged versions folded into one period: ``{"first","last",
    "editions","number","text","kind",...}`` per change, for reading."""
    out: list[dict] = []
    for entry in entries:
        if out and entry["kind"] == "unchanged":
            out[-1]["last"] = entry["edition"]
            out[-1]["editions"] += 1
            continue
        out.append({**entry, "first": entry["edition"], "last": entry["edition"], "editions": 1})
    return out


_OPS = {"equal": "=", "delete": "-", "insert": "+"}


def word_diff(old: str | None, new: str | None) -> list[tuple[str, str]]:
    """``new`` against ``old`` word by word: ``[(op, words)]`` with op ``=``
    (kept), ``-`` (deleted) or ``+`` (inserted), in reading order. The words are
    :func:`kb.compare.report.word_diff`'s (the one word diff: punctuation is a word of
    its own), so the rule page and ``/diff`` mark the same changes."""
    from ..compare.report import word_diff as diff

    return [(_OPS[op], words.strip()) for op, words in diff(old or "", new or "") if words.strip()]

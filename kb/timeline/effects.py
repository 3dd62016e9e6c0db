"""What each edition changed, from what the build stored (rk:Change, rk:MeaningChange):
counts for every edition (timelines, the feed of editions) and the effects of one edition
(its page, JSON and feed entries). Named queries ``edition-change-counts``, ``edition-effects``."""

from __future__ import annotations

from collections import defaultdict

from rulekb.ingest import numbers as rule_numbers

KINDS = ("added", "removed", "renumbered", "modified", "split", "merged", "meaning")
LABELS = {"added": "added", "removed": "removed", "renumbered": "renumbered", "modified": "reworded",
          "split": "split off", "merged": "merged", "meaning": "changes of meaning"}


def _run(store, name: str, **params):
    from ..store.queries import run  # the store's named queries, not the front-ends' facade (kb.service imports this module)

    return run(store, name, **params)


def change_counts(store) -> dict[str, dict[str, int]]:
    """``{edition: {kind: count}}`` for every edition that changed something (one query)."""
    out: dict[str, dict[str, int]] = defaultdict(dict)
    for row in _run(store, "edition-change-counts"):
        out[row["edition"]][row["kind"]] = int(row["n"])
    return dict(out)


def edition_effects(store, edition: str) -> dict:
    """``{"edition", "previous", "counts": {kind: n}, "changes": {kind: [...]}}``: every rule the
    edition renumbered, reworded, added, removed, split or merged, and its changes of meaning."""
    rows = _run(store, "edition-effects", edition=edition)
    changes: dict[str, list[dict]] = {kind: [] for kind in KINDS}
    previous = None
    for row in rows:
        previous = previous or row.get("from_edition")
        item = {"iri": row["change"], "old": row.get("old_number"), "new": row.get("new_number")}
        for key in ("detail", "concept", "meaning_kind", "severity", "explanation"):
            if row.get(key):
                item[key] = row[key]
        if row.get("similarity"):
            item["similarity"] = float(row["similarity"])
        changes.setdefault(row["kind"], []).append(item)
    for kind, items in changes.items():
        if kind != "meaning":
            items.sort(key=lambda i: rule_numbers.sort_key(i["new"] or i["old"] or "0"))
    return {"edition": edition, "previous": previous,
            "counts": {kind: len(items) for kind, items in changes.items() if items},
            "changes": {kind: items for kind, items in changes.items() if items}}


def summary(counts: dict[str, int]) -> str:
    """"12 added, 3 removed, 40 reworded ..." (nothing: "no change")."""
    parts = [f"{counts[k]} {LABELS[k]}" for k in KINDS if counts.get(k)]
    return ", ".join(parts) or "no change found"

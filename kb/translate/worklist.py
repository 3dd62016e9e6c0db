"""The translator's worklist: the translation report for people.

Each item becomes an entry of :mod:`kb.compare.report` (so Markdown and HTML are
rendered, and escaped, in one place): the French rule beside the English one,
unmarked (two languages are not word-diffed); for a ``stale`` rule, the English
text the French translates beside the current English, the changed words
marked, with the French in a note. Entries are grouped by section (the title
starts with it, and a table counts the items per section and kind).
"""

from __future__ import annotations

from collections import Counter

from rulekb.ingest.model import Edition
from rulekb.kb.compare.report import Entry, Pane, Report

KIND_NOTES = {
    "missing": "the English rule has no French translation",
    "extra": "the French rule has no English counterpart",
    "reference-mismatch": "the French cites other rules than the English",
    "number-mismatch": "a number or quantity differs",
    "name-mismatch": "the French uses a card name the English does not",
    "sentence-missing": "the French has fewer sentences (and is shorter)",
    "sentence-added": "the French has more sentences (and is longer)",
    "stale": "the English rule changed after the edition the French translates: carry the change over",
    "terminology-inconsistency": "one English term, several French renderings across the text",
}


def _section(item: dict) -> str:
    number = item.get("fr") or item.get("us") or ""
    return number.split(".")[0] if number else "?"


def _text(edition: Edition, number: str | None) -> str:
    if not number:
        return ""
    for rule in edition.rules:
        if rule.number == number:
            return " ".join([rule.text, *rule.examples]).strip()
    return ""


def _values(item: dict) -> list[str]:
    notes = []
    for side, label in (("fr_value", "French"), ("us_value", "English")):
        value = item.get(side)
        if value in (None, [], "") or item["kind"] == "stale":
            continue
        shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
        notes.append(f"{label}: {shown}")
    return notes


def worklist(data: dict, fr: Edition, us: Edition) -> Report:
    items = sorted(data["items"], key=lambda i: (_section(i), i.get("fr") or i.get("us") or "", i["kind"]))
    entries = []
    for item in items:
        where = " → ".join(n for n in (item.get("fr"), item.get("us")) if n)
        title = f"§{_section(item)} · {where}: {item['kind']}"
        notes = [KIND_NOTES.get(item["kind"], item["kind"])]
        if item["kind"] == "stale":
            notes.append(f"French ({fr.id} rule {item['fr']}): {item.get('fr_value') or ''}")
            notes.append(f"change: {item.get('detail', 'text')}")
            entries.append(Entry(title, Pane(data.get("base_detected") or "base", item.get("base_rule") or item["fr"], item.get("base_value", "")),
                                 Pane(us.id, item["us"], item.get("us_value", "")), tuple(notes), "stale"))
            continue
        notes += _values(item)
        french = Pane(fr.id, item["fr"], _text(fr, item["fr"])) if item.get("fr") else None
        english = Pane(us.id, item["us"], _text(us, item["us"])) if item.get("us") else None
        entries.append(Entry(title, french, english, tuple(notes), item["kind"], diff=False))
    counts = Counter((_section(i), i["kind"]) for i in items)
    rows = tuple((section, kind, str(n)) for (section, kind), n in sorted(counts.items()))
    cov = data.get("coverage") or {}
    if data.get("note"):  # a French text without rules
        return Report(f"Translation worklist: {data['fr_edition']} ↔ {data['us_edition']}", (data["note"],), (), ())
    summary = [f"French {data['fr_edition']} against English {data['us_edition']}; "
               f"base detected: {data.get('base_detected') or 'not detected'}.",
               f"{len(items)} item{'s' if len(items) != 1 else ''} to look at"
               + (f"; the French covers {cov.get('french_rules')} rules in sections "
                  f"{', '.join(cov.get('sections', []))}." if cov else ".")]
    return Report(f"Translation worklist: {data['fr_edition']} ↔ {data['us_edition']}", tuple(summary),
                  tuple(entries), (("Items per section", ("section", "kind", "items"), rows),))

"""Geometry of the server-rendered SVG timelines (the templates draw it, escaping every
label): all editions of a language on a date axis (rules per edition, changes each made),
and one rule's wordings in force. Plain numbers and strings; nothing here writes markup."""

from __future__ import annotations

import datetime as dt

WIDTH, LEFT, RIGHT = 960, 48, 12


def _day(iso: str) -> int:
    return dt.date.fromisoformat(iso).toordinal()


def _axis(first: str, last: str) -> tuple:
    lo, hi = _day(first), max(_day(last), _day(first) + 1)
    span = WIDTH - LEFT - RIGHT

    def x(iso: str) -> float:
        return round(LEFT + (_day(iso) - lo) * span / (hi - lo), 1)

    years = [{"x": x(f"{y}-01-01"), "label": str(y)} for y in range(int(first[:4]) + 1, int(last[:4]) + 1)]
    return x, years


def editions_timeline(editions: list[dict], counts: dict[str, dict[str, int]]) -> dict | None:
    """``editions``: the complete editions of one language (``edition``, ``effective_date``,
    ``rules``), oldest first; ``counts``: kb.timeline.effects.change_counts. Bars: rules (top
    band), changes made (bottom band, reworded/renumbered/added/removed stacked)."""
    dated = [e for e in editions if e.get("effective_date")]
    if len(dated) < 2:
        return None
    x, years = _axis(dated[0]["effective_date"], dated[-1]["effective_date"])
    most_rules = max(e["rules"] for e in dated) or 1
    totals = {e["edition"]: sum(v for k, v in counts.get(e["edition"], {}).items() if k != "meaning") for e in dated}
    most_changes = max(totals.values()) or 1
    top, band = 16, 90  # rules band: y 16..106; changes band: 126..216 (grows downwards)
    bars = []
    for e in dated:
        c = counts.get(e["edition"], {})
        h_rules = round(band * e["rules"] / most_rules, 1)
        stack, y = [], top + band + 20
        for kind, css in (("modified", "reworded"), ("renumbered", "renumbered"), ("added", "added"),
                          ("removed", "removed"), ("split", "added"), ("merged", "removed")):
            if c.get(kind):
                h = max(round(band * c[kind] / most_changes, 1), 0.5)
                stack.append({"y": round(y, 1), "h": h, "css": css})
                y += h
        bars.append({"edition": e["edition"], "date": e["effective_date"], "x": x(e["effective_date"]),
                     "rules": e["rules"], "y_rules": round(top + band - h_rules, 1), "h_rules": h_rules,
                     "changes": totals[e["edition"]], "meaning": c.get("meaning", 0), "stack": stack})
    return {"width": WIDTH, "height": top + 2 * band + 44, "bars": bars, "years": years,
            "rules_max": most_rules, "changes_max": most_changes, "base_rules": top + band,
            "base_changes": top + band + 20, "axis_y": top + 2 * band + 30}


def wordings_timeline(wordings: list[dict], newest_date: str | None, current_first: str | None = None) -> dict | None:
    """One rule's wordings (kb.timeline.answers.wordings) as segments on a date axis, each
    from its date in force to the next (the newest runs to the newest edition's date)."""
    dated = [w for w in wordings if w.get("number") and w.get("in_force_from")]
    if not dated:
        return None
    end = max(newest_date or dated[-1]["in_force_from"], dated[-1]["in_force_from"])
    x, years = _axis(dated[0]["in_force_from"], end)
    segments = []
    for i, w in enumerate(dated):
        until = w.get("in_force_until") or end
        x0, x1 = x(w["in_force_from"]), x(until)
        segments.append({"x": x0, "w": max(round(x1 - x0, 1), 2.0), "number": w["number"], "first": w["first"],
                         "from": w["in_force_from"], "until": w.get("in_force_until"), "kind": w.get("kind"),
                         "row": i % 2, "current": w["first"] == current_first})
    return {"width": WIDTH, "height": 70, "segments": segments, "years": years}

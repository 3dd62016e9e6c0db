"""What the comparison pages show, built from the CLI's reports (no text is compared here).

The reports of :mod:`kb.compare.report` (``Report`` of ``Entry``: a title, notes, an
old and a new ``Pane``) are what ``rulekb diff --report``, ``rulekb
translation-report --report`` and ``rulekb contradictions --report`` print; the pages
render the same entries, with each pane's rule number linked to its page and the
words marked by :func:`kb.compare.report._sides` (``<del>`` in the old column,
``<ins>`` in the new). Templates escape every text; segments carry no markup.
"""

from __future__ import annotations

from collections import Counter

from rulekb.ingest.numbers import section_of, sort_key

from ..compare.report import Entry, Pane, _sides, _split_space
from .context import WebContext

DIFF_KINDS = ("unchanged", "renumbered", "modified", "added", "removed", "split", "merged")
DIFF_DEFAULT_KINDS = DIFF_KINDS[1:]  # unchanged rules hidden unless asked for


def _side(ctx: WebContext, pane: Pane | None, segments: list[tuple[str, str]]) -> dict | None:
    if pane is None:
        return None
    href = ctx.href(ctx.mint.rule(pane.edition, pane.rule)) if pane.rule and pane.edition else None
    # (op, leading space, words, trailing space): the marks go round the words only, as in the reports
    marked = [(op, *_split_space(text)) for op, text in segments]
    return {"label": pane.label, "edition": pane.edition, "rule": pane.rule, "href": href, "segments": marked}


def entry_row(ctx: WebContext, entry: Entry, **extra) -> dict:
    """One entry of a report as a row of a page: its two sides, linked and marked."""
    old, new = _sides(entry)
    return {"title": entry.title, "tag": entry.tag, "notes": list(entry.notes),
            "old": _side(ctx, entry.old, old), "new": _side(ctx, entry.new, new), **extra}


def _section_key(section: str) -> tuple:
    return sort_key(section) if section[:1].isdigit() else (10**7, 0, 0)


def grouped(rows: list[dict], titles: dict[str, str]) -> list[dict]:
    """Rows by section (``row["section"]``), sections in rule order."""
    sections: dict[str, list[dict]] = {}
    for row in rows:
        sections.setdefault(row["section"], []).append(row)
    return [{"number": number, "title": titles.get(number, ""), "rows": sections[number]}
            for number in sorted(sections, key=_section_key)]


# -- /diff ---------------------------------------------------------------------------


def parse_kinds(values: list[str], known: tuple[str, ...], default: tuple[str, ...]) -> tuple[str, ...]:
    """``kind=a&kind=b`` or ``kind=a,b``; unknown kinds are a 400 (raised by the caller)."""
    asked = [k.strip() for value in values for k in value.split(",") if k.strip()]
    if not asked:
        return default
    if "all" in asked:
        return known
    unknown = [k for k in asked if k not in known]
    if unknown:
        raise ValueError(f"unknown kind {unknown[0][:40]!r}: choose among {', '.join(known)} (or all)")
    return tuple(k for k in known if k in asked)


def diff_json(data: dict, kinds: tuple[str, ...]) -> dict:
    """The ``rulekb diff --format json`` shape, its changes filtered by kind."""
    return {"old": data["old"], "new": data["new"], "counts": data["counts"], "kinds": list(kinds),
            "changes": [c for c in data["changes"] if c["kind"] in kinds], "term_changes": data["term_changes"]}


def diff_view(ctx: WebContext, result, kinds: tuple[str, ...]) -> dict:
    """The sections of a diff with their rows, for the kinds asked."""
    from .. import service

    chosen = diff_json(result.data, kinds)
    report = service.diff_report(chosen, result.older, result.newer)  # the entries of `rulekb diff --report`
    rows = []
    for change, entry in zip(chosen["changes"], report.entries):
        rows.append(entry_row(ctx, entry, kind=change["kind"], similarity=change["similarity"],
                              detail=change.get("detail", ""), section=section_of(change["old"] or change["new"])))
    titles = {h.number: h.title for h in result.newer.sections} | {h.number: h.title for h in result.older.sections}
    return {"sections": grouped(rows, titles), "shown": len(rows), "term_changes": report.tables}


# -- /translation ----------------------------------------------------------------------


def translation_view(ctx: WebContext, result, kinds: tuple[str, ...] | None) -> dict:
    """The translator's worklist (``rulekb translation-report --report``) by section."""
    from ..translate.worklist import _section, worklist

    data = result.data
    report = worklist(data, result.french, result.english)
    # worklist orders the items this way; the same key pairs each item with its entry
    items = sorted(data["items"], key=lambda i: (_section(i), i.get("fr") or i.get("us") or "", i["kind"]))
    french = result.french.id
    rows = [entry_row(ctx, entry, kind=item["kind"], section=_section(item), fr=item.get("fr"),
                      fr_href=ctx.href(ctx.mint.rule(french, item["fr"])) if item.get("fr") else None)
            for item, entry in zip(items, report.entries) if kinds is None or item["kind"] in kinds]
    # sections are numbered as the French text numbers them: its own headings first
    titles = {h.number: h.title for h in result.english.sections} | {
        h.number: h.title for h in result.french.sections if h.title}
    return {"summary": list(report.summary), "sections": grouped(rows, titles), "shown": len(rows),
            "counts": dict(sorted(Counter(i["kind"] for i in data["items"]).items()))}


def translation_json(data: dict, kinds: tuple[str, ...] | None) -> dict:
    out = dict(data)
    if kinds is not None:
        out["items"] = [i for i in data["items"] if i["kind"] in kinds]
    return out


# -- /contradictions -------------------------------------------------------------------


def contradictions_view(ctx: WebContext, data: dict) -> dict:
    from ..compare.report import contradictions_report

    report = contradictions_report(data)
    return {"summary": list(report.summary), "rows": [entry_row(ctx, e) for e in report.entries],
            "tables": report.tables}

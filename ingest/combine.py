"""Several pages of one edition -> one edition.

Web sites publish a rules text a section per page; each page parses to a
partial edition with the same id. Pages of the same edition from a paged layout
are merged (rules in rule-number order, every source kept); a complete
official text is never merged with a site's pages of the same date -- they stay
two editions with the same id and different sources.
"""

from __future__ import annotations

from . import numbers
from .model import Edition, Unplaced


# Layouts that publish one edition as many pages. Forum posts are not pages of
# an edition: two posts of the same day quote unrelated rules, so they never merge.
PAGED_LAYOUTS = frozenset({"lotusnoir"})


def combine(editions: list[Edition]) -> list[Edition]:
    groups: dict[tuple[str, str | None, bool], list[Edition]] = {}
    for edition in editions:
        layout = edition.source.layout if edition.source else None
        key = (edition.id, layout, layout in PAGED_LAYOUTS)
        groups.setdefault(key, []).append(edition)
    out: list[Edition] = []
    for (_, _, mergeable), group in groups.items():
        if mergeable and len(group) > 1:
            out.append(merge(group))
        else:
            out.extend(group)
    out.sort(key=lambda e: (e.language, e.effective_date or "", e.id, e.source.location if e.source else ""))
    return out


def merge(pages: list[Edition]) -> Edition:
    first = pages[0]
    merged = Edition(
        id=first.id,
        language=first.language,
        effective_date=first.effective_date,
        title=first.title,
        partial=True,
    )
    anchors = [_anchor(page, block) for page in pages for block in page.unplaced]
    seen_rules: dict[str, int] = {}
    seen_parts: set[str] = set()
    seen_sections: set[str] = set()
    for page in pages:
        merged.sources.extend(page.sources)
        merged.warnings.extend(page.warnings)
        merged.unplaced.extend(page.unplaced)
        for part in page.parts:
            if part.number not in seen_parts:
                seen_parts.add(part.number)
                merged.parts.append(part)
        for section in page.sections:
            if section.number not in seen_sections:
                seen_sections.add(section.number)
                merged.sections.append(section)
        for rule in page.rules:
            if rule.number in seen_rules:
                kept = merged.rules[seen_rules[rule.number]]
                if len(rule.text) > len(kept.text):  # overlapping pages: keep the fuller text
                    merged.rules[seen_rules[rule.number]] = rule
                continue
            seen_rules[rule.number] = len(merged.rules)
            merged.rules.append(rule)
        merged.glossary.extend(page.glossary)
    merged.parts.sort(key=lambda h: numbers.sort_key(h.number))
    merged.sections.sort(key=lambda h: numbers.sort_key(h.number))
    merged.rules.sort(key=lambda r: numbers.sort_key(r.number))
    items = sorted([*merged.parts, *merged.sections, *merged.rules], key=lambda x: numbers.sort_key(x.number))
    for i, item in enumerate(items):
        item.order = 2 * (i + 1)  # even: the odd orders between are for unplaced text
    _place_unplaced(merged, anchors, items)
    return merged


def _anchor(page: Edition, block: Unplaced) -> tuple[Unplaced, object | None, object | None]:
    """(block, the numbered item it followed on its page, the page's first item)."""
    numbered = sorted([*page.parts, *page.sections, *page.rules], key=lambda x: x.order)
    before = [x for x in numbered if x.order <= block.order]
    return block, before[-1] if before else None, numbered[0] if numbered else None


def _place_unplaced(merged: Edition, anchors: list, items: list) -> None:
    """Unplaced text stays beside the rule or heading it followed on its page
    (page orders would otherwise collide with the merged numbering)."""
    kept = {id(item) for item in items}
    end = 2 * len(items) + 1
    for block, before, first in anchors:
        if block.slot is not None and before is not None and id(before) in kept:
            block.order = before.order  # inside that rule, after its examples as before
        elif before is not None and id(before) in kept:
            block.order = before.order + 1
        elif first is not None and id(first) in kept:
            block.order = first.order - 1
        else:  # a page without any numbered item: its text goes last
            block.slot, block.order, end = None, end, end + 2

"""Lineages: one rule through every edition, with the number it had in each.

Consecutive editions of one language (by effective date) are aligned and the
primary pairs chained: a lineage starts where a rule is added (or where the
first edition has it) and ends where it is removed. A split-off rule starts a
lineage of its own that records the lineage it split from; a merged rule's
lineage ends and records the one it merged into.

A lineage's id is where it starts: ``{edition id}/{number}``, e.g.
``en/2009-07-08/110.5a`` -- stable when later editions are added, and readable.
Plain data: the caller turns it into RDF (rk:Lineage, rk:previousVersion /
rk:nextVersion in ontology/rulekb.ttl).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from rulekb.ingest.model import Edition

from .matcher import align_profiles
from .model import MERGED, SPLIT, Alignment
from .profile import build


@dataclass(slots=True)
class Lineage:
    id: str
    language: str
    numbers: dict[str, str] = field(default_factory=dict)  # edition id -> number, in edition order
    split_from: list[tuple[str, str]] = field(default_factory=list)  # (lineage id, edition id of the split)
    merged_into: list[tuple[str, str]] = field(default_factory=list)  # (lineage id, edition id of the merge)

    @property
    def first(self) -> str:
        return next(iter(self.numbers))

    @property
    def last(self) -> str:
        return next(reversed(self.numbers))

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "language": self.language,
            "editions": [{"edition": e, "number": n} for e, n in self.numbers.items()],
            "split_from": [{"lineage": l, "edition": e} for l, e in self.split_from],
            "merged_into": [{"lineage": l, "edition": e} for l, e in self.merged_into],
        }


@dataclass(slots=True)
class Lineages:
    editions: list[str]  # edition ids in the order they were chained (per language, by date)
    lineages: dict[str, Lineage]
    by_rule: dict[tuple[str, str], str]  # (edition id, number) -> lineage id
    alignments: list[Alignment]

    def of(self, edition: str, number: str) -> Lineage | None:
        lid = self.by_rule.get((edition, number))
        return self.lineages.get(lid) if lid else None

    def history(self, edition: str, number: str) -> list[tuple[str, str]]:
        """Every (edition, number) the rule had, oldest first."""
        lineage = self.of(edition, number)
        return list(lineage.numbers.items()) if lineage else []

    def __len__(self) -> int:
        return len(self.lineages)


def edition_order(editions: list[Edition]) -> dict[str, list[Edition]]:
    """Editions per language, sorted by effective date (then id)."""
    by_language: dict[str, list[Edition]] = {}
    for edition in editions:
        by_language.setdefault(edition.language, []).append(edition)
    for group in by_language.values():
        group.sort(key=lambda e: (e.effective_date or "9999", e.id))
    return by_language


def lineages(editions: list[Edition], progress: Callable[[str], None] | None = None,
             align: Callable | None = None) -> Lineages:
    """Chain the alignments of consecutive editions (per language) into lineages.

    ``editions`` should hold one edition per id (see :func:`kb.build.choose_editions`).
    ``align(previous profile, profile)``: :func:`align_profiles`, or what gives its result
    (kb.lineage.cache: each pair's alignment read back when the pair was aligned before)."""
    found: dict[str, Lineage] = {}
    by_rule: dict[tuple[str, str], str] = {}
    order: list[str] = []
    alignments: list[Alignment] = []

    def start(edition: Edition, number: str) -> Lineage:
        lineage = Lineage(f"{edition.id}/{number}", edition.language, {edition.id: number})
        found[lineage.id] = lineage
        by_rule[(edition.id, number)] = lineage.id
        return lineage

    for language, group in edition_order(editions).items():
        previous = None
        for edition in group:
            order.append(edition.id)
            profile = build(edition)
            if previous is None:
                for rule in edition.rules:
                    if (edition.id, rule.number) not in by_rule:
                        start(edition, rule.number)
                previous = profile
                continue
            if progress:
                progress(f"align {previous.id} -> {edition.id}")
            alignment = (align or align_profiles)(previous, profile)
            alignments.append(alignment)
            for new, old in alignment.predecessors().items():
                lid = by_rule.get((previous.id, old)) if old is not None else None
                if lid is None or edition.id in found[lid].numbers:
                    start(edition, new)
                else:
                    found[lid].numbers[edition.id] = new
                    by_rule[(edition.id, new)] = lid
            for pair in alignment.secondary():
                old_lid = by_rule.get((previous.id, pair.old))
                new_lid = by_rule.get((edition.id, pair.new))
                if not old_lid or not new_lid:
                    continue
                if pair.kind == SPLIT:
                    found[new_lid].split_from.append((old_lid, edition.id))
                elif pair.kind == MERGED:
                    found[old_lid].merged_into.append((new_lid, edition.id))
            previous = profile
    return Lineages(order, found, by_rule, alignments)

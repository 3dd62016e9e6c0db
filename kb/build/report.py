"""What a build reports: its counts, each stage's seconds and the machine's load."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


@dataclass


class BuildReport:
    editions: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # duplicates not loaded, with the reason
    refused: list[str] = field(default_factory=list)  # documents ingest refused
    quads: int = 0
    concepts: int = 0
    statements: int = 0
    reasoning: dict = field(default_factory=dict)  # reasoner, axiom sets, inferred, inconsistent editions
    citations: int = 0
    dangling: int = 0
    lineages: int = 0  # rules followed across the complete editions of each language
    changes: int = 0  # changes between consecutive editions (every aligned pair but the unchanged)
    lineage_seconds: float = 0.0
    meaning_changes: int = 0  # changes of meaning between consecutive editions (kb.rdf.meaning_changes)
    wordings: int = 0  # runs of unchanged number and text in a lineage, with their dates (kb.timeline.wordings)
    parse_cached: int = 0  # documents read back from $RULEKB_CACHE/documents (same bytes, same ingest code)
    lineage_cached: bool = False  # read back from $RULEKB_CACHE/lineages (same texts, same matcher)
    translations: dict = field(default_factory=dict)  # French texts vs English: texts, cached, findings, seconds
    search: dict = field(default_factory=dict)  # the search index: documents, seconds, bytes (kb.search)
    pages: dict = field(default_factory=dict)  # the rule pages' data beside the store: file, bytes, seconds (kb.pages)
    consistency: dict = field(default_factory=dict)  # each edition against itself: findings, by_kind, cached, seconds
    cards: dict = field(default_factory=dict)  # the card file read and linked (kb.cards.build): cards, file, seconds
    seconds: float = 0.0
    stages: dict = field(default_factory=dict)  # each stage's wall-clock seconds (kb.progress), in order
    stage_cpu: dict = field(default_factory=dict)  # each stage's CPU seconds, workers' included
    load_average: list = field(default_factory=list)  # the machine's, at the end: what the seconds were measured under
    store: str = ""
    store_bytes: int = 0

    def to_dict(self) -> dict:
        return dict(self.__dict__)


STAGE_ORDER = ("parse", "definitions", "reason", "align", "meanings", "translations", "consistency", "load", "store",
               "index", "pages")


def in_order(figures: dict) -> dict:
    """A stage's figures in the order of the stages (the reasoner's overlap others and may end after them)."""
    return {name: figures[name] for name in sorted(figures, key=lambda n: (STAGE_ORDER + (n,)).index(n))}


def load_average() -> list[float]:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return []

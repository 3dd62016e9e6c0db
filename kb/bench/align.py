"""Alignment benchmark: speed and accuracy of :func:`kb.align.align` against the
greedy difflib baseline (:mod:`kb.align.baseline`), in one run.

Figures (medians over ``repeat`` runs, both aligners timed on the same editions
in the same process, so the ratio is fair):

- the 2009 restructure (en/2009-05-01 -> en/2009-07-08) and an ordinary update
  (en/2025-11-14 -> en/2026-01-16): seconds per alignment, baseline/align ratio, and
  the same alignment without the cross-section pass (:mod:`kb.align.moves`): its cost
  as a ratio (``moves_cost``, with/without);
- every consecutive English pair chained into lineages (:func:`kb.align.lineages`),
  parsing excluded (timed separately); with ``fresh_lineages=False`` they are read from
  the lineage cache the build fills (:mod:`kb.lineage.cache`, computed there on a miss), for
  runs that want the accuracy figures and not the 127 alignments' time;
- accuracy on the gold set (per group) and on synthetic editions, both aligners; accuracy of
  align on the independent 2009 gold sets (written without tuning on them; the moves set has a
  held-out group, ``restructure-2009-moves-held``).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path

from ..errors import KBError
from ..align.baseline import align_baseline
from .align_eval import GOLD, INDEPENDENT_GOLD, MOVES_GOLD, evaluate_gold, evaluate_synthetic
from ..align.lineage import lineages
from ..align.matcher import align

RESTRUCTURE = ("en/2009-05-01", "en/2009-07-08")
ORDINARY = ("en/2025-11-14", "en/2026-01-16")
SYNTHETIC_BASE = "en/2011-09-30"


def _median(fn: Callable[[], object], repeat: int) -> tuple[float, object]:
    """The median seconds of ``repeat`` runs of ``fn``, and what its last run returned."""
    times, value = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times), value


class _Aligned:
    """The alignments this run computed, by aligner and editions: the gold sets score the 2009
    restructure four times (the gold, its independent and moves sets) and the ordinary pair
    once more, each pair with the editions the timing aligned. An alignment is a function of
    the two editions (the same text, the same pairs), so each is computed once; an edition is
    matched by equality, not by id (the gold's editions are parsed from their own files)."""

    def __init__(self):
        self._kept: list[tuple[str, object, object, object]] = []

    def keep(self, name: str, old, new, alignment) -> None:
        self._kept.append((name, old, new, alignment))

    def aligner(self, name: str, fn: Callable):
        def aligned(old, new):
            for kept_name, kept_old, kept_new, alignment in self._kept:
                if kept_name == name and kept_old.id == old.id and kept_new.id == new.id \
                        and kept_old == old and kept_new == new:
                    return alignment
            alignment = fn(old, new)
            self.keep(name, old, new, alignment)
            return alignment
        return aligned


def _strip(figures: dict) -> dict:
    """Accuracy figures without the per-row miss lists (kept only for align)."""
    return {k: v for k, v in figures.items() if k != "misses"}


def run_bench(corpus_dir: str | Path, repeat: int = 3, gold: str | Path = GOLD,
              progress: Callable[[str], None] | None = None, fresh_lineages: bool = True) -> dict:
    from rulekb.ingest.parse import parse_path

    from ..build import choose_editions

    say = progress or (lambda _message: None)
    english = Path(corpus_dir) / "en"
    if not english.is_dir():
        raise KBError(f"no English editions under {corpus_dir}")
    say("parse the English corpus")
    started = time.perf_counter()
    editions, _ = choose_editions(parse_path(english).editions)
    parse_seconds = time.perf_counter() - started
    by_id = {e.id: e for e in editions}
    for eid in (*RESTRUCTURE, *ORDINARY, SYNTHETIC_BASE):
        if eid not in by_id:
            raise KBError(f"the benchmark needs {eid}, which is not in {english}")

    pairs, aligned = {}, _Aligned()
    for name, (a, b) in (("restructure_2009", RESTRUCTURE), ("ordinary", ORDINARY)):
        old, new = by_id[a], by_id[b]
        say(f"time align and baseline on {a} -> {b}")
        ours, alignment = _median(lambda: align(old, new), repeat)
        aligned.keep("align", old, new, alignment)
        base, alignment = _median(lambda: align_baseline(old, new), repeat)
        aligned.keep("baseline", old, new, alignment)
        still, _ = _median(lambda: align(old, new, moves_pass=False), repeat)
        pairs[name] = {"old": a, "new": b, "align_seconds": round(ours, 4),
                       "baseline_seconds": round(base, 4), "ratio": round(base / ours, 1),
                       "without_moves_seconds": round(still, 4), "moves_cost": round(ours / still, 3)}

    english_editions = [e for e in editions if e.language == "en"]
    started = time.perf_counter()
    if fresh_lineages:
        say("chain every consecutive English pair into lineages")
        chained, from_cache = lineages(english_editions), False
    else:
        from ..lineage.cache import cached_lineages

        say("read the lineages from the lineage cache (chained there on a miss)")
        chained, from_cache = cached_lineages(english_editions)
    lineage_seconds = time.perf_counter() - started

    say("score the gold set")
    gold_figures = evaluate_gold(Path(corpus_dir), gold, {"align": aligned.aligner("align", align),
                                                          "baseline": aligned.aligner("baseline", align_baseline)})
    say("score the independent 2009 gold sets")
    independent: dict[str, dict] = {}
    for path in (INDEPENDENT_GOLD, MOVES_GOLD):
        figures = evaluate_gold(Path(corpus_dir), path, {"align": aligned.aligner("align", align)})["align"]
        independent.update({group: f for group, f in figures.items() if group != "all"})
    say("score synthetic editions")
    synthetic = evaluate_synthetic(by_id[SYNTHETIC_BASE])
    return {
        "repeat": repeat,
        "parse_seconds": round(parse_seconds, 2),
        "pairs": pairs,
        "lineages": {"editions": len(chained.editions), "alignments": len(chained.alignments),
                     "lineages": len(chained), "seconds": round(lineage_seconds, 2),
                     "from_cache": from_cache},
        "gold": {
            "align": gold_figures["align"],
            "baseline": {group: _strip(f) for group, f in gold_figures["baseline"].items()},
            "independent": independent,
        },
        "synthetic": {"base": SYNTHETIC_BASE, "align": synthetic["align"],
                      "baseline": _strip(synthetic["baseline"])},
    }

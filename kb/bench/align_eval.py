"""How right is an alignment: a hand-verified gold set and synthetic editions.

Gold set (``kb/bench/gold/alignment_gold.tsv``): numbers and short notes only,
never rules text. Each row names an old edition, a new edition, an old rule
number and its true successor -- one number, ``-`` (no successor: removed, or
only a heading now), or alternatives separated by ``|`` where the rule was
split or absorbed and more than one answer is right. ``check`` is the first 8
hex digits of the SHA-1 of the old rule's text as parsed, so a row that stops
pointing at the rule it was written for fails loudly instead of scoring noise.

Columns (tab-separated; ``#`` starts a comment line)::

    group  old_edition  new_edition  old  new  check  note

Scores per group (``restructure-2009``, ``ordinary``, ...): a row is correct
when the predicted successor (the primary pair, or the rule it merged into) is
one of the accepted answers. Precision counts predicted pairs that are right
among all predicted pairs; recall counts right pairs among rows whose answer is
a rule; accuracy counts right rows (removals included).
"""

from __future__ import annotations

import csv
import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from importlib import resources

from rulekb.ingest.model import Edition

from ..errors import KBError
from ..align.baseline import align_baseline
from ..align.matcher import align
from ..align.model import Alignment
from ..align.synthetic import mutate

GOLD = resources.files("rulekb.kb.bench").joinpath("gold", "alignment_gold.tsv")
# the untuned 2009 pairs: evaluate_gold(corpus, path=INDEPENDENT_GOLD)
INDEPENDENT_GOLD = resources.files("rulekb.kb.bench").joinpath("gold", "alignment_gold_2009_independent.tsv")
# rules of the 2009 restructure that moved to another section and were reworded, with a held-out half
# (groups restructure-2009-moves-held / -tune), written before the aligner's cross-section pass
MOVES_GOLD = resources.files("rulekb.kb.bench").joinpath("gold", "alignment_gold_2009_moves.tsv")
COLUMNS = ["group", "old_edition", "new_edition", "old", "new", "check", "note"]


@dataclass(frozen=True, slots=True)
class GoldRow:
    group: str
    old_edition: str
    new_edition: str
    old: str
    accepted: frozenset  # rule numbers; None stands for "no successor"
    check: str
    note: str
    line: int


def text_check(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]


def load_gold(path: str | Path = GOLD) -> list[GoldRow]:
    rows: list[GoldRow] = []
    with open(path, encoding="utf-8") as handle:
        lines = [(n, line) for n, line in enumerate(handle, 1) if line.strip() and not line.startswith("#")]
    reader = csv.DictReader((line for _, line in lines), fieldnames=COLUMNS, delimiter="\t")
    for (number, _), row in zip(lines, reader):
        if row["group"] == "group":
            continue  # the header
        accepted = frozenset(None if x == "-" else x for x in row["new"].split("|"))
        rows.append(GoldRow(row["group"], row["old_edition"], row["new_edition"], row["old"], accepted,
                            row["check"], row["note"] or "", number))
    return rows


def load_editions(corpus: Path, ids: set[str]) -> dict[str, Edition]:
    """Parse just the editions the gold set needs (``en/DATE`` -> ``CORPUS/en/CR-DATE.txt``)."""
    from rulekb.ingest.parse import parse_path

    found: dict[str, Edition] = {}
    for eid in sorted(ids):
        language, date = eid.split("/", 1)
        path = Path(corpus) / language / f"CR-{date}.txt"
        if not path.exists():
            raise KBError(f"gold set needs {eid}, but {path} does not exist")
        for edition in parse_path(path).editions:
            if edition.id == eid:
                found[eid] = edition
        if eid not in found:
            raise KBError(f"{path} did not parse as {eid}")
    return found


def verify(rows: list[GoldRow], editions: dict[str, Edition]) -> list[str]:
    """Rows that no longer point at the rule they were written for."""
    problems = []
    for row in rows:
        rule = editions[row.old_edition].rule(row.old)
        if rule is None:
            problems.append(f"line {row.line}: {row.old_edition} has no rule {row.old}")
        elif text_check(rule.text) != row.check:
            problems.append(f"line {row.line}: {row.old_edition} {row.old} text changed (check {row.check})")
        for new in row.accepted:
            if new is not None and editions[row.new_edition].rule(new) is None:
                problems.append(f"line {row.line}: {row.new_edition} has no rule {new}")
    return problems


@dataclass
class Score:
    rows: int = 0
    correct: int = 0
    true_positives: int = 0
    false_positives: int = 0
    false_negatives: int = 0
    misses: list[dict] = field(default_factory=list)

    def add(self, expected: frozenset, predicted: str | None, label: dict) -> None:
        self.rows += 1
        right = predicted in expected
        self.correct += right
        if predicted is not None:
            if right:
                self.true_positives += 1
            else:
                self.false_positives += 1
        if not right and any(x is not None for x in expected):
            self.false_negatives += 1
        if not right:
            self.misses.append({**label, "predicted": predicted or "-"})

    def figures(self) -> dict:
        tp, fp, fn = self.true_positives, self.false_positives, self.false_negatives
        return {
            "rows": self.rows,
            "correct": self.correct,
            "accuracy": round(self.correct / self.rows, 4) if self.rows else None,
            "precision": round(tp / (tp + fp), 4) if tp + fp else None,
            "recall": round(tp / (tp + fn), 4) if tp + fn else None,
            "misses": self.misses,
        }


Aligner = Callable[[Edition, Edition], Alignment]
ALIGNERS: dict[str, Aligner] = {"align": align, "baseline": align_baseline}


def score_gold(rows: list[GoldRow], editions: dict[str, Edition], aligner: Aligner) -> dict[str, dict]:
    """Figures per group (and ``all``) for one aligner."""
    alignments: dict[tuple[str, str], dict] = {}
    scores: dict[str, Score] = {}
    for row in rows:
        key = (row.old_edition, row.new_edition)
        if key not in alignments:
            alignments[key] = aligner(editions[key[0]], editions[key[1]]).successors()
        predicted = alignments[key].get(row.old)
        label = {"line": row.line, "old_edition": row.old_edition, "old": row.old,
                 "expected": "|".join(sorted(x or "-" for x in row.accepted))}
        for group in (row.group, "all"):
            scores.setdefault(group, Score()).add(row.accepted, predicted, label)
    return {group: score.figures() for group, score in scores.items()}


def evaluate_gold(corpus: Path, path: str | Path = GOLD, aligners: dict[str, Aligner] | None = None) -> dict:
    rows = load_gold(path)
    editions = load_editions(corpus, {r.old_edition for r in rows} | {r.new_edition for r in rows})
    problems = verify(rows, editions)
    if problems:
        raise KBError("the alignment gold set is out of date:\n" + "\n".join(problems))
    return {name: score_gold(rows, editions, fn) for name, fn in (aligners or ALIGNERS).items()}


def evaluate_synthetic(edition: Edition, seeds: tuple[int, ...] = (1, 2, 3), rate: float = 0.04,
                       aligners: dict[str, Aligner] | None = None) -> dict:
    """Precision/recall on mutated copies of ``edition`` whose true alignment is known
    (see :mod:`kb.align.synthetic`): every old rule is scored, not a sample."""
    out: dict[str, dict] = {}
    for name, fn in (aligners or ALIGNERS).items():
        score, seconds = Score(), 0.0
        for seed in seeds:
            mutated, truth = mutate(edition, seed=seed, rate=rate)
            started = time.perf_counter()
            predicted = fn(edition, mutated).successors()
            seconds += time.perf_counter() - started
            for old, new in truth.items():
                score.add(frozenset([new]), predicted.get(old), {"seed": seed, "old": old, "expected": new or "-"})
        figures = score.figures()
        figures["misses"] = figures["misses"][:20]
        figures["seconds"] = round(seconds, 3)
        out[name] = figures
    return out

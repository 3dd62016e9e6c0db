"""``rulekb bench search``: is the rule that settles a question among the first k?

The gold set (``kb/bench/gold/search_gold.tsv``, package data, written by reading the rules)
gives each question its edition and the rules that settle it; a question is a
hit at k when one of them is among the first k results. Each question runs
twice on the same index in the same process: the fused ranking (:mod:`.rank`)
and the plain BM25 baseline (the question's words over the text fields).

The weights of :mod:`.rank` were set on :data:`.rank.DEV_QUESTIONS` and on the
*tuning* part of the gold set (ids whose number is a multiple of 4); every
other question is *held out*, and the figures are printed for both.
"""

from __future__ import annotations

import csv
import statistics
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

GOLD = resources.files("rulekb.kb.bench").joinpath("gold", "search_gold.tsv")  # package data
KS = (1, 5, 10)


@dataclass
class Question:
    id: str
    lang: str
    edition: str
    question: str
    rules: list[str]
    note: str = ""

    @property
    def tuning(self) -> bool:
        digits = "".join(c for c in self.id if c.isdigit())
        return bool(digits) and int(digits) % 4 == 0


def load_gold(path: Path = GOLD) -> list[Question]:
    from ..errors import KBError

    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as exc:
        raise KBError(f"no gold questions at {path} ({exc.strerror or exc}); give --gold FILE") from None
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    rows = list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))
    try:
        questions = [Question(r["id"], r["lang"], r["edition"], r["question"], r["rules"].split(), r.get("note") or "")
                     for r in rows]
    except (KeyError, AttributeError):
        raise KBError(f"{path}: not a search gold set (columns id, lang, edition, question, rules, note)") from None
    if not questions:
        raise KBError(f"{path}: no questions")
    return questions


def rank_of(results: list[dict], rules: list[str]) -> int | None:
    """1-based position of the first result that is one of ``rules`` (None: not in the list)."""
    for i, hit in enumerate(results, start=1):
        if hit.get("rule") in rules:
            return i
    return None


def scores(ranks: list[int | None]) -> dict:
    n = len(ranks) or 1
    out = {f"recall@{k}": round(100 * sum(1 for r in ranks if r and r <= k) / n, 1) for k in KS}
    out["mrr"] = round(sum(1 / r for r in ranks if r) / n, 3)
    out["questions"] = len(ranks)
    return out


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] if ordered else 0.0


def run(searcher, questions: list[Question], limit: int = 10) -> dict:
    fused, plain, misses, rows = [], [], [], []
    one_ms, all_ms, one_cpu, all_cpu = [], [], [], []
    for q in questions:
        started, cpu = time.perf_counter(), time.process_time()
        found = searcher.search(q.question, edition=q.edition, limit=limit)
        one_ms.append((time.perf_counter() - started) * 1000)
        one_cpu.append((time.process_time() - cpu) * 1000)
        base = searcher.search(q.question, edition=q.edition, limit=limit, baseline=True)
        r, b = rank_of(found["results"], q.rules), rank_of(base["results"], q.rules)
        fused.append(r)
        plain.append(b)
        rows.append((q, r, b))
        if not r or r > 5:
            misses.append({"id": q.id, "question": q.question, "expected": q.rules, "rank": r, "bm25_rank": b,
                           "got": [h.get("rule") or f"glossary:{h.get('term')}" for h in found["results"][:5]]})
        started, cpu = time.perf_counter(), time.process_time()
        searcher.search(q.question, lang=q.lang, all_editions=True, limit=limit)
        all_ms.append((time.perf_counter() - started) * 1000)
        all_cpu.append((time.process_time() - cpu) * 1000)

    def split(select) -> dict:
        chosen = [(r, b) for q, r, b in rows if select(q)]
        return {"fused": scores([r for r, _ in chosen]), "bm25": scores([b for _, b in chosen])}

    return {
        "all": split(lambda q: True),
        "en": split(lambda q: q.lang == "en"),
        "fr": split(lambda q: q.lang == "fr"),
        "held_out": split(lambda q: not q.tuning),
        "held_out_en": split(lambda q: not q.tuning and q.lang == "en"),
        "held_out_fr": split(lambda q: not q.tuning and q.lang == "fr"),
        "tuning": split(lambda q: q.tuning),
        "latency_ms": {
            "one_edition_p50": round(statistics.median(one_ms), 2), "one_edition_p99": round(percentile(one_ms, 99), 2),
            "all_editions_p50": round(statistics.median(all_ms), 2), "all_editions_p99": round(percentile(all_ms, 99), 2),
            # CPU time of the process per query: what a loaded machine does not inflate
            "one_edition_cpu_p50": round(statistics.median(one_cpu), 2),
            "all_editions_cpu_p50": round(statistics.median(all_cpu), 2),
            "queries": len(one_ms),
        },
        "misses": misses,
    }


def cold_start(store: str | None, query: str = "summoning sickness", repeat: int = 3) -> dict:
    """``rulekb search`` as a fresh process, median of ``repeat``: wall clock, and the CPU
    time the process used (user + system: what a loaded machine does not inflate);
    ``rulekb --help`` beside it (the command line's own start)."""
    import resource
    import subprocess
    import sys

    def timed(args: list[str]) -> tuple[float, float]:
        wall, cpu = [], []
        for _ in range(repeat):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.perf_counter()
            subprocess.run([sys.executable, "-m", "rulekb.kb.cli", *args], capture_output=True, check=False)
            wall.append(time.perf_counter() - started)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        return round(statistics.median(wall), 3), round(statistics.median(cpu), 3)

    extra = ["--store", store] if store else []
    search_wall, search_cpu = timed(["search", query, "--format", "json", *extra])
    help_wall, help_cpu = timed(["--help"])
    return {"search_seconds": search_wall, "search_cpu_seconds": search_cpu,
            "help_seconds": help_wall, "help_cpu_seconds": help_cpu}


def index_figures(searcher) -> dict:
    directory = searcher.directory
    stats = dict(searcher.meta.get("stats", {}))
    stats["bytes_on_disk"] = sum(f.stat().st_size for f in directory.rglob("*") if f.is_file())
    return stats

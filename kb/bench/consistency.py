"""``rulekb bench consistency``: the check over every edition of the corpus -- seconds
(cold: an empty cache; warm: every edition read back from it, as a rebuild does),
counts per kind and severity, precision per kind on the hand-judged findings
(kb/bench/gold/consistency_judged.tsv) and recall on the gold list written by reading the
corpus (kb/bench/gold/consistency_gold.tsv)."""

from __future__ import annotations

import csv
import os
import statistics
import tempfile
import time
from importlib import resources

DATA = resources.files("rulekb.kb.bench").joinpath("gold")  # package data: an installed wheel has them


def read_tsv(path) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [row for row in csv.DictReader((line for line in f if not line.startswith("#")), delimiter="\t")]


def places(cell: str) -> tuple[str, ...]:
    return tuple(p.strip() for p in cell.split("|") if p.strip())


def score(results: list[dict], judged: list[dict], gold: list[dict]) -> dict:
    """Precision per kind over the judged editions and kinds (every contradiction and
    inconsistency of a kind judged on an edition must be judged there: an unjudged one is
    reported), recall on the gold list. A kind is judged on an edition when the judged file
    has a row of that kind on it (the editions judged whole have a row of every kind they
    had; a kind judged on every edition, such as the glossary's lists, has rows on each).
    ``glossary_lists``: the same precision for glossary-vs-rules findings of severity
    contradiction (a glossary entry enumerating a set unlike its defining rule)."""
    by_edition = {data["edition"]: data["findings"] for data in results}
    verdicts = {(r["edition"], r["kind"], places(r["rules"])): r["verdict"].strip() == "true" for r in judged}
    scope = {(r["edition"], r["kind"]) for r in judged}
    precision: dict[str, dict] = {}
    lists = {"true": 0, "false": 0}
    unjudged = []
    for edition in sorted({e for e, _ in scope}):
        for item in by_edition.get(edition, []):
            if item["severity"] == "notice" or (edition, item["kind"]) not in scope:
                continue
            key = (edition, item["kind"], tuple(item["rules"]))
            tally = precision.setdefault(item["kind"], {"true": 0, "false": 0})
            if key not in verdicts:
                unjudged.append(f"{edition} {item['kind']} {' | '.join(item['rules'])}")
                continue
            tally["true" if verdicts[key] else "false"] += 1
            if item["kind"] == "glossary-vs-rules" and item["severity"] == "contradiction":
                lists["true" if verdicts[key] else "false"] += 1
    for tally in (*precision.values(), lists):
        n = tally["true"] + tally["false"]
        tally["precision"] = round(tally["true"] / n, 3) if n else None
    found, missed = 0, []
    for row in gold:
        want = set(places(row["rules"]))
        hit = any(item["kind"] == row["kind"] and want <= set(item["rules"])
                  for item in by_edition.get(row["edition"], []))
        found += hit
        if not hit:
            missed.append(f"{row['edition']} {row['kind']} {row['rules']}")
    return {"precision": precision, "glossary_lists": lists, "unjudged": unjudged,
            "recall": {"gold": len(gold), "found": found, "missed": missed,
                       "kinds": len({r["kind"] for r in gold}),
                       "recall": round(found / len(gold), 3) if gold else None}}


def run(sources: list[str], repeat: int = 3, cold: bool = True, progress=None) -> dict:
    from rulekb.ingest.parse import parse_many
    from rulekb.kb.build import choose_editions, reason
    from rulekb.kb.rdf.concepts import KeyIndex, add_ontology_labels, collect
    from rulekb.kb.rdf.lexicon import ontology_labels

    from ..consistency import store

    parsed = parse_many(sources)
    editions, _ = choose_editions(parsed.editions)
    concepts = collect(editions)
    add_ontology_labels(concepts, ontology_labels())
    from rulekb.kb.build import statements_of

    keys = KeyIndex(concepts)
    statements = {e.id: statements_of(e, keys) for e in editions}
    terms = {key: c.denotes[0] for key, c in concepts.items() if c.denotes}
    results, reasoning = reason(statements, terms, "auto", progress)
    out: dict = {"editions": len(editions), "english": sum(e.language == "en" for e in editions),
                 "reasoner": reasoning.get("reasoner")}
    if cold:
        previous = os.environ.get("RULEKB_CACHE")
        with tempfile.TemporaryDirectory() as empty:
            os.environ["RULEKB_CACHE"] = empty
            try:
                started = time.perf_counter()
                store.for_build(editions, statements, results, progress)
                out["cold_seconds"] = round(time.perf_counter() - started, 2)
            finally:
                if previous is None:
                    os.environ.pop("RULEKB_CACHE", None)
                else:
                    os.environ["RULEKB_CACHE"] = previous
    found, _ = store.for_build(editions, statements, results, progress)  # fills the cache when empty
    warm = []
    for _ in range(repeat):
        started = time.perf_counter()
        found, summary = store.for_build(editions, statements, results)
        warm.append(time.perf_counter() - started)
    out["warm_seconds_median"] = round(statistics.median(warm), 3)
    out["warm_runs"] = [round(s, 3) for s in warm]
    english = [d for d in found if d["edition"].startswith("en/")]
    counts: dict[str, dict[str, int]] = {}
    for data in english:
        for item in data["findings"]:
            counts.setdefault(item["kind"], {}).setdefault(item["severity"], 0)
            counts[item["kind"]][item["severity"]] += 1
    out["english_counts"] = dict(sorted(counts.items()))
    out["french_findings"] = sum(len(d["findings"]) for d in found if d["edition"].startswith("fr/"))
    out.update(score(found, read_tsv(DATA / "consistency_judged.tsv"), read_tsv(DATA / "consistency_gold.tsv")))
    return out

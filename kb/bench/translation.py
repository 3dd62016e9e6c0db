"""``rulekb bench translation``: the figures of the translation report.

Two parts. The precision set (:mod:`.evaluate`): invented texts mutated by hand,
precision and recall per kind with their counts. The corpus run: every French
text of the corpus with rules, its base detected among all the complete English
editions (score, runner-up, ties), checked against the newest one as the build
does it (:mod:`kb.rdf.translation`, without its cache), with the counts per kind
and the time each text takes (medians over the runs).
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path


def bench_translation(corpus: Path, repeat: int = 1, progress: Callable[[str], None] | None = None) -> dict:
    from rulekb.ingest.parse import parse_many
    from rulekb.kb.build import chain, choose_editions
    from rulekb.kb.rdf.translation import lineage_alignment

    from ..translate.align import FeatureCache
    from ..translate.drift import drift_report
    from .translation_eval import evaluate

    started = time.perf_counter()
    precision = evaluate()
    precision_seconds = time.perf_counter() - started
    parsed = parse_many([str(corpus / "en"), str(corpus / "fr")])
    editions, _ = choose_editions(parsed.editions)
    chained, _ = chain(editions)
    english = sorted((e for e in editions if e.language == "en" and not e.partial and e.effective_date),
                     key=lambda e: (e.effective_date, e.id))
    french = [e for e in editions if e.language == "fr"]
    timings: dict[str, list[float]] = {e.id: [] for e in french if e.rules}
    totals, texts = [], []
    for run in range(repeat):
        cache = FeatureCache()  # every run cold
        run_started = time.perf_counter()
        for fr in french:
            if not fr.rules:
                if run == 0:
                    texts.append({"fr_edition": fr.id, "source": Path(fr.source.location).name, "rules": 0,
                                  "result": "no French rules"})
                continue
            if progress:
                progress(f"{fr.id} (run {run + 1})")
            t = time.perf_counter()
            data = drift_report(fr, english[-1], candidates=english, cache=cache,
                                alignment_of=lambda b, target, wanted: lineage_alignment(chained, b, target, wanted))
            timings[fr.id].append(time.perf_counter() - t)
            if run == 0:
                base = data["base"]
                texts.append({"fr_edition": fr.id, "source": Path(fr.source.location).name, "rules": len(fr.rules),
                              "base": data["base_detected"], "score": base["score"],
                              "runner_up": base["runner_up"], "runner_up_score": base["runner_up_score"],
                              "tied": base["tied"], "tied_until": base["tied_until"],
                              "kinds": dict(sorted(Counter(i["kind"] for i in data["items"]).items()))})
        totals.append(time.perf_counter() - run_started)
    for row in texts:
        if row["fr_edition"] in timings and timings[row["fr_edition"]]:
            row["seconds_median"] = round(statistics.median(timings[row["fr_edition"]]), 3)
    per_text = [statistics.median(v) for v in timings.values() if v]
    kinds = Counter()
    for row in texts:
        kinds.update(row.get("kinds", {}))
    return {
        "precision_set": precision, "precision_seconds": round(precision_seconds, 2),
        "english_candidates": len(english), "against": english[-1].id if english else None,
        "texts": texts, "kinds": dict(sorted(kinds.items())), "runs": repeat,
        "total_seconds_median": round(statistics.median(totals), 2) if totals else 0.0,
        "per_text_seconds_median": round(statistics.median(per_text), 3) if per_text else 0.0,
        "per_text_seconds_max": round(max(per_text), 3) if per_text else 0.0,
    }

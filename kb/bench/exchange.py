"""``rulekb bench translation-files``: how long each translators' file takes for one
French text of the KB, against the translation report it carries (the baseline, measured
in the same run): the XLIFF worklist (report + export), the export alone, the TMX memory
(base pairs read from the KB, and against the newest English edition), the TBX termbase.
Medians over ``repeat`` runs, the files taken in turns within each run (so a load that
comes and goes weighs on all of them alike).

The report itself twice: as it runs (the base rules carried to the newest English edition
through the KB's stored lineages) and, as the baseline ``report (aligner)``, with the base
aligned with the newest edition again (``lineages=False``): ``speedup_over_aligner`` is the
ratio of the two, and ``same_findings`` says whether their counts per kind agree."""

from __future__ import annotations

import statistics
import time


def _medians(works: dict, repeat: int) -> dict[str, float]:
    times: dict[str, list[float]] = {name: [] for name in works}
    for _ in range(repeat):
        for name, work in works.items():
            started = time.perf_counter()
            work()
            times[name].append(time.perf_counter() - started)
    return {name: statistics.median(values) for name, values in times.items()}


def _kinds(data: dict) -> dict[str, int]:
    from collections import Counter

    return dict(sorted(Counter(item["kind"] for item in data["items"]).items()))


def bench_exchange(store, french: str, base: str = "auto", repeat: int = 3) -> dict:
    from .. import service
    from ..translate.exchange.xliff import to_xliff
    from ..translate.from_kb import translation_parts

    newest = service.newest_english(store)
    parts = translation_parts([french], newest, base, store)
    aligned = translation_parts([french], newest, base, store, lineages=False)
    figures = _medians({
        "report (aligner)": lambda: translation_parts([french], newest, base, store, lineages=False),
        "report": lambda: service.translation([french], newest, base, store),
        "xliff": lambda: service.translation_xliff([french], newest, base, store),
        "xliff export only": lambda: to_xliff(*parts),
        "tmx (base pairs)": lambda: service.translation_memory([french], None, store),
        "tmx (--us newest)": lambda: service.translation_memory([french], newest, store),
        "tbx": lambda: service.termbase(service.term_pairs(), store),
    }, repeat)
    baseline = figures["report"]
    return {"fr_edition": french, "us_edition": newest, "base": base, "repeat": repeat,
            "base_detected": parts[0].get("base_detected"),
            "seconds": {k: round(v, 3) for k, v in figures.items()},
            "ratio_to_report": {k: round(v / baseline, 2) if baseline else None for k, v in figures.items()},
            "speedup_over_aligner": round(figures["report (aligner)"] / baseline, 2) if baseline else None,
            "findings": _kinds(parts[0]), "findings_aligner": _kinds(aligned[0]),
            "same_findings": _kinds(parts[0]) == _kinds(aligned[0])}

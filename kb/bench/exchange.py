"""``rulekb bench translation-files``: how long each translators' file takes for one
French text of the KB, against the translation report it carries (the baseline, measured
in the same run): the XLIFF worklist (report + export), the export alone, the TMX memory
(base pairs read from the KB, and against the newest English edition), the TBX termbase.
Medians over ``repeat`` runs, the files taken in turns within each run (so a load that
comes and goes weighs on all of them alike).

The report itself twice: as it runs (the base rules carried to the newest English edition
through the KB's stored lineages) and, as the baseline ``report (aligner)``, with the base
aligned with the newest edition again (``lineages=False``): ``speedup_over_aligner`` is the
ratio of the two, and ``same_findings`` says whether their counts per kind agree.

With ``--base auto`` (or ``all``), the baseline of the detection too: the same report with the
detected base given (``report --base BASE``); the report as it runs (``report``: after the
first run, the choice read back from the cache, ``auto_over_explicit``), detecting again with
the candidates from the page data (a French text's first run: the candidates' features kept
by the build, ``report (detecting: kept)``; their texts read from the page data and scored,
``report (detecting: page data)``) and from the store (``report (detecting: store)``: as before
the page data answered them), each as a ratio to the report with the base given."""

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


def _worklist(parts, kind: str) -> str:
    from ..compare.report import render
    from ..translate.worklist import worklist

    return render(worklist(*parts), kind)


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
    detecting = base in ("auto", "all")
    chosen = parts[0].get("base_detected") or newest
    works = {"report (aligner)": lambda: translation_parts([french], newest, base, store, lineages=False)}
    if detecting:  # the same report with its base given: what detecting it adds
        works[f"report --base {chosen}"] = lambda: service.translation([french], newest, chosen, store)
        works["report (detecting: kept)"] = \
            lambda: translation_parts([french], newest, base, store, candidates="kept")
        works["report (detecting: page data)"] = \
            lambda: translation_parts([french], newest, base, store, candidates="page data")
        works["report (detecting: store)"] = \
            lambda: translation_parts([french], newest, base, store, candidates="store")
    figures = _medians({
        **works,
        "report": lambda: service.translation([french], newest, base, store),
        "markdown worklist": lambda: _worklist(service.translation([french], newest, base, store), "md"),
        "xliff": lambda: service.translation_xliff([french], newest, base, store),
        "xliff export only": lambda: to_xliff(*parts),
        "tmx (base pairs)": lambda: service.translation_memory([french], None, store),
        "tmx (--us newest)": lambda: service.translation_memory([french], newest, store),
        "tbx": lambda: service.termbase(service.term_pairs(), store),
    }, repeat)
    baseline = figures["report"]
    explicit = figures.get(f"report --base {chosen}")
    return {"fr_edition": french, "us_edition": newest, "base": base, "repeat": repeat,
            "base_detected": parts[0].get("base_detected"),
            "candidates": parts[0]["base"].get("candidates"), "candidates_from": parts[0]["base"].get("candidates_from"),
            # --base auto against the same report with the base it detects given (the baseline of
            # the detection), and against reading the candidates from the store as it used to
            "auto_over_explicit": round(baseline / explicit, 2) if explicit else None,
            "detecting_kept_over_explicit": round(figures["report (detecting: kept)"] / explicit, 2)
            if explicit else None,
            "detecting_page_data_over_explicit": round(figures["report (detecting: page data)"] / explicit, 2)
            if explicit else None,
            "detecting_store_over_explicit": round(figures["report (detecting: store)"] / explicit, 2)
            if explicit else None,
            "seconds": {k: round(v, 3) for k, v in figures.items()},
            "ratio_to_report": {k: round(v / baseline, 2) if baseline else None for k, v in figures.items()},
            "speedup_over_aligner": round(figures["report (aligner)"] / baseline, 2) if baseline else None,
            "findings": _kinds(parts[0]), "findings_aligner": _kinds(aligned[0]),
            "same_findings": _kinds(parts[0]) == _kinds(aligned[0])}

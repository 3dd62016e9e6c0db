"""``rulekb bench translation-files``: how long each translators' file takes for one
French text of the KB, against the translation report it carries (the baseline, measured
in the same run): the XLIFF worklist (report + export), the export alone, the TMX memory
(base pairs read from the KB, and against the newest English edition), the TBX termbase.
Medians over ``repeat`` runs."""

from __future__ import annotations

import statistics
import time


def _median(work, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def bench_exchange(store, french: str, base: str = "auto", repeat: int = 3) -> dict:
    from .. import service
    from ..translate.exchange.xliff import to_xliff
    from ..translate.from_kb import translation_parts

    newest = service.newest_english(store)
    parts = translation_parts([french], newest, base, store)
    figures = {
        "report": _median(lambda: service.translation([french], newest, base, store), repeat),
        "xliff": _median(lambda: service.translation_xliff([french], newest, base, store), repeat),
        "xliff export only": _median(lambda: to_xliff(*parts), repeat),
        "tmx (base pairs)": _median(lambda: service.translation_memory([french], None, store), repeat),
        "tmx (--us newest)": _median(lambda: service.translation_memory([french], newest, store), repeat),
        "tbx": _median(lambda: service.termbase(service.term_pairs(), store), repeat),
    }
    baseline = figures["report"]
    return {"fr_edition": french, "us_edition": newest, "base": base, "repeat": repeat,
            "seconds": {k: round(v, 3) for k, v in figures.items()},
            "ratio_to_report": {k: round(v / baseline, 2) if baseline else None for k, v in figures.items()}}

"""``rulekb bench timeline``: the point-in-time queries on a built store, medians over runs.

- ``rule-as-of`` (the named query, and :func:`kb.service.rule_as_of` with the resolver);
- ``rules-changed-between`` over short and long windows (the 2009 restructure, a year, all);
- a rule page's history from the stored wordings (``lineage-versions``) beside the
  per-edition ``rule-history`` it replaces, in the same run (the ratio);
- how much the wordings add to the store (rk:Wording nodes, their triples).
"""

from __future__ import annotations

import statistics
import time

from ..store import queries
from .. import service

AS_OF = [("111.2", "2010-03-15"), ("100.1", "2005-06-01"), ("702.19b", "2020-01-01"), ("613.1f", "2014-09-01"),
         ("200.5a", "2008-01-01"), ("704.5a", "2024-03-01"), ("500.1", "1999-06-01"), ("122.1", "2026-01-20")]
WINDOWS = [("2009-05-01", "2009-07-31"), ("2020-01-01", "2020-12-31"), ("1999-01-01", "2026-12-01")]
HISTORY = [("en/2026-01-16", "111.2"), ("en/2026-01-16", "702.19b"), ("en/2011-09-30", "111.2"),
           ("en/2026-01-16", "100.1"), ("en/2009-05-01", "200.5a")]


def _median_ms(fn, repeat: int) -> float:
    fn()  # warm
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def _query(store, name: str, **params):
    query = queries.get(name)
    text, bindings = query.text, query.bindings(params)
    return lambda: store.select(text, bindings)


def bench_timeline(store, repeat: int = 20) -> dict:
    known = service.timeline(store)
    as_of = {f"{n}@{d}": _median_ms(_query(store, "rule-as-of", number=n, date=d, lang="en"), repeat)
             for n, d in AS_OF}
    as_of_service = {f"{n}@{d}": _median_ms(lambda n=n, d=d: _safe(service.rule_as_of, store, n, d, known=known), repeat)
                     for n, d in AS_OF}
    rows = {f"{a}..{b}": len(service.rules_changed_between(store, a, b, "en")) for a, b in WINDOWS}
    between = {f"{a}..{b}": _median_ms(_query(store, "rules-changed-between", **{"from": a, "to": b, "lang": "en"}),
                                       max(3, repeat // 4)) for a, b in WINDOWS}
    ranges = {f"{e} {n}": _median_ms(_query(store, "lineage-versions", edition=e, number=n), repeat) for e, n in HISTORY}
    per_edition = {f"{e} {n}": _median_ms(_query(store, "rule-history", edition=e, number=n), repeat) for e, n in HISTORY}
    counts = store.select("""PREFIX rk: <https://w3id.org/rulekb#>
        SELECT (COUNT(?w) AS ?wordings) WHERE { ?w a rk:Wording }""")[0]
    wordings = int(counts.get("wordings", 0))
    triples = int(store.select("""PREFIX rk: <https://w3id.org/rulekb#> PREFIX dcterms: <http://purl.org/dc/terms/>
        SELECT (COUNT(*) AS ?n) WHERE { ?w a rk:Wording ; ?p ?o }""")[0].get("n", 0))
    return {
        "repeat": repeat,
        "rule_as_of_ms": as_of, "rule_as_of_median_ms": statistics.median(as_of.values()),
        "rule_as_of_service_median_ms": statistics.median(as_of_service.values()),
        "rules_changed_between_ms": between, "rules_changed_between_rows": rows,
        "rules_changed_between_max_ms": max(between.values()),
        "history_from_ranges_ms": ranges, "history_from_ranges_median_ms": statistics.median(ranges.values()),
        "history_per_edition_ms": per_edition, "history_per_edition_median_ms": statistics.median(per_edition.values()),
        "history_ratio": statistics.median(per_edition.values()) / max(statistics.median(ranges.values()), 1e-9),
        "wordings": wordings, "wording_triples": triples,
    }


def _safe(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except Exception:  # a sample rule the store does not have on that date: timed all the same
        return None

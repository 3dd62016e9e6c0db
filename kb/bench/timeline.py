"""``rulekb bench timeline``: the point-in-time queries on a built store, medians over runs.

- ``rule-as-of`` (the named query, and :func:`kb.service.rule_as_of` with the resolver);
- ``rules-changed-between`` over short and long windows (the 2009 restructure, a year, all): the
  named query, and the answer as ``rulekb changes`` and the web give it (from the build's page
  data when it keeps the rows, else the same query);
- the pages of the longest window as ``/api/changes`` serves it (kb.service.rules_changed_page:
  the counts per date, then the page's own dates): the slowest page and the median one;
- a rule page's history from the stored wordings (``lineage-versions``) beside the
  per-edition ``rule-history`` it replaces, in the same run (the ratio), and as the rule page
  reads it: from the build's page data (kb.pages) when the build wrote it;
- how much the wordings add to the store (rk:Wording nodes, their triples).

Every figure is a median of wall-clock times; beside it the median of this process's CPU
time for the same runs (the store is embedded: the query runs in this process), which a
loaded machine inflates less. The load average is printed with them.
"""

from __future__ import annotations

import os
import statistics
import time

from ..store import queries
from .. import service

AS_OF = [("111.2", "2010-03-15"), ("100.1", "2005-06-01"), ("702.19b", "2020-01-01"), ("613.1f", "2014-09-01"),
         ("200.5a", "2008-01-01"), ("704.5a", "2024-03-01"), ("500.1", "1999-06-01"), ("122.1", "2026-01-20")]
WINDOWS = [("2009-05-01", "2009-07-31"), ("2020-01-01", "2020-12-31"), ("2014-01-01", "2016-12-31"),
           ("2003-06-01", "2008-06-01"), ("1999-01-01", "2026-12-01")]
HISTORY = [("en/2026-01-16", "111.2"), ("en/2026-01-16", "702.19b"), ("en/2011-09-30", "111.2"),
           ("en/2026-01-16", "100.1"), ("en/2009-05-01", "200.5a")]


def _median_ms(fn, repeat: int, cpu: dict | None = None, key: str | None = None) -> float:
    """The median wall-clock ms of ``repeat`` runs of ``fn`` (after one to warm); the median CPU
    ms of the same runs goes into ``cpu[key]`` when given."""
    fn()  # warm
    times, cpus = [], []
    for _ in range(repeat):
        started, started_cpu = time.perf_counter(), time.process_time()
        fn()
        times.append((time.perf_counter() - started) * 1000)
        cpus.append((time.process_time() - started_cpu) * 1000)
    if cpu is not None:
        cpu[key] = statistics.median(cpus)
    return statistics.median(times)


def _query(store, name: str, **params):
    query = queries.get(name)
    text, bindings = query.text, query.bindings(params)
    return lambda: store.select(text, bindings)


def bench_timeline(store, repeat: int = 20) -> dict:
    from .. import pages as page_data

    known = service.timeline(store)
    data = page_data.for_store(store)
    load_before = os.getloadavg()
    cpu: dict[str, dict[str, float]] = {"as_of": {}, "between": {}, "ranges": {}, "per_edition": {}}
    as_of = {f"{n}@{d}": _median_ms(_query(store, "rule-as-of", number=n, date=d, lang="en"), repeat,
                                    cpu["as_of"], f"{n}@{d}")
             for n, d in AS_OF}
    as_of_service = {f"{n}@{d}": _median_ms(lambda n=n, d=d: _safe(service.rule_as_of, store, n, d, known=known), repeat)
                     for n, d in AS_OF}
    rows = {f"{a}..{b}": len(service.rules_changed_between(store, a, b, "en")) for a, b in WINDOWS}
    between = {f"{a}..{b}": _median_ms(_query(store, "rules-changed-between", **{"from": a, "to": b, "lang": "en"}),
                                       max(3, repeat // 4), cpu["between"], f"{a}..{b}") for a, b in WINDOWS}
    cpu["between_answer"] = {}  # as `rulekb changes` and the web answer: from the page data when the build kept it
    between_answer = {f"{a}..{b}": _median_ms(lambda a=a, b=b: service.rules_changed_between(store, a, b, "en"),
                                              max(3, repeat // 4), cpu["between_answer"], f"{a}..{b}")
                      for a, b in WINDOWS}
    start, end = WINDOWS[-1]
    pages, after = {}, None
    cpu["pages"] = {}
    while True:  # every page of the longest window, each timed as it is asked (the cursor of the one before)
        page = service.rules_changed_page(store, start, end, "en", after=after)
        key = f"after {after or start}: {len(page['rows'])} rows"
        pages[key] = _median_ms(lambda a=after: service.rules_changed_page(store, start, end, "en", after=a),
                                max(3, repeat // 4), cpu["pages"], key)
        if page["next"] is None:
            break
        after = page["next"]
    ranges, per_edition, from_pages = {}, {}, {}
    cpu["page_data"] = {}
    for e, n in HISTORY:  # the two side by side, rule by rule: the same load for both
        ranges[f"{e} {n}"] = _median_ms(_query(store, "lineage-versions", edition=e, number=n), repeat,
                                        cpu["ranges"], f"{e} {n}")
        per_edition[f"{e} {n}"] = _median_ms(_query(store, "rule-history", edition=e, number=n), repeat,
                                             cpu["per_edition"], f"{e} {n}")
        if data is not None and data.rows("lineage-versions", e, n) is not None:  # the rule page's own path
            paged = page_data.paged(store, e, n)
            from_pages[f"{e} {n}"] = _median_ms(lambda p=paged, e=e, n=n: service.rule_wordings(p, e, n), repeat,
                                                cpu["page_data"], f"{e} {n}")
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
        "rules_changed_between_answer_ms": between_answer,
        "rules_changed_between_answer_max_ms": max(between_answer.values()),
        "rules_changed_between_answer_cpu_max_ms": max(cpu["between_answer"].values()),
        "rules_changed_between_from_page_data": bool(data is not None and data.has_changes),
        "history_from_ranges_ms": ranges, "history_from_ranges_median_ms": statistics.median(ranges.values()),
        "history_per_edition_ms": per_edition, "history_per_edition_median_ms": statistics.median(per_edition.values()),
        "history_ratio": statistics.median(per_edition.values()) / max(statistics.median(ranges.values()), 1e-9),
        "history_from_page_data_ms": from_pages,
        "history_from_page_data_median_ms": statistics.median(from_pages.values()) if from_pages else None,
        "history_from_page_data_cpu_median_ms": statistics.median(cpu["page_data"].values()) if from_pages else None,
        "changes_pages_ms": pages, "changes_pages": len(pages),
        "changes_page_max_ms": max(pages.values()), "changes_page_median_ms": statistics.median(pages.values()),
        "changes_page_cpu_max_ms": max(cpu["pages"].values()),
        "changes_page_cpu_median_ms": statistics.median(cpu["pages"].values()),
        "wordings": wordings, "wording_triples": triples,
        "cpu_ms": cpu,
        "rule_as_of_cpu_median_ms": statistics.median(cpu["as_of"].values()),
        "rules_changed_between_cpu_max_ms": max(cpu["between"].values()),
        "history_from_ranges_cpu_median_ms": statistics.median(cpu["ranges"].values()),
        "history_per_edition_cpu_median_ms": statistics.median(cpu["per_edition"].values()),
        "load_average": [round(x, 2) for x in load_before], "load_average_after": [round(x, 2) for x in os.getloadavg()],
    }


def _safe(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except Exception:  # a sample rule the store does not have on that date: timed all the same
        return None

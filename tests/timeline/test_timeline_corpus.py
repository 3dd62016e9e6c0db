"""On the whole corpus: the point-in-time queries read from the wordings' own links
(rk:firstEdition, rk:introducedBy, rk:endedBy) give the rows the joins over every change gave
(tests/timeline/reference), for windows across the 2009 restructure and ordinary years, and
for the history and the as-of answer of a sample of rules of three editions."""

from __future__ import annotations

import random

from rulekb.kb import service

from .reference import rows, same

WINDOWS = [("2009-05-01", "2009-07-31"), ("2020-01-01", "2020-12-31"), ("2014-01-01", "2014-12-31"),
           ("2003-06-01", "2004-06-01")]


def check_the_same_rows(store) -> int:
    """How many comparisons were made (each fails the test when rows differ)."""
    made = 0
    for start, end in WINDOWS:
        params = {"from": start, "to": end, "lang": "en"}
        old, new = rows(store, "rules-changed-between", **params), service.run(store, "rules-changed-between", **params)
        assert old and same(old, new), (start, end)
        made += 1
    kinds = {r["kind"] for r in service.run(store, "rules-changed-between", **{"from": "2009-05-01", "to": "2010-12-31"})}
    assert kinds == {"added", "modified", "renumbered", "split", "removed", "merged"}
    pick = random.Random(15)
    for edition in ("en/2026-01-16", "en/2009-05-01", "en/2014-07-18"):
        numbers = [r["number"] for r in service.run(store, "edition-rules", edition=edition)]
        for number in pick.sample(numbers, 30):
            old = rows(store, "lineage-versions", edition=edition, number=number)
            assert same(old, service.run(store, "lineage-versions", edition=edition, number=number)), (edition, number)
            for date in ("2005-06-01", "2010-03-15", "2024-03-01"):
                old = rows(store, "rule-as-of", number=number, date=date, lang="en")
                new = [{k: v for k, v in r.items() if k not in ("ended", "ended_in")}
                       for r in service.run(store, "rule-as-of", number=number, date=date, lang="en")]
                assert same(old, new), (number, date)
            made += 1
    return made


def test_the_queries_from_the_wordings_links_give_the_rows_of_the_joins(corpus_kb):
    store, _ = corpus_kb
    assert check_the_same_rows(store) == len(WINDOWS) + 90

"""The rule page's faster paths give the same answers as the slower ones they replace:
rule-in-french with its texts looked up row by row against the plain join it
had, and the rule page served without describing the IRI first against the page served
after the description. No timing here: speed is `rulekb bench serve`'s."""

from __future__ import annotations

import pytest

from rulekb.kb.store import queries
from rulekb.kb.service import run

# rule-in-french as it was: one plain join (the reference the rewritten query must match)
PLAIN_JOIN = """
SELECT ?fr ?fr_number ?fr_text ?en ?en_number ?en_text WHERE {
  ?ed rk:editionId ?edition .
  GRAPH ?ed { ?rule rk:number ?number }
  ?rule rk:lineage ?lineage .
  ?en rk:lineage ?lineage .
  ?fr rk:translationOf ?en .
  ?fr rk:number ?fr_number ; rk:text ?fr_text .
  ?en rk:number ?en_number ; rk:text ?en_text .
}
ORDER BY DESC(STR(?fr)) ?fr_number
"""


def french_rows_agree(store, edition: str, numbers: list[str]) -> tuple[int, int]:
    """Asserts rule-in-french == the plain join for each rule; returns (rules, rows) compared."""
    reference = queries.prefixes() + "\n" + PLAIN_JOIN
    rows = 0
    for number in numbers:
        new = run(store, "rule-in-french", edition=edition, number=number)
        old = store.select(reference, {"edition": edition, "number": number})
        assert new == old, (edition, number)
        rows += len(new)
    return len(numbers), rows


def _sample(store, edition: str, every: int = 40) -> list[str]:
    rows = run(store, "edition-rules", edition=edition)
    return [r["number"] for r in rows[::every]]


@pytest.mark.parametrize("edition", ["en/2008-02-01", "en/2011-02-04", "en/2026-01-16"])
def test_rule_in_french_same_rows_as_the_plain_join(corpus_kb, edition):
    store, _ = corpus_kb
    numbers = _sample(store, edition)
    assert numbers
    _, rows = french_rows_agree(store, edition, numbers)
    if edition == "en/2011-02-04":  # a French edition translates it: rows to compare
        assert rows > 0


def test_rule_page_without_describe_is_the_same_page(corpus_web):
    """resources.DIRECT_PAGES: the rule page answered before any description is the page
    the describe-first path gives; a missing rule still gets the 404 with suggestions."""
    from rulekb.kb.web import resources

    from ..helpers import http

    paths = ["edition/en/2026-01-16/rule/702.15b", "edition/en/2011-02-04/rule/306.5b",
             "edition/en/2026-01-16/rule/100.1", "edition/en/2026-01-16/rule/999.99z"]
    html = {"Accept": "text/html"}
    direct = [http(corpus_web + p, headers=html) for p in paths]
    saved = resources.DIRECT_PAGES
    resources.DIRECT_PAGES = ()
    try:
        described = [http(corpus_web + p, headers=html) for p in paths]
    finally:
        resources.DIRECT_PAGES = saved
    assert [a[0] for a in direct] == [b[0] for b in described] == [200, 200, 200, 404]
    for (_, a_headers, a_body), (_, b_headers, b_body) in zip(direct, described):
        assert a_body == b_body
        assert a_headers.get("Vary") == b_headers.get("Vary")

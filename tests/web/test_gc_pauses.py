"""A rule page's latency tail: what the garbage collector walks on a full collection.

Each server process keeps caches of pure functions (the word diffs of a lineage's wordings, the
rendered rows of its history): kept as objects the collector tracks, every full collection
walked them all, pauses of hundreds of milliseconds under load. They are plain strings now, and
start-up's objects are frozen once warm (kb.web.readiness.settle_memory)."""

from __future__ import annotations

import gc

from rulekb.kb.web import html, rule_page
from rulekb.kb.web.context import WebContext


def test_the_diff_cache_holds_html_strings_the_collector_does_not_track():
    out = rule_page._diff("The owner of a token is its controller.", "The controller of a token is its owner.")
    assert type(out) is str and not gc.is_tracked(out)
    assert "<ins>" in out and "<del>" in out
    escaped = rule_page._diff("A <old> rule", "A new & better rule")  # the texts escaped, the tags not
    assert "&lt;old&gt;" in escaped and "&amp;" in escaped and "<del>" in escaped


def test_a_history_row_is_kept_as_a_plain_string():
    period = {"first": "en/2030-05-05", "last": "en/2030-05-05", "number": "100.1", "text": "A <b> rule.",
              "current": True, "editions": 1, "kind": "reworded", "diff": "<ins>A</ins> rule."}
    row = html.history_row(period, WebContext(store=None, base="http://localhost:8000/"))
    kept = html._kept_row("http://localhost:8000/", tuple(period.items()))
    assert type(kept) is str and not gc.is_tracked(kept)
    assert str(row) == kept and "<ins>A</ins> rule." in kept  # the diff is the page's HTML, not escaped again


def test_a_costly_diff_is_kept_apart_from_the_lru_turnover(monkeypatch):
    monkeypatch.setattr(rule_page, "COSTLY_DIFF", -1.0)  # every diff counts as costly
    monkeypatch.setattr(rule_page, "_costly", {})
    rule_page._diff_kept.cache_clear()
    first = rule_page._diff("one two three", "one four three")
    rule_page._diff_kept.cache_clear()  # the LRU turned over

    def no_second_computation(*_):
        raise AssertionError("a costly diff was computed again")

    monkeypatch.setattr(rule_page.history, "word_diff", no_second_computation)
    assert rule_page._diff("one two three", "one four three") == first
    rule_page._diff_kept.cache_clear()


def test_settle_memory_freezes_what_start_up_made():
    from rulekb.kb.web.readiness import settle_memory

    try:
        kept = [[n] for n in range(1000)]  # start-up's objects, alive as long as the process
        assert settle_memory() >= len(kept)
        assert gc.get_freeze_count() >= len(kept)
    finally:
        gc.unfreeze()


def test_a_kept_response_is_a_tuple_the_collector_stops_tracking():
    """A full response cache (one edition's rule pages: 3,114 answers) kept an object, its
    __dict__ and a list per answer: 12,000 tracked objects, a full collection of 14 ms CPU."""
    from rulekb.kb.web import cache

    kept = cache.entry(200, [(b"content-type", b"text/html"), (b"etag", b'"x"')], b"<p>page</p>", b'"x"')
    for _ in range(3):  # a collection untracks one level of tuples: the pairs, the headers, the answer
        gc.collect()
    assert not gc.is_tracked(kept) and not gc.is_tracked(kept[cache.HEADERS])
    assert cache.size(kept) > len(b"<p>page</p>")

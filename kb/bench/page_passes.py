"""``rulekb bench pages --newest``: the newest edition's pages as a server process renders them.

What ``rulekb serve`` renders ahead before its port opens (kb.web.readiness.warm): the
edition's section pages (kept: a section lists every rule under it, the slowest page to
render) and its rule pages (once: the word diffs and history rows they share are kept, the
pages not). Measured in this process, CPU per page (``time.thread_time``: the machine's load
counts far less than in the wall clock), page functions called directly (no response cache,
no socket):

- section pages: each rendered from the store (what every request cost before they were
  kept), then answered again from what the process keeps;
- rule pages: a first pass over the edition in a fresh process (every diff and history row
  computed), then a second (what a reader's request costs once the warm-up rendered them ahead:
  the page still queried and rendered, its shared parts kept).
"""

from __future__ import annotations

import os
import statistics
import time


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _summary(ms: list[float], names: list[str]) -> dict:
    slowest = sorted(zip(ms, names), reverse=True)[:3]
    return {"pages": len(ms), "cpu_ms_median": round(statistics.median(ms), 3), "cpu_ms_p99": round(_quantile(ms, 0.99), 3),
            "cpu_ms_max": round(max(ms), 3), "cpu_ms_total": round(sum(ms), 1),
            "slowest": [[name, round(m, 2)] for m, name in slowest]}


def _timed(function, *args) -> float:
    started = time.thread_time()
    function(*args)
    return (time.thread_time() - started) * 1000


def bench_newest(store, edition: str, progress=None) -> dict:
    from ..service import run
    from ..web import edition_pages, rule_page
    from ..web.context import WebContext

    ctx = WebContext.create(store)
    load_before = os.getloadavg()
    sections = [h["number"] for h in run(store, "edition-sections", edition=edition) if h["kind"] == "section"]
    rules = [r["number"] for r in run(store, "edition-rules", edition=edition)]
    edition_pages.SECTIONS_KEPT.clear()
    figures: dict = {"edition": edition}
    rendered = [_timed(edition_pages._section_page, ctx, edition, n) for n in sections]
    edition_pages.render_sections_ahead(ctx, edition)
    kept = [_timed(edition_pages.section_page, ctx, edition, n) for n in sections]
    figures["section pages rendered"] = _summary(rendered, sections)
    figures["section pages kept"] = _summary(kept, sections)
    if progress is not None:
        progress(f"{len(sections)} section pages of {edition}")
    for label in ("rule pages, first pass", "rule pages, second pass"):
        ms = [_timed(rule_page.rule_page, ctx, edition, n) for n in rules]
        figures[label] = _summary(ms, rules)
        if progress is not None:
            progress(f"{label}: {len(rules)} pages")
    figures["load_average"] = [round(x, 1) for x in load_before]
    figures["load_average_after"] = [round(x, 1) for x in os.getloadavg()]
    return figures

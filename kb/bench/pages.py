"""``rulekb bench pages``: the CPU an uncached rule page costs, in this process.

Pages of different rule versions (spread over every edition, old and new, English and French)
are requested from the web app itself (kb.web, no response cache), called as an ASGI app in
this process: routing, dereferencing, the page's queries and page data, rendering, the
response; no socket, no uvicorn. Each round renders every page once; the figure is the median
over rounds of this process's CPU time per page (``time.process_time``), which a loaded machine
inflates far less than the wall clock (printed beside it, with the load average). The same
pages are rendered with the build's page data (kb.pages) and without it (every query asked),
in turns in the same run: the ratio between them is the page data's gain.

``against``: a second store holding the same KB (a SPARQL endpoint: ``rulekb build --store
URL``), its pages rendered in the same rounds, in turns with the first store's with its page
data: the wall-clock median of each a page and their ratio (the endpoint's time is not this
process's CPU), and whether the bytes are the same.

Beside it, the garbage collector's full collections during the measured rounds (the process
settled as ``rulekb serve`` settles it once warm: kb.web.readiness.settle_memory): how many,
the CPU of the longest and of all, and the objects it tracks at the end. A full collection
stops every request of a server process: the longest is the floor of the p99 under load.
"""

from __future__ import annotations

import asyncio
import gc
import os
import statistics
import time

from ..store import queries


def sample(store, pages: int) -> list[tuple[str, str]]:
    """``pages`` (edition, number) keys, the same on every run of one store: every edition in
    turn, rules evenly spaced through it."""
    editions = [r["edition"] for r in queries.run(store, "edition-graphs")]
    per = max(1, -(-pages // max(1, len(editions))))
    keys: list[tuple[str, str]] = []
    for edition in editions:
        numbers = [r["number"] for r in queries.run(store, "edition-rules", edition=edition)]
        step = max(1, len(numbers) // per)
        keys += [(edition, n) for n in numbers[step // 2::step][:per]]
    spread = max(1, len(keys) // pages)
    return keys[::spread][:pages]


async def _get(app, path: str) -> tuple[int, bytes]:
    """One GET through the ASGI app, as a browser asks (Accept: text/html)."""
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
             "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
             "headers": [(b"host", b"127.0.0.1:8000"), (b"accept", b"text/html")],
             "client": ("127.0.0.1", 40000), "server": ("127.0.0.1", 8000)}
    sent: list[dict] = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    await app(scope, receive, send)
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    return status, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


def _get_all(app, paths: list[str]) -> list[tuple[int, bytes]]:
    """Every path in turn on one event loop (as a server process runs them, one at a time)."""

    async def every():
        return [await _get(app, p) for p in paths]

    return asyncio.run(every())


def bench_pages(store, pages: int = 200, rounds: int = 5, progress=None, against=None) -> dict:
    from ..cli.serve_commands import build_app
    from ..pages import for_store
    from ..web import rule_page

    keys = sample(store, pages)
    app = build_app(store, None, max_rows=1000, timeout=30, cache=0, query_workers=1)
    ctx_base = queries.run(store, "edition-graphs")[0]["ed"]
    base = ctx_base[: ctx_base.index("edition/")]
    paths = [f"/edition/{e}/rule/{n}" for e, n in keys]
    has_data = for_store(store) is not None
    modes = ["page data", "queries"] if has_data else ["queries"]
    apps = dict.fromkeys(modes, app)
    if against is not None:
        apps["other store"] = build_app(against, None, max_rows=1000, timeout=30, cache=0, query_workers=1)
        modes.append("other store")
    load_before = os.getloadavg()
    cpu: dict[str, list[float]] = {m: [] for m in modes}
    wall: dict[str, list[float]] = {m: [] for m in modes}
    bodies: dict[str, list[bytes]] = {}
    full: list[float] = []  # CPU seconds of each full collection of the measured rounds

    def collected(phase: str, info: dict) -> None:
        if info["generation"] == 2:
            if phase == "start":
                collected.started = time.thread_time()
            elif hasattr(collected, "started"):
                full.append(time.thread_time() - collected.started)

    try:
        for turn in range(rounds + 1):  # round 0 warms (templates, caches of the process)
            if turn == 1:
                from ..web.readiness import settle_memory

                settle_memory()
                gc.callbacks.append(collected)
            for mode in modes:
                rule_page.USE_PAGE_DATA = mode != "queries"
                started, started_cpu = time.perf_counter(), time.process_time()
                answers = _get_all(apps[mode], paths)
                spent_cpu, spent = time.process_time() - started_cpu, time.perf_counter() - started
                if turn == 0:
                    bad = [p for p, (status, _) in zip(paths, answers) if status != 200]
                    if bad:
                        from ..errors import KBError

                        raise KBError(f"{len(bad)} pages did not answer 200, e.g. {bad[0]}")
                    bodies[mode] = [body for _, body in answers]
                    continue
                cpu[mode].append(spent_cpu * 1000 / len(paths))
                wall[mode].append(spent * 1000 / len(paths))
                if progress is not None:
                    progress(f"round {turn}/{rounds} {mode}: {cpu[mode][-1]:.2f} ms CPU a page")
    finally:
        rule_page.USE_PAGE_DATA = True
        if collected in gc.callbacks:
            gc.callbacks.remove(collected)
        gc.unfreeze()
    figures = {
        "pages": len(paths),
        "rounds": rounds,
        "base": base,
        "modes": {m: {"cpu_ms_median": round(statistics.median(cpu[m]), 3),
                      "wall_ms_median": round(statistics.median(wall[m]), 3),
                      "cpu_ms": [round(x, 3) for x in cpu[m]]} for m in modes},
        "same_bytes": len({tuple(bodies[m]) for m in modes if m != "other store"}) == 1,
        "bytes_median": statistics.median(len(b) for b in bodies[modes[0]]),
        "load_average": [round(x, 1) for x in load_before],
        "load_average_after": [round(x, 1) for x in os.getloadavg()],
        "full_collections": {"count": len(full), "cpu_ms_max": round(max(full, default=0.0) * 1000, 1),
                             "cpu_ms_total": round(sum(full) * 1000, 1), "tracked_objects": len(gc.get_objects())},
    }
    if against is not None:
        figures["other_store"] = {"location": against.location, "same_bytes": bodies["other store"] == bodies[modes[0]],
                                  "ratio_wall_over_first": round(figures["modes"]["other store"]["wall_ms_median"]
                                                                 / figures["modes"][modes[0]]["wall_ms_median"], 1)}
    if has_data:
        figures["ratio_queries_over_page_data"] = round(
            figures["modes"]["queries"]["cpu_ms_median"] / figures["modes"]["page data"]["cpu_ms_median"], 2)
    return figures

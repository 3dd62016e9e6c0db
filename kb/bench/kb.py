"""KB benchmark: build the corpus, then time lookups and every named query.

Figures, all medians over repeated runs in one process:

- the build: seconds, quads, quads per second, store size on disk;
- ``rulekb rule`` from a cold start (a fresh process, imports included);
- a rule lookup (:func:`kb.service.rule`, five queries) and each named query
  with its documented example, on the full store;
- the same named queries on an in-memory rdflib dataset holding only one
  edition (and the concepts), in the same run: the ratio is what the store buys.
  Only queries about that one edition are compared; the others read every
  edition of the store, which the rdflib dataset does not hold.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

from ..store import queries
from .. import service
from ..build import build
from ..errors import KBError
from ..store.embedded import EmbeddedStore

RDFLIB_EDITION = "en/2026-01-16"
RDFLIB_LIMIT_S = 30.0  # per rdflib query; slower ones are reported as "> 30 s"


class _TooSlow(KBError):
    """An rdflib query stopped at RDFLIB_LIMIT_S (caught here: reported as "> N s")."""

    status = 504

    def __init__(self, message: str = "too slow"):
        super().__init__(message)


def _within(seconds: float, fn):
    """Run ``fn`` and give up after ``seconds`` (rdflib's pure-Python engine can
    take minutes on a join; the alarm interrupts it between bytecodes)."""
    import signal

    def stop(*_):
        raise _TooSlow

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return fn()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _median_ms(fn, repeat: int, budget_s: float = 10.0) -> float:
    times = []
    started = time.perf_counter()
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
        if time.perf_counter() - started > budget_s and len(times) >= 1:
            break
    return statistics.median(times)


def bench_kb(sources: list[str], store_dir: Path, repeat: int = 5, rebuild: bool = True,
             progress=None) -> dict:
    store = EmbeddedStore(store_dir)
    figures: dict = {}
    if rebuild or not store.exists():
        report = build(sources, store, progress=progress)
        figures["build"] = {
            "editions": len(report.editions),
            "quads": report.quads,
            "seconds": report.seconds,
            "quads_per_second": report.quads / report.seconds,
            "store_megabytes": report.store_bytes / 1e6,
        }
    figures["cold_start_rule_ms"] = _median_ms(
        lambda: subprocess.run(
            [sys.executable, "-m", "rulekb.kb.cli", "rule", RDFLIB_EDITION, "111.2", "--store", str(store_dir)],
            check=True, capture_output=True),
        3,
    )
    figures["rule_lookup_ms"] = _median_ms(lambda: service.rule(store, RDFLIB_EDITION, "601.2b"), repeat * 10)
    rule_query = queries.get("rule")
    figures["rule_query_ms"] = _median_ms(
        lambda: store.select(rule_query.text, {"edition": RDFLIB_EDITION, "number": "601.2b"}), repeat * 10)

    dataset = _rdflib_dataset(store)
    named = {}
    for name, query in queries.registry().items():
        params = queries.example_params(query)
        oxigraph_ms = _median_ms(lambda: store.query(query.text, params), repeat)
        row = {"oxigraph_ms": oxigraph_ms}
        # only queries about one edition compare fairly with rdflib holding one edition
        if params.get("edition") == RDFLIB_EDITION:
            from ..store.kind import bind_values

            text = bind_values(query.text, params)
            try:
                rdflib_ms = _median_ms(lambda: _within(RDFLIB_LIMIT_S, lambda: list(dataset.query(text))),
                                       max(1, repeat // 2), budget_s=RDFLIB_LIMIT_S)
            except _TooSlow:
                rdflib_ms = None  # more than the limit: reported as such, no ratio
            row["rdflib_one_edition_ms"] = rdflib_ms
            if rdflib_ms is not None:
                row["ratio"] = rdflib_ms / max(oxigraph_ms, 1e-6)
        named[name] = row
    figures["named_queries"] = named
    ratios = [row["ratio"] for row in named.values() if "ratio" in row]
    figures["rdflib_ratio_median"] = statistics.median(ratios) if ratios else None
    return figures


def _rdflib_dataset(store):
    """One edition and the concepts, in rdflib's in-memory store, default graph = union."""
    import rdflib

    dataset = rdflib.Dataset(default_union=True)
    edition_graph = service.run(store, "edition-exists", edition=RDFLIB_EDITION)[0]["ed"]
    concepts = next(g for g in store.graphs() if g.endswith("/graph/concepts"))
    for graph in (edition_graph, concepts):
        dataset.graph(rdflib.URIRef(graph)).parse(data=store.export(graph, "nt"), format="nt")
    return dataset

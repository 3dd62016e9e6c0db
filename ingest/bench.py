"""Ingest benchmark: parse every English edition in one process, several runs."""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from .parse import document_files, parse_bytes


def bench_corpus(directory: str | Path, repeat: int = 3) -> dict:
    files = [f for f in document_files(Path(directory)) if f.suffix == ".txt"]
    if not files:
        from .errors import IngestError

        raise IngestError("no .txt editions to benchmark", source=str(directory))
    blobs = [(str(f), f.read_bytes()) for f in files]  # I/O outside the timed loop
    megabytes = sum(len(b) for _, b in blobs) / 1e6
    totals: list[float] = []
    per_edition: dict[str, list[float]] = {name: [] for name, _ in blobs}
    rules = 0
    for _ in range(repeat):
        start = time.perf_counter()
        rules = 0
        for name, data in blobs:
            t0 = time.perf_counter()
            editions = parse_bytes(data, name)
            per_edition[name].append(time.perf_counter() - t0)
            rules += sum(len(e.rules) for e in editions)
        totals.append(time.perf_counter() - start)
    medians = {name: statistics.median(times) for name, times in per_edition.items()}
    slowest = max(medians, key=medians.get)
    total = statistics.median(totals)
    return {
        "editions": len(blobs),
        "megabytes": megabytes,
        "rules": rules,
        "runs": repeat,
        "total_seconds_median": total,
        "total_seconds_min": min(totals),
        "total_seconds_max": max(totals),
        "mb_per_second": megabytes / total,
        "per_edition_ms_median": statistics.median(medians.values()) * 1000,
        "per_edition_ms_max": medians[slowest] * 1000,
        "slowest_edition": Path(slowest).name,
    }

"""What a store holds and what it costs, and whether two stores answer alike.

- :func:`measure`: quads per kind of graph and per predicate, bytes on disk,
  bytes per quad, quads per edition (``rulekb bench footprint``).
- :func:`compare_answers`: every named query (and every QC check) run with its
  example parameters against two stores, rows compared as multisets (blank node
  labels ignored) -- the test that a smaller store gives the same answers
  (``rulekb bench answers OLD NEW``).
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter

from ..store import queries

_KINDS = (  # graph IRI suffix -> kind; anything else under /edition/ is an edition graph
    ("/graph/ontology", "ontology"), ("/graph/concepts", "concepts"), ("/graph/lineage", "lineage"),
    ("/graph/translation", "translation"), ("/graph/meaning", "meaning changes"),
)


def graph_kind(iri: str) -> str:
    for suffix, kind in _KINDS:
        if iri.endswith(suffix) or suffix + "/" in iri:
            return kind
    if "/edition/" in iri:
        return "edition"
    return iri.rsplit("/", 1)[-1] or iri


def measure(store, top: int = 40) -> dict:
    """Quads by graph kind and by predicate (the ``top`` biggest), bytes, bytes per quad."""
    started = time.perf_counter()
    by_graph = {row["g"]: int(row["n"]) for row in store.select(
        "SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g")}
    by_predicate = {row["p"]: int(row["n"]) for row in store.select(
        "SELECT ?p (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?p")}
    kinds: Counter = Counter()
    graphs: Counter = Counter()
    for graph, count in by_graph.items():
        kinds[graph_kind(graph)] += count
        graphs[graph_kind(graph)] += 1
    editions = graphs.get("edition", 0)
    quads = sum(by_graph.values())
    size = store.size_bytes() if hasattr(store, "size_bytes") else 0
    return {
        "quads": quads,
        "bytes": size,
        "bytes_per_quad": size / quads if quads else None,
        "editions": editions,
        "quads_per_edition": kinds.get("edition", 0) / editions if editions else None,
        "graphs": {kind: {"graphs": graphs[kind], "quads": n} for kind, n in kinds.most_common()},
        "predicates": dict(Counter(by_predicate).most_common(top)),
        "distinct_predicates": len(by_predicate),
        "seconds": round(time.perf_counter() - started, 2),
    }


def _example_params(query) -> dict[str, str]:
    from ..store.queries import example_params

    return example_params(query)


def _normalise(answer) -> tuple[list, bool]:
    """The rows (or triples) of an answer as sorted hashable items; and whether a LIMIT
    without ORDER BY makes the rows an arbitrary subset (then only the count is compared)."""
    if answer.kind == "graph":
        lines = answer.data.decode("utf-8")
        return sorted(re.sub(r"_:\S+", "_:b", line) for line in lines.splitlines() if line.strip()), False
    data = json.loads(answer.data)
    if "boolean" in data:
        return [data["boolean"]], False
    rows = []
    for binding in data["results"]["bindings"]:
        row = []
        for name, value in sorted(binding.items()):
            text = "_:b" if value.get("type") == "bnode" else value.get("value")
            row.append((name, value.get("type"), text, value.get("datatype"), value.get("xml:lang")))
        rows.append(tuple(row))
    return sorted(rows), False


def _answer(store, query, params):
    try:
        return store.query(query.text, params, rdf_format="nt")
    except Exception as error:  # noqa: BLE001 -- an error is an answer to compare too
        return ("error", type(error).__name__)


def queries_in(directory) -> dict:
    """The named queries and checks of a ``queries/`` directory (another checkout's, to ask
    an old store with the queries it was built for): name -> NamedQuery."""
    from pathlib import Path

    root = Path(directory)
    if not root.is_dir():
        from ..errors import NotFound

        raise NotFound(f"no queries directory {root}")
    found = {f.stem: queries.parse_query_file(f.stem, f.read_text(encoding="utf-8"))
             for f in sorted(root.glob("*.rq")) if not f.name.startswith("_")}
    found.update({f.stem: queries.parse_query_file(f.stem, f.read_text(encoding="utf-8"), check=True)
                  for f in sorted(root.glob("checks/*-violation.rq"))})
    return found


def compare_answers(old, new, names: list[str] | None = None, params: dict[str, dict[str, str]] | None = None,
                    old_queries: dict | None = None, repeat: int = 1) -> dict:
    """Run every named query and check (``names``: only those) with its example
    parameters on both stores; rows compared as multisets. ``differences`` lists the
    queries whose answers differ, with row counts and a few rows each way.

    ``params`` replaces example values: ``{"*": {"edition": ...}, "rule": {"number": ...}}``
    (``"*"`` for every query that takes the parameter, a query's name for that query), so
    a store of other editions than the examples' (a test fixture) is compared on its own.
    ``old_queries`` (:func:`queries_in`): the old store is asked with these instead (the
    queries of the checkout that built it), by name; a query only one side has is skipped.

    ``repeat`` > 1 also times each query: ``timings`` gives, per query, the median CPU seconds
    of this process (the embedded store answers in it) on each side over ``repeat`` runs taken
    in turns (old then new, then new then old...), and their ratio new/old."""
    from statistics import median

    every = {**queries.registry(), **queries.checks()}
    chosen = {n: q for n, q in every.items() if names is None or n in names}
    given = params or {}
    same, differences, seconds, timings = [], [], {"old": 0.0, "new": 0.0}, {}
    for name, query in sorted(chosen.items()):
        params = _example_params(query)
        for scope in ("*", name):
            params.update({k: v for k, v in given.get(scope, {}).items() if k in query.params})
        if set(query.params) - set(params):
            continue  # no example for every parameter: nothing to run
        asked = {"old": (old_queries or {}).get(name, query if old_queries is None else None), "new": query}
        if asked["old"] is None:
            continue
        rows, cpu = {}, {"old": [], "new": []}
        sides = [("old", old), ("new", new)]
        for turn in range(max(1, repeat)):
            for side, store in sides if turn % 2 == 0 else sides[::-1]:
                started, started_cpu = time.perf_counter(), time.process_time()
                answer = _answer(store, asked[side], params)
                cpu[side].append(time.process_time() - started_cpu)
                if turn == 0:
                    seconds[side] += time.perf_counter() - started
                    rows[side] = [answer] if isinstance(answer, tuple) else _normalise(answer)[0]
        if repeat > 1:
            medians = {side: median(values) for side, values in cpu.items()}
            timings[name] = {**{side: round(v, 5) for side, v in medians.items()},
                             "ratio": round(medians["new"] / medians["old"], 2) if medians["old"] > 0 else None}
        limited = re.search(r"\bLIMIT\b", query.body, re.I) and not re.search(r"\bORDER\s+BY\b", query.body, re.I)
        equal = len(rows["old"]) == len(rows["new"]) if limited else rows["old"] == rows["new"]
        if equal:
            same.append(name)
        else:
            old_c, new_c = Counter(rows["old"]), Counter(rows["new"])
            differences.append({
                "query": name, "params": params, "old_rows": len(rows["old"]), "new_rows": len(rows["new"]),
                "only_old": [repr(r) for r in list((old_c - new_c).elements())[:3]],
                "only_new": [repr(r) for r in list((new_c - old_c).elements())[:3]],
            })
    found = {"queries": len(same) + len(differences), "same": same, "differences": differences,
             "seconds": {k: round(v, 2) for k, v in seconds.items()}}
    if repeat > 1:
        found["timings"] = timings
    return found

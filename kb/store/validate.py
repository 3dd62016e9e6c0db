"""Is the KB well formed? SHACL shapes (pyshacl) and the QC queries in queries/checks.

Rows of a check are violations of the KB, or warnings when the check says the
source text is at fault (a rule citing a number its edition lacks): the KB
conforms when there are no violations.

The QC queries run over the whole store (each returns one row per offender).
SHACL runs per named graph in memory (the shapes are per node: a graph is
checked with what it links to, never the 6 M quads of the store in one rdflib
graph), so by default it checks the newest edition of each language and the
concepts graph; ``all_graphs`` checks every edition. An edition is checked with
what the lineage graph says about it (its rules' lineages and version links, the
changes into it): the whole lineage graph would not fit pyshacl's time.

On an embedded store on disk the checks and the graphs are independent tasks run
in a pool of processes (``jobs``, default one per core), each opening the store
read-only; the rows are merged in the order of the tasks, so the result does not
depend on the pool. A small store (under ``POOL_FROM_BYTES`` on disk) is checked in this
process unless ``jobs`` says otherwise: starting the pool's interpreters (rdflib and pyshacl
imported in each, about a second of CPU) costs more than its checks (a third of a second on
the fixture KB). The RDF pyshacl reads is parsed by pyoxigraph (N-Triples) and handed to
rdflib as terms: rdflib's own N-Triples parser took most of the time.
"""

from __future__ import annotations

import os

from . import queries

POOL_FROM_BYTES = 16 << 20  # a store this large on disk is checked in a pool of processes by default


def validate(store, editions: list[str] | None = None, all_graphs: bool = False, jobs: int | None = None) -> dict:
    graphs = _graphs_to_shape_check(store, editions, all_graphs)
    checks = queries.checks()
    # the graphs first: they are the long tasks, so the pool ends with the short ones
    tasks = [("shacl", graph) for graph in graphs] + [("check", name) for name in checks]
    location = _on_disk(store)
    if jobs is None and location is not None and store.size_bytes() < POOL_FROM_BYTES:
        jobs = 1
    jobs = min(jobs or os.cpu_count() or 1, len(tasks))
    if location is not None and jobs > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        # spawn, not fork: the caller may hold threads (a server) and an open store
        with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"),
                                 initializer=_open_in_worker, initargs=(location,)) as pool:
            found = list(pool.map(_run_in_worker, tasks))
    else:
        found = [_run(store, task) for task in tasks]
    by_task = dict(zip(tasks, found))
    violations: list[dict] = []
    for name in checks:  # the checks' rows first, then each graph's shapes, as before
        violations.extend(by_task[("check", name)])
    for graph in graphs:
        violations.extend(by_task[("shacl", graph)])
    errors = [v for v in violations if v["severity"] == "violation"]
    return {"conforms": not errors, "violations": errors,
            "warnings": [v for v in violations if v["severity"] != "violation"],
            "shacl_graphs": graphs, "checks": list(checks)}


def _on_disk(store) -> str | None:
    """The directory of an embedded store that other processes can open; None otherwise
    (a remote endpoint, a store in memory)."""
    if store.local_root is not None and store.data_dir() is not None:
        return store.location
    return None


_worker_store = None


def _open_in_worker(location: str) -> None:
    global _worker_store
    from .embedded import EmbeddedStore

    _worker_store = EmbeddedStore(location)


def _run_in_worker(task: tuple[str, str]) -> list[dict]:
    return _run(_worker_store, task)


def _run(store, task: tuple[str, str]) -> list[dict]:
    kind, name = task
    if kind == "shacl":
        return _shacl(store, name)
    return _check(store, name)


def _check(store, name: str) -> list[dict]:
    check = queries.checks()[name]
    out = []
    for row in store.select(check.text):
        message = row.pop("message", None) or ", ".join(f"{k}={v}" for k, v in row.items())
        out.append({"check": name, "severity": check.severity, "message": message, "focus": row})
    return out


def _graphs_to_shape_check(store, editions: list[str] | None, all_graphs: bool) -> list[str]:
    rows = queries.run(store, "edition-graphs")
    by_id = {row["edition"]: row for row in rows}
    if all_graphs:
        chosen = [row["ed"] for row in rows]
    elif editions:
        missing = [e for e in editions if e not in by_id]
        if missing:
            from ..errors import NotFound

            raise NotFound(f"no edition {missing[0]!r} in the knowledge base")
        chosen = [by_id[e]["ed"] for e in editions]
    else:
        newest: dict[str, dict] = {}
        for row in rows:  # ordered oldest first: the last complete one of each language wins
            if row.get("partial") != "true":
                newest[row["language"]] = row
        chosen = [row["ed"] for row in newest.values()]
    concepts = [g for g in store.graphs() if g.endswith("/graph/concepts")]
    return chosen + concepts


def _shacl(store, graph: str) -> list[dict]:
    import rdflib

    from rulekb.ontology import shapes

    from .validate_rdf import add_ntriples

    data = rdflib.Graph()
    add_ntriples(data, store.export(graph, "nt"))
    own = set(data.subjects())  # results about the linked resources below are not this graph's
    if "/edition/" in graph:  # its rules' lineages, version links and the changes into it
        links = queries.get("edition-lineage-links")
        extra = rdflib.Graph()
        add_ntriples(extra, store.query(links.text, links.bindings({"g": graph}), rdf_format="nt").data)
        own |= {s for s, p, _ in extra if p != rdflib.RDF.type}
        data += extra
    for name in ("linked-types", "statement-contents"):  # types of what it links to in other graphs,
        context = queries.get(name)                      # what its statements say (graph/statements)
        linked = store.query(context.text, context.bindings({"g": graph}), rdf_format="nt")
        add_ntriples(data, linked.data)
    shape_graph = rdflib.Graph().parse(data=shapes(), format="turtle")
    conforms, results, _ = _validate_own(data, shape_graph, own)
    if conforms:
        return []
    sh = rdflib.Namespace("http://www.w3.org/ns/shacl#")
    out = []
    for result in results.subjects(rdflib.RDF.type, sh.ValidationResult):
        focus = results.value(result, sh.focusNode)
        if focus not in own:
            continue
        message = results.value(result, sh.resultMessage)
        path = results.value(result, sh.resultPath)
        out.append({
            "check": "shacl",
            "severity": "violation",
            "message": f"{focus}: {message}" + (f" ({path})" if path else ""),
            "focus": {"graph": graph, "node": str(focus)},
        })
    return out


def _validate_own(data, shape_graph, own: set):
    """pyshacl over ``data`` with the shapes' targets limited to ``own``: the linked
    resources are in ``data`` for what the own nodes' constraints read of them (their
    types, for sh:class and sh:or), and their own results would be dropped anyway.
    The limit is on the top-level targets alone (each shape's ``focus_nodes``): a
    constraint still checks any value node it reaches. pyshacl's ``focus_nodes`` option
    is not that: it filters every nested evaluation too (an sh:or over a linked node
    would pass unchecked) and keeps IRIs only."""
    from pyshacl import Validator
    from pyshacl.graph_abstraction import DataGraph
    from pyshacl.shape import Shape

    from .shacl_fast import install

    install()  # sh:or over bare sh:class members answered in one lookup, and more (kb.store.shacl_fast)

    class OwnTargets(Shape):
        __slots__ = ()  # Shape's layout: an instance's class can be swapped for this one

        def focus_nodes(self, data_graph, debug=False):
            return {node for node in super().focus_nodes(data_graph, debug=debug) if node in own}

    validator = Validator(DataGraph.from_rdflib(data), shacl_graph=shape_graph, options={"inference": "none"})
    for shape in validator.shacl_graph.shapes:  # this validation's own shape objects
        if type(shape) is Shape:
            shape.__class__ = OwnTargets
    return validator.run()

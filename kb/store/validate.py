"""Is the KB well formed? SHACL shapes (pyshacl) and the QC queries in queries/checks.

Rows of a check are violations of the KB, or warnings when the check says the
source text is at fault (a rule citing a number its edition lacks): the KB
conforms when there are no violations.

The QC queries run over the whole store (each returns one row per offender).
SHACL runs per named graph in memory, so by default it checks the newest
edition of each language and the concepts graph; ``all_graphs`` checks every
edition (slow: minutes for 130 editions). An edition is checked with what the
lineage graph says about it (its rules' lineages and version links, the changes
into it): the whole lineage graph would not fit pyshacl's time.
"""

from __future__ import annotations

from . import queries


def validate(store, editions: list[str] | None = None, all_graphs: bool = False) -> dict:
    violations: list[dict] = []
    for name, check in queries.checks().items():
        for row in store.select(check.text):
            message = row.pop("message", None) or ", ".join(f"{k}={v}" for k, v in row.items())
            violations.append({"check": name, "severity": check.severity, "message": message, "focus": row})
    checked = []
    for graph in _graphs_to_shape_check(store, editions, all_graphs):
        checked.append(graph)
        violations.extend(_shacl(store, graph))
    errors = [v for v in violations if v["severity"] == "violation"]
    return {"conforms": not errors, "violations": errors,
            "warnings": [v for v in violations if v["severity"] != "violation"],
            "shacl_graphs": checked, "checks": list(queries.checks())}


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
    import pyshacl
    import rdflib

    from ontology import shapes

    data = rdflib.Graph().parse(data=store.export(graph, "nt"), format="nt")
    own = set(data.subjects())  # results about the linked resources below are not this graph's
    if "/edition/" in graph:  # its rules' lineages, version links and the changes into it
        links = queries.get("edition-lineage-links")
        extra = rdflib.Graph().parse(data=store.query(links.text, links.bindings({"g": graph}), rdf_format="nt").data,
                                     format="nt")
        own |= {s for s, p, _ in extra if p != rdflib.RDF.type}
        data += extra
    context = queries.get("linked-types")
    linked = store.query(context.text, context.bindings({"g": graph}), rdf_format="nt")
    data.parse(data=linked.data, format="nt")  # types of what it links to in other graphs
    shape_graph = rdflib.Graph().parse(data=shapes(), format="turtle")
    conforms, results, _ = pyshacl.validate(data, shacl_graph=shape_graph, inference="none")
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

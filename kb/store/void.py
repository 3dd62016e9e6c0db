"""The VoID description of the KB (``/void``): the dataset, its SPARQL endpoint,
its URI space and vocabularies, and one subset per named graph.

Counting triples per graph reads every quad of the store (``graph-sizes``:
about 5 s on the full KB), so callers compute :func:`statistics` once and keep
it; :func:`dataset` turns it into triples in no time.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyoxigraph as ox

from .describe import PREFIXES, VOID, void_dataset
from ..service import run

DCTERMS = PREFIXES["dcterms"]
VOCABULARIES = ["https://w3id.org/rulekb#", DCTERMS, PREFIXES["skos"], PREFIXES["prov"],
                PREFIXES["rdfs"], PREFIXES["owl"]]


@dataclass
class GraphInfo:
    iri: str
    triples: int
    edition: str | None = None  # the edition id, for an edition's graph
    language: str | None = None
    date: str | None = None
    partial: bool = False


def statistics(store) -> list[GraphInfo]:
    """Every named graph with its size, editions first (oldest first), then the others."""
    sizes = {row["graph"]: int(row["triples"]) for row in run(store, "graph-sizes")}
    found = []
    for row in run(store, "edition-graphs"):
        if row["ed"] in sizes:
            found.append(GraphInfo(row["ed"], sizes.pop(row["ed"]), row["edition"], row["language"],
                                   row.get("effective_date"), row.get("partial") == "true"))
    found += [GraphInfo(iri, count) for iri, count in sorted(sizes.items())]
    return found


def dataset(base: str, graphs: list[GraphInfo]) -> list[ox.Triple]:
    """The VoID triples of the KB at ``base`` with these graphs."""
    ds = ox.NamedNode(void_dataset(base))

    def iri(name: str) -> ox.NamedNode:
        return ox.NamedNode(name)

    a, void = iri(PREFIXES["rdf"] + "type"), lambda term: iri(VOID + term)
    out = [
        ox.Triple(ds, a, void("Dataset")),
        ox.Triple(ds, iri(DCTERMS + "title"), ox.Literal("rulekb: the Magic: The Gathering Comprehensive Rules",
                                                          language="en")),
        ox.Triple(ds, iri(DCTERMS + "description"), ox.Literal(
            "Every edition of the Comprehensive Rules since 1999, in English and French: rules, examples, "
            "glossary, cross-references, concepts, lineages across editions.", language="en")),
        ox.Triple(ds, void("sparqlEndpoint"), iri(base + "sparql")),
        ox.Triple(ds, void("uriSpace"), ox.Literal(base)),
        ox.Triple(ds, void("triples"), ox.Literal(str(sum(g.triples for g in graphs)),
                                                   datatype=iri(PREFIXES["xsd"] + "integer"))),
        ox.Triple(ds, void("exampleResource"), iri(base + "concept/owner")),
    ]
    out += [ox.Triple(ds, void("vocabulary"), iri(v)) for v in VOCABULARIES]
    for graph in graphs:
        node = iri(graph.iri)
        out += [
            ox.Triple(ds, void("subset"), node),
            ox.Triple(node, a, void("Dataset")),
            ox.Triple(node, void("triples"), ox.Literal(str(graph.triples), datatype=iri(PREFIXES["xsd"] + "integer"))),
            ox.Triple(node, void("sparqlEndpoint"), iri(base + "sparql")),
        ]
        if graph.edition:
            out.append(ox.Triple(node, iri(DCTERMS + "title"), ox.Literal(f"Edition {graph.edition}")))
        if graph.language:
            out.append(ox.Triple(node, iri(DCTERMS + "language"), ox.Literal(graph.language)))
        if graph.date:
            out.append(ox.Triple(node, iri(DCTERMS + "date"),
                                 ox.Literal(graph.date, datatype=iri(PREFIXES["xsd"] + "date"))))
    return out

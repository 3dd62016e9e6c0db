"""Describe one of the KB's IRIs: its RDF, as the web endpoint serves it.

A description is a Concise Bounded Description: the resource's own triples in
every graph, plus what hangs off it (a rule's examples, citations and
statements; a lineage's versions) -- the named query ``describe``. Two kinds
get their own:

- an edition (whose graph holds ~30,000 triples) is its own triples and its
  table of contents (parts and sections, which link to the rules) -- the named
  query ``describe-edition``; the whole graph is ``rulekb export EDITION`` or
  one SPARQL CONSTRUCT away;
- a named graph (``graph/concepts``...) is described as a VoID subset of the
  dataset: its label, the SPARQL endpoint, the dataset it belongs to.

Everything goes through ``store.query`` (embedded or remote alike).
"""

from __future__ import annotations

import pyoxigraph as ox

from . import queries
from .kind import RDF_FORMATS

PREFIXES = {
    "rk": "https://w3id.org/rulekb#",
    "dcterms": "http://purl.org/dc/terms/",
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "owl": "http://www.w3.org/2002/07/owl#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "prov": "http://www.w3.org/ns/prov#",
    "void": "http://rdfs.org/ns/void#",
}
RDF_TYPE = PREFIXES["rdf"] + "type"
VOID = PREFIXES["void"]
LABELS = [  # the properties that name a resource, best first
    PREFIXES["skos"] + "prefLabel", PREFIXES["rdfs"] + "label", PREFIXES["dcterms"] + "title",
    PREFIXES["rk"] + "term", PREFIXES["rk"] + "number", PREFIXES["rk"] + "editionId",
]
GRAPH_TITLES = {
    "concepts": "The game concepts: SKOS, bilingual, version-independent",
    "lineage": "Lineages of rules across editions, changes and changes of meaning",
    "ontology": "The rulekb ontology (OWL)",
    "cards": "Oracle cards linked to their keywords, types, ability shapes and governing rules",
}


def void_dataset(base: str) -> str:
    """The IRI of the whole KB as a VoID dataset."""
    return f"{base}void#dataset"


def describe(store, iri: str, kind: str | None = None, base: str | None = None) -> list[ox.Triple]:
    """The triples describing ``iri`` (``kind`` as :func:`kb.rdf.iris.parse` names it);
    empty when the store knows nothing about it."""
    if kind == "graph":
        return _graph(store, iri, base or "")
    name = "describe-edition" if kind == "edition" else "describe"
    query = queries.get(name)
    answer = store.query(query.text, query.bindings({"resource": iri}), rdf_format="nt")
    found = dict.fromkeys(ox.parse(answer.data, format=ox.RdfFormat.N_TRIPLES))  # once each
    # in a fixed order (the resource's own first), whatever order the store answered in: two
    # replicas over one remote store, or a UNION's branches, serve the same bytes
    return sorted(found, key=lambda t: (t.subject.value != iri, str(t.subject), str(t.predicate), str(t.object)))


def _graph(store, iri: str, base: str) -> list[ox.Triple]:
    query = queries.get("graph-exists")
    if not store.select(query.text, query.bindings({"graph": iri})):
        return []
    node = ox.NamedNode(iri)
    name = iri.rstrip("/").rsplit("/", 1)[-1]
    title = GRAPH_TITLES.get(name, f"The named graph {name}")
    triples = [
        ox.Triple(node, ox.NamedNode(RDF_TYPE), ox.NamedNode(VOID + "Dataset")),
        ox.Triple(node, ox.NamedNode(PREFIXES["dcterms"] + "title"), ox.Literal(title, language="en")),
    ]
    if base:
        triples += [
            ox.Triple(node, ox.NamedNode(VOID + "sparqlEndpoint"), ox.NamedNode(base + "sparql")),
            ox.Triple(ox.NamedNode(void_dataset(base)), ox.NamedNode(VOID + "subset"), node),
        ]
    return triples


def serialize(triples: list[ox.Triple], rdf_format: str) -> bytes:
    """``rdf_format``: a key of :data:`kb.store.kind.RDF_FORMATS` (turtle, nt, jsonld, xml)."""
    fmt = RDF_FORMATS[rdf_format]
    prefixes = PREFIXES if fmt in (ox.RdfFormat.TURTLE, ox.RdfFormat.RDF_XML) else None
    grouped: dict[str, list[ox.Triple]] = {}  # each subject's triples together, subjects in order
    for triple in triples:
        grouped.setdefault(triple.subject.value, []).append(triple)
    return ox.serialize([t for group in grouped.values() for t in group], format=fmt, prefixes=prefixes)


def label(triples: list[ox.Triple], iri: str) -> str | None:
    """The best name the description gives ``iri`` (English first)."""
    own = [t for t in triples if t.subject.value == iri and isinstance(t.object, ox.Literal)]
    for prop in LABELS:
        values = [t.object for t in own if t.predicate.value == prop]
        if values:
            values.sort(key=lambda lit: (lit.language not in (None, "en"), lit.value))
            return values[0].value
    return None


def types(triples: list[ox.Triple], iri: str) -> list[str]:
    return [t.object.value for t in triples
            if t.subject.value == iri and t.predicate.value == RDF_TYPE and isinstance(t.object, ox.NamedNode)]


def links_here(store, iri: str) -> list[dict]:
    """The resources pointing at ``iri`` (``source``, ``property``), at most 100."""
    query = queries.get("links-here")
    return store.select(query.text, query.bindings({"resource": iri}))


def curie(iri: str) -> str:
    """``https://w3id.org/rulekb#text`` -> ``rk:text``; other IRIs unchanged."""
    for prefix, namespace in PREFIXES.items():
        if iri.startswith(namespace) and len(iri) > len(namespace):
            return f"{prefix}:{iri[len(namespace):]}"
    return iri

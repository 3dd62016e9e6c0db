"""Sources -> a new knowledge base, swapped in atomically.

1. Parse every source (ingest). Nothing is written if nothing usable is found.
2. Choose one text per edition id: a complete official text wins over a
   partial copy (a site's pages of the same date), plain text over DOCX over
   PDF. The others are reported, not loaded.
3. Build the concepts (all glossaries, labels from the ontology).
4. Stream every edition's quads, the concepts and the ontology into a new
   store, then swap it in (:meth:`kb.store.EmbeddedStore.replace`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import pyoxigraph as ox

from ingest.model import Edition
from ingest.parse import parse_many

from . import concepts as concept_layer
from .errors import BuildError
from .iris import Minter
from .rdf import edition_quads
from .vocab import RK

FORMAT_PREFERENCE = {"txt": 0, "html": 1, "docx": 2, "pdf": 3}


@dataclass
class BuildReport:
    editions: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # duplicates not loaded, with the reason
    refused: list[str] = field(default_factory=list)  # documents ingest refused
    quads: int = 0
    concepts: int = 0
    citations: int = 0
    dangling: int = 0
    seconds: float = 0.0
    store: str = ""
    store_bytes: int = 0

    def to_dict(self) -> dict:
        return dict(self.__dict__)


def choose_editions(editions: list[Edition]) -> tuple[list[Edition], list[str]]:
    """One edition per id; say what was left out and why."""
    by_id: dict[str, list[Edition]] = {}
    for edition in editions:
        by_id.setdefault(edition.id, []).append(edition)
    chosen, skipped = [], []
    for eid, group in by_id.items():
        group.sort(key=lambda e: (e.partial, FORMAT_PREFERENCE.get(e.source.format, 9), -len(e.rules)))
        chosen.append(group[0])
        for other in group[1:]:
            skipped.append(f"{eid} from {other.source.location}: the same edition as {group[0].source.location}")
    chosen.sort(key=lambda e: (e.language, e.effective_date or "9999", e.id))
    return chosen, skipped


def ontology_quads(graph: str) -> Iterator[ox.Quad]:
    from ontology import turtle

    g = ox.NamedNode(graph)
    for triple in ox.parse(turtle().encode("utf-8"), format=ox.RdfFormat.TURTLE):
        yield ox.Quad(triple.subject, triple.predicate, triple.object, g)


def build(sources: list[str], store, base: str | None = None,
          progress: Callable[[str], None] | None = None) -> BuildReport:
    started = time.perf_counter()
    mint = Minter.for_base(base)
    report = BuildReport(store=store.location)
    parsed = parse_many(sources, progress=(lambda path: progress(f"parse {path.name}")) if progress else None)
    report.refused = [str(f) for f in parsed.failures]
    editions, report.skipped = choose_editions(parsed.editions)
    if not editions:
        raise BuildError("no editions in the sources: nothing to build (the previous store, if any, is unchanged)")
    report.editions = [e.id for e in editions]

    concepts = concept_layer.collect(editions)
    concept_layer.add_ontology_labels(concepts, _ontology_labels())
    report.concepts = len(concepts)
    matchers = {lang: concept_layer.Matcher(concepts, lang) for lang in ("en", "fr")}
    concept_iri = {key: mint.concept(key) for key in concepts}

    def count(link) -> None:
        report.citations += 1
        report.dangling += len(link.dangling)

    def quads() -> Iterator[ox.Quad]:
        yield from ontology_quads(mint.graph("ontology"))
        yield from concept_layer.concept_quads(concepts, mint, mint.graph("concepts"))
        for edition in editions:
            if progress:
                progress(f"load {edition.id}")
            yield from edition_quads(
                edition, mint, concept_of=lambda term: concept_iri.get(concept_layer.concept_key(term)),
                on_link=count,
            )
            yield from concept_layer.mention_quads(edition, matchers[edition.language], mint)

    report.quads = store.replace(quads())
    report.seconds = time.perf_counter() - started
    report.store_bytes = store.size_bytes()
    return report


def _ontology_labels() -> dict[str, dict[str, list[str]]]:
    """French labels of the ontology's game-concept layer, keyed by the concept
    key of the term's *preferred* English label: how French labels reach the
    glossary concepts. (English alternative labels such as "in play" stay out:
    they name older concepts of their own.)"""
    import rdflib
    from rdflib.namespace import OWL, RDF, RDFS, SKOS

    from ontology import turtle

    graph = rdflib.Graph().parse(data=turtle(), format="turtle")
    out: dict[str, dict[str, list[str]]] = {}

    def labels(subject, props, lang):
        return [str(v) for p in props for v in graph.objects(subject, p)
                if isinstance(v, rdflib.Literal) and v.language == lang]

    preferred = (SKOS.prefLabel, RDFS.label)
    schema = {OWL.Class, OWL.ObjectProperty, OWL.DatatypeProperty}

    def rank(subject):  # a class or property names a concept before an individual does
        return (0 if set(graph.objects(subject, RDF.type)) & schema else 1, str(subject))

    subjects = set(graph.subjects(SKOS.prefLabel, None)) | set(graph.subjects(RDFS.label, None))
    for subject in sorted(subjects, key=rank):
        if not str(subject).startswith(str(RK)):
            continue
        french = list(dict.fromkeys(labels(subject, (*preferred, SKOS.altLabel, SKOS.hiddenLabel), "fr")))
        for english in labels(subject, preferred, "en"):
            out.setdefault(concept_layer.concept_key(english), {"fr": french, "denotes": [str(subject)]})
    return out

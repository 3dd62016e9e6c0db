"""The load stage: what the store holds, as independent parts written to N-Quads by forked workers."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pyoxigraph as ox

from ..consistency import store as consistency_store
from ..rdf import concepts as concept_layer
from ..rdf import meaning_changes
from ..rdf.edition import edition_nquads
from ..rdf.iris import Minter
from ..rdf.lineage import lineage_quads
from ..rdf.mentions import wording_mention_quads
from ..rdf.statements import statement_quads
from ..rdf.translation import translation_quads
from ..timeline.wordings import wording_quads
from .reasoning import inferred
from .report import BuildReport
from .sources import workers


def ontology_quads(graph: str) -> Iterator[ox.Quad]:
    from rulekb.ontology import turtle

    g = ox.NamedNode(graph)
    for triple in ox.parse(turtle().encode("utf-8"), format=ox.RdfFormat.TURTLE):
        yield ox.Quad(triple.subject, triple.predicate, triple.object, g)


def load_parts(editions, concepts, matchers, concept_iri, statements, results, chained, texts, dates,
                meanings, translated, consistent, mint: Minter, stated: dict) -> list[tuple[str, Callable]]:
    """What the store holds, as independent parts in a fixed order: ``(name, on_link ->
    N-Quads bytes)``. Each part is computed from what the build holds in memory alone, so the
    parts can run in any process (:func:`_serialised`) and the store is the same."""

    def head(on_link):
        yield from ontology_quads(mint.graph("ontology"))
        yield from concept_layer.concept_quads(concepts, mint, mint.graph("concepts"))

    written: set[str] = set()  # the statement contents a process wrote (each worker its own copy)

    def edition_part(edition):
        def extras():  # what the edition's graph holds beside its document, and graph/statements
            yield from concept_layer.mention_quads(edition, matchers[edition.language], mint, stated.get(edition.id))
            yield from statement_quads(edition.id, statements[edition.id], mint, concept_iri.get, written)
            if edition.id in results:
                yield from inferred(edition.id, statements[edition.id], results[edition.id], mint, concept_iri, written)

        def nquads(on_link) -> bytes:  # the document, most of the quads, written as text (kb.rdf.edition)
            text = edition_nquads(edition, mint, concept_of=lambda term: concept_iri.get(concept_layer.concept_key(term)),
                                  on_link=on_link)
            return text.encode("utf-8") + _nquads(extras())
        return nquads

    def of_quads(quads: Callable) -> Callable[[Callable], bytes]:
        return lambda on_link: _nquads(quads(on_link))

    return [
        ("ontology and concepts", of_quads(head)),
        *((f"load {edition.id}", edition_part(edition)) for edition in editions),
        ("lineages", of_quads(lambda on_link: lineage_quads(chained, mint))),
        ("wordings", of_quads(lambda on_link: wording_quads(chained, texts, dates, mint, mint.graph("lineage")))),
        ("wording mentions", of_quads(lambda on_link: wording_mention_quads(chained, texts, matchers, mint,
                                                                             mint.graph("lineage")))),
        ("changes of meaning", of_quads(lambda on_link: meaning_changes.quads(meanings, mint, concept_iri.get))),
        ("translations", of_quads(lambda on_link: translation_quads(translated, mint))),
        ("consistency", of_quads(lambda on_link: consistency_store.quads(consistent, mint))),  # each edition against itself
    ]


def _nquads(quads) -> bytes:
    return ox.serialize(quads, format=ox.RdfFormat.N_QUADS) or b""


def _part_nquads(part) -> tuple[bytes, int, int]:
    """One part's N-Quads, with its citations and dangling numbers."""
    counts = [0, 0]

    def count(link) -> None:
        counts[0] += 1
        counts[1] += len(link.dangling)

    return part(count), counts[0], counts[1]


def serialised(parts, stage, report: BuildReport) -> Iterator[bytes]:
    """The parts' N-Quads, computed by forked workers (kb.parallel), in order."""
    from ..parallel import fork_map

    for (name, _), (data, citations, dangling) in zip(
            parts, fork_map(lambda index: _part_nquads(parts[index][1]), len(parts), workers())):
        report.citations += citations
        report.dangling += dangling
        stage.advance(name, step=int(name.startswith("load ")))  # the count is of editions
        yield data


def in_process(parts, stage, report: BuildReport) -> Iterator[ox.Quad]:
    """The parts' quads, made here in turn (a remote store: its client writes them graph by graph)."""
    for name, part in parts:
        data, citations, dangling = _part_nquads(part)
        report.citations += citations
        report.dangling += dangling
        yield from ox.parse(data, format=ox.RdfFormat.N_QUADS)
        stage.advance(name, step=int(name.startswith("load ")))

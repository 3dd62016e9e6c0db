"""Lineages and changes between consecutive editions -> RDF quads (graph/lineage).

:func:`kb.align.lineages` chains the complete editions of each language; this
module puts what it found into the KB, in a named graph of its own so that an
edition's graph stays about one edition::

    <lineage/en/2003-07-01/200.5a> a rk:Lineage ; rdfs:label "200.5a → 111.2 → 112.2" ;
        rk:splitFrom <lineage/...> ; rk:mergedInto <lineage/...> .
    <edition/en/2009-07-08/rule/111.2> rk:lineage <lineage/en/2003-07-01/200.5a> ;
        rk:previousVersion <edition/en/2009-05-01/rule/200.5a> .
    <change/en/2009-07-08/200.5a..111.2> a rk:Change ; rk:changeKind "modified" ;
        rk:changeDetail "terminology" ; rk:similarity 0.9412 ;
        rk:fromEdition <edition/en/2009-05-01> ; rk:toEdition <edition/en/2009-07-08> ;
        rk:fromRule <edition/en/2009-05-01/rule/200.5a> ; rk:toRule <edition/en/2009-07-08/rule/111.2> .

Each version's ``rk:lineage`` is stored although its wording implies it (``?rule
rk:wording/dcterms:isVersionOf ?lineage``, 243,000 quads of 3.8 million): without it,
Oxigraph 0.5 plans the two-step link from a lineage to its versions as a join of every
rk:wording instead of a lookup. Tried on the full KB (the queries rewritten with
explicit triple patterns; with property paths it was worse): renumbered-rules 0.4 s -> 189 s
(a form with two subqueries: 0.07 s), rule-history 9 ms -> 1.1 s and a 200-rule batch of
rule-in-french 0.07 -> 5 s (subqueries, paths and nested OPTIONALs did not help; the pages
stage 20 -> 76 s), for a store 5 % smaller (1.29 -> 1.22 GB).

Version links follow the lineages (so a rule has at most one previous and one
next version); only ``rk:previousVersion`` is stored: the next version is its inverse
(``?next rk:previousVersion ?rule``, the path ``^rk:previousVersion``). A change is made
for every pair of an alignment except the unchanged ones (a rule split off another has an ``added`` and a ``split``
change; a rule merged into another a ``removed`` and a ``merged`` one).
"""

from __future__ import annotations

from collections.abc import Iterator

import pyoxigraph as ox
from rdflib.namespace import RDF, RDFS, XSD

from ..align import Lineages
from ..align.model import UNCHANGED
from .iris import Minter, rk_nodes

GRAPH_NAME = "lineage"

TYPE = ox.NamedNode(str(RDF.type))
LABEL = ox.NamedNode(str(RDFS.label))
XSD_DECIMAL = ox.NamedNode(str(XSD.decimal))
C = rk_nodes((
    "Lineage", "Change", "lineage", "previousVersion", "splitFrom", "mergedInto",
    "changeKind", "changeDetail", "similarity", "fromRule", "toRule", "fromEdition", "toEdition",
))


def label(numbers: dict[str, str]) -> str:
    """The numbers a lineage had, in order, each once: "200.5a → 111.2 → 112.2"."""
    seen: list[str] = []
    for number in numbers.values():
        if not seen or seen[-1] != number:
            seen.append(number)
    return " → ".join(seen)


def lineage_rows(found: Lineages, mint: Minter, numbers: dict[str, dict[str, set[str]]]) -> list[dict[str, str]]:
    """The rows of ``page-lineages`` for the versions :func:`lineage_quads` links, as the store
    would answer: (edition, number, lineage) for each ``rk:lineage`` link and each
    ``rk:number`` its version has in its edition's graph (``numbers``: edition id -> node IRI
    -> numbers, :func:`kb.rdf.edition.structure_rows`); a version its edition does not state
    gives none. The build hands them to the page data (kb.pages)."""
    rows = []
    prefixes = {edition: mint.rule(edition, "") for edition in numbers}  # (as lineage_quads names versions)
    for lid, lineage in found.lineages.items():
        node = mint.lineage(lid)
        for edition, number in lineage.numbers.items():
            if edition in prefixes:
                for stated in numbers[edition].get(prefixes[edition] + number, ()):
                    rows.append({"edition": edition, "number": stated, "lineage": node})
    return rows


def lineage_quads(found: Lineages, mint: Minter, graph: str | None = None) -> Iterator[ox.Quad]:
    """Every lineage, its versions' links and the changes between consecutive editions."""
    g = ox.NamedNode(graph or mint.graph(GRAPH_NAME))
    lineage_of = {lid: ox.NamedNode(mint.lineage(lid)) for lid in found.lineages}
    rules: dict[str, str] = {}  # edition id -> IRI prefix of its rules

    def rule(edition: str, number: str) -> ox.NamedNode:
        prefix = rules.get(edition)
        if prefix is None:
            prefix = rules[edition] = mint.rule(edition, "")
        return ox.NamedNode(prefix + number)

    for lid, lineage in found.lineages.items():
        node = lineage_of[lid]
        yield ox.Quad(node, TYPE, C["Lineage"], g)
        yield ox.Quad(node, LABEL, ox.Literal(label(lineage.numbers)), g)
        for other, _ in lineage.split_from:
            if other in lineage_of:
                yield ox.Quad(node, C["splitFrom"], lineage_of[other], g)
        for other, _ in lineage.merged_into:
            if other in lineage_of:
                yield ox.Quad(node, C["mergedInto"], lineage_of[other], g)
        previous = None
        for edition, number in lineage.numbers.items():
            version = rule(edition, number)
            yield ox.Quad(version, C["lineage"], node, g)
            if previous is not None:
                yield ox.Quad(version, C["previousVersion"], previous, g)
            previous = version

    for alignment in found.alignments:
        old_ed, new_ed = ox.NamedNode(mint.edition(alignment.old)), ox.NamedNode(mint.edition(alignment.new))
        for pair in alignment.pairs:
            if pair.kind == UNCHANGED:
                continue
            change = ox.NamedNode(mint.change(alignment.new, pair.old, pair.new))
            yield ox.Quad(change, TYPE, C["Change"], g)
            yield ox.Quad(change, C["changeKind"], ox.Literal(pair.kind), g)
            if pair.detail:
                yield ox.Quad(change, C["changeDetail"], ox.Literal(pair.detail), g)
            yield ox.Quad(change, C["similarity"], decimal(pair.similarity), g)
            yield ox.Quad(change, C["fromEdition"], old_ed, g)
            yield ox.Quad(change, C["toEdition"], new_ed, g)
            if pair.old is not None:
                yield ox.Quad(change, C["fromRule"], rule(alignment.old, pair.old), g)
            if pair.new is not None:
                yield ox.Quad(change, C["toRule"], rule(alignment.new, pair.new), g)


def decimal(value: float) -> ox.Literal:
    """A similarity as an xsd:decimal with four places, clamped to 0..1."""
    return ox.Literal(f"{min(max(value, 0.0), 1.0):.4f}", datatype=XSD_DECIMAL)


def change_count(found: Lineages) -> int:
    return sum(1 for alignment in found.alignments for pair in alignment.pairs if pair.kind != UNCHANGED)

"""Edition -> RDF quads in the edition's own named graph.

Quads are built directly as pyoxigraph terms and streamed into the store's bulk
loader: building an rdflib graph first would cost more than the whole load.
Every term comes from the closed vocabulary (:mod:`kb.rdf.vocab`), so a typo in a
property name is an error at import, not a silently different IRI.

What one edition becomes (prefix ``rk:`` = https://w3id.org/rulekb#)::

    <edition/en/2011-09-30> a rk:Edition ; rk:editionId "en/2011-09-30" ;
        dcterms:language "en" ; dcterms:title "..." ; rk:effectiveDate "2011-09-30"^^xsd:date ;
        rk:partial false ; dcterms:source "..." .
    <.../section/111> a rk:Section ; rk:number "111" ; dcterms:title "Spells"@en ;
        rk:parent <.../part/1> ; rk:order 123 .
    <.../rule/111.2> a rk:Rule ; rk:number "111.2" ; rk:text "..."@en ; rk:order 124 ;
        rk:parent <.../section/111> ;
        rk:hasExample <.../rule/111.2/example/1> ; rk:hasCitation <.../rule/111.2/citation/1> .
    <.../rule/111.2/citation/1> rk:citedText "rule 601.2" ; rk:citationTarget <.../rule/601.2> .
    <.../glossary/owner> a rk:GlossaryEntry ; rk:term "Owner"@en ; rk:definition "..."@en ;
        rk:hasCitation <.../glossary/owner/citation/1> ; rk:defines <concept/owner> .

The edition a unit belongs to is the graph it sits in (``GRAPH ?ed { ?rule rk:number ?n }``):
no ``rk:inEdition`` triple restates it for each of the ~400,000 units (issue 18's footprint).
The concepts a rule mentions are on its wording (graph/lineage, :mod:`kb.rdf.mentions`).
A citation's type (``rk:Citation``, the range of ``rk:hasCitation``) and the numbers it cites
(``rk:citedNumber``: each resolved one is its target's ``rk:number``, each other one its
``rk:danglingNumber``) are implied the same way: queries ask for
``rk:citationTarget/rk:number|rk:danglingNumber``. And ``rk:references`` (what a rule, with its
examples, or a glossary entry resolves to, 160,000 quads) is its citations' targets:
``?rule rk:hasCitation/rk:citationTarget ?target`` (a rule's examples cite too:
``?rule rk:hasExample/rk:hasCitation/rk:citationTarget ?target``).
"""

from __future__ import annotations

from collections.abc import Iterator

import pyoxigraph as ox
from rdflib.namespace import DCTERMS, RDF, XSD

from rulekb.ingest.model import Edition

from . import links as linking
from .iris import Minter, slug
from .vocab import RK


def _n(term) -> ox.NamedNode:
    return ox.NamedNode(str(term))


TYPE = _n(RDF.type)
XSD_DATE = _n(XSD.date)
XSD_INTEGER = _n(XSD.integer)
XSD_BOOLEAN = _n(XSD.boolean)
TITLE, LANGUAGE, SOURCE = _n(DCTERMS.title), _n(DCTERMS.language), _n(DCTERMS.source)
C = {name: _n(getattr(RK, name)) for name in (
    "Edition", "Part", "Section", "Rule", "Example", "GlossaryEntry", "Citation", "ParseWarning",
    "editionId", "effectiveDate", "partial", "hasWarning", "warningCode", "warning", "number", "text", "term", "definition",
    "order", "parent", "hasExample", "hasCitation", "citedText",
    "citationTarget", "danglingNumber", "printedNumber", "defines",
)}


def _int(value: int) -> ox.Literal:
    return ox.Literal(str(value), datatype=XSD_INTEGER)


def edition_quads(edition: Edition, mint: Minter, concept_of=None, on_link=None) -> Iterator[ox.Quad]:
    """All quads of one edition, in its named graph.

    ``concept_of(term) -> concept IRI | None`` links glossary entries to the
    version-independent concepts (built by :mod:`kb.rdf.concepts`); ``on_link(link)``
    sees every citation (the build counts them and the dangling ones).
    """
    eid = edition.id
    lang = edition.language
    graph = ox.NamedNode(mint.edition(eid))
    ed = graph

    def q(s, p, o):
        return ox.Quad(s, p, o, graph)

    def text(value: str) -> ox.Literal:
        return ox.Literal(value, language=lang)

    yield q(ed, TYPE, C["Edition"])
    yield q(ed, C["editionId"], ox.Literal(eid))
    yield q(ed, LANGUAGE, ox.Literal(lang))
    yield q(ed, TITLE, ox.Literal(edition.title))
    yield q(ed, C["partial"], ox.Literal("true" if edition.partial else "false", datatype=XSD_BOOLEAN))
    if edition.effective_date:
        yield q(ed, C["effectiveDate"], ox.Literal(edition.effective_date, datatype=XSD_DATE))
    for source in edition.sources:
        yield q(ed, SOURCE, ox.Literal(source.location))
    for warning in edition.warnings:  # the code as data: read back as it was given
        node = ox.BlankNode()
        yield q(ed, C["hasWarning"], node)
        yield q(node, TYPE, C["ParseWarning"])
        yield q(node, C["warningCode"], ox.Literal(warning.code))
        yield q(node, C["warning"], ox.Literal(str(warning)))

    numbered: dict[str, ox.NamedNode] = {}
    headings = [("Part", h) for h in edition.parts] + [("Section", h) for h in edition.sections]
    for kind, heading in headings:  # parts first: a section's parent is its part
        node = numbered[heading.number] = ox.NamedNode(mint.numbered(eid, heading.number))
        yield q(node, TYPE, C[kind])
        yield q(node, C["number"], ox.Literal(heading.number))
        yield q(node, TITLE, text(heading.title))
        yield q(node, C["order"], _int(heading.order))
        if kind == "Section" and heading.number[0] in numbered:
            yield q(node, C["parent"], numbered[heading.number[0]])
    for rule in edition.rules:
        numbered[rule.number] = ox.NamedNode(mint.rule(eid, rule.number))

    for rule in edition.rules:
        node = numbered[rule.number]
        yield q(node, TYPE, C["Rule"])
        yield q(node, C["number"], ox.Literal(rule.number))
        if rule.text:
            yield q(node, C["text"], text(rule.text))
        yield q(node, C["order"], _int(rule.order))
        parent = _parent(rule.parent, numbered)
        if parent is not None:
            yield q(node, C["parent"], parent)
        if rule.printed:
            yield q(node, C["printedNumber"], ox.Literal(rule.printed))
        for i, example in enumerate(rule.examples, 1):
            ex = ox.NamedNode(mint.example(eid, rule.number, i))
            yield q(node, C["hasExample"], ex)
            yield q(ex, TYPE, C["Example"])
            yield q(ex, C["text"], text(example))
            yield q(ex, C["order"], _int(i))

    glossary_nodes: dict[str, ox.NamedNode] = {}
    slugs: set[str] = set()
    for entry in edition.glossary:
        node = ox.NamedNode(mint.glossary(eid, _unique_slug(entry.term, slugs)))
        glossary_nodes[entry.term] = node
        yield q(node, TYPE, C["GlossaryEntry"])
        yield q(node, C["term"], text(entry.term))
        yield q(node, C["definition"], text(entry.definition))
        yield q(node, C["order"], _int(entry.order))
        concept = concept_of(entry.term) if concept_of else None
        if concept:
            yield q(node, C["defines"], ox.NamedNode(concept))

    counters: dict[ox.NamedNode, int] = {}
    for link in linking.edition_links(edition, set(numbered)):
        if on_link:
            on_link(link)
        if link.owner == "glossary":
            owner = glossary_nodes[link.term]
        elif link.owner == "example":
            owner = ox.NamedNode(mint.example(eid, link.rule, link.example))
        else:
            owner = numbered[link.rule]
        counters[owner] = counters.get(owner, 0) + 1
        cite = ox.NamedNode(mint.citation(owner.value, counters[owner]))
        yield q(owner, C["hasCitation"], cite)  # (its rdf:type rk:Citation: the range says it)
        yield q(cite, C["citedText"], ox.Literal(link.text))
        for number, resolved in zip(link.numbers, link.resolved):
            if resolved:  # (the number: the target's; rk:citedNumber and the owner's rk:references are not restated)
                yield q(cite, C["citationTarget"], numbered[number])
            else:  # kept as written, and findable without scanning every citation
                yield q(cite, C["danglingNumber"], ox.Literal(number))


def _parent(number: str | None, numbered: dict[str, ox.NamedNode]) -> ox.NamedNode | None:
    """The nearest existing ancestor (a subrule whose rule is missing hangs on the section)."""
    while number:
        if number in numbered:
            return numbered[number]
        number = number[:-1] if number[-1].isalpha() else (number.split(".")[0] if "." in number else (number[0] if len(number) == 3 else None))
    return None


def _unique_slug(term: str, taken: set[str]) -> str:
    """Two entries whose terms slug alike ("X" in two senses) get -2, -3..."""
    base = candidate = slug(term)
    n = 2
    while candidate in taken:
        candidate, n = f"{base}-{n}", n + 1
    taken.add(candidate)
    return candidate

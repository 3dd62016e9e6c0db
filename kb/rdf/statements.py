"""Definitional statements (and what a reasoner inferred from them) as RDF.

Each statement a rule makes becomes a resource in the edition's graph::

    <.../rule/111.2/statement/1> a rk:Statement ;
        rk:statedIn <.../rule/111.2> ; rk:aboutConcept <concept/token> ;
        rk:aspect "owner" ; rk:value "player who created it" ;
        rk:negated false ; rk:sentence "..."@en .

``kinds`` and ``members`` statements list their members (``rk:member``, and
``rk:valueConcept`` for each member that is a known concept). An inferred
statement is an ``rk:InferredStatement`` in the same graph, with the reasoner
that derived it and ``rk:derivedFrom`` the statements that explain it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

import pyoxigraph as ox
from rdflib.namespace import RDF, RDFS, XSD

from .iris import Minter, rk_nodes

TYPE = ox.NamedNode(str(RDF.type))
COMMENT = ox.NamedNode(str(RDFS.comment))
BOOLEAN = ox.NamedNode(str(XSD.boolean))
T = rk_nodes((
    "Statement", "InferredStatement", "statedIn", "aboutConcept", "aspect", "value", "member",
    "valueConcept", "qualifier", "negated", "sentence", "derivedFrom", "reasoner",
))


def _bool(value: bool) -> ox.Literal:
    return ox.Literal("true" if value else "false", datatype=BOOLEAN)


def statement_quads(
    edition_id: str,
    statements: Iterable[tuple[str, object]],
    mint: Minter,
    concept_iri: Callable[[str], str | None],
) -> Iterator[ox.Quad]:
    """Quads for ``(rule number, Statement)`` pairs of one edition.

    ``concept_iri(key)`` gives the IRI of a known concept, or None: a statement
    about a concept the KB does not know still gets its aspect and value.
    """
    graph = ox.NamedNode(mint.edition(edition_id))
    for (number, statement), iri in zip(statements, statement_iris(edition_id, statements, mint)):
        node = ox.NamedNode(iri)
        yield from _describe(node, T["Statement"], statement, graph, concept_iri)
        yield ox.Quad(node, T["statedIn"], ox.NamedNode(mint.rule(edition_id, number)), graph)
        if statement.sentence:
            language = getattr(statement, "sentence_language", "") or statement.language
            yield ox.Quad(node, T["sentence"], ox.Literal(statement.sentence, language=language), graph)


def statement_iris(edition_id: str, statements: Iterable[tuple[str, object]], mint: Minter) -> list[str]:
    """The IRI of each statement: the rule's IRI and its rank among the rule's statements."""
    counters: dict[str, int] = {}
    iris = []
    for number, _ in statements:
        counters[number] = counters.get(number, 0) + 1
        iris.append(mint.statement(edition_id, number, counters[number]))
    return iris


def inferred_quads(
    edition_id: str,
    inferred: Iterable[object],
    mint: Minter,
    concept_iri: Callable[[str], str | None],
    statement_iri: Callable[[str, object], str | None],
    explain: Callable[[object], list[str]] = lambda fact: [],
) -> Iterator[ox.Quad]:
    """Quads for what a reasoner inferred; ``statement_iri(rule, statement)``
    finds the asserted statement an inference was derived from, ``explain(fact)``
    gives the readable justification kept as its ``rdfs:comment``."""
    graph = ox.NamedNode(mint.edition(edition_id))
    for index, fact in enumerate(inferred, 1):
        node = ox.NamedNode(mint.inferred(edition_id, index))
        yield from _describe(node, T["InferredStatement"], fact, graph, concept_iri)
        yield ox.Quad(node, T["reasoner"], ox.Literal(fact.reasoner), graph)
        if lines := explain(fact):
            yield ox.Quad(node, COMMENT, ox.Literal("\n".join(lines), language="en"), graph)
        for number, statement in fact.derived_from:
            source = statement_iri(number, statement)
            if source:
                yield ox.Quad(node, T["derivedFrom"], ox.NamedNode(source), graph)


def _describe(node, kind, statement, graph, concept_iri) -> Iterator[ox.Quad]:
    yield ox.Quad(node, TYPE, kind, graph)
    about = concept_iri(statement.concept)
    if about:
        yield ox.Quad(node, T["aboutConcept"], ox.NamedNode(about), graph)
    yield ox.Quad(node, T["aspect"], ox.Literal(statement.aspect), graph)
    if statement.value:
        yield ox.Quad(node, T["value"], ox.Literal(statement.value), graph)
        named = concept_iri(statement.value) if statement.aspect in ("is-a", "not-a") else None
        if named:
            yield ox.Quad(node, T["valueConcept"], ox.NamedNode(named), graph)
    for member in getattr(statement, "members", ()):
        yield ox.Quad(node, T["member"], ox.Literal(member), graph)
        named = concept_iri(member)
        if named:
            yield ox.Quad(node, T["valueConcept"], ox.NamedNode(named), graph)
    if getattr(statement, "qualifier", ""):
        yield ox.Quad(node, T["qualifier"], ox.Literal(statement.qualifier), graph)
    yield ox.Quad(node, T["negated"], _bool(getattr(statement, "negated", False)), graph)

"""Definitional statements (and what a reasoner inferred from them) as RDF.

Each statement a rule makes is a resource in the edition's graph that names its rule and
what it says; what it says is stated once for every edition (and rule) that says the same,
in graph/statements, under an IRI made from its content::

    <.../rule/111.2/statement/1> rk:statedIn <.../rule/111.2> ;
        rk:statementContent <statement/3f2a...> .
    <statement/3f2a...> rk:aboutConcept <concept/token> ;
        rk:aspect "owner" ; rk:value "player who created it" ;
        rk:negated false ; rk:sentence "..."@en .

An unchanged rule restated in 100 editions stated its ~8 quads of statement 100 times
(553,000 quads in 2,000 distinct contents); now 2 quads an edition. Its
``rdf:type rk:Statement`` is implied too (the domain of ``rk:statedIn``). A SPARQL user
reads what a statement says through the link: ``?statement rk:statementContent/rk:aspect
?aspect``.

``kinds`` and ``members`` statements list their members (``rk:member``, and
``rk:valueConcept`` for each member that is a known concept). An inferred
statement is an ``rk:InferredStatement`` in the edition's graph with its justification
(``rdfs:comment``, which names the edition) and ``rk:derivedFrom`` the statements that
explain it; what it says and the reasoner that derived it are its content's.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator

import pyoxigraph as ox
from rdflib.namespace import RDF, RDFS, XSD

from .iris import Minter, rk_nodes

TYPE = ox.NamedNode(str(RDF.type))
COMMENT = ox.NamedNode(str(RDFS.comment))
BOOLEAN = ox.NamedNode(str(XSD.boolean))
T = rk_nodes((
    "Statement", "InferredStatement", "statedIn", "aboutConcept", "aspect", "value", "member",
    "valueConcept", "qualifier", "negated", "sentence", "derivedFrom", "reasoner", "statementContent",
))
GRAPH_NAME = "statements"  # what statements say, once for every edition


def _bool(value: bool) -> ox.Literal:
    return ox.Literal("true" if value else "false", datatype=BOOLEAN)


def statement_quads(
    edition_id: str,
    statements: Iterable[tuple[str, object]],
    mint: Minter,
    concept_iri: Callable[[str], str | None],
    written: set[str] | None = None,
) -> Iterator[ox.Quad]:
    """Quads for ``(rule number, Statement)`` pairs of one edition.

    ``concept_iri(key)`` gives the IRI of a known concept, or None: a statement
    about a concept the KB does not know still gets its aspect and value. ``written``: the
    contents (their IRIs) this process wrote already, for earlier editions, which are not
    written again (and the ones written now are added): a build's editions restated 420,000
    quads of 33,000 distinct ones, each parsed by the bulk loader only to be found twice.
    """
    graph, shared = ox.NamedNode(mint.edition(edition_id)), ox.NamedNode(mint.graph(GRAPH_NAME))
    for (number, statement), iri in zip(statements, statement_iris(edition_id, statements, mint)):
        node = ox.NamedNode(iri)
        said = list(_says(statement, concept_iri))
        if statement.sentence:
            language = getattr(statement, "sentence_language", "") or statement.language
            said.append((T["sentence"], ox.Literal(statement.sentence, language=language)))
        content = ox.NamedNode(mint.statement_content(content_digest(said)))
        yield ox.Quad(node, T["statedIn"], ox.NamedNode(mint.rule(edition_id, number)), graph)
        yield ox.Quad(node, T["statementContent"], content, graph)
        if _first_time(content, written):  # (else the same quads again: the store keeps them once)
            yield from (ox.Quad(content, p, o, shared) for p, o in said)


def _first_time(content: ox.NamedNode, written: set[str] | None) -> bool:
    if written is None:
        return True
    if content.value in written:
        return False
    written.add(content.value)
    return True


def content_digest(said: list[tuple[ox.NamedNode, object]]) -> str:
    """What a statement says, as its (predicate, object) pairs in any order -> the id of its
    content: equal contents, equal ids, whichever edition or process mints them."""
    lines = sorted(f"{p} {o}" for p, o in said)
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()[:20]


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
    written: set[str] | None = None,
) -> Iterator[ox.Quad]:
    """Quads for what a reasoner inferred; ``statement_iri(rule, statement)``
    finds the asserted statement an inference was derived from, ``explain(fact)``
    gives the readable justification kept as its ``rdfs:comment``; ``written`` as for
    :func:`statement_quads`."""
    graph, shared = ox.NamedNode(mint.edition(edition_id)), ox.NamedNode(mint.graph(GRAPH_NAME))
    for index, fact in enumerate(inferred, 1):
        node = ox.NamedNode(mint.inferred(edition_id, index))
        said = [*_says(fact, concept_iri), (T["reasoner"], ox.Literal(fact.reasoner))]
        content = ox.NamedNode(mint.statement_content(content_digest(said)))
        yield ox.Quad(node, TYPE, T["InferredStatement"], graph)
        yield ox.Quad(node, T["statementContent"], content, graph)
        if _first_time(content, written):
            yield from (ox.Quad(content, p, o, shared) for p, o in said)
        if lines := explain(fact):  # (it names the edition: the edition's own)
            yield ox.Quad(node, COMMENT, ox.Literal("\n".join(lines), language="en"), graph)
        for number, statement in fact.derived_from:
            source = statement_iri(number, statement)
            if source:
                yield ox.Quad(node, T["derivedFrom"], ox.NamedNode(source), graph)


def _says(statement, concept_iri) -> Iterator[tuple[ox.NamedNode, object]]:
    """What a statement says: (predicate, object) pairs."""
    about = concept_iri(statement.concept)
    if about:
        yield T["aboutConcept"], ox.NamedNode(about)
    yield T["aspect"], ox.Literal(statement.aspect)
    if statement.value:
        yield T["value"], ox.Literal(statement.value)
        named = concept_iri(statement.value) if statement.aspect in ("is-a", "not-a") else None
        if named:
            yield T["valueConcept"], ox.NamedNode(named)
    for member in getattr(statement, "members", ()):
        yield T["member"], ox.Literal(member)
        named = concept_iri(member)
        if named:
            yield T["valueConcept"], ox.NamedNode(named)
    if getattr(statement, "qualifier", ""):
        yield T["qualifier"], ox.Literal(statement.qualifier)
    yield T["negated"], _bool(getattr(statement, "negated", False))

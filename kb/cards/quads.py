"""The cards' named graph (``{base}graph/cards``): each card row (:mod:`.build`) as RDF.

::

    <card/platinum-angel> a rk:OracleCard ; rdfs:label "Platinum Angel" ;
        skos:altLabel "Ange de platine"@fr ;     (where the card file has French names)
        rk:typeLine "Artifact Creature — Angel" ; rk:manaCost "{7}" ; rk:oracleText "Flying ..." ;
        rk:hasKeyword <concept/flying> ;          (rk:keywordRule <rule>: a keyword with no concept)
        rk:hasCardType <concept/artifact>, <concept/creature> ;
        rk:hasCardKind <concept/split-card> ;     (a card with faces: the kind they make it)
        rk:hasAbilityShape <concept/static-ability> ;
        rk:governedBy <edition/en/2026-01-16/rule/702.9>, ... ;
        rk:hasFace <card/.../face/1> .                       (a card with faces)

The concepts a card's text merely names (its mentions, what search brings from it) stay in
the search index's card details, not in the store: 170,000 quads no query needed.
"""

from __future__ import annotations

from collections.abc import Iterator

import pyoxigraph as ox
from rdflib.namespace import RDF, RDFS, SKOS

from ..rdf.iris import Minter, rk_nodes
from .link import SHAPES

_RK = rk_nodes(["OracleCard", "CardFace", "hasFace", "faceOrder", "hasKeyword", "keywordRule", "hasCardType",
                "hasCardKind", "hasAbilityShape", "governedBy", "oracleText", "typeLine", "manaCost"])
_TYPE = ox.NamedNode(str(RDF.type))
_LABEL = ox.NamedNode(str(RDFS.label))
_FRENCH_NAME = ox.NamedNode(str(SKOS.altLabel))  # @fr: the name on French printings (rdfs:label stays one, Oracle's)


def quads(rows: list[dict], edition: str | None, concepts: set[str], mint: Minter) -> Iterator[ox.Quad]:
    """The quads of ``rows``; ``edition``: the edition their rules are in; ``concepts``: the keys the KB has
    (a link to any other would not dereference)."""
    g = ox.NamedNode(mint.graph("cards"))
    rk = _RK
    concept = {}

    def c(key: str) -> ox.NamedNode | None:
        if key not in concepts:
            return None
        node = concept.get(key)
        if node is None:
            node = concept[key] = ox.NamedNode(mint.concept(key))
        return node

    rules: dict[str, ox.NamedNode] = {}

    def rule(number: str) -> ox.NamedNode:
        node = rules.get(number)
        if node is None:
            node = rules[number] = ox.NamedNode(mint.rule(edition, number))
        return node

    for row in rows:
        card = ox.NamedNode(mint.card(row["slug"]))
        yield ox.Quad(card, _TYPE, rk["OracleCard"], g)
        yield ox.Quad(card, _LABEL, ox.Literal(row["name"]), g)
        if row.get("name_fr"):  # (where the card file has French names)
            yield ox.Quad(card, _FRENCH_NAME, ox.Literal(row["name_fr"], language="fr"), g)
        for prop, key in (("typeLine", "type_line"), ("manaCost", "mana_cost"), ("oracleText", "text")):
            if row.get(key):
                yield ox.Quad(card, rk[prop], ox.Literal(row[key]), g)
        for i, face in enumerate(row.get("faces", []), 1):
            node = ox.NamedNode(mint.card_face(row["slug"], i))
            yield ox.Quad(card, rk["hasFace"], node, g)
            yield ox.Quad(node, _TYPE, rk["CardFace"], g)
            yield ox.Quad(node, rk["faceOrder"], ox.Literal(str(i), datatype=ox.NamedNode("http://www.w3.org/2001/XMLSchema#integer")), g)
            yield ox.Quad(node, _LABEL, ox.Literal(face["name"]), g)
            if face.get("name_fr"):
                yield ox.Quad(node, _FRENCH_NAME, ox.Literal(face["name_fr"], language="fr"), g)
            for prop, key in (("typeLine", "type_line"), ("manaCost", "mana_cost"), ("oracleText", "text")):
                if face.get(key):
                    yield ox.Quad(node, rk[prop], ox.Literal(face[key]), g)
        for kw in row.get("keywords", []):
            if kw.get("concept") and c(kw["concept"]) is not None:
                yield ox.Quad(card, rk["hasKeyword"], c(kw["concept"]), g)
            elif edition:  # a keyword the glossary has no concept for: its rule
                yield ox.Quad(card, rk["keywordRule"], rule(kw["rule"]), g)
        for prop, keys in (("hasCardType", row.get("types", [])), ("hasCardKind", row.get("kinds", [])),
                           ("hasAbilityShape", [SHAPES[s] for s in row.get("shapes", [])])):
            for key in keys:
                node = c(key)
                if node is not None:
                    yield ox.Quad(card, rk[prop], node, g)
        if edition:
            for number, _ in row.get("rules", []):
                yield ox.Quad(card, rk["governedBy"], rule(number), g)

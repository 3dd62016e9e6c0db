"""Game concepts: one SKOS concept per glossary term, across all editions.

A concept is version-independent (``{base}concept/mana-ability``): its English
label and definition come from the newest edition that has the term, other
spellings become alternative labels, and every edition's glossary entry points
to it (``rk:defines``). It is linked to the rules that define it (the rules its
glossary entries cite, a cited section resolved to the rule in it that defines
the term by :mod:`kb.define.defining`, ``rk:definedBy``) and to the rules that mention it
(``rk:mentions``, found by matching its labels in rule text, English and --
where the ontology gives a French label -- French; stated once per wording where the rule
has a lineage, :mod:`kb.rdf.mentions`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import pyoxigraph as ox
from rdflib.namespace import RDF, SKOS

from rulekb.ingest.model import Edition

from .concept_keys import (MIN_LABEL, _NOT_PLURAL, _OBSOLETE, _WORD, _norm,  # noqa: F401  (their old home)
                           LabelIndex, concept_key, label_keys)
from .iris import Minter
from .vocab import RK

@dataclass
class Concept:
    key: str
    labels: dict[str, list[str]] = field(default_factory=dict)  # lang -> labels, preferred first
    definition: dict[str, str] = field(default_factory=dict)  # lang -> newest definition
    obsolete: bool = False
    denotes: list[str] = field(default_factory=list)  # ontology terms this concept names
    entries: list[tuple[str, str]] = field(default_factory=list)  # (edition id, term)
    defined_by: set[tuple[str, str]] = field(default_factory=set)  # (edition id, rule number)

    def add_label(self, lang: str, label: str, preferred: bool = False) -> None:
        labels = self.labels.setdefault(lang, [])
        if label in labels:
            if preferred:
                labels.remove(label)
                labels.insert(0, label)
            return
        labels.insert(0, label) if preferred else labels.append(label)


def collect(editions: list[Edition]) -> dict[str, Concept]:
    """Concepts from every edition's glossary, newest wording preferred."""
    from ..define.defining import SectionIndex, defining_rules

    concepts: dict[str, Concept] = {}
    for edition in sorted(editions, key=lambda e: e.effective_date or ""):
        index = SectionIndex(edition)
        for entry in edition.glossary:
            key = concept_key(entry.term)
            concept = concepts.setdefault(key, Concept(key))
            label = _OBSOLETE.sub("", entry.term)
            concept.add_label(edition.language, label, preferred=True)
            parts = [p.strip() for p in label.split(",") if p.strip()]
            if len(parts) > 1:  # "Control, Controller": each part is a name of the concept
                for part in parts:
                    concept.add_label(edition.language, part)
            concept.definition[edition.language] = entry.definition
            concept.obsolete = bool(_OBSOLETE.search(entry.term))
            concept.entries.append((edition.id, entry.term))
            # a cited rule, or the rule of a cited section that defines the term (kb.define.defining)
            concept.defined_by.update((edition.id, number)
                                      for number in defining_rules(index, entry.term, entry.refs, entry.definition))
    return concepts


def add_ontology_labels(concepts: dict[str, Concept], labels: dict[str, dict[str, list[str]]]) -> None:
    """French (and extra English) labels from the ontology's game-concept layer,
    keyed by the English label's concept key ("controller" reaches the glossary's
    "Control, Controller" through its comma parts)."""
    keys = KeyIndex(concepts)
    for key, by_lang in labels.items():
        concept = concepts.get(keys.concept_for(key) or key)
        if concept is None:
            continue
        for lang, values in by_lang.items():
            if lang == "denotes":
                concept.denotes.extend(values)
                continue
            for value in values:
                concept.add_label(lang, value)


def add_sentence_definitions(concepts: dict[str, Concept], editions: list[Edition]) -> None:
    """Editions without a glossary (the French texts) define their concepts too:
    a rule whose sentence says what a concept is, in the edition's language
    ("Un permanent est une carte ou un jeton sur le champ de bataille."), is
    one of its defining rules (``rk:definedBy``), as a glossary's cited rule is."""
    from ..define.defining import sentence_definitions

    by_language: dict[str, dict[str, list[str]]] = {}
    for edition in editions:
        if edition.glossary:
            continue
        labels = by_language.setdefault(edition.language, {
            key: [label for label in concept.labels.get(edition.language, []) if len(label) >= MIN_LABEL]
            for key, concept in concepts.items()})
        for key, number in sentence_definitions(edition, labels):
            concepts[key].defined_by.add((edition.id, number))


class KeyIndex:
    """Which concept a key names: its own key, or a key of one of its English
    labels ("controller" names the concept of "Control, Controller")."""

    def __init__(self, concepts: dict[str, Concept]):
        self.concepts = concepts
        self.keys: dict[str, str] = {}
        for concept in concepts.values():
            self.keys.setdefault(concept.key, concept.key)
        for concept in concepts.values():
            for label in concept.labels.get("en", []):
                for key in label_keys(label):
                    self.keys.setdefault(key, concept.key)

    def concept_for(self, key: str, create: bool = False) -> str | None:
        """The concept key ``key`` names; with ``create``, a new concept for a
        key no glossary has (statements name "copy-of-a-spell", "ability-on-the-stack")."""
        found = self.keys.get(key) or self.keys.get(concept_key(key.replace("-", " ")))
        if found or not create:
            return found
        concept = self.concepts[key] = Concept(key)
        concept.add_label("en", key.replace("-", " "), preferred=True)
        self.keys[key] = key
        return key


class Matcher(LabelIndex):
    """Finds which concepts a text mentions, by their labels (word n-grams)."""

    def __init__(self, concepts: dict[str, Concept], lang: str):
        super().__init__(((concept.key, label) for concept in concepts.values()
                          for label in concept.labels.get(lang, [])), lang)
        self._seen: dict[str, frozenset[str]] = {}  # most rule texts recur in the next edition

    def mentions(self, text: str) -> frozenset[str]:
        cached = self._seen.get(text)
        if cached is None:
            cached = self._seen[text] = super().mentions(text)
        return cached


def concept_quads(concepts: dict[str, Concept], mint: Minter, graph: str) -> Iterator[ox.Quad]:
    g = ox.NamedNode(graph)
    scheme = ox.NamedNode(mint.concept(""))
    t = lambda term: ox.NamedNode(str(term))  # noqa: E731
    yield ox.Quad(scheme, t(RDF.type), t(SKOS.ConceptScheme), g)
    yield ox.Quad(scheme, t(SKOS.prefLabel), ox.Literal("Game concepts of the Comprehensive Rules", language="en"), g)
    yield ox.Quad(scheme, t(SKOS.prefLabel), ox.Literal("Concepts de jeu des règles complètes", language="fr"), g)
    for concept in concepts.values():
        node = ox.NamedNode(mint.concept(concept.key))
        yield ox.Quad(node, t(RDF.type), t(SKOS.Concept), g)
        yield ox.Quad(node, t(SKOS.inScheme), scheme, g)
        for lang, labels in concept.labels.items():
            yield ox.Quad(node, t(SKOS.prefLabel), ox.Literal(labels[0], language=lang), g)
            for other in labels[1:]:
                yield ox.Quad(node, t(SKOS.altLabel), ox.Literal(other, language=lang), g)
        for lang, definition in concept.definition.items():
            yield ox.Quad(node, t(SKOS.definition), ox.Literal(definition, language=lang), g)
        for term in concept.denotes:
            yield ox.Quad(node, t(RK.denotes), ox.NamedNode(term), g)
        for edition_id, number in sorted(concept.defined_by):
            yield ox.Quad(node, t(RK.definedBy), ox.NamedNode(mint.rule(edition_id, number)), g)


def mention_quads(edition: Edition, matcher: Matcher, mint: Minter,
                  stated: dict[str, frozenset[str]] | None = None) -> Iterator[ox.Quad]:
    """Each rule's rk:mentions in its edition's graph, but for those its wording states
    already (``stated``: rule number -> concept keys, :func:`kb.rdf.mentions.coverage`)."""
    g = ox.NamedNode(mint.edition(edition.id))
    mentions = ox.NamedNode(str(RK.mentions))
    for rule, keys in rule_mentions(edition, matcher, stated):
        node = ox.NamedNode(mint.rule(edition.id, rule.number))
        for key in keys:
            yield ox.Quad(node, mentions, ox.NamedNode(mint.concept(key)), g)


def rule_mentions(edition: Edition, matcher: Matcher, stated: dict[str, frozenset[str]] | None = None):
    """(rule, the concept keys it states itself, sorted) for each rule of ``edition`` that
    mentions a concept its wording does not state (:func:`mention_quads`' rules)."""
    stated = stated or {}
    for rule in edition.rules:
        keys = matcher.mentions(rule.text) - stated.get(rule.number, frozenset())
        if keys:
            yield rule, sorted(keys)

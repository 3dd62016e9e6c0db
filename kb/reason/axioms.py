"""Definitional statements of one edition -> OWL 2 DL axioms, each remembering its statements.

Mapping (one statement may give several axioms; an axiom may come from several statements):

- ``is-a``   X is-a Y            -> SubClassOf(X Y); a zone qualifier ("on-the-stack")
                                    adds SubClassOf(X  rk:inZone value <zone>), other
                                    qualifiers stay on the statement only.
             (X an individual, e.g. "status" -> rk:infoStatus: ClassAssertion(Y X))
- ``not-a``  X not-a Y           -> DisjointClasses(X Y)  (individual: ClassAssertion(not Y, X))
- ``kinds``  X kinds M1..Mn      -> EquivalentClasses(X  M1 or ... or Mn)  (a covering;
                                    with a zone qualifier: (M1 or ... Mn) and inZone value Z)
- ``members`` X members m1..mn   -> EquivalentClasses(X {m1 ... mn}) + DifferentIndividuals
                                    when X is a class of the ontology (characteristic,
                                    supertype, card type, zone); other lists (subtypes,
                                    colors) stay open: ClassAssertion(X mi) only
- ``owner`` / ``controller``     -> SubClassOf(X  rk:owner some rk:Player); negated without
                                    a qualifier ("has no controller"): rk:controller only Nothing
- every concept a statement is about gets a *witness* individual: the rules presuppose
  that a token or a spell can exist, so a definition that makes one impossible makes the
  edition inconsistent instead of silently emptying the class.

A qualifier saying a list is open ("normally", "some", ...) turns a covering into
plain SubClassOf(Mi X) and an enumeration into ClassAssertions.

Names. A concept key denotes the ontology's term when the ontology has one of the right
kind (a class for a class, an individual for a member); keys it lacks get minted IRIs
``https://w3id.org/rulekb/concept#<key>``: independent of the deployment's base IRI and of
the edition (so the axiom digest of two editions with the same statements is the same and
two editions' axioms meet on the same names), and kept apart from the KB's SKOS concepts
``{base}concept/<key>`` (individuals), so no IRI is both a SKOS concept and an OWL class.

The ontology's own game-concept axioms join as *background*, restricted to the edition's
signature (an axiom about emblems stays out of a 2008 edition that never names them); its
covering definitions give way to the edition's own for the classes the edition defines,
and its class assertions (which characteristics or supertypes exist *today*) stay out:
each edition brings its own lists.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from rdflib import BNode, Graph, Literal, URIRef
from rdflib.namespace import DCTERMS, OWL, RDF, RDFS, SKOS

from ..define.common import NARROWED

from .forms import (
    concept_key,
    CONTROLLER,
    ISA,
    KINDS,
    MEMBERS,
    NOTA,
    OWNER,
    AXIOMS_ONTOLOGY,
    Axiom,
    CONCEPT,
    NOTHING,
    Naming,
    ONTOLOGY,
    ONTOLOGY_SOURCE,
    OPEN_QUALIFIERS,
    RK,
    Source,
    WITNESS,
    _individuals,
    _ontology_graph,
    _properties,
    _sorted,
    background_axioms,
    describe_statement,
    different,
    disjoint,
    eq,
    instance,
    intersection,
    named,
    render,
    select_background,
    sub,
    union,
)

# ---------------------------------------------------------------- the axiom set


@dataclass
class AxiomSet:
    """One edition's axioms (and the background's), with where each came from."""

    naming: Naming
    axioms: dict[Axiom, list[Source]] = field(default_factory=dict)
    witnesses: dict[str, str] = field(default_factory=dict)  # class iri -> witness individual iri
    concepts: set[str] = field(default_factory=set)  # class iris the edition's statements name
    skipped: list[tuple[str, object, str]] = field(default_factory=list)  # (rule, statement, why)
    enumerated: set[str] = field(default_factory=set)  # classes closed by an enumeration of members

    def add(self, axiom: Axiom, source: Source) -> None:
        self._ids = None
        sources = self.axioms.setdefault(axiom, [])
        if source not in sources:
            sources.append(source)

    @property
    def digest(self) -> str:
        """A digest of the logical content (axioms and witnesses, not their sources):
        editions whose statements say the same thing share it, and their reasoning."""
        items = sorted(a.id for a in self.axioms) + sorted(f"w:{c}" for c in self.witnesses)
        return hashlib.sha256("\n".join(items).encode("utf-8")).hexdigest()[:24]

    def by_id(self) -> dict[str, Axiom]:
        if getattr(self, "_ids", None) is None:
            self._ids = {a.id: a for a in self.axioms}
        return self._ids

    def without(self, ids: Iterable[str]) -> AxiomSet:
        """A copy without some axioms (e.g. background axioms the edition contradicts)."""
        ids = set(ids)
        kept = {a: s for a, s in self.axioms.items() if a.id not in ids}
        return AxiomSet(self.naming, kept, dict(self.witnesses), set(self.concepts), list(self.skipped))

    def background_only(self, axiom: Axiom) -> bool:
        """True when only the ontology gives this axiom: the edition's own axioms are never dropped."""
        sources = self.axioms.get(axiom, ())
        return bool(sources) and all(s.from_ontology for s in sources)

    def stated(self, axiom: Axiom) -> bool:
        return any(not s.from_ontology for s in self.axioms.get(axiom, ()))

    def graph(self, *, witnesses: bool = True, annotate: bool = True) -> Graph:
        """The axioms as an OWL 2 DL graph (RDF mapping), every axiom annotated with its id
        (dcterms:identifier), rule numbers (dcterms:source) and a readable rdfs:comment."""
        return to_graph(self, witnesses=witnesses, annotate=annotate)


def axiom_set(statements: list[tuple[str, object]], concepts_to_terms: dict[str, str],
              *, background: bool = True, edition: str = "") -> AxiomSet:
    """Axioms for one edition's (rule number, Statement) pairs, plus the ontology background.

    ``statements`` may also hold (edition id, rule number, Statement) triples: that is
    how two editions' statements meet in one set (see kb.reason.infer.clashes)."""
    naming = _naming(tuple(sorted(concepts_to_terms.items())))
    result = AxiomSet(naming)
    defined: set[str] = set()  # classes the edition defines by a covering or an enumeration
    for item in statements:
        statement = item[-1]
        if statement.aspect == MEMBERS and statement.members and not statement.negated and not _open(statement):
            if (container := naming.cls(statement.concept)).startswith(str(RK)):
                result.enumerated.add(container)
    for item in statements:
        source_edition, rule, statement = item if len(item) == 3 else (edition, *item)
        source = Source(str(rule), statement, source_edition)
        result.concepts |= _statement_concepts(statement, naming)
        produced = _statement_axioms(statement, naming, result, source)
        if isinstance(produced, str):
            result.skipped.append((str(rule), statement, produced))
            continue
        for axiom in produced:
            result.add(axiom, source)
        if statement.aspect in (KINDS, MEMBERS) and not _open(statement):
            defined.add(naming.cls(statement.concept))
    if background:
        signature = set()
        for axiom in result.axioms:
            signature |= axiom.classes() | set(_individuals(axiom.form)) | set(_properties(axiom.form))
        for axiom in select_background(background_axioms(), signature, defined):
            result.add(axiom, ONTOLOGY)
    return result


def edition_axioms(statements: list[tuple[str, object]], concepts_to_terms: dict[str, str]) -> Graph:
    """The OWL 2 DL axioms of one edition's statements (with the ontology background),
    as an rdflib graph whose axioms carry their sources (see :func:`axiom_set`)."""
    return axiom_set(statements, concepts_to_terms).graph()


def _open(statement) -> bool:
    return bool(set(statement.qualifier.split("+")) & OPEN_QUALIFIERS)


def _statement_axioms(s, naming: Naming, result: AxiomSet, source: Source) -> list[Axiom] | str:
    """The axioms one statement gives, or why it gives none."""
    aspect = s.aspect
    negative = aspect == NOTA or (aspect == ISA and s.negated)  # kb.define marks not-a negated too
    if aspect in (ISA, NOTA):
        if not s.value:
            return "no class named"
        target = named(naming.cls(s.value))
        if naming.is_individual(s.concept):
            thing = naming.individual(s.concept, within=target[1])
            return [instance(("not", target) if negative else target, thing)]
        if not negative and target[1] in result.enumerated:
            # "An ability is a characteristic an object has": the edition lists the
            # characteristics by name, so this is a way of speaking, not a subclass (as one,
            # every kind of ability would have to be one of a dozen named characteristics).
            return "is-a a class the edition enumerates by name"
        subject = _witnessed(naming.cls(s.concept), s, result)
        zone, on_subject = _zone(s, naming)
        if zone and on_subject:  # "a card on the stack is a spell": only those cards
            where = intersection((subject, ("value", str(RK.inZone), zone)))
            return [sub(where, ("not", target) if negative else target)]
        if negative:
            return [disjoint((subject, target))]
        out = [sub(subject, target)]
        if zone:  # "a spell is a card on the stack": every spell is on the stack
            out.append(sub(subject, ("value", str(RK.inZone), zone)))
        return out
    if aspect == KINDS:
        if s.negated or not s.members:
            return "negated or empty list"
        subject_iri = naming.cls(s.concept)
        kinds = [named(naming.cls(m)) for m in s.members if m != s.concept]
        if _open(s):
            return [sub(k, named(subject_iri)) for k in kinds]
        cover = union(kinds)
        if (zone := _zone(s, naming)[0]) is not None:
            cover = intersection((cover, ("value", str(RK.inZone), zone)))
        if NARROWED in s.qualifier.split("+"):  # "an action or payment necessary to ...": one of them
            return [sub(_witnessed(subject_iri, s, result), cover)]
        return [eq(_witnessed(subject_iri, s, result), cover)]
    if aspect == MEMBERS:
        if s.negated or not s.members:
            return "negated or empty list"
        container = naming.cls(s.concept)
        members = [naming.individual(m, within=container) for m in s.members]
        # Only the ontology's own enumerations (characteristics, supertypes, card types,
        # zones) are closed, with members told apart: they are what editions are compared
        # on, and every closed list costs HermiT nominals (the 80 planar types alone triple
        # its time; DifferentIndividuals over the 200-odd creature types made one edition
        # take 7 s instead of 1 s). Other lists are plain memberships.
        if _open(s) or not container.startswith(str(RK)):
            return [instance(named(container), m) for m in members]
        out = [different(members)] if len(set(members)) > 1 else []
        return out + [eq(named(container), ("one", _sorted(members)))]
    if aspect in (OWNER, CONTROLLER):
        role = str(RK[aspect])
        subject = _witnessed(naming.cls(s.concept), s, result)
        if (zone := _zone(s, naming)[0]) is not None:  # "the controller of an ability on the stack"
            subject = intersection((subject, ("value", str(RK.inZone), zone)))
        if not s.negated:
            return [sub(subject, ("some", role, named(naming.cls("player"))))]
        if s.qualifier:  # "has no controller unless ...": an exception we cannot state in OWL
            return f"negated {aspect} with a qualifier ({s.qualifier})"
        return [sub(subject, ("only", role, NOTHING))]
    return f"aspect {aspect!r} has no OWL mapping"


_COPULA = re.compile(r"\b(?:is|are|isn't|aren't|est|sont|n'est|ne sont)\b", re.IGNORECASE)


def _zone(statement, naming: Naming) -> tuple[str | None, bool]:
    """The zone a statement's qualifier names, and whether it qualifies the subject.

    "A spell is a card on the stack" (the zone after the verb) says where every spell
    is; "A card on the stack is a spell" (before it) says which cards are spells. A
    Statement does not keep that difference, so it is read back from the sentence."""
    for qualifier in statement.qualifier.split("+"):
        zone = naming.zone(qualifier)
        if zone is None:
            continue
        sentence = statement.sentence.replace("’", "'")
        verb = _COPULA.search(sentence)
        places = [sentence.lower().find(label) for label in naming.zone_labels.get(zone, ())]
        places = [p for p in places if p >= 0]
        return zone, bool(verb and places and min(places) < verb.start())
    return None, False


def _witnessed(iri: str, statement, result: AxiomSet) -> tuple:
    result.witnesses.setdefault(iri, str(WITNESS[concept_key(statement.concept)]))
    return named(iri)


def _statement_concepts(s, naming: Naming) -> set[str]:
    """The classes a statement names: what reasoning reports facts about."""
    found = set()
    if s.aspect in (ISA, NOTA, KINDS, MEMBERS, OWNER, CONTROLLER) and not naming.is_individual(s.concept):
        found.add(naming.cls(s.concept))
    if s.aspect in (ISA, NOTA) and s.value:
        found.add(naming.cls(s.value))
    if s.aspect == KINDS:
        found |= {naming.cls(m) for m in s.members}
    return found


@lru_cache(maxsize=8)
def _naming(items: tuple) -> Naming:
    return Naming(dict(items), _ontology_graph())


# ---------------------------------------------------------------- RDF


def to_graph(axioms: AxiomSet, *, witnesses: bool = True, annotate: bool = True) -> Graph:
    g = Graph()
    g.bind("rk", RK)
    g.bind("concept", CONCEPT)
    g.bind("owl", OWL)
    g.bind("dcterms", DCTERMS)
    g.add((AXIOMS_ONTOLOGY, RDF.type, OWL.Ontology))
    for prop in (DCTERMS.identifier, DCTERMS.source):
        g.add((prop, RDF.type, OWL.AnnotationProperty))
    classes, individuals, properties = set(), set(), set()
    for axiom, sources in axioms.axioms.items():
        classes |= axiom.classes()
        individuals |= set(_individuals(axiom.form))
        properties |= set(_properties(axiom.form))
        anchor = _axiom_triples(g, axiom.form)
        if annotate:
            _annotate(g, anchor, axiom, sources, axioms.naming)
    if witnesses:
        for cls, witness in sorted(axioms.witnesses.items()):
            individuals.add(witness)
            anchor = (URIRef(witness), RDF.type, URIRef(cls))
            g.add(anchor)
            if annotate:
                g.add(_reify(g, anchor, DCTERMS.identifier, Literal("witness:" + axioms.naming.name(cls))))
    for c in classes:
        g.add((URIRef(c), RDF.type, OWL.Class))
    for i in individuals:
        g.add((URIRef(i), RDF.type, OWL.NamedIndividual))
    for p in properties:
        g.add((URIRef(p), RDF.type, OWL.ObjectProperty))
    return g


def _ce(g: Graph, ce: tuple):
    kind = ce[0]
    if kind == "C":
        return URIRef(ce[1])
    if kind == "nothing":
        return OWL.Nothing
    node = BNode()
    if kind in ("or", "and", "one"):
        g.add((node, RDF.type, OWL.Class))
        items = [URIRef(i) for i in ce[1]] if kind == "one" else [_ce(g, m) for m in ce[1]]
        head = BNode()
        rdf_list(g, head, items)
        g.add((node, {"or": OWL.unionOf, "and": OWL.intersectionOf, "one": OWL.oneOf}[kind], head))
    elif kind == "not":
        g.add((node, RDF.type, OWL.Class))
        g.add((node, OWL.complementOf, _ce(g, ce[1])))
    else:
        g.add((node, RDF.type, OWL.Restriction))
        g.add((node, OWL.onProperty, URIRef(ce[1])))
        if kind == "value":
            g.add((node, OWL.hasValue, URIRef(ce[2])))
        else:
            g.add((node, OWL.someValuesFrom if kind == "some" else OWL.allValuesFrom, _ce(g, ce[2])))
    return node


def _axiom_triples(g: Graph, form: tuple):
    """Add one axiom; return its main triple (to reify) or its own node (n-ary axioms)."""
    kind = form[0]
    if kind in ("sub", "eq"):
        left, right = form[1], form[2]
        if kind == "eq" and left[0] != "C" and right[0] == "C":
            left, right = right, left
        triple = (_ce(g, left), RDFS.subClassOf if kind == "sub" else OWL.equivalentClass, _ce(g, right))
    elif kind == "disjoint" and len(form[1]) == 2:
        triple = (_ce(g, form[1][0]), OWL.disjointWith, _ce(g, form[1][1]))
    elif kind in ("disjoint", "different"):
        node = BNode()
        members = [_ce(g, ce) for ce in form[1]] if kind == "disjoint" else [URIRef(i) for i in form[1]]
        head = BNode()
        rdf_list(g, head, members)
        g.add((node, RDF.type, OWL.AllDisjointClasses if kind == "disjoint" else OWL.AllDifferent))
        g.add((node, OWL.members if kind == "disjoint" else OWL.distinctMembers, head))
        return node
    elif kind == "type":
        triple = (URIRef(form[2]), RDF.type, _ce(g, form[1]))
    elif kind == "functional":
        triple = (URIRef(form[1]), RDF.type, OWL.FunctionalProperty)
    elif kind in ("domain", "range"):
        triple = (URIRef(form[1]), RDFS.domain if kind == "domain" else RDFS.range, _ce(g, form[2]))
    else:
        raise ValueError(f"unknown axiom {form!r}")
    g.add(triple)
    return triple


def rdf_list(g: Graph, head: BNode, items: list) -> None:
    """The triples of ``rdflib.collection.Collection(g, head, items)`` for a new ``head``, added
    directly: Collection looks the list up again for every item it appends (a probe run's 800
    lists cost 80 ms of the 250 ms of Python an axiom set takes)."""
    node = head
    for index, item in enumerate(items):
        g.add((node, RDF.first, item))
        following = BNode() if index < len(items) - 1 else RDF.nil
        g.add((node, RDF.rest, following))
        node = following
    if not items:
        g.add((head, RDF.rest, RDF.nil))  # as Collection leaves an empty list


def _reify(g: Graph, anchor, prop, value):
    if isinstance(anchor, BNode):  # n-ary axioms are annotated on their own node
        return (anchor, prop, value)
    return (_axiom_node(g, anchor), prop, value)


def _axiom_node(g: Graph, triple) -> BNode:
    s, p, o = triple
    for node in g.subjects(OWL.annotatedSource, s):
        if (node, OWL.annotatedProperty, p) in g and (node, OWL.annotatedTarget, o) in g:
            return node
    node = BNode()
    g.add((node, RDF.type, OWL.Axiom))
    g.add((node, OWL.annotatedSource, s))
    g.add((node, OWL.annotatedProperty, p))
    g.add((node, OWL.annotatedTarget, o))
    return node


def _annotate(g: Graph, anchor, axiom: Axiom, sources: list[Source], naming: Naming) -> None:
    g.add(_reify(g, anchor, DCTERMS.identifier, Literal(axiom.id)))
    for source in sources:
        if source.from_ontology:
            g.add(_reify(g, anchor, DCTERMS.source, Literal(ONTOLOGY_SOURCE)))
        else:
            g.add(_reify(g, anchor, DCTERMS.source, Literal(source.rule)))
            g.add(_reify(g, anchor, RDFS.comment,
                         Literal(f"rule {source.rule}: {describe_statement(source.statement)}")))



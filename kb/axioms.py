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
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from rdflib import BNode, Graph, Literal, Namespace, URIRef
from rdflib.collection import Collection
from rdflib.namespace import DCTERMS, OWL, RDF, RDFS, SKOS

from .concepts import concept_key

RK = Namespace("https://w3id.org/rulekb#")
CONCEPT = Namespace("https://w3id.org/rulekb/concept#")
WITNESS = Namespace("https://w3id.org/rulekb/witness#")
AXIOMS_ONTOLOGY = URIRef("https://w3id.org/rulekb/axioms")
ONTOLOGY_SOURCE = "ontology"

ISA, NOTA, KINDS, MEMBERS, OWNER, CONTROLLER = "is-a", "not-a", "kinds", "members", "owner", "controller"
# Qualifiers that leave a list open: the rules name some members, not all of them.
OPEN_QUALIFIERS = {"normally", "usually", "some", "for-example", "including", "among-others", "also"}
_ZONE_PREFIXES = ("on-the-", "in-the-", "on-", "in-", "into-the-")

# ---------------------------------------------------------------- class expressions and axioms
# Class expressions are hashable tuples, canonical (operands sorted), so equal axioms
# compare equal whatever order the rules list things in:
#   ("C", iri) ("or", ces) ("and", ces) ("one", iris) ("some", p, ce) ("value", p, iri)
#   ("only", p, ce) ("not", ce) ("nothing",)
# Axioms likewise: ("sub", ce, ce) ("eq", ce, ce) ("disjoint", ces) ("type", ce, iri)
#   ("different", iris) ("functional", p) ("domain", p, ce) ("range", p, ce)

NOTHING = ("nothing",)


def named(iri: str) -> tuple:
    return ("C", str(iri))


def _sorted(items: Iterable) -> tuple:
    return tuple(sorted(set(items), key=repr))


def union(ces: Iterable[tuple]) -> tuple:
    ces = _sorted(ces)
    return ces[0] if len(ces) == 1 else ("or", ces)


def intersection(ces: Iterable[tuple]) -> tuple:
    ces = _sorted(ces)
    return ces[0] if len(ces) == 1 else ("and", ces)


@dataclass(frozen=True, slots=True)
class Axiom:
    form: tuple  # canonical, see above

    @property
    def id(self) -> str:
        """A short digest of the logical content: equal axioms have equal ids in every edition."""
        return _axiom_id(self.form)

    @property
    def kind(self) -> str:
        return self.form[0]

    def classes(self) -> set[str]:
        """The named classes the axiom mentions."""
        return set(_classes(self.form))


@lru_cache(maxsize=None)
def _axiom_id(form: tuple) -> str:
    return "ax-" + hashlib.sha256(repr(form).encode("utf-8")).hexdigest()[:12]


def sub(a: tuple, b: tuple) -> Axiom:
    return Axiom(("sub", a, b))


def eq(a: tuple, b: tuple) -> Axiom:
    return Axiom(("eq", *_sorted((a, b))))


def disjoint(ces: Iterable[tuple]) -> Axiom:
    return Axiom(("disjoint", _sorted(ces)))


def instance(ce: tuple, individual: str) -> Axiom:
    return Axiom(("type", ce, str(individual)))


def different(individuals: Iterable[str]) -> Axiom:
    return Axiom(("different", _sorted(str(i) for i in individuals)))


def _forms(x) -> Iterator[tuple]:
    """Every axiom or class expression inside ``x`` (a form, or a tuple of forms)."""
    if isinstance(x, tuple) and x:
        if isinstance(x[0], str):
            yield x
            parts = x[1:]
        else:
            parts = x
        for part in parts:
            yield from _forms(part)


def _classes(form) -> Iterator[str]:
    for f in _forms(form):
        if f[0] == "C":
            yield f[1]


def _individuals(form) -> Iterator[str]:
    for f in _forms(form):
        if f[0] in ("one", "different"):
            yield from f[1]
        elif f[0] in ("value", "type"):
            yield f[2]


def _properties(form) -> Iterator[str]:
    for f in _forms(form):
        if f[0] in ("some", "value", "only", "functional", "domain", "range"):
            yield f[1]


# ---------------------------------------------------------------- sources


@dataclass(frozen=True, slots=True)
class Source:
    """Where an axiom comes from: a statement of a rule, or the ontology."""

    rule: str  # rule number; "" for the ontology
    statement: object = None  # kb.definitions.Statement (None for the ontology)
    edition: str = ""  # set when axiom sets of several editions meet

    @property
    def from_ontology(self) -> bool:
        return self.statement is None


ONTOLOGY = Source("")


def describe_statement(statement) -> str:
    """A statement in a few words: "object is one of ability-on-the-stack, card, ..."."""
    s = statement
    negated = " not" if getattr(s, "negated", False) and s.aspect not in (NOTA,) else ""
    qualifier = f" ({s.qualifier})" if getattr(s, "qualifier", "") else ""
    if s.aspect == ISA:
        text = f"{s.concept} is{negated} a {s.value}"
    elif s.aspect == NOTA:
        text = f"{s.concept} is not a {s.value}"
    elif s.aspect == KINDS:
        text = f"{s.concept} is one of {', '.join(s.members)}"
    elif s.aspect == MEMBERS:
        text = f"the {s.concept} values are {', '.join(s.members)}"
    elif s.aspect in (OWNER, CONTROLLER):
        text = f"{s.concept}'s {s.aspect} is{negated} {s.value or 'a player'}"
    else:
        text = f"{s.concept} {s.aspect} {s.value or ', '.join(s.members)}"
    return text + qualifier


# ---------------------------------------------------------------- names


class Naming:
    """Concept keys -> IRIs (ontology terms where the ontology has one of the right kind,
    minted ones otherwise), and IRIs -> the short names explanations print."""

    def __init__(self, concepts_to_terms: dict[str, str], ontology_graph: Graph):
        self.terms = {k: str(v) for k, v in concepts_to_terms.items()}
        g = ontology_graph
        self.classes = {str(c) for c in g.subjects(RDF.type, OWL.Class) if isinstance(c, URIRef)}
        self.individuals = {str(i) for i in g.subjects(RDF.type, OWL.NamedIndividual)}
        self.types = {i: {str(t) for t in g.objects(URIRef(i), RDF.type)} for i in self.individuals}
        # English labels (preferred, alternative and historical) -> individuals
        self.by_label: dict[str, list[str]] = {}
        for prop in (SKOS.prefLabel, RDFS.label, SKOS.altLabel, SKOS.hiddenLabel):
            for s, label in g.subject_objects(prop):
                if str(s) in self.individuals and getattr(label, "language", None) == "en":
                    found = self.by_label.setdefault(concept_key(str(label)), [])
                    if str(s) not in found:
                        found.append(str(s))
        # the words that name each zone in a sentence, any language ("stack", "pile", "in play")
        self.zone_labels: dict[str, list[str]] = {}
        for zone in g.subjects(RDF.type, RK.Zone):
            words = {str(v).lower() for p in (SKOS.prefLabel, RDFS.label, SKOS.altLabel, SKOS.hiddenLabel)
                     for v in g.objects(zone, p)}
            self.zone_labels[str(zone)] = sorted(words)
        self.names: dict[str, str] = {}  # iri -> the key it was named by
        for key, term in sorted(self.terms.items()):
            self.names.setdefault(term, key)

    def _term(self, key: str) -> str | None:
        return self.terms.get(key) or self.terms.get(concept_key(key))

    def _labelled(self, key: str) -> list[str]:
        return self.by_label.get(key) or self.by_label.get(concept_key(key)) or []

    def _remember(self, iri: str, key: str) -> str:
        self.names.setdefault(iri, key)
        return iri

    def cls(self, key: str) -> str:
        term = self._term(key)
        return self._remember(term if term in self.classes else str(CONCEPT[concept_key(key)]), key)

    def individual(self, key: str, within: str | None = None) -> str:
        """The individual a member key names, preferring one the ontology types as ``within``."""
        candidates = list(self._labelled(key))
        term = self._term(key)
        if term in self.individuals and term not in candidates:
            candidates.insert(0, term)
        if within:
            candidates.sort(key=lambda i: within not in self.types.get(i, ()))
        return self._remember(candidates[0] if candidates else str(CONCEPT[concept_key(key)]), key)

    def is_individual(self, key: str) -> bool:
        """True when a statement's subject names a thing, not a kind of thing
        ("status", "outside the game"): no ontology class, but an ontology individual."""
        term = self._term(key)
        return term not in self.classes and bool(self._labelled(key) or term in self.individuals)

    def zone(self, qualifier: str) -> str | None:
        """The zone a qualifier puts something in ("on-the-stack" -> rk:zoneStack), if any."""
        zone_class = str(RK.Zone)
        keys = [qualifier] + [qualifier[len(p):] for p in _ZONE_PREFIXES if qualifier.startswith(p)]
        for key in keys:
            for key2 in (key, key.removesuffix("-zone")):
                for iri in self._labelled(key2):
                    if zone_class in self.types.get(iri, ()):
                        return iri
        return None

    def iri(self, name: str) -> str:
        """The IRI a name printed by :meth:`name` stands for."""
        return next((iri for iri, key in self.names.items() if key == name), str(CONCEPT[name]))

    def name(self, iri: str) -> str:
        iri = str(iri)
        if iri in self.names:
            return self.names[iri]
        return iri.rpartition("#")[2] or iri.rpartition("/")[2]


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
    how two editions' statements meet in one set (see kb.infer.clashes)."""
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
    negative = aspect == NOTA or (aspect == ISA and s.negated)  # kb.definitions marks not-a negated too
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


@lru_cache(maxsize=1)
def _ontology_graph() -> Graph:
    import ontology

    return ontology.graph()


# ---------------------------------------------------------------- the ontology as background


# Left out of the background: the rules give controllers (and owners) to things that
# are not objects -- a triggered ability waiting to be put on the stack, a mana ability
# (109.4a-b) -- so "X has a controller" must not make X an object.
_LEFT_OUT = {("domain", str(RK.owner)), ("domain", str(RK.controller))}


@lru_cache(maxsize=1)
def background_axioms() -> tuple[Axiom, ...]:
    """The class and property axioms of the ontology (no class assertions), canonical."""
    g = _ontology_graph()
    out: list[Axiom] = []
    classes = {c for c in g.subjects(RDF.type, OWL.Class) if isinstance(c, URIRef)}
    for c in sorted(classes):
        for sup in g.objects(c, RDFS.subClassOf):
            out.append(sub(named(c), _read_ce(g, sup)))
        for other in g.objects(c, OWL.equivalentClass):
            out.append(eq(named(c), _read_ce(g, other)))
        for other in g.objects(c, OWL.disjointWith):
            out.append(disjoint((named(c), _read_ce(g, other))))
    for node in g.subjects(RDF.type, OWL.AllDisjointClasses):
        # pairwise, so that an edition that disagrees with one pair loses only that pair
        members = _sorted(_read_ce(g, m) for m in Collection(g, g.value(node, OWL.members)))
        out += [disjoint((a, b)) for i, a in enumerate(members) for b in members[i + 1:]]
    for node in g.subjects(RDF.type, OWL.AllDifferent):
        out.append(different(Collection(g, g.value(node, OWL.distinctMembers))))
    for prop in sorted(g.subjects(RDF.type, OWL.ObjectProperty)):
        if (prop, RDF.type, OWL.FunctionalProperty) in g:
            out.append(Axiom(("functional", str(prop))))
        for domain in g.objects(prop, RDFS.domain) if ("domain", str(prop)) not in _LEFT_OUT else ():
            out.append(Axiom(("domain", str(prop), _read_ce(g, domain))))
        for range_ in g.objects(prop, RDFS.range):
            out.append(Axiom(("range", str(prop), _read_ce(g, range_))))
    return tuple(dict.fromkeys(out))


def _read_ce(g: Graph, node) -> tuple:
    if isinstance(node, URIRef):
        return NOTHING if node == OWL.Nothing else named(node)
    if (lst := g.value(node, OWL.unionOf)) is not None:
        return union(_read_ce(g, m) for m in Collection(g, lst))
    if (lst := g.value(node, OWL.intersectionOf)) is not None:
        return intersection(_read_ce(g, m) for m in Collection(g, lst))
    if (lst := g.value(node, OWL.oneOf)) is not None:
        return ("one", _sorted(str(m) for m in Collection(g, lst)))
    if (other := g.value(node, OWL.complementOf)) is not None:
        return ("not", _read_ce(g, other))
    prop = str(g.value(node, OWL.onProperty))
    if (filler := g.value(node, OWL.someValuesFrom)) is not None:
        return ("some", prop, _read_ce(g, filler))
    if (filler := g.value(node, OWL.allValuesFrom)) is not None:
        return ("only", prop, _read_ce(g, filler))
    if (value := g.value(node, OWL.hasValue)) is not None:
        return ("value", prop, str(value))
    raise ValueError(f"class expression not understood: {node}")


def select_background(axioms: Iterable[Axiom], signature: set[str], defined: set[str]) -> list[Axiom]:
    """The background axioms that speak only of the edition's classes, individuals and
    properties (``signature``); an n-ary disjointness or difference keeps its members
    inside the signature; the ontology's covering of a class the edition defines itself
    gives way to the edition's."""
    kept = []
    for axiom in axioms:
        form = axiom.form
        if form[0] == "different":
            inside = [m for m in form[1] if m in signature]
            if len(inside) >= 2:
                kept.append(different(inside))
            continue
        if not _names(form) <= signature or not (axiom.classes() or form[0] == "functional"):
            continue
        if form[0] in ("eq", "sub") and _covers_defined(form, defined):
            continue
        kept.append(axiom)
    return kept


def _names(form) -> set[str]:
    if isinstance(form, str):  # an individual
        return {form}
    return set(_classes(form)) | set(_individuals(form)) | set(_properties(form))


def _covers_defined(form: tuple, defined: set[str]) -> bool:
    """Is this an equivalence (or a covering SubClassOf) of a class the edition defines?"""
    if form[0] == "eq":
        return any(ce[0] == "C" and ce[1] in defined for ce in form[1:])
    left, right = form[1], form[2]
    return left[0] == "C" and left[1] in defined and right[0] in ("or", "one")


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
        Collection(g, head, items)
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
        Collection(g, head, members)
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


# ---------------------------------------------------------------- reading axioms for people


def render(axiom: Axiom | tuple, naming: Naming) -> str:
    """An axiom in DL notation with short names: "spell ⊑ object", "token ⊓ card ⊑ ⊥"."""
    form = axiom.form if isinstance(axiom, Axiom) else axiom
    r = lambda ce: _render_ce(ce, naming)  # noqa: E731
    kind = form[0]
    if kind == "sub":
        return f"{r(form[1])} ⊑ {r(form[2])}"
    if kind == "eq":
        return f"{r(form[1])} ≡ {r(form[2])}"
    if kind == "disjoint":
        return "disjoint(" + ", ".join(r(ce) for ce in form[1]) + ")"
    if kind == "type":
        return f"{naming.name(form[2])} : {r(form[1])}"
    if kind == "different":
        return "different(" + ", ".join(naming.name(i) for i in form[1]) + ")"
    if kind == "functional":
        return f"{naming.name(form[1])} is functional"
    if kind in ("domain", "range"):
        return f"{kind}({naming.name(form[1])}) = {r(form[2])}"
    return repr(form)


def _render_ce(ce: tuple, naming: Naming) -> str:
    kind = ce[0]
    if kind == "C":
        return naming.name(ce[1])
    if kind == "nothing":
        return "⊥"
    if kind in ("or", "and"):
        inner = (" ⊔ " if kind == "or" else " ⊓ ").join(_render_ce(m, naming) for m in ce[1])
        return f"({inner})"
    if kind == "one":
        return "{" + ", ".join(naming.name(i) for i in ce[1]) + "}"
    if kind == "not":
        return "¬" + _render_ce(ce[1], naming)
    if kind == "value":
        return f"{naming.name(ce[1])} = {naming.name(ce[2])}"
    symbol = "∃" if kind == "some" else "∀"
    return f"{symbol}{naming.name(ce[1])}.{_render_ce(ce[2], naming)}"

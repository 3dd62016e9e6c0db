"""Axioms as data: class expressions and axioms (plain tuples), the statements they come from, the names of concepts, the ontology as background, and how an axiom reads for people.

Split out of :mod:`kb.reason.axioms`, which builds an edition's axiom set from these parts.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from rdflib import Graph, Namespace, URIRef
from rdflib.collection import Collection
from rdflib.namespace import OWL, RDF, RDFS, SKOS

from ..define.common import OPEN_QUALIFIERS  # noqa: F401 (the statements' vocabulary)
from ..rdf.concepts import concept_key as _concept_key

# a pure function of the term, asked 340,000 times for the corpus's axiom sets (about 2,000 distinct terms)
concept_key = lru_cache(maxsize=1 << 16)(_concept_key)


RK = Namespace("https://w3id.org/rulekb#")
CONCEPT = Namespace("https://w3id.org/rulekb/concept#")
WITNESS = Namespace("https://w3id.org/rulekb/witness#")
AXIOMS_ONTOLOGY = URIRef("https://w3id.org/rulekb/axioms")
ONTOLOGY_SOURCE = "ontology"

ISA, NOTA, KINDS, MEMBERS, OWNER, CONTROLLER = "is-a", "not-a", "kinds", "members", "owner", "controller"
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
    statement: object = None  # kb.define.Statement (None for the ontology)
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


@lru_cache(maxsize=1)
def _ontology_graph() -> Graph:
    from rulekb import ontology

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

"""Definitional statements -> OWL 2 DL axioms (kb.reason.axioms): the mapping, the names, the
sources every axiom keeps, the ontology background, the digest. No Java needed.

Statements are written by hand here, from rules read in the corpus (concept keys only,
no rule text).
"""

from __future__ import annotations

import pytest
from rdflib import Literal, URIRef
from rdflib.namespace import DCTERMS, OWL, RDF, RDFS

from rulekb.kb.reason import axioms as ax
from rulekb.kb.rdf.lexicon import ontology_labels as _ontology_labels
from rulekb.kb.define import Statement as S

RK = "https://w3id.org/rulekb#"
CONCEPT = "https://w3id.org/rulekb/concept#"


@pytest.fixture(scope="module")
def terms() -> dict[str, str]:
    return {key: value["denotes"][0] for key, value in _ontology_labels().items()}


def c(name: str) -> tuple:
    return ax.named(RK + name)


def forms(axiom_set: ax.AxiomSet) -> set[tuple]:
    return {a.form for a in axiom_set.axioms}


def stated(axiom_set: ax.AxiomSet) -> dict[tuple, list[str]]:
    """form -> the rule numbers of the statements behind it (the ontology's left out)."""
    return {a.form: [s.rule for s in sources if not s.from_ontology] for a, sources in axiom_set.axioms.items()}


SPELL = ("112.1", S("spell", "is-a", "card", qualifier="on-the-stack", sentence="A spell is a card on the stack."))
OBJECT = ("109.1", S("object", "kinds", members=("ability-on-the-stack", "card", "copy-of-a-card", "token", "spell",
                                                  "permanent", "emblem")))


def test_is_a_gives_subclass_and_a_zone_qualifier_says_where_every_one_is(terms):
    result = ax.axiom_set([SPELL], terms, background=False)
    on_stack = ("value", RK + "inZone", RK + "zoneStack")
    assert stated(result) == {("sub", c("Spell"), c("Card")): ["112.1"], ("sub", c("Spell"), on_stack): ["112.1"]}


def test_a_zone_before_the_verb_qualifies_the_subject_only(terms):
    # "A card on the stack is a spell" (2008, 401.1): not every card is a spell
    card = ("401.1", S("card", "is-a", "spell", qualifier="on-the-stack", sentence="A card on the stack is a spell."))
    result = ax.axiom_set([card], terms, background=False)
    on_stack = ("value", RK + "inZone", RK + "zoneStack")
    assert forms(result) == {("sub", ax.intersection((c("Card"), on_stack)), c("Spell"))}


def test_kinds_give_a_covering_in_any_printed_order(terms):
    result = ax.axiom_set([OBJECT], terms, background=False)
    kinds = ["AbilityOnTheStack", "Card", "CopyOfACard", "Token", "Spell", "Permanent", "Emblem"]
    assert forms(result) == {ax.eq(c("GameObject"), ax.union(c(k) for k in kinds)).form}
    reordered = S("object", "kinds", members=tuple(reversed(OBJECT[1].members)))
    assert ax.axiom_set([("200.8", reordered)], terms, background=False).digest == result.digest


def test_kinds_with_a_zone_are_the_kinds_in_that_zone(terms):
    permanent = ("110.1", S("permanent", "kinds", members=("card", "token"), qualifier="on-the-battlefield",
                            sentence="A permanent is a card or token on the battlefield."))
    result = ax.axiom_set([permanent], terms, background=False)
    where = ("value", RK + "inZone", RK + "zoneBattlefield")
    cover = ax.intersection((ax.union((c("Card"), c("Token"))), where))
    assert forms(result) == {ax.eq(c("Permanent"), cover).form}


def test_kinds_narrowed_by_the_words_after_them_give_a_subclass_not_a_covering(terms):
    # "A cost is an action or payment necessary to ...": a cost is one of them, but an action is
    # not thereby a cost (as an equivalence it was: HermiT then put every action under cost)
    cost = ("118.1", S("cost", "kinds", members=("action", "payment"), qualifier="narrowed"))
    result = ax.axiom_set([cost], terms, background=False)
    (form,) = forms(result)
    assert form[0] == "sub" and form[2] == ax.union((ax.named(CONCEPT + "action"), ax.named(CONCEPT + "payment")))
    plain = ax.axiom_set([("118.1", S("cost", "kinds", members=("action", "payment")))], terms, background=False)
    assert {f[0] for f in forms(plain)} == {"eq"}


def test_members_of_an_ontology_class_are_a_closed_enumeration_of_its_individuals(terms):
    # "card type" and "ability" are characteristics here, not the classes CardType and Ability
    characteristics = ("109.3", S("characteristic", "members", members=("name", "card-type", "ability", "power")))
    result = ax.axiom_set([characteristics], terms, background=False)
    members = [RK + "characteristic" + m for m in ("Name", "CardType", "Abilities", "Power")]
    assert forms(result) == {ax.eq(c("Characteristic"), ("one", ax._sorted(members))).form,
                             ax.different(members).form}


def test_open_lists_and_other_lists_only_type_their_members(terms):
    zones = ("400.1", S("zone", "members", members=("library", "hand", "in-play"), qualifier="normally"))
    subtypes = ("205.3i", S("land-type", "members", members=("forest", "island")))
    result = ax.axiom_set([zones, subtypes], terms, background=False)
    assert ax.instance(c("Zone"), RK + "zoneBattlefield").form in forms(result)  # "in play" is the battlefield
    assert ax.instance(ax.named(CONCEPT + "land-type"), CONCEPT + "forest").form in forms(result)
    assert not [f for f in forms(result) if f[0] == "eq"]


def test_not_a_gives_disjointness_and_a_thing_that_is_not_a_kind_a_negative_type(terms):
    token = ("111.6", S("token", "not-a", "card", negated=True))
    status = ("110.5a", S("status", "not-a", "characteristic", negated=True))
    outside = ("400.11", S("outside-the-game", "not-a", "zone", negated=True))
    assert stated(ax.axiom_set([token, status, outside], terms, background=False)) == {
        ax.disjoint((c("Card"), c("Token"))).form: ["111.6"],
        ("type", ("not", c("Characteristic")), RK + "infoStatus"): ["110.5a"],
        ("type", ("not", c("Zone")), RK + "outsideTheGame"): ["400.11"],
    }


def test_owner_and_controller_are_existential_roles_and_no_controller_is_a_universal_one(terms):
    owner = ("111.2", S("token", "owner", "player who created it"))
    stack = ("113.8", S("activated-ability", "controller", "player who activated it", qualifier="on-the-stack",
                        sentence="The controller of an activated ability on the stack is the player who activated it."))
    none = ("9.9", S("token", "controller", "", negated=True))
    unless = ("108.4", S("card", "controller", "", qualifier="unless-permanent", negated=True))
    result = ax.axiom_set([owner, stack, none, unless], terms, background=False)
    player = c("Player")
    on_stack = ax.intersection((c("ActivatedAbility"), ("value", RK + "inZone", RK + "zoneStack")))
    assert forms(result) == {
        ("sub", c("Token"), ("some", RK + "owner", player)),
        ("sub", on_stack, ("some", RK + "controller", player)),
        ("sub", c("Token"), ("only", RK + "controller", ax.NOTHING)),
    }
    assert [(rule, why) for rule, _, why in result.skipped] == [("108.4", "negated controller with a qualifier (unless-permanent)")]


def test_concepts_the_ontology_lacks_get_minted_base_independent_iris(terms):
    result = ax.axiom_set([("111.1", S("token", "is-a", "marker"))], terms, background=False)
    assert forms(result) == {("sub", c("Token"), ax.named(CONCEPT + "marker"))}
    assert result.naming.name(CONCEPT + "marker") == "marker"


def test_every_concept_a_statement_is_about_gets_a_witness(terms):
    result = ax.axiom_set([SPELL, OBJECT], terms, background=False)
    assert set(result.witnesses) == {RK + "Spell", RK + "GameObject"}
    assert RK + "Emblem" in result.concepts and RK + "Card" in result.concepts


def test_the_graph_is_owl_with_every_axiom_annotated_with_its_id_and_rules(terms):
    result = ax.axiom_set([SPELL, OBJECT, ("111.6", S("token", "not-a", "card", negated=True))], terms)
    graph = result.graph()
    # the reified SubClassOf(Spell Card) names its statement's rule and its id
    node = next(n for n in graph.subjects(OWL.annotatedSource, URIRef(RK + "Spell"))
                if graph.value(n, OWL.annotatedTarget) == URIRef(RK + "Card"))
    assert graph.value(node, OWL.annotatedProperty) == RDFS.subClassOf
    assert graph.value(node, DCTERMS.source) == Literal("112.1")
    assert graph.value(node, DCTERMS.identifier) == Literal(ax.sub(c("Spell"), c("Card")).id)
    # the ontology's axioms are marked as such, every axiom has an id, witnesses are typed
    ids = {str(v) for v in graph.objects(None, DCTERMS.identifier)}
    assert {a.id for a in result.axioms} <= ids
    assert Literal("ontology") in set(graph.objects(None, DCTERMS.source))
    assert (URIRef(ax.WITNESS + "spell"), RDF.type, URIRef(RK + "Spell")) in graph
    assert (URIRef(RK + "Spell"), RDF.type, OWL.Class) in graph
    assert (URIRef(ax.WITNESS + "spell"), RDF.type, URIRef(RK + "Spell")) not in result.graph(witnesses=False)


def test_the_background_speaks_only_of_the_editions_concepts(terms):
    # a 2008-like edition: no emblems, and its own (older) list of the kinds of object
    old_object = ("200.8", S("object", "kinds", members=("ability-on-the-stack", "card", "copy-of-a-card", "token",
                                                         "spell", "permanent")))
    result = ax.axiom_set([old_object, ("200.1", S("token", "not-a", "card", negated=True))], terms)
    background = [a for a in result.axioms if result.background_only(a)]
    assert background, "the ontology's axioms about cards and tokens join"
    assert not any(RK + "Emblem" in a.classes() for a in result.axioms)
    # the edition's covering of "object" replaces the ontology's, which names emblems
    assert [a.form[0] for a in result.axioms if c("GameObject") in a.form[1:] and a.kind == "eq"] == ["eq"]
    # which characteristics exist is each edition's say, not the ontology's
    assert not [a for a in result.axioms if a.kind == "type"]
    # the disjointness the ontology states for cards and tokens is there, from the ontology
    assert ax.disjoint((c("Card"), c("Token"))) in result.axioms


def test_the_digest_ignores_rule_numbers_and_order_but_not_content(terms):
    first = ax.axiom_set([SPELL, OBJECT], terms)
    renumbered = ax.axiom_set([("401.1", OBJECT[1]), ("213.1", SPELL[1])], terms)
    assert first.digest == renumbered.digest
    changed = ax.axiom_set([SPELL, ("109.1", S("object", "kinds", members=("card", "token")))], terms)
    assert changed.digest != first.digest


def test_axioms_render_readably(terms):
    result = ax.axiom_set([SPELL, OBJECT], terms, background=False)
    texts = {ax.render(a, result.naming) for a in result.axioms}
    assert "spell ⊑ card" in texts
    assert "spell ⊑ in-zone = stack" in texts
    assert ("object ≡ (ability-on-the-stack ⊔ card ⊔ copy-of-a-card ⊔ emblem ⊔ permanent ⊔ spell ⊔ token)"
            in texts)

"""Reasoning over one edition's statements (kb.reason.infer): consistency, classification,
inferred facts with their justifications, owlrl against HermiT, the cache, Java.

HermiT and Pellet need Java: those tests skip on a developer machine without it and
FAIL in CI (CI=true). Statements are written by hand from rules read in the corpus.
"""

from __future__ import annotations

import os
import re

import pytest

from rulekb.kb.reason import infer, backends as reasoning
from rulekb.kb.reason.axioms import axiom_set
from rulekb.kb.rdf.lexicon import ontology_labels as _ontology_labels
from rulekb.kb.define import Statement as S
from rulekb.kb.define import edition_statements

from ..helpers import in_ci, need, own_cache



@pytest.fixture(scope="session")
def java() -> None:
    if not reasoning.java_available():
        need(reasoning.HERMIT_NEEDS_JAVA)


@pytest.fixture(scope="module")
def terms() -> dict[str, str]:
    return {key: value["denotes"][0] for key, value in _ontology_labels().items()}


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    """Every test reasons afresh, in a cache of its own."""
    monkeypatch.setenv("RULEKB_CACHE", str(own_cache(tmp_path / "cache")))
    infer.clear_memory_cache()


# An edition like 2026-01-16, by hand. It says "a spell is a card on the stack" (112.1):
# with "a copy of a spell is a spell" (112.1a) that makes a copy of a spell a card,
# which the ontology denies; it does not say that a token is not a card.
EDITION = [
    ("109.1", S("object", "kinds", members=("ability-on-the-stack", "card", "copy-of-a-card", "token", "spell",
                                             "permanent", "emblem"))),
    ("109.3", S("characteristic", "members", members=("name", "mana-cost", "color", "card-type", "subtype",
                                                     "supertype", "rules-text", "ability", "power", "toughness"))),
    ("110.1", S("permanent", "kinds", members=("card", "token"), qualifier="on-the-battlefield",
                sentence="A permanent is a card or token on the battlefield.")),
    ("110.5a", S("status", "not-a", "characteristic", negated=True)),
    ("111.2", S("token", "owner", "player who created it")),
    ("112.1", S("spell", "is-a", "card", qualifier="on-the-stack", sentence="A spell is a card on the stack.")),
    ("112.1a", S("copy-of-a-spell", "is-a", "spell")),
    ("112.2", S("spell", "controller", "player who put it on the stack", qualifier="by-default")),
    ("114.5", S("emblem", "not-a", "card", negated=True)),
    ("122.1", S("counter", "not-a", "token", negated=True)),
    ("205.4a", S("supertype", "members", members=("basic", "legendary", "ongoing", "snow", "world"))),
]
CONTRADICTION = [("1.1", S("token", "is-a", "card")), ("1.2", S("token", "not-a", "card", negated=True))]


def fact(result: infer.Result, concept: str, aspect: str, value: str) -> infer.Inferred:
    found = [f for f in result.inferred if (f.concept, f.aspect, f.value) == (concept, aspect, value)]
    assert found, f"{concept} {aspect} {value} not inferred; inferred: {[(f.concept, f.aspect, f.value) for f in result.inferred]}"
    return found[0]


def rules(inferred: infer.Inferred) -> set[str]:
    return {rule for rule, _ in inferred.derived_from}


@pytest.fixture(scope="module")
def hermit(java, terms, tmp_path_factory) -> infer.Result:
    os.environ["RULEKB_CACHE"] = str(own_cache(tmp_path_factory.mktemp("cache")))  # (before autouse fixtures)
    try:
        return infer.reason("en/2026-01-16", EDITION, terms, cache=False)
    finally:
        del os.environ["RULEKB_CACHE"]


# ---------------------------------------------------------------- HermiT


def test_hermit_finds_the_edition_consistent(hermit):
    assert hermit.reasoner == "hermit"
    assert hermit.consistent
    assert hermit.explanation_of_inconsistency == [] and hermit.clashing == []
    assert hermit.unsatisfiable == []


def test_a_contradictory_pair_is_inconsistent_and_the_explanation_names_both_statements(java, terms):
    result = infer.reason("en/test", EDITION + CONTRADICTION, terms, cache=False)
    assert not result.consistent
    assert {rule for rule, _ in result.clashing} == {"1.1", "1.2"}
    text = "\n".join(result.explanation_of_inconsistency)
    assert "token can have no instance" in text
    assert "rule 1.1, en/test: token is a card" in text and "rule 1.2, en/test: token is not a card" in text


def test_classification_infers_that_a_copy_of_a_spell_is_an_object_and_says_why(hermit):
    copy = fact(hermit, "copy-of-a-spell", "is-a", "object")
    assert rules(copy) == {"112.1a", "109.1"}
    assert [step.relation for step in copy.steps] == ["copy-of-a-spell ⊑ spell", "spell ⊑ object"]
    assert copy.pellet_agrees is True  # Pellet justifies it with the same two axioms
    lines = infer.explain(copy)
    assert lines[0] == "copy-of-a-spell ⊑ object (inferred by HermiT, en/2026-01-16), because:"
    assert lines[1] == "  copy-of-a-spell ⊑ spell (rule 112.1a, en/2026-01-16: copy-of-a-spell is a spell)"
    assert lines[2].startswith("  spell ⊑ object (rule 109.1, en/2026-01-16: object is one of ability-on-the-stack")


def test_classification_infers_that_a_token_is_not_a_card_and_names_the_axioms(hermit):
    token = fact(hermit, "token", "not-a", "card")  # no statement says so: the ontology does
    assert token.derived_from == () and token.ontology_axioms == ("disjoint(card, token)",)
    copy = fact(hermit, "copy-of-a-spell", "not-a", "token")  # a statement and the ontology
    assert rules(copy) == {"112.1a"} and copy.ontology_axioms == ("disjoint(spell, token)",)
    assert "(rule 112.1a, en/2026-01-16: copy-of-a-spell is a spell)" in "\n".join(infer.explain(copy))


def test_stated_facts_are_not_reported_as_inferred(hermit):
    pairs = {(f.concept, f.aspect, f.value) for f in hermit.inferred}
    assert ("spell", "is-a", "card") not in pairs and ("spell", "is-a", "object") not in pairs
    assert ("emblem", "not-a", "card") not in pairs


def test_where_the_edition_contradicts_the_ontology_the_edition_wins_and_the_conflict_is_explained(hermit):
    assert hermit.set_aside == ["disjoint(card, copy-of-a-spell)"]
    [conflict] = hermit.ontology_conflicts
    text = "\n".join(conflict)
    assert "disagrees with the ontology about copy-of-a-spell" in text
    assert "rule 112.1a" in text and "rule 112.1," in text
    assert rules(fact(hermit, "copy-of-a-spell", "is-a", "card")) == {"112.1a", "112.1"}


def test_check_answers_any_entailed_question_with_its_justification(hermit):
    stated = hermit.check("token", "not-a", "counter")
    assert stated.stated and rules(stated) == {"122.1"}
    answer = hermit.check("status", "is-a", "characteristic")
    assert answer is None  # "status" is no kind of thing here, and not a characteristic
    spell = hermit.check("spell", "not-a", "copy-of-a-card")
    assert spell is not None and "112.1" in rules(spell)


def test_the_edition_axioms_are_in_the_owl2_dl_profile(java, terms):
    try:
        assert reasoning.dl_profile_violations(axiom_set(EDITION, terms).graph()) == []
    except reasoning.ReasonerError as error:  # a JRE without a compiler cannot run the check
        if in_ci():
            raise
        pytest.skip(str(error))


# ---------------------------------------------------------------- owlrl, the pure-Python path


def test_owlrl_gives_the_same_is_a_facts_and_verdicts_as_hermit(hermit, terms):
    rl = infer.reason("en/2026-01-16", EDITION, terms, reasoner="owlrl", cache=False)
    assert rl.reasoner == "owlrl" and rl.consistent
    isa = lambda r: {(f.concept, f.value, frozenset(rules(f))) for f in r.inferred if f.aspect == "is-a"}  # noqa: E731
    assert isa(rl) == isa(hermit) and isa(rl)
    assert rl.set_aside == hermit.set_aside
    bad = infer.reason("en/test", EDITION + CONTRADICTION, terms, reasoner="owlrl", cache=False)
    assert not bad.consistent and {rule for rule, _ in bad.clashing} == {"1.1", "1.2"}


def test_owlrl_needs_no_java(terms, monkeypatch):
    monkeypatch.setenv("RULEKB_JAVA", "/nonexistent/java")
    result = infer.reason("en/2026-01-16", EDITION, terms, reasoner="owlrl", cache=False)
    assert rules(fact(result, "copy-of-a-spell", "is-a", "object")) == {"112.1a", "109.1"}


# ---------------------------------------------------------------- the cache


def test_identical_axiom_sets_are_reasoned_about_once(terms):
    first = infer.reason("en/2009-07-10", EDITION, terms, reasoner="owlrl")
    renumbered = [(f"9{rule}", statement) for rule, statement in reversed(EDITION)]
    second = infer.reason("en/2009-10-01", renumbered, terms, reasoner="owlrl")
    assert not first.cached and second.cached and second.digest == first.digest
    # the shared result is told in each edition's own rule numbers
    copy = fact(second, "copy-of-a-spell", "is-a", "object")
    assert rules(copy) == {"9112.1a", "9109.1"} and copy.edition == "en/2009-10-01"
    assert infer.cache_path(infer._cache_key(first.digest, "owlrl", True)).is_file()
    infer.clear_memory_cache()  # a new process: the disk still has it
    assert infer.reason("en/2009-07-10", EDITION, terms, reasoner="owlrl").cached
    other = infer.reason("en/2009-07-10", EDITION[:-1], terms, reasoner="owlrl")
    assert not other.cached and other.digest != first.digest


def test_the_cache_follows_rulekb_cache(terms, tmp_path, monkeypatch):
    monkeypatch.setenv("RULEKB_CACHE", str(tmp_path / "elsewhere"))
    infer.reason("en/test", EDITION[:3], terms, reasoner="owlrl")
    assert list((tmp_path / "elsewhere" / "reasoning").glob("*.json"))


# ---------------------------------------------------------------- Java


def test_missing_java_gives_a_clear_error(terms, monkeypatch):
    owlready2 = pytest.importorskip("owlready2")
    monkeypatch.delenv("RULEKB_JAVA", raising=False)
    monkeypatch.setattr(owlready2, "JAVA_EXE", "/nonexistent/bin/java")  # restored after the test
    assert not reasoning.java_available()
    message = "HermiT needs Java (install a JRE 11+): /nonexistent/bin/java does not run"
    with pytest.raises(reasoning.JavaMissingError, match=re.escape(message)):
        infer.reason("en/2026-01-16", EDITION, terms, cache=False)


# ---------------------------------------------------------------- two editions meet


def test_clashes_between_editions_name_the_statements_of_both(java, terms):
    old = ("en/2008-10-01", [("201.1", S("characteristic", "members",
                                         members=("name", "mana-cost", "expansion-symbol", "power")))])
    new = ("en/2026-01-16", [("109.3", S("characteristic", "members", members=("name", "mana-cost", "power"))),
                             ("111.6", S("token", "not-a", "card", negated=True))])
    [clash] = infer.clashes(old, new, terms)
    assert {(edition, rule) for edition, rule, _ in clash.statements} == {("en/2008-10-01", "201.1"),
                                                                          ("en/2026-01-16", "109.3")}
    assert clash.lines[0] == "en/2008-10-01 and en/2026-01-16 disagree about their lists:"
    same = infer.clashes(old, ("en/2008-11-07", old[1]), terms)
    assert same == []


# ---------------------------------------------------------------- real extracted statements


@pytest.mark.parametrize("name, copy_rules", [
    ("CR-2026-01-16.txt", {"112.1a", "109.1"}),
    ("CR-2008-10-01.txt", {"401.1a", "200.8"}),
])
def test_real_editions_infer_that_a_copy_of_a_spell_is_an_object(corpus, java, terms, name, copy_rules):
    from rulekb.ingest.parse import parse_many

    [edition] = parse_many([str(corpus / "en" / name)]).editions
    result = infer.reason(edition.id, edition_statements(edition), terms)
    assert rules(fact(result, "copy-of-a-spell", "is-a", "object")) == copy_rules
    assert result.consistent, result.explanation_of_inconsistency

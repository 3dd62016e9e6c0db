"""kb.hermit: HermiT's command line in one JVM (the default; RULEKB_HERMIT_BATCH=0 for a JVM
per call) reads the same taxonomy into owlready2 as a JVM per call, HermiT's output read
canonically whichever member of a set of equivalent classes it printed; and a JVM that is
gone is an error, not a hang."""

from __future__ import annotations

import pytest

from rulekb.kb import hermit
from rulekb.kb.reason import backends as reasoning

from ..helpers import own_cache

needs_java = pytest.mark.skipif(not reasoning.java_available(), reason="needs Java 11+ (HermiT)")

T = "http://example.org/t#"


def _printing(representative: str, order: list[str]) -> str:
    """HermiT's output for Gadget ≡ Widget ≡ Doohickey ⊑ Card, Shiny ⊑ that node, naming
    the node by ``representative`` and listing its members in ``order``."""
    lines = ["EquivalentClasses( " + " ".join(f"<{T}{m}>" for m in [representative] +
                                              [m for m in order if m != representative]) + " )",
             f"SubClassOf( <{T}{representative}> <{T}Card> )",
             f"SubClassOf( <{T}Shiny> <{T}{representative}> )",
             f"SubClassOf( <{T}Card> <http://www.w3.org/2002/07/owl#Thing> )"]
    return "\n".join(lines) + "\n"


def test_the_canonical_reading_does_not_depend_on_the_member_hermit_printed():
    printings = {hermit.canonical(_printing(rep, order))
                 for rep in ("Gadget", "Widget", "Doohickey")
                 for order in (["Gadget", "Widget", "Doohickey"], ["Doohickey", "Gadget", "Widget"])}
    assert len(printings) == 1
    text = printings.pop()
    assert f"SubClassOf( <{T}Shiny> <{T}Doohickey> )" in text and f"SubClassOf( <{T}Doohickey> <{T}Card> )" in text
    assert f"EquivalentClasses( <{T}Doohickey> <{T}Gadget> <{T}Widget> )" in text
    assert hermit.canonical(text) == text  # a fixed point
    assert hermit.canonical(_printing("Gadget", ["Gadget", "Widget", "Doohickey"])) != \
        _printing("Gadget", ["Gadget", "Widget", "Doohickey"])  # HermiT's own printing is rewritten


def test_the_batch_driver_is_the_default(monkeypatch):
    monkeypatch.delenv("RULEKB_HERMIT_BATCH", raising=False)
    assert hermit.enabled()
    monkeypatch.setenv("RULEKB_HERMIT_BATCH", "0")
    assert not hermit.enabled()

STATEMENTS_TTL = """
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix : <http://example.org/t#> .
:Gadget a owl:Class . :Card a owl:Class . :Shiny a owl:Class . :Token a owl:Class .
:Gadget rdfs:subClassOf :Card . :Shiny rdfs:subClassOf :Gadget .
:Token owl:disjointWith :Card .
:Broken a owl:Class ; rdfs:subClassOf :Token , :Shiny .
"""


def _check(monkeypatch, batch: bool):
    monkeypatch.setenv("RULEKB_HERMIT_BATCH", "1" if batch else "0")
    return reasoning.check_consistency(STATEMENTS_TTL, explain=False)


EQUIVALENT_TTL = STATEMENTS_TTL + """
:Widget a owl:Class ; owl:equivalentClass :Gadget . :Doohickey a owl:Class ; owl:equivalentClass :Widget .
:Sprocket a owl:Class ; rdfs:subClassOf :Doohickey .
"""


@needs_java
def test_both_drivers_read_a_set_of_equivalent_classes_alike(monkeypatch, tmp_path):
    monkeypatch.setenv("RULEKB_CACHE", str(own_cache(tmp_path)))
    found = []
    for batch in (False, True, True, False):
        monkeypatch.setenv("RULEKB_HERMIT_BATCH", "1" if batch else "0")
        found.append(reasoning.check_consistency(EQUIVALENT_TTL, explain=False))
    assert all(f.subsumptions == found[0].subsumptions and f.unsatisfiable == found[0].unsatisfiable for f in found)
    assert (f"{T}Sprocket", f"{T}Card") in found[0].subsumptions
    hermit.shutdown()


@needs_java
def test_one_jvm_for_many_sets_answers_as_a_jvm_per_set(monkeypatch, tmp_path):
    monkeypatch.setenv("RULEKB_CACHE", str(own_cache(tmp_path)))
    per_call = _check(monkeypatch, batch=False)
    first = _check(monkeypatch, batch=True)
    again = _check(monkeypatch, batch=True)  # the same JVM, warm
    assert hermit._BATCH is not None and hermit._BATCH.process.poll() is None
    for found in (first, again):
        assert found.consistent == per_call.consistent
        assert found.subsumptions == per_call.subsumptions
        assert found.unsatisfiable == per_call.unsatisfiable
    assert ("http://example.org/t#Shiny", "http://example.org/t#Card") in per_call.subsumptions
    assert per_call.unsatisfiable == ("http://example.org/t#Broken",)
    hermit.shutdown()


@needs_java
def test_an_inconsistent_set_is_reported_as_such(monkeypatch, tmp_path):
    monkeypatch.setenv("RULEKB_CACHE", str(own_cache(tmp_path)))
    clash = STATEMENTS_TTL + ":b a :Broken .\n"
    monkeypatch.setenv("RULEKB_HERMIT_BATCH", "1")
    found = reasoning.check_consistency(clash, explain=False)
    monkeypatch.setenv("RULEKB_HERMIT_BATCH", "0")
    assert not found.consistent and not reasoning.check_consistency(clash, explain=False).consistent
    hermit.shutdown()


@needs_java
def test_a_batch_jvm_that_died_is_an_error_then_a_fresh_one(monkeypatch, tmp_path):
    monkeypatch.setenv("RULEKB_CACHE", str(own_cache(tmp_path)))
    _check(monkeypatch, batch=True)
    hermit._BATCH.process.kill()
    hermit._BATCH.process.wait()
    with pytest.raises(hermit.BatchError):
        hermit._BATCH.run(["-c", "file:///nowhere.nt"])
    assert _check(monkeypatch, batch=True).consistent  # batch() starts a new JVM
    hermit.shutdown()

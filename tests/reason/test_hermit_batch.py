"""kb.hermit: HermiT's command line in one JVM (opt-in, RULEKB_HERMIT_BATCH=1) reads
the same taxonomy into owlready2 as a JVM per call, on sets without ambiguous
representatives; and a JVM that is gone is an error, not a hang."""

from __future__ import annotations

import pytest

from kb import hermit
from kb.reason import backends as reasoning

pytestmark = pytest.mark.skipif(not reasoning.java_available(), reason="needs Java 11+ (HermiT)")

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


def test_one_jvm_for_many_sets_answers_as_a_jvm_per_set(monkeypatch, tmp_path):
    monkeypatch.setenv("RULEKB_CACHE", str(tmp_path))
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


def test_an_inconsistent_set_is_reported_as_such(monkeypatch, tmp_path):
    monkeypatch.setenv("RULEKB_CACHE", str(tmp_path))
    clash = STATEMENTS_TTL + ":b a :Broken .\n"
    monkeypatch.setenv("RULEKB_HERMIT_BATCH", "1")
    found = reasoning.check_consistency(clash, explain=False)
    monkeypatch.setenv("RULEKB_HERMIT_BATCH", "0")
    assert not found.consistent and not reasoning.check_consistency(clash, explain=False).consistent
    hermit.shutdown()


def test_a_batch_jvm_that_died_is_an_error_then_a_fresh_one(monkeypatch, tmp_path):
    monkeypatch.setenv("RULEKB_CACHE", str(tmp_path))
    _check(monkeypatch, batch=True)
    hermit._BATCH.process.kill()
    hermit._BATCH.process.wait()
    with pytest.raises(hermit.BatchError):
        hermit._BATCH.run(["-c", "file:///nowhere.nt"])
    assert _check(monkeypatch, batch=True).consistent  # batch() starts a new JVM
    hermit.shutdown()

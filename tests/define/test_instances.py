"""Multiple instances of an ability: redundant, or each on its own
(kb.define.instances), and the comparison reports a change of it."""

from __future__ import annotations

from rulekb.ingest.model import Edition, Rule
from rulekb.kb.compare import contradictions
from rulekb.kb.define import extract


def _edition(eid: str, rules: dict[str, str]) -> Edition:
    ed = Edition(eid, "en", eid.split("/")[1], "Invented Rules")
    ed.rules = [Rule(n, t, order=i) for i, (n, t) in enumerate(rules.items())]
    return ed


def test_redundant_and_separate_instances_are_read():
    got = [(s.concept, s.aspect, s.value) for s in extract(
        "Multiple instances of whirling on the same creature are redundant.", "en")]
    assert got == [("whirling", "multiple-instances", "redundant")]
    got = [(s.concept, s.value) for s in extract(
        "If a permanent has multiple instances of humming, each triggers separately.", "en")]
    assert got == [("humming", "separate")]
    assert not [s for s in extract("An object may also have multiple instances of the same ability.", "en")
                if s.aspect == "multiple-instances"]


def test_a_change_of_multiple_instances_is_a_finding():
    old = _edition("en/2030-01-01", {"702.5a": "Humming is a triggered ability.",
                                     "702.5b": "If a permanent has multiple instances of humming, each triggers separately.",
                                     "702.6b": "Multiple instances of whirling on the same creature are redundant."})
    new = _edition("en/2030-06-01", {"702.5a": "Humming is a static ability.",
                                     "702.5b": "Multiple instances of humming on the same object are redundant.",
                                     "702.6b": "Multiple instances of whirling on the same creature are redundant."})
    found = [f for f in contradictions(old, new) if f.aspect == "multiple-instances"]
    assert [(f.kind, f.concept, f.old.rule, f.new.rule, f.removed, f.added) for f in found] == [
        ("multiple-instances-changed", "humming", "702.5b", "702.5b", ("separate",), ("redundant",))]

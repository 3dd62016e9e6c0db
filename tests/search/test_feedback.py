"""The results after the first five, ranked again by the first results' meaning (kb.search.feedback),
and one rule's family capped in the first ten of a card question (kb.search.rank.spread):
the pure reordering, the moved question over an arm of invented vectors, and a real build of the
invented Widget Duel text with the real model."""

from __future__ import annotations

import numpy as np
import pytest

from rulekb.kb import service
from rulekb.kb.search import feedback, rank

from .test_referred import CARDS, RULES
from . import widget_duel


class _Arm:
    """The part of kb.search.dense.Arm that feedback reads: rows of unit vectors, one per document."""

    def __init__(self, vectors: dict[str, list[float]]):
        self.keys = list(vectors)
        self.groups = list(vectors)
        self.vectors = np.asarray([np.asarray(v, dtype=np.float32) / np.linalg.norm(v) for v in vectors.values()])

    def row_of(self):
        return {k: i for i, k in enumerate(self.keys)}

    def nearest(self, vector, edition, lang, n):
        sims = self.vectors @ vector
        return [(int(i), float(sims[i])) for i in np.argsort(-sims)[:n]]


def test_the_first_five_stay_and_the_rest_follow_the_feedback_with_scores_in_order():
    ordered = [f"d{i}" for i in range(1, 9)]
    scored = {k: 1.0 - i * 0.01 for i, k in enumerate(ordered)}
    before = dict(scored)
    got = feedback.reorder(scored, ordered, {"d8": 1, "d1": 2, "d7": 40})
    assert got[:5] == ordered[:5]
    assert got[5:] == ["d8", "d7", "d6"]  # d8 first of the feedback, d7 in it further down, d6 not in it
    assert all(scored[a] >= scored[b] for a, b in zip(got, got[1:]))
    assert scored["d6"] == before["d6"]


def test_the_question_moves_towards_the_first_results_meaning():
    docs = {k: {"key": [k]} for k in ("a", "b", "c", "x")}
    arm = _Arm({"a": [1, 0, 0], "b": [0.9, 0.1, 0], "c": [0, 1, 0.2], "x": [0.2, 0.3, 1]})
    question = np.asarray([0.6, 0.2, 0.77], dtype=np.float32)
    question /= np.linalg.norm(question)
    plain = [k for k, _ in ((arm.keys[r], s) for r, s in arm.nearest(question, None, "en", 4))]
    moved = feedback.ranked(arm, question, ["a", "b"], docs, None, "en", grouped=False, depth=10)
    assert plain[0] == "x" and list(moved)[:2] in (["a", "b"], ["b", "a"])  # the first results lead
    assert feedback.ranked(arm, question, [], docs, None, "en", grouped=False, depth=10) == {}


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    return widget_duel.built(tmp_path_factory, "feedback", RULES, CARDS)


QUESTION = "what happens when a gadget is wound a second time in the same turn?"


def test_a_card_free_question_keeps_its_first_five_and_says_what_the_feedback_moved(kb, monkeypatch):
    found = service.search(kb, QUESTION)
    assert found["arms"] == ["words", "meaning"] and not found.get("cards")
    monkeypatch.setattr(rank, "RRF_FEEDBACK", 0.0)
    without = service.search(kb, QUESTION)
    ids = lambda f: [r.get("rule") or r.get("term") for r in f["results"]]  # noqa: E731
    assert ids(found)[:5] == ids(without)[:5] and sorted(ids(found)) == sorted(ids(without))
    scores = [r["score"] for r in found["results"]]
    assert scores == sorted(scores, reverse=True)
    assert any("feedback" in r for r in found["results"][5:])
    for r in found["results"][5:]:
        assert ("feedback" in r) == any(w.startswith("close in meaning to the first results") for w in r["why"])
    assert not any("feedback" in r for r in without["results"] + found["results"][:5])


def test_a_question_naming_a_card_takes_no_feedback(kb):
    found = service.search(kb, "My Cogwright Sentinel is wound a second time this turn: what happens?")
    assert found.get("cards") and not any("feedback" in r for r in found["results"])


def test_one_rules_family_holds_at_most_four_of_the_first_ten():
    assert rank.family("702.19b") == rank.family("702.19") == "702.19" and rank.family("704.5m") == "704.5"
    assert rank.family("100.1") == "100.1"
    ordered = ["702.19b", "702.19d", "702.19c", "702.19a", "702.19e", "702.15b", "510.2", "702.19f", "704.3"]
    spread = rank.spread(ordered, rank.family)
    assert spread[:5] == ["702.19b", "702.19d", "702.19c", "702.19a", "702.15b"]  # the fifth of trample's waits
    assert spread[5:] == ["510.2", "704.3", "702.19e", "702.19f"] and sorted(spread) == sorted(ordered)
    assert rank.spread(["a", "b"], lambda k: None) == ["a", "b"]  # no family: each its own

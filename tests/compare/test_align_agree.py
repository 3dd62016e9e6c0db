"""kb.align.agree: in a restructure, a rule left without a successor is merged into its best
word candidate when that rule already has a predecessor and is also the nearest on meaning
(the real embedding model); an ordinary update never asks the model; embeddings are cached."""

from __future__ import annotations

import numpy as np

from rulekb.kb.align import agree, align
from rulekb.kb.search import dense

from ..helpers import invented_edition


# Sections 401 and 402 went, as wholes, to 601 and 602 (a restructure); old 402.3 became the
# general stack rule 602.5. Old 401.3 (abilities
# letting a card be played from another zone) has no rule of its own any more: the new 601.4,
# successor of 401.4, says it in other words; on words alone 601.4 is its best candidate, but
# far from the merge threshold.
OLD = [
    ("401.1", "An activated ability is written as a cost, followed by a colon, followed by an effect."),
    ("401.2", "A player may activate an activated ability any time he or she has priority, unless the ability "
              "says otherwise."),
    ("401.3", "Some static abilities let a card be played from a zone other than its owner's hand; such abilities "
              "work while the card is in that zone."),
    ("401.4", "Static abilities that modify how a card may be cast apply wherever that card could be cast from, "
              "usually the hand."),
    ("402.1", "Damage is dealt by sources to creatures, planeswalkers and players."),
    ("402.2", "Damage dealt to a creature stays marked on it until the cleanup step."),
    ("402.3", "Damage waits on the stack as one object until it resolves, and players may respond to it before "
              "it is dealt."),
    ("402.4", "A source with lifelink causes its controller to gain that much life when it deals damage."),
]
NEW = [
    ("601.1", OLD[0][1]),
    ("601.2", OLD[1][1]),
    ("601.4", "Some static abilities apply while a card is in any zone that you could cast or play it from "
              "(usually your hand): those that read \"You may cast this card\", \"You can't cast this card\", "
              "and \"Cast this card only\"."),
    ("602.1", OLD[4][1]),
    ("602.2", OLD[5][1]),
    ("602.4", OLD[7][1]),
    ("602.5", "The stack is the zone where spells and abilities wait to resolve; players may respond to an object "
              "on the stack."),
]


def test_a_rule_folded_into_a_survivor_is_merged_when_words_and_meaning_agree(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEKB_CACHE", str(tmp_path))
    alignment = align(invented_edition("en/2030-01-01", OLD), invented_edition("en/2030-02-01", NEW))
    assert alignment.successors()["401.4"] == "601.4"
    links = [(p.old, p.new, p.kind, p.evidence) for p in alignment.secondary() if p.old == "401.3"]
    assert links == [("401.3", "601.4", "merged", "moved")]
    assert alignment.successors()["401.3"] == "601.4"  # the rule it merged into
    # without the step, the rule is called removed
    monkeypatch.setattr(agree, "AGREE_MIN", 2.0)
    assert align(invented_edition("en/2030-01-01", OLD), invented_edition("en/2030-02-01", NEW)).successors()["401.3"] is None


def test_an_ordinary_update_never_asks_the_model(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEKB_CACHE", str(tmp_path))

    def refuse(texts):
        raise AssertionError("the model was asked in an ordinary update")

    monkeypatch.setattr(dense, "embed_passages", refuse)
    same = [(n.replace("60", "40", 1), t) for n, t in NEW]  # the same rules, the sections keep their numbers
    alignment = align(invented_edition("en/2030-01-01", OLD), invented_edition("en/2030-02-01", same))
    assert alignment.successors()["401.3"] is None
    assert not [p for p in alignment.secondary() if p.old == "401.3"]


def test_a_restructure_is_told_by_the_share_of_sections_that_moved():
    assert agree.restructure({"401": "601", "402": "602", "403": "403"})
    assert agree.restructure({"401": "601", "402": "402"})  # half
    assert not agree.restructure({"401": "601", "402": "402", "403": "403"})
    assert not agree.restructure({})


def test_embeddings_are_kept_in_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEKB_CACHE", str(tmp_path))
    texts = {OLD[2][1], NEW[2][1]}
    first = agree.embeddings(texts)
    assert set(first) == texts and all(abs(float(np.linalg.norm(v)) - 1.0) < 1e-4 for v in first.values())

    def refuse(texts):
        raise AssertionError("embedded again")

    monkeypatch.setattr(dense, "embed_passages", refuse)
    again = agree.embeddings(texts)
    assert all(np.array_equal(first[t], again[t]) for t in texts)
    assert list((tmp_path / "embeddings").glob("*.sqlite"))


def test_without_the_model_the_step_does_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEKB_CACHE", str(tmp_path))

    def unavailable(texts):
        raise dense.DenseUnavailable("no model here")

    monkeypatch.setattr(dense, "embed_passages", unavailable)
    monkeypatch.setattr(agree._Embedder, "__call__", lambda self, texts: unavailable(texts))  # (the child's model)
    assert agree.embeddings({"A rule nobody has embedded yet."}) is None
    alignment = align(invented_edition("en/2030-01-01", OLD), invented_edition("en/2030-02-01", NEW))
    assert alignment.successors()["401.3"] is None

"""A card-free question asked in another language than the searched text's (a French question
about the English rules): the words arm reads it with the wrong analyser, so the ranking by
meaning is weighed ``rank.RRF_CROSS`` instead of ``RRF_DENSE``, and search says so
(``understood.asked_in``, a line on the terminal and on the page)."""

from __future__ import annotations

import pytest

from rulekb.kb.search import rank
from rulekb.kb.search.engine import Searcher
from rulekb.kb.search.home import index_dir

from ..helpers import invoke_cli

FRENCH = "combien de joueurs peuvent jouer une partie de duel ?"
ENGLISH = "how many duelists can play a widget duel?"


def test_the_meaning_weight_decides_between_one_arm_and_the_other():
    words_first, meaning_first = {"a": 1}, {"b": (1, 0.9)}
    even = rank.fuse(words_first, {"a": 1.0}, meaning_first)
    assert even["a"] == pytest.approx(even["b"])
    cross = rank.fuse(words_first, {"a": 1.0}, meaning_first, dense=rank.RRF_CROSS)
    assert rank.RRF_CROSS > rank.RRF_DENSE and cross["b"] > cross["a"]


@pytest.fixture()
def weights_fused(monkeypatch):
    """The meaning weight each fusion of a search was given."""
    seen = []
    fuse = rank.fuse

    def spy(*args, **kwargs):
        seen.append(args[6] if len(args) > 6 else kwargs.get("dense"))
        return fuse(*args, **kwargs)

    monkeypatch.setattr(rank, "fuse", spy)
    return seen


def test_a_french_question_about_english_rules_leans_on_the_meaning(fixture_kb, weights_fused):
    searcher = Searcher(index_dir(fixture_kb[0]))
    found = searcher.search(FRENCH)
    assert found["understood"]["asked_in"] == "fr" and found["lang"] == "en"
    assert weights_fused and set(weights_fused) == {rank.RRF_CROSS} and found["understood"]["meaning_leads"] is True
    assert "meaning_leads" not in searcher.search(FRENCH, dense=False)["understood"]  # no meaning arm, nothing leads
    assert found["results"][0]["rule"].startswith("100.1")  # the duel's players, by meaning


def test_a_question_in_the_texts_language_is_fused_as_before(fixture_kb, weights_fused, monkeypatch):
    from rulekb.kb.search import adapter

    searcher = Searcher(index_dir(fixture_kb[0]))
    found = searcher.search(ENGLISH)
    assert "asked_in" not in found["understood"]
    # moved by the query adapter (shipped with the package), its meaning ranking is the better one
    assert weights_fused and set(weights_fused) == {rank.RRF_ADAPTED} and rank.RRF_ADAPTED > rank.RRF_DENSE
    weights_fused.clear()
    searcher.search(ENGLISH, adapted=False)
    assert weights_fused and set(weights_fused) == {None}  # rank.RRF_DENSE
    weights_fused.clear()
    monkeypatch.setattr(adapter, "PATH", adapter.PATH.with_name("no-such-adapter.npz"))  # none shipped: as before
    searcher.search(ENGLISH)
    assert weights_fused and set(weights_fused) == {None}


def test_the_terminal_says_the_meaning_leads(fixture_kb):
    where = ["--store", str(fixture_kb[0].root)]
    assert "asked in French, the texts are in English: the meaning leads" in invoke_cli("search", FRENCH, *where).stdout
    assert "asked in" not in invoke_cli("search", ENGLISH, *where).stdout

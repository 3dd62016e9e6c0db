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


def _fusions(monkeypatch, position: int, name: str) -> list:
    """Each value ``rank.fuse`` is given for its parameter ``name`` (at ``position``) while searching."""
    seen = []
    fuse = rank.fuse

    def spy(*args, **kwargs):
        seen.append(args[position] if len(args) > position else kwargs.get(name))
        return fuse(*args, **kwargs)

    monkeypatch.setattr(rank, "fuse", spy)
    return seen


@pytest.fixture()
def weights_fused(monkeypatch):
    """The meaning weight each fusion of a search was given."""
    return _fusions(monkeypatch, 6, "dense")


def test_a_french_question_about_english_rules_leans_on_the_meaning(fixture_kb, weights_fused):
    searcher = Searcher(index_dir(fixture_kb[0]))
    found = searcher.search(FRENCH)
    assert found["understood"]["asked_in"] == "fr" and found["lang"] == "en"
    assert weights_fused and set(weights_fused) == {rank.RRF_CROSS} and found["understood"]["meaning_leads"] is True
    assert "meaning_leads" not in searcher.search(FRENCH, dense=False)["understood"]  # no meaning arm, nothing leads
    assert found["results"][0]["rule"].startswith("100.1")  # the duel's players, by meaning


@pytest.mark.corpus
def test_a_french_question_about_english_rules_finds_its_concepts_by_their_french_labels(corpus_kb):
    """The KB's concepts carry both languages' labels: a French question's concepts are read by
    the French ones, as an English question's are by the English ones; an English label in a
    French question is a French word ("encore" is not the keyword Encore)."""
    from rulekb.kb import service

    store, _ = corpus_kb
    french = service.search(store, "qui est le propriétaire d'un jeton ?", edition="en/2026-01-16")
    assert french["lang"] == "en" and french["understood"]["asked_in"] == "fr"
    assert {"owner", "token"} <= set(french["understood"]["concepts"])
    again = service.search(store, "est-ce que je peux encore sacrifier une créature ?", edition="en/2026-01-16")
    assert "encore" not in again["understood"]["concepts"] and "creature" in again["understood"]["concepts"]
    english = service.search(store, "can I still sacrifice an encore creature?", edition="en/2026-01-16")
    assert "encore" in english["understood"]["concepts"]


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


def test_a_moved_question_is_fused_with_its_own_constant(fixture_kb, monkeypatch):
    """The adapted meaning's first ranks are the surest: a moved question's lists are summed with
    ``RRF_K_ADAPTED``, smaller than ``RRF_K`` (a first rank then weighs more against a tenth); an
    unmoved one keeps ``RRF_K``."""
    from rulekb.kb.search import adapter

    assert rank.RRF_K_ADAPTED < rank.RRF_K
    first, tenth = {"a": 1}, {"b": 10}
    for k in (rank.RRF_K, rank.RRF_K_ADAPTED):
        scored = rank.fuse({**first, **tenth}, {"a": 1.0, "b": 0.5}, {})
        scored_k = rank.fuse({**first, **tenth}, {"a": 1.0, "b": 0.5}, {}, k=k)
        assert scored_k["a"] / scored_k["b"] == pytest.approx((k + 10) / (k + 1))
    assert scored["a"] / scored["b"] < scored_k["a"] / scored_k["b"]
    seen = _fusions(monkeypatch, 7, "k")
    searcher = Searcher(index_dir(fixture_kb[0]))
    searcher.search(ENGLISH)
    assert seen and set(seen) == {rank.RRF_K_ADAPTED}
    seen.clear()
    searcher.search(ENGLISH, adapted=False)
    assert seen and set(seen) == {None}  # rank.RRF_K
    seen.clear()
    monkeypatch.setattr(adapter, "PATH", adapter.PATH.with_name("no-such-adapter.npz"))
    searcher.search(ENGLISH)
    assert seen and set(seen) == {None}


def test_the_terminal_says_the_meaning_leads(fixture_kb):
    where = ["--store", str(fixture_kb[0].root)]
    assert "asked in French, the texts are in English: the meaning leads" in invoke_cli("search", FRENCH, *where).stdout
    assert "asked in" not in invoke_cli("search", ENGLISH, *where).stdout

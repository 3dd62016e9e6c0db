"""kb.align's parts that both aligners share: the best-first assignment, the candidate
strategies, the one pair type -- and the French alignment built from them."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from rulekb.ingest.model import Edition, Rule, SourceInfo
from rulekb.kb.align.assign import best_first
from rulekb.kb.align.candidates import Nearby
from rulekb.kb.align.model import EXTRA, MISSING, MOVED, SAME_NUMBER, Pair
from rulekb.kb.translate import EvidenceScorer, align_translation
from rulekb.kb.translate.align import FeatureCache


def test_best_first_takes_the_strongest_and_breaks_ties_by_left_then_right():
    edges = [((-0.5,), 1, "b"), ((-0.9,), 2, "b"), ((-0.9,), 1, "a"), ((-0.7,), 2, "a"), ((-0.9,), 0, "c")]
    assert best_first(edges) == [(0, "c"), (1, "a"), (2, "b")]
    assert best_first(edges, taken_left={0}, taken_right={"a"}) == [(2, "b")]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5), st.integers(0, 5)), max_size=30), st.randoms())
def test_best_first_is_one_to_one_and_ignores_the_edges_order(raw, rnd):
    edges = [((-float(s),), i, j) for s, i, j in raw]
    chosen = best_first(edges)
    assert len({i for i, _ in chosen}) == len(chosen) == len({j for _, j in chosen})
    shuffled = list(edges)
    rnd.shuffle(shuffled)
    assert best_first(shuffled) == chosen


def test_nearby_gives_the_same_and_the_neighbouring_sections_in_order():
    numbers = ["100.1", "101.1", "101.2", "102.1", "103.1", "103.1a", "104.1"]
    assert Nearby(numbers).candidates("102.4") == ["101.1", "101.2", "102.1", "103.1", "103.1a"]
    assert Nearby(numbers).candidates("glossary") == []


def _edition(eid: str, language: str, rules: list[tuple[str, str]], partial: bool = False) -> Edition:
    edition = Edition(id=eid, language=language, effective_date=eid.split("/")[1], title=eid,
                      sources=[SourceInfo(location=f"{eid}.txt", format="txt")],
                      rules=[Rule(number=n, text=t) for n, t in rules])
    edition.partial = partial
    return edition


def test_the_french_alignment_gives_the_one_pair_type():
    en = _edition("en/2030-01-01", "en", [
        ("601.2", "To cast a spell is to take it from where it is, put it on the stack, and pay its costs (see rule 601.2a)."),
        ("601.3", "A player can begin to cast a spell only if a rule allows it; 2 players may agree."),
        ("601.4", "Some effects let a player cast a spell as though it had flash (see rule 702.8)."),
    ])
    fr = _edition("fr/2030-02-01", "fr", [
        ("601.2", "Lancer un sort, c'est le prendre là où il se trouve, le mettre sur la pile et payer ses coûts (voir règle 601.2a)."),
        ("601.4", "Certains effets permettent à un joueur de lancer un sort comme s'il avait le flash (voir règle 702.8)."),
        ("601.9", "Une règle que l'anglais n'a pas, 3 fois."),
    ], partial=True)
    pairs = align_translation(fr, en, FeatureCache())
    assert all(isinstance(p, Pair) for p in pairs)
    kinds = {(p.old, p.new): p.kind for p in pairs}
    assert kinds[("601.2", "601.2")] == SAME_NUMBER and kinds[("601.4", "601.4")] == SAME_NUMBER
    assert kinds[(None, "601.9")] == EXTRA
    assert kinds.get(("601.3", None)) == MISSING  # inside the French coverage, no French
    assert {MOVED, SAME_NUMBER, EXTRA, MISSING} >= set(kinds.values())
    scorer = EvidenceScorer(fr, en, FeatureCache())
    assert scorer.similarity(0, "601.2") > scorer.similarity(0, "601.3")
    assert scorer.similarity(0, "999.9") == 0.0
    assert Pair("601.2", "601.2", SAME_NUMBER, 0.5, complete=False).to_dict()["complete"] is False
    assert "complete" not in Pair("601.2", "601.2", "unchanged", 1.0).to_dict()  # the diff JSON as it was

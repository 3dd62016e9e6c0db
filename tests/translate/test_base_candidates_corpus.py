"""On the corpus KB: ``--base auto`` reads its candidate English editions from the build's page
data (:mod:`kb.translate.candidates`) instead of reading each back from the store, and must
choose exactly as before.

- every complete English edition of the KB, read from the page data, holds what the store
  gives (:func:`kb.rdf.stored_edition.stored_edition`, rules only): the same rule numbers,
  texts and examples (examples change under an unchanged text: 312 times among the twenty
  editions 2008-2011, so they are read per edition, not per wording);
- every French text of the corpus: the base ``translation-report --base auto`` chooses from
  the page data -- scoring the English rules' features the build kept there
  (:mod:`kb.translate.kept`), and scoring their texts read from it -- its score, runner-up,
  ties and candidate count, are those the store's editions give (the detection as it ran
  before, :func:`kb.translate.base.detect_base` over the same date window of editions read
  from the store);
- the features kept are those of the store's texts, for every rule of every English edition.
"""

from __future__ import annotations

import pytest

from rulekb.kb import service
from rulekb.kb.rdf.stored_edition import stored_edition
from rulekb.kb.translate.align import FeatureCache
from rulekb.kb.translate.base import detect_base
from rulekb.kb.translate.candidates import candidate_editions
from rulekb.kb.translate.from_kb import candidate_names, english_rows, load_french, translation_parts

pytestmark = pytest.mark.corpus


@pytest.fixture(scope="module")
def from_store(corpus_kb) -> dict:
    """Every complete English edition of the KB as the store gives it (rules only), read once."""
    store, _ = corpus_kb
    return {row["edition"]: stored_edition(store, row["edition"], rules_only=True) for row in english_rows(store)}


def _content(edition) -> dict:
    return {rule.number: (rule.text, list(rule.examples)) for rule in edition.rules}


def test_every_english_edition_reads_from_the_page_data_as_from_the_store(corpus_kb, from_store):
    store, _ = corpus_kb
    rows = english_rows(store)
    assert len(rows) > 100
    read = candidate_editions(store, rows)
    assert read is not None, "the corpus build wrote no page data the candidates can be read from"
    assert [e.id for e in read] == [row["edition"] for row in rows]
    differing = [e.id for e in read if _content(e) != _content(from_store[e.id])]
    assert not differing


def test_every_french_text_chooses_the_base_it_chose_before(corpus_kb, from_store):
    store, _ = corpus_kb
    rows = english_rows(store)
    newest = service.newest_english(store)
    french = sorted({row["edition"] for row in service.run(store, "edition-graphs") if row["language"] == "fr"})
    cache, compared, changed = FeatureCache(), 0, {}
    for name in french:
        fr = load_french([name], store)
        if not fr.rules:
            continue  # nothing to detect (a text without numbered rules)
        chosen, _ = candidate_names(rows, fr.effective_date, "auto")
        best, score, runner, runner_score, scores = detect_base(fr, [from_store[e] for e in chosen], cache)
        tied = sorted(i for i, s in scores.items() if i != best and round(s, 9) == round(score, 9))
        before = {"base_detected": best, "candidates": len(chosen), "score": round(score, 4), "runner_up": runner,
                  "runner_up_score": round(runner_score, 4), "tied": len(tied), "tied_until": tied[-1] if tied else None}
        for how in ("kept", "page data"):
            data, *_ = translation_parts([name], newest, "auto", store, candidates=how)
            assert data["base"]["candidates_from"] == "page data", name
            after = {"base_detected": data["base_detected"],
                     **{k: data["base"][k] for k in before if k != "base_detected"}}
            if after != before:
                changed[(name, how)] = (before, after)
        compared += 1
    assert compared >= 20
    assert not changed


def test_the_features_kept_are_those_of_the_stores_texts(corpus_kb, from_store):
    from rulekb.kb.translate.evidence import features
    from rulekb.kb.translate.kept import scoring_candidates

    store, _ = corpus_kb
    rows = english_rows(store)
    found = scoring_candidates(store, rows)
    assert found is not None, "the corpus build kept no features"
    editions, cache = found
    assert [e.id for e in editions] == [row["edition"] for row in rows]
    differing = []
    for edition in editions:
        stored = from_store[edition.id]
        if sorted(r.number for r in edition.rules) != sorted(r.number for r in stored.rules) \
                or any(cache.get(edition, r.number) != features(r.text, r.examples, "en") for r in stored.rules):
            differing.append(edition.id)
    assert not differing

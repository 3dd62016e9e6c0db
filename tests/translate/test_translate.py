"""French beside English: evidence, alignment, base detection and the
translation report. The invented set is kb/bench/gold/translate (written for
this project); corpus tests read the French texts beside the project."""

from __future__ import annotations

import copy
import json

import pytest

from rulekb.kb.translate import align_translation, detect_base, features, score, translation_report
from rulekb.kb.bench.translation_eval import evaluate, load
from rulekb.kb.translate.evidence import names_in, numbers_in


def test_number_words_skip_the_article():
    assert numbers_in("Un joueur pioche deux cartes.", "fr") == numbers_in("A player draws two cards.", "en")
    assert numbers_in("Cf. règle 601.2 : trois jetons.", "fr") == {"3"}
    assert "2" not in numbers_in("Les deux joueurs passent.", "fr")


def test_names_ignore_sentence_starts_and_possessives():
    assert names_in("Bo borrows Ana's Sprocket. Ana still owns it.") == {"Sprocket", "Ana"}
    assert names_in("See rule 601, \"Casting Spells.\"") == frozenset()


def test_invented_translation_has_no_false_alarms():
    fr, en = load()
    report = translation_report(fr, en)
    assert report["items"] == []
    assert all(p.kind == "same-number" for p in align_translation(fr, en))
    json.dumps(report)
    assert set(report) >= {"fr_edition", "us_edition", "base_detected", "items"}


def test_mutations_precision_and_recall():
    result = evaluate()
    assert result["clean_false_alarms"] == []
    kinds = result["per_kind"]
    assert set(kinds) == {"missing", "extra", "reference-mismatch", "number-mismatch",
                          "name-mismatch", "sentence-missing", "sentence-added", "stale",
                          "terminology-inconsistency"}
    assert result["mutations"]["same-term"] and result["mutations"]["typography-only"]  # controls ran
    for kind, figures in kinds.items():
        assert figures["precision"] == 1.0, (kind, figures)
        assert figures["recall"] >= 0.85, (kind, figures)


def _with_damage(fr_words: dict[str, str], en_rules: tuple[str, ...]):
    """The invented pair with an added sentence about damage: in English in
    ``en_rules``, in French in each rule of ``fr_words`` with the word given."""
    fr, en = load()
    fr, en = copy.deepcopy(fr), copy.deepcopy(en)
    for rule in en.rules:
        if rule.number in en_rules:
            rule.text += " Widgets deal damage."
    for rule in fr.rules:
        if rule.number in fr_words:
            rule.text += f" Les widgets infligent des {fr_words[rule.number]}."
    return fr, en


def test_terminology_inconsistency_one_item_per_term():
    rules = ("100.2", "101.1", "101.2")
    fr, en = _with_damage({"100.2": "dégâts", "101.1": "blessures", "101.2": "dégâts"}, rules)
    items = translation_report(fr, en)["items"]
    assert items == [{"fr": None, "us": None, "kind": "terminology-inconsistency",
                      "fr_value": {"blessures": ["101.1"], "dégâts": ["100.2", "101.2"]},
                      "us_value": "damage"}]
    json.dumps(items)


def test_terminology_consistent_or_unrelated_is_not_reported():
    rules = ("100.2", "101.1")
    fr, en = _with_damage({"100.2": "dégâts", "101.1": "dégâts"}, rules)
    assert translation_report(fr, en)["items"] == []
    # "blessures" where the English rule has no damage is not a rendering of it
    fr, en = _with_damage({"100.2": "dégâts", "101.1": "dégâts", "101.2": "blessures"}, rules)
    assert [i for i in translation_report(fr, en)["items"] if i["kind"] == "terminology-inconsistency"] == []


def test_partial_french_reports_coverage_not_the_whole_edition():
    fr, en = load()
    part = copy.deepcopy(fr)
    part.partial = True
    part.rules = [r for r in fr.rules if r.number in ("101.1", "101.2", "101.4")]
    report = translation_report(part, en)
    assert [(i["us"], i["kind"]) for i in report["items"]] == [("101.3", "missing")]
    assert report["coverage"]["sections"] == ["101"]


def test_detect_base_prefers_the_edition_translated():
    fr, en = load()
    renumbered = copy.deepcopy(en)
    renumbered.id = "en/2031-01-01"
    renumbered.effective_date = "2031-01-01"
    for rule in renumbered.rules:  # a later edition where 101 and 102 traded places
        if rule.number.startswith(("101.", "102.")):
            rule.number = ("102." if rule.number.startswith("101.") else "101.") + rule.number[4:]
    best, best_score, runner, runner_score, scores = detect_base(fr, [renumbered, en])
    assert best == en.id and runner == renumbered.id and best_score > runner_score
    assert score(features("Cf. règle 101.1.", [], "fr"), features("See rule 101.1.", [], "en")) > 0.8


# --- corpus ---------------------------------------------------------------

@pytest.fixture(scope="module")
def corpus_editions(corpus):
    from rulekb.ingest.parse import parse_many
    from rulekb.kb.build import choose_editions

    english, _ = choose_editions([e for e in parse_many([str(corpus / "en")]).editions if e.language == "en"])
    french = [e for e in parse_many([str(corpus / "fr")]).editions if e.language == "fr" and e.rules]
    return english, french


@pytest.fixture(scope="module")
def detected(corpus_editions):
    from rulekb.kb.translate.align import FeatureCache

    english, french = corpus_editions
    cache = FeatureCache()
    return {f.id: detect_base(f, english, cache) for f in french}, cache


def test_every_french_text_gets_a_base_and_a_report(corpus_editions, detected):
    english, french = corpus_editions
    results, cache = detected
    assert len(french) >= 20
    by_id = {e.id: e for e in english}
    for fr in french:
        best, best_score, runner, runner_score, scores = results[fr.id]
        assert best in by_id and len(scores) == len(english) and best_score >= runner_score
        report = translation_report(fr, by_id[best], best, cache)
        json.dumps(report)
        missing = [i for i in report["items"] if i["kind"] == "missing"]
        assert len(missing) <= report["coverage"]["english_rules_in_span"] < len(by_id[best].rules)


def test_lotusnoir_2011_is_based_on_a_2010_2011_edition(detected):
    best, best_score, runner, _, _ = detected[0]["fr/2011-02-04"]
    assert "en/2010-01-01" <= best <= "en/2011-12-31", best
    assert best_score > 0.8


def test_2008_article_is_based_on_the_old_numbering(detected):
    best, best_score, _, _, _ = detected[0]["fr/2008-04-14"]
    assert best < "en/2009-07-01", best
    assert best_score > 0.8

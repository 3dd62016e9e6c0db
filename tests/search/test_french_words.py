"""French players' words for the KB's concepts (kb.search.french_words): each form names its concept
through the same label matcher search reads French questions with; every concept is one the real KB
has; a French question about the English rules names what it is about ("pioche", "bibliothèque",
"adversaire"), an English question does not read them."""

from __future__ import annotations

import pytest

from rulekb.kb import service
from rulekb.kb.search.french_words import WORDS
from rulekb.kb.search.understand import LabelMatcher

NEWEST = "en/2026-01-16"


def test_every_form_names_its_concept():
    matcher = LabelMatcher({key: list(forms) for key, forms in WORDS.items()}, "fr")
    wrong = {(key, form): sorted(matcher.mentions(form)) for key, forms in WORDS.items() for form in forms
             if key not in matcher.mentions(form)}
    assert not wrong, wrong
    # in a sentence, elided, in the plural, the longest form first ("double initiative" is no first strike)
    said = matcher.mentions("Si j'attaque avec une créature à double initiative, les blessures de combat sont-elles "
                            "infligées pendant l'étape d'entretien ?")
    assert {"attack", "double-strike", "combat-damage", "deal", "upkeep-step"} <= said and "first-strike" not in said


def test_every_key_is_a_concept_of_the_kb(corpus_kb):
    from rulekb.kb.search.engine import searcher_for

    concepts = searcher_for(corpus_kb[0]).meta["concepts"]
    assert not [key for key in WORDS if key not in concepts]


@pytest.mark.parametrize("question, concepts", [
    ("Si mon adversaire doit piocher alors que sa bibliothèque est vide, perd-il la partie ?",
     {"draw", "library", "opponent"}),
    ("Est-ce que je peux sacrifier une créature engagée pendant l'étape de nettoyage ?",
     {"sacrifice", "tapped", "cleanup-step"}),
])
def test_a_french_question_names_its_concepts(corpus_kb, question, concepts):
    found = service.search(corpus_kb[0], question, edition=NEWEST)
    assert found["understood"]["asked_in"] == "fr" and concepts <= set(found["understood"]["concepts"])
    english = service.search(corpus_kb[0], "Can I sacrifice a tapped creature during the cleanup step?", edition=NEWEST)
    assert {"sacrifice", "tapped", "cleanup-step"} <= set(english["understood"]["concepts"])  # the English labels

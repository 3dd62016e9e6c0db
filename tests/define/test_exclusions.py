"""Rules that answer by exclusion ("characteristics don't include A, B, or C")
become not-a statements, and a question about a listed item is answered "no"
with that rule (English and French; kb.define.exclusions)."""

from __future__ import annotations

import pytest

from rulekb.kb.define import extract
from rulekb.kb.define.questions import parse

EN = ("For example, traits don't include whether a widget is spun, a gadget's colour, "
      "a widget's owner or controller, what a sprocket turns, and so on.")
FR = ("Par exemple, les caractéristiques n'incluent pas le fait qu'un machin soit tourné, "
      "la couleur d'un bidule, ce qu'un rouage tourne, etc.")


def test_an_exclusion_list_gives_one_not_a_per_item():
    got = {(s.concept, s.aspect, s.value) for s in extract(EN, "en")}
    assert got == {("whether-a-widget-is-spun", "not-a", "trait"), ("gadgets-colour", "not-a", "trait"),
                   ("widgets-owner", "not-a", "trait"), ("widgets-controller", "not-a", "trait"),
                   ("what-a-sprocket-turn", "not-a", "trait")}
    fr = {(s.concept, s.value) for s in extract(FR, "fr")}
    assert ("couleur-dun-bidule", "characteristic") in fr and len(fr) == 3


@pytest.mark.parametrize("sentence", [
    "Some widgets don't include a gear, a cog, and so on.",  # quantified: no definition
    "It doesn't include damage dealt by widgets, gadgets, and so on.",
    "Widgets don't include a gear.",  # one item: not a list we read
])
def test_what_is_not_an_exclusion_list(sentence):
    assert not [s for s in extract(sentence, "en") if s.aspect == "not-a"]


def test_questions_about_a_listed_item_parse():
    q = parse("Is whether a permanent is tapped a characteristic?")
    assert (q.intent, q.subject, q.other) == ("is-a", "whether a permanent is tapped", "characteristic")
    q = parse("La cible d'un sort est-elle une caractéristique ?")
    assert (q.intent, q.subject, q.other) == ("is-a", "cible d'un sort", "caractéristique")


TEXT = """Widget Duel Comprehensive Rules

These rules are effective as of May 5, 2030.

1. Basics

100. General

100.1. A trait is information that defines a widget. For example, traits don't include whether a widget is spun, a gadget's colour, what a sprocket turns, and so on.

100.2. A duelist is not a widget.

Glossary

Trait
Information that defines a widget. See rule 100.1.

Credits

Invented for a test.
"""


def test_the_asker_answers_no_with_the_rule(tmp_path):
    from rulekb.kb.define.ask import Asker
    from rulekb.kb.build import build
    from rulekb.kb.store.embedded import EmbeddedStore

    source = tmp_path / "CR-2030-05-05.txt"
    source.write_text(TEXT, encoding="utf-8")
    store = EmbeddedStore(tmp_path / "store")
    build([str(source)], store, reasoner="owlrl")
    asker = Asker(store)
    for question in ("Is whether a widget is spun a trait?", "Is a gadget's colour a trait?"):
        answer = asker.ask(question)
        assert answer["answer"] == "no", answer
        assert answer["rules"] == [{"edition": "en/2030-05-05", "rule": "100.1"}]
    assert asker.ask("Is a duelist a widget?")["answer"] == "no"

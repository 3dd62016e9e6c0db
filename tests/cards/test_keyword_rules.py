"""The rules a card's keyword brings (kb.cards.link.Vocabulary.keyword_rules): the keyword's rule, the
subrule that says what it is, and its concept's defining rules of the glossary sense that is the
keyword's. Invented rules and glossary; the corpus's "Counter" in tests/cards/test_cards_corpus.py."""

from __future__ import annotations

from types import SimpleNamespace

from rulekb.ingest.model import Edition, GlossaryEntry, Heading, Rule
from rulekb.kb.cards.link import Keyword, Vocabulary, _senses
from rulekb.kb.rdf.concepts import KeyIndex

ED = "en/2041-01-01"


def _vocab(glossary: list[GlossaryEntry], defined: dict[str, set[str]]) -> Vocabulary:
    concepts = {key: SimpleNamespace(key=key, labels={"en": [key.title()]}, defined_by={(ED, n) for n in numbers})
                for key, numbers in defined.items()}
    keys = KeyIndex(concepts)
    edition = Edition(ED, "en", "2041-01-01", "Invented rules")
    edition.sections = [Heading(n, n) for n in ("133", "320", "701", "702")]
    edition.rules = [Rule("701.9", "Wind"), Rule("701.9a", "To wind a gadget is to turn its key."),
                     Rule("701.9b", "A wound gadget hums."), Rule("133.1", "A wind is a marker put on a clock."),
                     Rule("133.2", "Winds stay."), Rule("702.4", "Haste"), Rule("702.4a", "Haste is a static ability."),
                     Rule("320.1", "A nook is a gadget subtype."), Rule("133.3", "A nook is a part of a maze.")]
    edition.glossary = glossary
    return Vocabulary(ED, {}, {k: c.defined_by for k, c in concepts.items()}, keys, None,
                      frozenset(r.number for r in edition.rules), _senses(edition, keys))


def test_a_keyword_of_a_word_with_two_senses_brings_the_rules_of_its_own_sense():
    # "Wind": 1. the keyword action (701.9), 2. a marker (section 133) -- one concept, two senses
    entry = GlossaryEntry("Wind", "1. To turn a gadget's key. See rule 701.9, \u201cWind.\u201d\n"
                                  "2. A marker put on a clock. See rule 133, \u201cWinds.\u201d", ["701.9", "133"])
    vocab = _vocab([entry], {"wind": {"701.9", "133.1"}})
    wind = Keyword("Wind", "action", "701.9", "wind")
    assert vocab.keyword_rules(wind) == ["701.9", "701.9a"]  # not the marker's 133.1


def test_a_keyword_of_one_sense_brings_every_rule_of_its_concept():
    entry = GlossaryEntry("Haste", "A keyword ability. See rule 702.4, \u201cHaste,\u201d and rule 320.1.",
                          ["702.4", "320.1"])
    vocab = _vocab([entry], {"haste": {"702.4", "320.1"}})
    assert vocab.keyword_rules(Keyword("Haste", "ability", "702.4", "haste")) == ["702.4", "702.4a", "320.1"]
    # a keyword with no concept: its rule and what it is
    assert vocab.keyword_rules(Keyword("Wind", "action", "701.9", None)) == ["701.9", "701.9a"]


def test_an_action_word_naming_a_kind_of_ability_is_not_the_action():
    from rulekb.ingest.cards import Card
    from rulekb.kb.cards.link import link

    vocab = _vocab([], {})
    vocab.keywords.update({"counter": Keyword("Counter", "action", "701.6", None),
                           "activate": Keyword("Activate", "action", "701.2", None)})
    said = {"Counter target activated or triggered ability.": ["Counter"],
            "Activated abilities of creatures can't be activated.": ["Activate"],  # the second one is the action
            "Counter target spell. Activate only as a sorcery.": ["Counter", "Activate"]}
    for text, keywords in said.items():
        card = Card(name="Quiet Cog", mana_cost="{U}", type_line="Instant", oracle_text=text)
        assert [k.name for k in link(card, vocab).keywords] == keywords, text


def test_a_type_word_with_two_senses_brings_the_rules_of_its_sense_as_a_type():
    # "Nook": 1. a part of a maze (133), 2. a gadget subtype (320) -- a type line's "Nook" is the second
    entry = GlossaryEntry("Nook", "1. A part of a maze. See rule 133, \u201cMazes.\u201d\n"
                                  "2. A gadget subtype found on some cards. See rule 320.1.", ["133", "320.1"])
    vocab = _vocab([entry], {"nook": {"133.1", "320.1"}})
    assert vocab.type_rules("nook") == ["320.1"]
    assert _vocab([], {"nook": {"133.1", "320.1"}}).type_rules("nook") == ["133.1", "320.1"]  # one sense: all

"""A card named by its name's first word, or by a short name several legends share (kb.cards.names
``cards-firsts.json``, kb.cards.recognise): invented cards written into a name index of the
test's own."""

from __future__ import annotations

import pytest

_FIRST_WORD_CARDS = [  # invented: two legends sharing a short name, and a name whose first word is no card
    {"name": "Orla, Keeper of Springs", "type_line": "Legendary Creature — Tinker",
     "text": "Whenever you wind a gadget, proliferate."},
    {"name": "Orla, Warden of Cogs", "type_line": "Legendary Creature — Tinker",
     "text": "Gadgets you control have gizmoproof."},
    {"name": "Sprocketmaster Golem", "type_line": "Creature — Golem", "text": "Trample"},
    {"name": "Brass Sprocket", "type_line": "Artifact — Gadget", "text": "Wind it twice each turn."},
]


@pytest.mark.parametrize("question, lower_names, named", [
    ("When Sprocketmaster blocks, does it trample over?", True, [("Sprocketmaster Golem", "short name")]),
    ("My Orla proliferates when I wind: do I choose?", True,
     [("Orla, Keeper of Springs", "short name, by the question's words")]),
    ("Does Orla stop a gadget?", True, []),  # both share nothing rare with it: which Orla is not said
    ("Can I wind [Brass Sprocket] again? The Brass stays?", True, [("Brass Sprocket", "brackets")]),  # a word of it
    ("Sprocketmaster est-il bloqué ?", False, []),  # a French sentence's first word is French first
    ("Est-ce que Sprocketmaster est bloqué ?", False, [("Sprocketmaster Golem", "short name")]),
])
def test_a_names_first_word_or_a_shared_short_name_is_the_card_the_question_says(tmp_path, question, lower_names,
                                                                                  named):
    from rulekb.kb.cards import names as card_names
    from rulekb.kb.cards.recognise import recognise

    others = [{"name": f"Spare Part {n}", "type_line": "Artifact — Gadget", "text": "Wind it once."} for n in range(40)]
    rows = [{**c, "slug": c["name"].lower().replace(" ", "-").replace(",", ""), "faces": []}
            for c in _FIRST_WORD_CARDS + others]  # (rarity in the cards' text is what weighs a shared word)
    card_names.write(tmp_path, rows, {})
    found, _ = recognise(question, card_names.NameIndex(tmp_path), frozenset({"wind", "gadget", "does"}), lower_names)
    assert [(f.name, f.how) for f in found] == named


def test_the_cards_a_names_first_words_begin(tmp_path):
    from rulekb.kb.cards import names as card_names

    rows = [{"name": n, "type_line": "Artifact", "text": "", "slug": n.lower().replace(" ", "-"), "faces": []}
            for n in ("Spare Part", "Spare Part Two", "Spare Parts", "Sparkle Cog")]
    card_names.write(tmp_path, rows, {})
    index = card_names.NameIndex(tmp_path)
    assert [index.details(o)["name"] for o in index.beginning("spare")] == ["Spare Part", "Spare Part Two", "Spare Parts"]
    assert [index.details(o)["name"] for o in index.beginning("Spare Part")] == ["Spare Part Two"]  # whole words
    assert index.beginning("Spark") == [] and index.beginning("  ") == []


_PLURAL_CARDS = [  # invented: names a judge's question puts in the plural, or uses as a verb
    {"name": "Brass Anthem", "type_line": "Enchantment", "text": "Gadgets you control get +1/+1."},
    {"name": "Leyline of the Cog", "type_line": "Enchantment", "text": "Gadgets can't be wound."},
    {"name": "Doom Sprocket", "type_line": "Instant", "text": "Destroy target gadget."},
    {"name": "Sprocket's End", "type_line": "Instant", "text": "Exile target gadget."},
    {"name": "Blades of the Cog", "type_line": "Artifact", "text": "Equip {2}"},
    {"name": "Spare Cogs", "type_line": "Artifact", "text": "Wind it once."},
]


@pytest.mark.parametrize("question, named", [
    ("I control two Brass Anthems: how big is my gadget?", [("Brass Anthem", "plural")]),
    ("Do three Leylines of the Cog all start in play?", [("Leyline of the Cog", "plural")]),
    ("My opponent Doom Sprockets my gadget in response.", [("Doom Sprocket", "plural")]),  # a name as a verb
    ("My opponent Sprocket's Ends my gadget.", [("Sprocket's End", "plural")]),
    ("I wind my Spare Cogs twice.", [("Spare Cogs", "text")]),  # a name that is plural is itself
    ("Do the Sprockets wind twice?", []),  # a plural is no possessive first word ("Sprocket's End")
])
def test_a_name_in_the_plural_or_as_a_verb_is_the_card(tmp_path, question, named):
    from rulekb.kb.cards import names as card_names
    from rulekb.kb.cards.recognise import recognise

    rows = [{**c, "slug": c["name"].lower().replace(" ", "-").replace("'", ""), "faces": []} for c in _PLURAL_CARDS]
    card_names.write(tmp_path, rows, {})
    found, _ = recognise(question, card_names.NameIndex(tmp_path), frozenset({"wind", "gadget", "does", "the"}))
    assert [(f.name, f.how) for f in found] == named

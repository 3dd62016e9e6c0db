"""What a question's cards bring beyond each card alone, read without an index: the sections two
or more named cards meet in (kb.search.interactions, invented cards and sections), and card text
the question quotes, read as a card's text (kb.search.card_words.quoted_kinds)."""

from __future__ import annotations

from rulekb.kb.search.interactions import among

HELD = {"replacement": ("616", "Interaction of Replacement and/or Prevention Effects"),
        "prevention": ("616", "Interaction of Replacement and/or Prevention Effects"),
        "static": ("613", "Interaction of Continuous Effects"),
        "continuous": ("613", "Interaction of Continuous Effects")}


def card(name, *shapes):
    return {"name": name, "brought": {"shapes": list(shapes)}}


def test_two_replacing_cards_meet_in_the_replacement_section():
    met = among([card("Gadget Ward", "static", "replacement"), card("Sprocket Shield", "prevention")], HELD, "en/x")
    assert list(met) == ["616"] and met["616"]["cards"] == ["Gadget Ward", "Sprocket Shield"]
    assert met["616"]["edition"] == "en/x" and met["616"]["title"].startswith("Interaction of Replacement")


def test_static_text_that_replaces_is_not_a_layer_question():
    # both cards' static text only replaces: no continuous-effects section
    assert "613" not in among([card("A", "static", "replacement"), card("B", "static", "replacement")], HELD, "en/x")
    # a card that also has "as long as" still counts for the continuous effects
    met = among([card("A", "static", "replacement", "continuous"), card("B", "static")], HELD, "en/x")
    assert met["613"]["cards"] == ["A", "B"]


def test_one_card_or_unheld_shapes_meet_nothing():
    assert among([card("A", "replacement")], HELD, "en/x") == {}
    assert among([card("A", "triggered"), card("B", "triggered")], HELD, "en/x") == {}
    assert among([card("A", "replacement"), card("A", "replacement")], HELD, "en/x") == {}  # one card named twice
    assert among([card("A", "replacement"), card("B", "replacement")], {}, "en/x") == {}  # an edition without them


def test_quoted_card_text_is_read_as_a_cards_text():
    from rulekb.kb.search.card_words import quoted_kinds

    assert list(quoted_kinds('how do the "when you do" abilities work?', "en")) == [
        "triggered-ability", "reflexive-triggered-ability"]
    assert "replacement-effect" in quoted_kinds("a land says it 'enters tapped': can anyone respond?", "en")
    assert "intervening-if-clause" in quoted_kinds("“At the beginning of your upkeep, if you have no cards, draw one”",
                                                   "en")
    # apostrophes are no quotes; a quote of no card shape brings nothing; French questions are not read
    assert quoted_kinds("isn't it the player's turn? don't they draw", "en") == {}
    assert quoted_kinds('what does "mana value" mean?', "en") == {}
    assert quoted_kinds("« quand vous le faites » : comment ça marche ?", "fr") == {}

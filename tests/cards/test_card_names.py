"""Reading card names in a question (kb.cards.names, kb.cards.recognise) on name indexes of
cards written for these tests: short names of legends, the rules' own words that are also card
names, lower-case names, misspellings, players' shorthand. No store is built: each test writes
a small name index and reads questions against it."""

from __future__ import annotations

import json


def test_a_short_name_another_card_starts_with_names_no_card(tmp_path):
    from rulekb.kb.cards import names

    def row(name, type_line):
        return {"name": name, "slug": name.lower().replace(" ", "-").replace(",", ""), "type_line": type_line}

    names.write(tmp_path, [row("Tinker, Keeper of Springs", "Legendary Creature — Gnome"),
                           row("Clockpoint, Gear Regent", "Legendary Artifact Creature — Construct"),
                           row("Clockpoint Sentry", "Artifact Creature — Construct")], {})
    known = json.loads((tmp_path / names.NAMES).read_text(encoding="utf-8"))["names"]
    assert known["tinker"] < 0  # a short name: only the legend answers to it
    assert "clockpoint" not in known  # "Clockpoint" may be the Sentry as well: no card by it
    assert known["clockpoint sentry"] >= 0 and known["clockpoint gear regent"] >= 0


def test_words_of_the_rules_that_are_also_card_names_are_the_rules_first(tmp_path):
    from rulekb.kb.cards import names
    from rulekb.kb.cards.recognise import recognise

    rows = [{"name": n, "slug": n.lower().replace(" ", "-"), "type_line": "Sorcery"}
            for n in ("The End", "Gadget Duel", "Liability")]
    names.write(tmp_path, rows, {})
    index = names.NameIndex.open(tmp_path)
    common = frozenset({"the", "end", "gadget", "duel", "gadget duel", "ability", "step"})

    def named(question):
        return [f.name for f in recognise(question, index, common)[0]]

    assert named("The end step: can I still play a gadget?") == []  # a sentence's first capital is no name
    assert named("Is it over? The end step comes next.") == []
    assert named("If I cast The End on a gadget, what happens?") == ["The End"]
    assert named("In a Gadget Duel, who goes first?") == []  # the rules' phrase, not even as a misspelling
    found, unknown = recognise("what does [ability] mean?", index, common)
    assert found == [] and unknown == ["ability"]  # the rules' own word in brackets: no "Liability"


def test_reading_names_a_player_writes_them(tmp_path):
    # cards written for this test; "common" plays the rules' words
    from rulekb.kb.cards import names
    from rulekb.kb.cards.recognise import recognise

    rows = [{"name": n, "slug": n.lower().replace(" ", "-"), "type_line": t, "concepts": {}}
            for n, t in (("Clockmongoose", "Gadget — Mongoose"), ("Gearbreaker", "Sprocket"), ("Opt", "Sprocket"))]
    names.write(tmp_path, rows, {})
    index = names.NameIndex(tmp_path)
    common = frozenset({"gadget", "gear", "wind", "twice"})

    def read(question, **options):
        return [f.name for f in recognise(question, index, common, **options)[0]]

    assert read("can I gearbreaker a gadget twice?") == ["Gearbreaker"]  # lower case, five letters or more
    assert read("can I gearbreaker a gadget twice?", lower_names=False) == []  # not in a French question
    assert read("does my clockmongose wind twice?") == ["Clockmongoose"]  # one long word, misspelt
    assert read("does my clockmongose wind twice?", lower_names=False) == []
    assert read("may I opt to wind twice?") == [] and read("may I cast Opt?") == ["Opt"]  # short: capitalised only
    # after "a", "any", "each" ..., a word in lower case is a common noun, even misspelt
    assert read("can a gearbreaker undo a gadget?") == [] and read("can any clockmongose wind?") == []
    assert read("can a Gearbreaker undo a gadget?") == ["Gearbreaker"]


def test_players_shorthand_in_lower_case_is_the_verb_not_the_card(tmp_path):
    # a card written for this test, named like a player's verb ("blink": exile and return)
    from rulekb.kb.cards import names
    from rulekb.kb.cards.recognise import recognise
    from rulekb.kb.search.card_words import Common

    names.write(tmp_path, [{"name": "Blink", "slug": "blink", "type_line": "Sprocket", "concepts": {}}], {})
    index = names.NameIndex(tmp_path)
    common = Common({})

    def read(question):
        return [f.name for f in recognise(question, index, common)[0]]

    assert read("if I blink my gadget, does it come back wound?") == []
    assert read("can I cast Blink on my gadget?") == ["Blink"] and read("can I cast [blink] on it?") == ["Blink"]


def test_a_name_of_rules_words_after_my_is_the_card_when_one_is_a_creature_type(tmp_path):
    # invented cards; "golem" plays a creature type (the rules write it only capitalised)
    from rulekb.kb.cards import names
    from rulekb.kb.cards.recognise import recognise
    from rulekb.kb.search.card_words import Common

    names.write(tmp_path, [{"name": n, "slug": n.lower().replace(" ", "-"), "type_line": "Sprocket", "concepts": {}}
                           for n in ("Gear Golem", "Last Chance")], {})
    index = names.NameIndex(tmp_path)
    concepts = {w: {"labels": {"en": [w]}} for w in ("gear", "golem", "last", "chance")}
    common = Common(concepts, in_rules=lambda word: word in {"gear", "last", "chance"})

    def read(question, **options):
        return [f.name for f in recognise(question, index, common, **options)[0]]

    assert read("can my gear golem block their gadget?") == ["Gear Golem"]
    assert read("can your opponent's gear golem block?") == ["Gear Golem"]
    assert read("can a gear golem block?") == []  # no owner: the rules' words
    assert read("is this my last chance to wind it?") == []  # English: the rules write both in lower case
    assert read("can my gear golem block?", lower_names=False) == []  # a French question: French words first

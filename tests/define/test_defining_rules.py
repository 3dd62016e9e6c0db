"""A glossary entry citing a section resolves to the rule in it that defines the
term (kb.define.defining), and concepts are definedBy that rule."""

from __future__ import annotations

from rulekb.ingest.model import Edition, GlossaryEntry, Heading, Rule
from rulekb.kb.rdf import concepts as concept_layer
from rulekb.kb.define.defining import SectionIndex, defines, defining_rules, term_forms


def _edition() -> Edition:
    ed = Edition("en/2030-05-05", "en", "2030-05-05", "Invented rules")
    ed.parts = [Heading("1", "Game Ideas"), Heading("4", "Places")]
    ed.sections = [Heading("150", "Widgets"), Heading("151", "Gadgets"), Heading("152", "Hums"), Heading("153", "Doodads"), Heading("154", "Kinds"),
                   Heading("400", "General"), Heading("401", "Shelf")]
    ed.rules = [
        Rule("150.1", "Use the widget reference when reading a widget's wording."),
        Rule("150.2", "A widget is a gadget that hums. Widgets can be tapped."),
        Rule("151.1", "Gadgets come in boxes."),
        Rule("151.2", "Some gadgets are loud gadgets, which whirr."),
        Rule("152.1", "There are two kinds of hum:"),
        Rule("152.1a", "Low hums have a pitch and a length."),
        Rule("152.2", "Some low hums and some high hums are loud."),  # names it, a rule as such, after 152.1a
        Rule("153.1", "A player may play a doodad card."),
        Rule("153.2", "Some doodads have a switch which lets them become doodad widgets."),
        Rule("154.1", "Kinds"),  # a title: its subrules say what each is
        Rule("154.1a", "The kinds are plain, fancy, and odd."),
        Rule("154.1b", "Any widget with the kind \u201cfancy\u201d is a fancy widget."),
        Rule("154.2", "Whirring"),
        Rule("154.2a", "Whirring is a static ability."),
        Rule("154.3", "Clanking"),
        Rule("154.3a", "Clanking is a static ability that a gadget may have."),
        Rule("400.1", "A place is somewhere a widget can sit during a game."),
        Rule("401.1", "The shelf starts out empty."),
        Rule("401.2", "To stash a widget is to put it on the shelf."),
    ]
    ed.glossary = [
        GlossaryEntry("Widget", "A gadget that hums. See rule 150, \"Widgets.\"", ["150"]),
        GlossaryEntry("Place", "Somewhere. See section 4, \"Places.\"", ["4"]),
        GlossaryEntry("Loud Gadget", "See rule 151.", ["151"]),
        GlossaryEntry("Stash", "See rule 401.", ["401"]),
        GlossaryEntry("Gadget", "See rule 151.", ["151"]),
        GlossaryEntry("Hum", "See rule 150.2.", ["150.2"]),
        GlossaryEntry("Low Hum", "A kind of hum. See rule 152.", ["152"]),
        GlossaryEntry("Doodad", "A card type. See rule 153.", ["153"]),
        GlossaryEntry("Fancy", "A kind. See rule 154.1, \u201cKinds.\u201d", ["154.1"]),
        GlossaryEntry("Whirring", "A keyword ability. See rule 154.2, \u201cWhirring.\u201d", ["154.2"]),
        # cites Whirring's number and quotes Clanking's title (the 2025 glossary's Endure: 702.62, "Endure.")
        GlossaryEntry("Clanking", "A keyword ability. See rule 154.2, \u201cClanking.\u201d", ["154.2"]),
    ]
    return ed


def test_a_cited_section_resolves_to_its_defining_rule():
    index = SectionIndex(_edition())
    assert defining_rules(index, "Widget", ["150"]) == ["150.2"]  # not 150.1, which only names it
    assert defining_rules(index, "Place", ["4"]) == ["400.1"]  # a part: the rule of the part that defines it
    assert defining_rules(index, "Loud Gadget", ["151"]) == ["151.2"]  # "Some Xs are Ys"
    assert defining_rules(index, "Stash", ["401"]) == ["401.2"]  # "To stash ... is"
    assert defining_rules(index, "Gadget", ["151"]) == ["151.1"]  # no defining sentence: the first that names it
    assert defining_rules(index, "Hum", ["150.2"]) == ["150.2"]  # a cited rule is kept as it is
    # no defining sentence, and a subrule opens on it ("Triggered abilities have ..."): before a later rule naming it
    assert defining_rules(index, "Low Hum", ["152"]) == ["152.1a"]
    # "... become doodad widgets" says what they become, a doodad widget, not what a doodad is
    assert defining_rules(index, "Doodad", ["153"]) == ["153.1"]
    # a cited rule that is only a title: and its subrule that says what the term is (not the list naming it)
    assert defining_rules(index, "Whirring", ["154.2"]) == ["154.2", "154.2a"]
    assert defining_rules(index, "Fancy", ["154.1"]) == ["154.1", "154.1b"]


def test_a_citation_quoting_another_rules_title_is_read_as_that_rule():
    ed = _edition()
    index = SectionIndex(ed)
    entry = next(g for g in ed.glossary if g.term == "Clanking")
    assert defining_rules(index, "Clanking", entry.refs) == ["154.2"]  # the number alone: Whirring's title
    assert defining_rules(index, "Clanking", entry.refs, entry.definition) == ["154.3", "154.3a"]
    # the quoted title is the cited rule's own, or no rule's: the citation stands
    whirring = next(g for g in ed.glossary if g.term == "Whirring")
    assert defining_rules(index, "Whirring", whirring.refs, whirring.definition) == ["154.2", "154.2a"]
    assert defining_rules(index, "Clanking", ["154.2"], "See rule 154.2, \u201cRattling.\u201d") == ["154.2"]
    assert concept_layer.collect([ed])["clanking"].defined_by == {(ed.id, "154.3"), (ed.id, "154.3a")}


def test_a_sentence_saying_when_a_thing_is_another_defines_the_other():
    # 604.3a "A static ability is a characteristic-defining ability if ..." was a definition of Static Ability
    text = "A quiet widget is a humming widget if it meets the following criteria: it hums."
    assert not defines(text, term_forms("Quiet Widget")) and defines(text, term_forms("Humming Widget"))
    # a relative clause before the condition is part of what the thing is
    text = "Widget actions are game actions that happen automatically whenever a widget hums."
    assert defines(text, term_forms("Widget Actions"))
    assert defines("Un gadget est un objet qui bourdonne.", term_forms("gadget"))
    # "An activated ability is the only kind of ability that can be activated": what only it does
    assert not defines("A loud gadget is the only kind of gadget that can whirr.", term_forms("Loud Gadget"))


def test_concepts_are_defined_by_the_rule_of_a_cited_section():
    ed = _edition()
    found = concept_layer.collect([ed])
    assert found["widget"].defined_by == {(ed.id, "150.2")}
    assert found["place"].defined_by == {(ed.id, "400.1")}


def test_corpus_2011_sections_resolve(corpus):
    from rulekb.ingest.parse import parse_path

    ed = parse_path(corpus / "en" / "CR-2011-09-30.txt").editions[0]
    index = SectionIndex(ed)
    entries = {g.term: g for g in ed.glossary}
    expected = {"Permanent": "110.1", "Spell": "111.1", "Zone": "400.1", "Object": "109.1", "Player": "102.1"}
    for term, rule in expected.items():
        assert rule in defining_rules(index, term, entries[term].refs), term
    assert "108.2" in defining_rules(index, "Card", entries["Card"].refs)  # 'refers to a "card," it means'
    # every entry citing a rule or section that exists in the edition gets a defining rule
    missing = [g.term for g in ed.glossary if g.refs and not defining_rules(index, g.term, g.refs)]
    assert missing == []


def test_corpus_glossary_citations_quoting_another_title(corpus):
    """The 2026 glossary's "Endure ... See rule 702.62, "Endure."" (702.62 is Suspend) and the
    2017 one's "Exert ... See rule 701.36, "Exert."" (701.36 is another action) define by the
    rule whose title they quote."""
    from rulekb.ingest.parse import parse_path

    for name, term, wanted, printed in (("CR-2026-01-16.txt", "Endure", "701.63", "702.62"),
                                        ("CR-2017-04-28.txt", "Exert", "701.37", "701.36")):
        ed = parse_path(corpus / "en" / name).editions[0]
        entry = next(g for g in ed.glossary if g.term == term)
        assert entry.refs == [printed]  # the document as printed
        found = defining_rules(SectionIndex(ed), term, entry.refs, entry.definition)
        assert found[0] == wanted and printed not in found, (name, found)


def test_french_texts_without_a_glossary_define_their_concepts():
    """French editions have no glossary: a rule whose sentence says what a
    concept is, in French, is its defining rule (invented text)."""
    english = _edition()
    found = concept_layer.collect([english])
    found["widget"].add_label("fr", "machin")
    found["gadget"].add_label("fr", "bidule")
    found["place"].add_label("fr", "endroit")
    french = Edition("fr/2030-05-05", "fr", "2030-05-05", "Règles inventées")
    french.rules = [
        Rule("150.1", "Utilisez la référence des machins pour lire un machin."),
        Rule("150.2", "Un machin est un bidule qui bourdonne."),
        Rule("151.1", "Les bidules sont rangés dans des boîtes."),  # passive: not what a bidule is
        Rule("151.2", "Voir règle 400, \"Endroit\"."),  # a quoted title is not a definition
        Rule("400.1", "Le propriétaire d'un endroit est le joueur qui l'a posé."),
    ]
    found["owner"] = concept_layer.Concept("owner")
    found["owner"].add_label("fr", "propriétaire")
    concept_layer.add_sentence_definitions(found, [english, french])
    assert (french.id, "150.2") in found["widget"].defined_by
    assert not any(ed == french.id for ed, _ in found["gadget"].defined_by)
    assert not any(ed == french.id for ed, _ in found["place"].defined_by)
    assert found["owner"].defined_by == {(french.id, "400.1")}


def test_corpus_french_spell_and_permanent(corpus):
    from rulekb.ingest.parse import parse_path
    from rulekb.kb.define.defining import sentence_definitions

    editions = [e for e in parse_path(corpus / "fr" / "seeds" / "000_4742dacff0dcd688.txt").editions]
    editions += parse_path(corpus / "fr" / "lotusnoir" / "lotusnoir_c110_FR.txt").editions
    labels = {"spell": ["sort"], "permanent": ["permanent"], "owner": ["propriétaire"]}
    got = {pair for ed in editions if ed.language == "fr" for pair in sentence_definitions(ed, labels)}
    assert {("spell", "111.1"), ("owner", "111.2"), ("permanent", "110.1"), ("owner", "110.2")} <= got

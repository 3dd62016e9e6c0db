"""How a question's words meet the card names by what surrounds them: a lower-case face, a French
elision, the plural of a rule word (kb.cards.recognise), and the article before a card read as what
it is (kb.search.card_words). A name index of one card stands in for the card file: the decisions
are the recogniser's, not the file's."""

from __future__ import annotations

from rulekb.kb.cards.recognise import _plural_of, recognise


class Faces:
    """A name index of one card, Wind // Unwind, whose face "unwind" is its only name."""

    def lookup(self, key, french=True):
        return (0, "face") if key == "unwind" else None

    def near(self, *args, **kwargs):
        return None

    def meanings(self, key):
        return []

    def details(self, i):
        return {"name": "Wind // Unwind", "slug": "wind-unwind"}


def named(question: str, **options) -> list[str]:
    return [f.name for f in recognise(question, Faces(), **options)[0]]


def test_a_face_in_lower_case_is_the_face_only_when_cast_and_french_elisions_are_cut():
    """A one-word face of a card of several faces, in lower case, is an English word ("keep it
    alive": not Alive // Well) unless a casting verb comes right before it ("cast unwind"); a
    capitalised face stays the face. The misspelt-word reading skips the plural of a word of the
    rules ("goblins": the creature type, not "_____ Goblin")."""
    assert named("if I cast unwind on a gadget, what happens?") == ["Wind // Unwind"]
    assert named("can I copy unwind?") == ["Wind // Unwind"]
    assert named("does my gadget unwind at the end of the turn?") == []
    assert named("does my gadget Unwind at the end of the turn?") == ["Wind // Unwind"]
    assert _plural_of("goblins", {"goblin"}) and _plural_of("witches", {"witch"}) and not _plural_of("goblins", set())
    # a French elided word before a name is not part of it ("d'Unwind", "qu'Unwind"); a word with an
    # apostrophe of its own stays whole ("aujourd'hui", "l'unwind" in lower case: French)
    french = recognise("est-ce que la copie d'Unwind est exilée, lorsqu'Unwind se résout ?", Faces(),
                       lower_names=False)[0]
    assert [(f.name, f.asked) for f in french] == [("Wind // Unwind", "Unwind")]
    assert recognise("je lance l'unwind aujourd'hui", Faces(), lower_names=False)[0] == []


def test_a_card_read_as_what_it_is_keeps_its_article_right():
    from rulekb.kb.search.card_words import as_what_they_are

    question = "So an Unwind blocks. A Brass Golem blocks an Ornate Golem."
    spans = [((question.index(name), question.index(name) + len(name)), kinds)
             for name, kinds in (("Unwind", ["sprocket"]), ("Brass Golem", ["artifact"]), ("Ornate Golem", ["gadget"]))]
    assert as_what_they_are(question, spans, {}, "en") == "So a sprocket blocks. An artifact blocks a gadget."
    # in French by the French labels, no article added (a French one agrees with a gender)
    concepts = {"artifact": {"labels": {"fr": ["Artefact"]}}, "gadget": {"labels": {"fr": ["Gadget"]}}}
    question = "Si j'Unwind, mon Brass Golem bloque-t-il l'Ornate Golem ?"
    spans = [((question.index(name), question.index(name) + len(name)), kinds)
             for name, kinds in (("Unwind", ["sprocket"]), ("Brass Golem", ["artifact"]), ("Ornate Golem", ["gadget"]))]
    assert as_what_they_are(question, spans, concepts, "fr") == "Si j'sprocket, mon artefact bloque-t-il l'gadget ?"

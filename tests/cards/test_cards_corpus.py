"""Cards on the real corpus KB (its card file, cards/ of the corpus): the 2026 rules' own
keyword list links real cards, a legendary's short name and a face are recognised in
questions, and a rules change shows which cards it touches."""

from __future__ import annotations

import pytest

from rulekb.kb import service
from rulekb.kb.errors import NotFound

pytestmark = pytest.mark.corpus
NEWEST = "en/2026-01-16"


def test_real_cards_are_linked_to_their_rules(corpus_kb):
    store, report = corpus_kb
    assert report.cards["cards"] > 29_000 and report.cards["edition"] == NEWEST
    ghalta = service.card(store, "Ghalta, Primal Hunger")  # the file has it twice, once as a reversible printing
    assert ghalta["name"] == "Ghalta, Primal Hunger" and not any(r["rule"].startswith("712.") for r in ghalta["rules"])
    angel = service.card(store, "Platinum Angel")
    assert {"702.9", "702.9a", "302.1", "301.1"} <= {r["rule"] for r in angel["rules"]}  # flying, creature, artifact
    assert "lose-the-game" in angel["mentions"]
    with pytest.raises(NotFound, match="Atraxa, Praetors' Voice; Atraxa, Grand Unifier"):  # which Atraxa?
        service.card(store, "Atraxa")
    assert service.card(store, "Snapcaster")["name"] == "Snapcaster Mage"
    with pytest.raises(NotFound, match=r"'Lightning' may be any of \d+ cards: Lightning "):  # not Blightning by spelling
        service.card(store, "Lightning")
    keranos = service.card(store, "Keranos")
    assert keranos["name"] == "Keranos, God of Storms" and keranos["how"] == "short name"
    assert {"legendary", "enchantment", "creature"} <= set(keranos["types"])
    assert "triggered" in keranos["shapes"] and "continuous" in keranos["shapes"]
    stifle = {r["rule"] for r in service.card(store, "Stifle")["rules"]}  # "Counter": the action's sense, not the marker's
    assert {"701.6", "701.6a"} <= stifle and "122.1" not in stifle
    # the glossary's Endure cites 702.62 (Suspend) and quotes "Endure": the rule it quotes, 701.63
    krumar = {r["rule"] for r in service.card(store, "Krumar Initiate")["rules"]}
    assert {"701.63", "701.63a"} <= krumar and "702.62" not in krumar
    scales = service.card(store, "Hardened Scales")
    assert "replacement" in scales["shapes"] and "614.1" in {r["rule"] for r in scales["rules"]}
    # the finer kinds the glossary names lead to their own rules: 603.4, 603.7, 604.3, 605.1
    for name, shape, number in (("Ophiomancer", "intervening-if", "603.4"),
                                ("Kiki-Jiki, Mirror Breaker", "delayed", "603.7"),
                                ("Tarmogoyf", "characteristic-defining", "604.3"), ("Llanowar Elves", "mana", "605.1"),
                                # and the rules a card is subject to by what it is: the legend rule, summoning sickness
                                ("Thalia, Guardian of Thraben", "legend-rule", "704.5j"),
                                ("Birds of Paradise", "summoning-sickness", "302.6"), ("Blood Artist", "leaves-the-battlefield", "603.6c"),
                                ("Swords to Plowshares", "last-known-information", "113.7a"),
                                ("Lightning Bolt", "illegal-target", "608.2b")):
        card = service.card(store, name)
        assert shape in card["shapes"] and number in {r["rule"] for r in card["rules"]}, name
    # a card with faces is governed by the rules of its kind, read from its faces (the file has no layout)
    delver = {r["rule"]: r["why"] for r in service.card(store, "Delver of Secrets")["rules"]}
    assert any(number.startswith("712.") and "double-faced" in why for number, why in delver.items())
    assert any(r["rule"].startswith("709.") for r in service.card(store, "Fire // Ice")["rules"])
    assert any(r["rule"].startswith("715.") for r in service.card(store, "Bonecrusher Giant")["rules"])


def test_questions_name_real_cards(corpus_kb):
    store, _ = corpus_kb
    found = service.search(store, "My opponent is at 0 life but controls [Platinum Angel]; I destroy it with Murder.")
    assert [c["name"] for c in found["cards"]] == ["Platinum Angel", "Murder"]
    assert any("card Platinum Angel" in why for hit in found["results"] for why in hit["why"])
    trample = service.search(store, "My [[Colossal Dreadmaw]] is blocked by a 1/1. How much damage tramples over?")
    assert any(hit.get("rule", "").startswith("702.19") for hit in trample["results"][:5])
    # a name's first word, and a short name several legends share, resolved by the question's words
    assert [c["name"] for c in service.search(store, "When Atraxa proliferates, must I add counters to everything?")["cards"]] \
        == ["Atraxa, Praetors' Voice"]
    assert [c["name"] for c in service.search(store, "Blightsteel blocks my Darksteel Colossus. Does the Colossus survive?")["cards"]] \
        == ["Blightsteel Colossus", "Darksteel Colossus"]  # "the Colossus": that card again, not Collision // Colossus
    beast = "I exiled the Beast token my opponent got from Beast Within. Does the Beast come back?"
    assert [c["name"] for c in service.search(store, beast)["cards"]] == ["Beast Within"]  # not The Beast, Deathless Prince
    assert "cards" not in service.search(store, "Thalia blocks my attacker. Who deals damage first?")  # which Thalia?
    # the ligature as older printings and players write it: Oracle's Aether Vial, by its name, not a near spelling
    vial = service.search(store, "Can I respond to Æther Vial's trigger by destroying the Vial?")["cards"]
    assert [(c["name"], c["how"]) for c in vial] == [("Aether Vial", "text")]
    # a hyphen, then a possessive, in one name: the Vault, not the short name of Lim-Dûl the Necromancer
    vault = service.search(store, "Can I respond to Lim-Dûl's Vault by casting an instant?")["cards"]
    assert [(c["name"], c["how"]) for c in vault] == [("Lim-Dûl's Vault", "text")]
    # in lower case, of the rules' words, right after a casting verb: the spell; no card in "cast spells"
    bolt = service.search(store, "if i cast lightning bolt at a creature with hexproof, what happens?")["cards"]
    assert [(c["name"], c["how"]) for c in bolt] == [("Lightning Bolt", "text")]
    assert "cards" not in service.search(store, "can i cast spells during the cleanup step?")
    # the corpus's card file has no French names: a French bracketed name says why it is no card, in search and ask
    french = "Est-ce que [Ange de platine] m'empêche de perdre ?"
    assert "fetch --cards mtgjson" in service.search(store, french)["understood"]["cards_note"]
    assert "fetch --cards mtgjson" in service.ask(store, french)["cards_note"]
    plain = service.search(store, "what is the shared life total in two-headed giant?")
    assert "cards" not in plain  # a phrase of the rules before it is a card's name


def test_two_cards_that_replace_one_event_lead_to_the_interaction_of_replacement_effects(corpus_kb):
    store, _ = corpus_kb
    found = service.search(store, "I control [Rest in Peace] and my opponent has [Leyline of the Void]. "
                                  "My opponent discards a card: where does it end up?")
    met = found["understood"]["interactions"]
    assert [m["section"] for m in met] == ["616"] and met[0]["title"].startswith("Interaction of Replacement")
    assert any(hit.get("rule", "").startswith("616.") for hit in found["results"][:5])
    assert any("Interaction of Replacement" in why for hit in found["results"] for why in hit["why"])
    one = service.search(store, "My opponent has [Leyline of the Void]. Where does a card I discard go?")
    assert "interactions" not in one["understood"]  # one card meets nothing
    from tests.helpers import run_cli

    said = run_cli("search", "[[Rest in Peace]] and [[Leyline of the Void]]: which one applies?", "--store",
                   str(store.root))
    assert said.returncode == 0 and "meet in section 616: Interaction of Replacement" in said.stdout, said.stderr


def test_a_change_shows_the_cards_it_touches(corpus_kb):
    store, _ = corpus_kb
    rows = service.run(store, "cards-touched-by-changes", old="en/2025-11-14", new=NEWEST)
    touched = {(r["number"], r["name"]) for r in rows}
    assert any(number.startswith("702.124") for number, _ in touched)  # Partner's rules changed in 2026
    assert service.cards_governed_count(store, NEWEST, "702.19b") > 1000  # trample's subrule: trample's cards

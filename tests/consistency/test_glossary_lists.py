"""A glossary entry enumerating a set with a member more or less than the rule that defines
the set: kb.define.glossary reads the entry's list as the rules' lists are read, and
kb.consistency reports the member on one side only as a glossary-vs-rules contradiction."""

from __future__ import annotations

import pytest

from rulekb.ingest.model import Edition, GlossaryEntry, Heading, Rule
from rulekb.kb.consistency import check
from rulekb.kb.define.glossary import glossary_statements


def _edition(rules, glossary) -> Edition:
    e = Edition("en/2030-01-01", "en", "2030-01-01", "Invented Rules")
    e.sections = [Heading("109", "Objects"), Heading("110", "Permanents"), Heading("116", "Costs")]
    e.rules = [Rule(n, t, line=i + 10) for i, (n, t) in enumerate(rules)]
    e.glossary = [GlossaryEntry(t, d, refs) for t, d, refs in glossary]
    return e


RULES = [
    ("109.1", "An object is an ability on the stack, a card, a copy of a card, a token, a spell, a permanent, "
              "or an emblem."),
    ("110.1", "A permanent is a card or token on the battlefield."),
    ("116.1", "A cost is an action or payment necessary to take another action."),
]


def _lists(found):
    return [f for f in found if f.kind == "glossary-vs-rules" and f.severity == "contradiction"]


def test_the_entry_without_its_subject_is_read_as_the_rule_is():
    entry = "An ability on the stack, a card, or a token. See rule 109, \u201cObjects.\u201d"
    [st] = glossary_statements("Object", entry, "en")
    assert (st.concept, st.aspect, st.members) == ("object", "kinds", ("ability-on-the-stack", "card", "token"))
    assert glossary_statements("Attach", "To move an Aura, Equipment, or Fortification onto another object.",
                               "en") == []  # a verb: no list of the term
    assert glossary_statements("Cost", "An action or payment necessary to take another action.", "en") == []  # narrowed
    assert glossary_statements("Objet", "Une capacit\u00e9 sur la pile, une carte ou un jeton.", "fr") == []


def test_a_member_on_one_side_only_is_a_contradiction_naming_it():
    glossary = [("Object", "An ability on the stack, a card, a copy of a card, a token, a spell, or a permanent. "
                           "See rule 109, \u201cObjects.\u201d", ["109"]),
                ("Permanent", "A card or token on the battlefield. See rule 110, \u201cPermanents.\u201d", ["110"]),
                ("Cost", "An action or payment necessary to take another action. See rule 116.", ["116"])]
    [finding] = _lists(check(_edition(RULES, glossary)))
    assert finding.rules == ("glossary: Object", "109.1")
    assert "emblem" in finding.detail and "rule 109.1 lists emblem" in finding.detail
    assert finding.texts[0].startswith("An ability on the stack") and finding.texts[1].startswith("An object is")


def test_same_set_in_another_order_or_named_elsewhere_is_no_finding():
    glossary = [("Object", "A permanent, a spell, an emblem, a token, a copy of a card, a card, or an ability on "
                           "the stack. See rule 109.", ["109"])]
    assert _lists(check(_edition(RULES, glossary))) == []
    glossary = [("Object", "An ability on the stack, a card, a copy of a card, a token, a spell, or a permanent. "
                           "An emblem is an object too. See rule 109.", ["109"])]
    assert _lists(check(_edition(RULES, glossary))) == []


def test_the_glossary_lists_more_than_the_rule():
    glossary = [("Permanent", "A card, a token, or an emblem on the battlefield. See rule 110.", ["110"])]
    [finding] = _lists(check(_edition(RULES, glossary)))
    assert "the glossary entry Permanent lists emblem, which rule 110.1 does not" in finding.detail


@pytest.mark.corpus
def test_the_real_editions(corpus):
    from rulekb.ingest.parse import parse_file

    [older] = parse_file(corpus / "en" / "CR-2011-09-30.txt")
    [finding] = _lists(check(older))
    assert finding.rules == ("glossary: Object", "109.1") and "emblem" in finding.detail
    [newest] = parse_file(corpus / "en" / "CR-2026-01-16.txt")
    assert _lists(check(newest)) == []  # the entry lists emblem since 2021-04-19

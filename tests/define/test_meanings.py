"""What a keyword means, aspect by aspect (kb.define.meanings): optionality, timing and
zone of effect, read from '"X" means "..."', and the comparison between editions reports
each change, citing both rules -- and stays silent on an era's renaming ("remove from the
game" / "exile", "at end of turn" / "at the beginning of the next end step")."""

from __future__ import annotations

from rulekb.ingest.model import Edition, Rule
from rulekb.kb.compare import contradictions
from rulekb.kb.define import extract


def _edition(eid: str, rules: dict[str, str]) -> Edition:
    ed = Edition(eid, "en", eid.split("/")[1], "Invented Rules")
    ed.rules = [Rule(n, t, order=i) for i, (n, t) in enumerate(rules.items())]
    return ed


def _aspects(text: str) -> dict[str, str]:
    return {s.aspect: s.value for s in extract(text, "en") if s.aspect in ("optionality", "timing", "zone")}


def _changes(old: dict[str, str], new: dict[str, str]) -> list[tuple]:
    found = contradictions(_edition("en/2030-01-01", old), _edition("en/2030-06-01", new))
    return [(f.kind, f.concept, f.old.rule, f.new.rule, f.removed, f.added) for f in found
            if f.aspect in ("optionality", "timing", "zone")]


def test_the_aspects_of_a_meaning_are_read():
    got = _aspects('Whirling is a triggered ability. "Whirling [cost]" means "At the beginning of your upkeep, '
                   'you may pay [cost]. If you do, return this card from your graveyard to the battlefield. '
                   'It gains haste until end of turn."')
    assert got == {"optionality": "optional", "timing": "at-beginning-of-upkeep:your+until-end-of-turn",
                   "zone": "battlefield+graveyard"}
    assert _aspects('"Humming" means "This creature gets +1/+1."') == {
        "optionality": "mandatory", "timing": "", "zone": ""}
    assert _aspects("Humming is a static ability.") == {}  # no meaning spelled out


def test_a_may_that_became_mandatory_is_a_finding_citing_both_rules():
    assert _changes({"702.9a": '"Whirling" means "When this creature dies, you may draw a card."'},
                    {"702.9a": '"Whirling" means "When this creature dies, draw a card."'}) == [
        ("optionality-changed", "whirling", "702.9a", "702.9a", ("optional",), ("mandatory",))]


def test_a_duration_changed_is_a_finding():
    [f] = [f for f in contradictions(
        _edition("en/2030-01-01", {"702.9a": '"Whirling" means "Gain control of target gizmo until end of turn."'}),
        _edition("en/2030-06-01", {"702.10a": '"Whirling" means "Gain control of target gizmo for as long as '
                                              'this creature remains tapped."'}))
        if f.aspect == "timing"]
    assert (f.kind, f.old.rule, f.new.rule) == ("timing-changed", "702.9a", "702.10a")
    assert f.removed == ("until-end-of-turn",) and f.added == ("for-as-long-as",)
    assert "until end of turn" in f.old.text and "for as long as" in f.new.text
    assert f.old.statement.sentence.startswith('"Whirling" means')


def test_a_zone_changed_is_a_finding():
    assert _changes({"702.9a": '"Whirling" means "You may cast this card from your graveyard."'},
                    {"702.9a": '"Whirling" means "You may cast this card from exile."'}) == [
        ("zone-changed", "whirling", "702.9a", "702.9a", ("graveyard",), ("exile",))]


def test_an_era_renaming_is_no_change_of_meaning():
    old = {"502.9a": '"Whirling" means "When this permanent comes into play, sacrifice it unless you remove '
                     'another creature you control in play from the game. Remove it from the game at end of turn. '
                     'Play this ability only any time you could play a sorcery."'}
    new = {"702.9a": '"Whirling" means "When this permanent enters the battlefield, sacrifice it unless you exile '
                     'another creature you control. Exile it at the beginning of the next end step. '
                     'Activate only as a sorcery."'}
    assert _changes(old, new) == []
    assert _changes({"702.9a": '"Whirling" means "Put a token that\'s a copy of this creature onto the battlefield."'},
                    {"702.9a": '"Whirling" means "Create a token that\'s a copy of this creature."'}) == []


def test_a_meaning_in_parts_is_read_whole_even_when_the_archive_lost_its_quotes():
    text = ('"Fizzling N" means "This permanent comes into play with N fizz counters on it,? ?At the beginning of '
            'your upkeep, remove a fizz counter from it,? and ?When the last is removed, you may draw a card.?')
    assert _aspects(text) == {"optionality": "optional", "timing": "at-beginning-of-upkeep:your",
                              "zone": "battlefield"}
    assert _changes({"702.9a": '"Whirling" means "As long as this is encoded, you may draw."'},
                    {"702.9a": '"Whirling" means "For as long as this is encoded, you may draw."'}) == []


def test_as_long_as_is_a_duration_only_at_the_head_of_a_clause_and_not_bound_to_a_zone():
    assert _aspects('"Pairing" means "You may choose two gizmos as long as one of them is this card."')["timing"] == ""
    assert _aspects('"Hiding" means "Exile the top card. As long as that card remains exiled, you may look at it."'
                    )["timing"] == ""
    assert _aspects('"Binding" means "Exile a card. As long as it is bound, this creature gets +1/+1."'
                    )["timing"] == "for-as-long-as"

"""Players' shorthand (kb.search.shorthand) read as the rules' words: which forms are read, that
only whole words are, and that reading never fails. (How a search says so: test_search.py.)"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rulekb.kb.search.shorthand import expand
from rulekb.kb.search.understand import understand


def test_players_shorthand_is_read_as_the_rules_words():
    u = understand("Can I respond to an ETB? Do SBAs use the stack? My opp scooped, what about my p/t?", "en")
    assert ("ETB", "enters the battlefield") in u.shorthand and ("SBAs", "state-based actions") in u.shorthand
    assert ("scooped", "concede") in u.shorthand and ("p/t", "power and toughness") in u.shorthand
    assert {"enter", "battlefield", "state", "action", "oppon", "conced", "power", "tough"} <= set(u.terms)
    assert "etb" not in u.terms and u.text.startswith("Can I respond to an ETB?")  # the question as asked is kept
    # "face" is the player only in "go face", "hit face": a face-down creature is no player
    assert understand("can I swing face instead of at the planeswalker?", "en").shorthand == [
        ("swing face", "attack the player")]
    assert understand("my face-down creature went face up; can it go face down?", "en").shorthand == []
    assert understand("I chump blocked, then blinked it", "en").shorthand == [
        ("chump blocked", "block"), ("blinked", "exile and return to the battlefield")]
    # combat's shorthand, hyphenated or not; the word a reading ends with is not said twice
    double = understand("my 5/5 got double-blocked: do I put lethal damage on the first one?", "en")
    assert double.shorthand == [("double-blocked", "blocked by two creatures"), ("put lethal", "assign lethal damage")]
    assert expand("I put lethal damage on it", "en")[0] == "I assign lethal damage on it"
    assert {"lethal", "two", "assign"} <= set(double.terms)
    assert understand("they gang block my trampler", "en").shorthand == [
        ("gang block", "blocked by multiple creatures")]
    # only whole words: "happen", "mapping", "+1/+1" and "sbaxyz" hold none
    assert understand("what happens when mapping +1/+1 counters to sbaxyz?", "en").shorthand == []
    assert understand("que se passe-t-il avec l'ETB ?", "fr").shorthand == []  # English shorthand only


@given(st.text(max_size=300))
@settings(max_examples=200, deadline=None)
def test_reading_shorthand_never_fails_and_keeps_other_text(text):
    out, read = expand(text, "en")
    assert isinstance(out, str)
    if not read:
        assert out == text

"""A pair held up only by a reminder: a parenthetical that restates another rule.

Rules often end with a reminder in parentheses that points elsewhere: "A player
doesn't lose life due to mana burn while another player controls his or her turn.
(Unused mana in players' mana pools is still lost when a phase ends. See rule
300.3.)" The parenthetical restates rule 300.3; it is not what the rule says. When a
section moved and its terms changed, the rule's own words can be gone from the newer
edition (mana burn was abolished in 2009, and this rule with it) while the reminder
still matches the cited rule's relatives (the turn-based action "When each step or
phase ends, any unused mana left in a player's mana pool is lost"). Such a pair is
evidence for the cited rule's lineage, not for this one's.

:func:`release` gives up the pairs, in sections that moved, whose text similarity
comes from such a reminder: with the reminders taken out, the old rule's own text
is not alike the new one (under ``OWN_SIMILARITY``) and holds little of it in order
(under ``OWN_CONTAINED``), while the reminder is alike. The old rule is then free,
and is kept from that same partner by the later passes: it is removed unless
something else clears their thresholds.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from .normalise import CITED, tokens

OWN_SIMILARITY = 0.25  # the rule's own words, reminders left out, at most this alike ...
OWN_CONTAINED = 0.3  # ... and at most this much of them in the new rule, in order
STRONG = ("identical", "same-text", "same-terms")  # pairs on the very text are never given up
_PARENTHETICAL = re.compile(r"\([^()]*\)")


def own_text(text: str) -> str | None:
    """The text without its parenthetical remarks that cite a rule (reminders of
    another rule), or None when it has none."""
    found = [m for m in _PARENTHETICAL.finditer(text) if CITED.search(m.group(0))]
    if not found:
        return None
    for m in reversed(found):
        text = text[:m.start()] + " " + text[m.end():]
    return text


def similarity(scorer, a: list[str], b: list[str]) -> float:
    """The scorer's similarity (weighted Dice and sequence ratio, halved) of two token lists."""
    if not a or not b:
        return 0.0
    sa, sb = frozenset(a), frozenset(b)
    total = scorer.weight(sa) + scorer.weight(sb)
    dice = min(1.0, 2 * scorer.weight(sa & sb) / total) if total else 0.0
    return 0.5 * dice + 0.5 * SequenceMatcher(None, a, b, autojunk=False).ratio()


def kept(a: list[str], b: list[str]) -> float:
    """The share of tokens ``a`` found in ``b`` in the same order."""
    if not a or not b:
        return 0.0
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    return sum(block.size for block in matcher.get_matching_blocks()) / len(a)


def reminder_only(matching, i: int, j: int) -> bool:
    """Whether old rule ``i`` resembles new rule ``j`` only through its reminders."""
    text = own_text(matching.old.texts[i])
    if text is None:
        return False
    own, theirs = tokens(text), matching.new.tokens(j)
    return (similarity(matching.scorer, own, theirs) < OWN_SIMILARITY
            and kept(own, theirs) < OWN_CONTAINED)


def release(matching, moved_section) -> set[tuple[int, int]]:
    """Give up the pairs of old rules in a moved section (``moved_section(i)``) that
    only their reminders support; the given-up pairs, so that no later pass remakes them."""
    given_up = set()
    for i, e in list(matching.evidence.items()):
        if e in STRONG or not moved_section(i):
            continue
        j = matching.o2n[i]
        if reminder_only(matching, i, j):
            del matching.n2o[j]
            del matching.o2n[i]
            del matching.evidence[i]
            given_up.add((i, j))
    return given_up

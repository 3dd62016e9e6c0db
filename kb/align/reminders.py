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
from cydifflib import SequenceMatcher  # difflib's, compiled: the same blocks and ratios

from .normalise import CITED, tokens

OWN_SIMILARITY = 0.25  # the rule's own words, reminders left out, at most this alike ...
OWN_CONTAINED = 0.3  # ... and at most this much of them in the new rule, in order
LEAD_TOKENS = 6  # a first sentence shorter than this ("Flying is an evasion ability.") fits many rules
STRONG = ("identical", "same-text", "same-terms")  # pairs on the very text are never given up
_PARENTHETICAL = re.compile(r"\([^()]*\)")
_SENTENCE = re.compile(r"(?<=[.!?\"\u201d])\s+(?=[A-Z\"\u201c(])")
_POINTER = re.compile(r"(?:See|For more)\b[^.]*?\b(?:rules?|sections?)\s+\d")


def sentences(text: str) -> list[str]:
    """The sentences of a rule's text (its first paragraph: examples are not what it says)."""
    return [s for s in _SENTENCE.split(text.split("\n", 1)[0].strip()) if s]


def own_text(text: str) -> str | None:
    """The text without its pointers to other rules -- parenthetical remarks that cite a
    rule, and sentences that only point elsewhere ("See rule 503, \"Copying Objects.\"")
    -- or None when it has none."""
    found = [m for m in _PARENTHETICAL.finditer(text) if CITED.search(m.group(0))]
    for m in reversed(found):
        text = text[:m.start()] + " " + text[m.end():]
    head, _, rest = text.partition("\n")
    kept = [s for s in sentences(head) if not _POINTER.match(s)]
    if not found and len(kept) == len(sentences(head)):
        return None
    return " ".join(kept) + ("\n" + rest if rest else "")


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
            matching.unpair_old(i)
            given_up.add((i, j))
    return given_up


def _own_sentences(text: str) -> list[list[str]]:
    """The token lists of a text's own sentences (pointers to other rules left out)."""
    own = own_text(text)
    return [t for t in (tokens(s) for s in sentences(own if own is not None else text)) if t]


def pointer_sentence(text: str) -> list[str]:
    """The tokens of the sentence a rule's pointer to another rule is about: the sentence
    before a parenthetical pointer ("Instead, there are various categories of abilities.
    (See rule 402, \"Abilities.\")"), or the sentence holding the cited number, without its
    parenthetical; empty when the rule cites nothing or the pointer sentence is only a pointer
    or a reminder in parentheses."""
    found = sentences(text)
    for k, sentence in enumerate(found):
        if not CITED.search(sentence):
            continue
        if sentence.startswith("("):
            return tokens(found[k - 1]) if k > 0 and not found[k - 1].startswith("(") else []
        own = _PARENTHETICAL.sub(" ", sentence).strip()
        return [] if _POINTER.match(own) else tokens(own)
    return []


def first_tokens(matching, i: int) -> list[str]:
    """The tokens of old rule ``i``'s first sentence of its own."""
    memo = matching.__dict__.setdefault("_sentences", {})
    first = memo.get(("old", i))
    if first is None:
        found = _own_sentences(matching.old.texts[i])
        first = memo[("old", i)] = found[0] if found else []
    return first


def said(matching, words: list[str], j: int) -> float:
    """How alike the token list ``words`` is to the most alike sentence of new rule ``j``."""
    memo = matching.__dict__.setdefault("_sentences", {})
    theirs = memo.get(("new", j))
    if theirs is None:
        theirs = memo[("new", j)] = _own_sentences(matching.new.texts[j])
    return max((similarity(matching.scorer, words, s) for s in theirs), default=0.0)


def lead(matching, i: int, j: int) -> float:
    """How alike old rule ``i``'s first sentence of its own is to the most alike sentence
    of new rule ``j``: what a rule says first is what it is about, and when a rule was
    reworded and split up, the new rule that says that first sentence is its successor
    even if the whole texts share little ("A player who controls an attacking creature
    with banding chooses how combat damage is assigned ..." and the banding rule saying
    who chooses the damage assignment)."""
    first = first_tokens(matching, i)
    if len(first) < LEAD_TOKENS:
        return 0.0
    return said(matching, first, j)

"""Where a rule's concept went: glossary anchors across a renamed term, and citation structure.

The last step of the cross-section pass (:mod:`kb.align.moves`) for an old rule still free in a
section that moved. Its own text may not separate its successor from its new neighbours (old
217.8a "Permanents that phase out are placed in the phased-out zone" is about as alike to
702.23b "If a permanent phases out, its status changes to \"phased out\"" as the deleted
408.1g "Combat damage goes on the stack ..." is to 510.2), but the concept its parent defines
says where to look, on evidence its text does not carry:

- a *renamed glossary term*: a term of the older glossary that the newer one no longer has,
  and a term of the newer one the older one did not have, one's words inside the other's
  ("Phased Out" -> "Phased In, Phased Out"): the numbers the old entry cites went to those
  the new entry cites (217.8 -> 110.6, 702.23). A term that keeps its name is already an
  anchor (:func:`kb.align.signals.glossary_anchors`); a term that disappears with no heir
  ("Mana Burn", "Game Action") anchors nothing, and its rules are left to be removed;
- *citation structure*: old rule A cites X, and A's successor A' does not cite X's successor
  (X has none, or it is elsewhere): what A' cites instead is where X's subject is now treated
  (the old untap step cites 217.8 "Phased Out"; its successor cites 702.23 "Phasing").

:func:`anchored_said` merges a free old rule into the free rule, under the numbers its parent
is anchored to, that says the old rule's first sentence at least ``ANCHORED_SAID`` alike and
``ANCHORED_MARGIN`` more than any other rule there. It asks for less than a pointer alone
(:func:`kb.align.structure.pointer_said`) because the anchor is evidence of its own.
"""

from __future__ import annotations

from collections import defaultdict

from . import reminders

ANCHORED_SAID = 0.45  # the old rule's first sentence said this alike by a rule under its parent's anchor ...
ANCHORED_MARGIN = 0.05  # ... and this much more than by any other rule there
MIN_KEY_TOKENS = 2  # a one-word term ("Order") is inside too many others ("Damage Assignment Order")
MAX_CITED = 3  # a new citer citing more than this many numbers instead says little about any one


def _words(key: str) -> frozenset:
    return frozenset(key.split())


def renamed_terms(old, new) -> dict[str, list[str]]:
    """Old glossary key -> the new keys it was renamed to: keys in one glossary only, the
    shorter one's words (at least ``MIN_KEY_TOKENS``) all inside the longer one's."""
    gone = [k for k in old.glossary if k not in new.glossary]
    came = [k for k in new.glossary if k not in old.glossary]
    found: dict[str, list[str]] = {}
    for key in gone:
        a = _words(key)
        heirs = [k for k in came if min(len(a), len(_words(k))) >= MIN_KEY_TOKENS
                 and (a <= _words(k) or _words(k) <= a)]
        if heirs:
            found[key] = heirs
    return found


def _scoped(profile, numbers) -> set[str]:
    """The numbers that name a rule or section of ``profile`` (no whole chapters)."""
    return {n for n in numbers if len(n) >= 3 and (n in profile.index or len(n) == 3)}


def concept_anchors(old, new, o2n: dict[int, int]) -> dict[str, set[str]]:
    """Old rule or section number -> new numbers its subject went to (see the module docstring)."""
    anchors: dict[str, set[str]] = defaultdict(set)
    for key, heirs in renamed_terms(old, new).items():
        targets = _scoped(new, (n for h in heirs for n in new.glossary[h]))
        for number in _scoped(old, old.glossary[key]):
            anchors[number] |= targets
    for a, b in o2n.items():
        cited_new = _scoped(new, new.cites(b))
        if not cited_new or len(cited_new) > MAX_CITED:
            continue
        for number in _scoped(old, old.cites(a)):
            k = old.index.get(number)
            if k is not None and k in o2n and new.numbers[o2n[k]] in cited_new:
                continue  # the new citer still cites this rule's successor
            anchors[number] |= cited_new
    return anchors


def _under(number: str, scope: set[str]) -> bool:
    return any(number == s or number.startswith(s + ("." if len(s) == 3 else "")) for s in scope)


def anchored_said(matching, moved_section) -> None:
    """Merge an old rule still free in a section that moved into the free rule under its
    parent's concept anchors that says its first sentence (``ANCHORED_SAID``, by
    ``ANCHORED_MARGIN`` more than any other rule there): a merge link, like the pointer's
    (:func:`kb.align.structure.pointer_said`)."""
    old, new = matching.old, matching.new
    free_new = set(matching.free_new())
    if not free_new:
        return
    absorbed = matching.__dict__.setdefault("absorbed", {})
    anchors, members = None, {}
    for i in matching.free_old():
        parent = old.parent[i]
        if i in matching.headings or i in absorbed or parent is None or not moved_section(i):
            continue
        if len(reminders.first_tokens(matching, i)) < reminders.LEAD_TOKENS:
            continue
        if anchors is None:
            anchors = concept_anchors(old, new, matching.o2n)
        scope = anchors.get(old.numbers[parent])
        if not scope:
            continue
        key = frozenset(scope)
        if key not in members:
            members[key] = [j for j in range(len(new)) if _under(new.numbers[j], scope)]
        ranked = sorted(((reminders.lead(matching, i, j), j) for j in members[key]
                         if (i, j) not in matching.given_up), key=lambda r: (-r[0], r[1]))
        if not ranked or ranked[0][1] not in free_new or ranked[0][0] < ANCHORED_SAID:
            continue
        if len(ranked) == 1 or ranked[0][0] >= ranked[1][0] + ANCHORED_MARGIN:
            absorbed[i] = ranked[0][1]

"""Splits and merges: one rule's text spread over two, or two rules' text in one.

Found after the one-to-one pairing, from what it left over. A new rule with no
predecessor is the split-off part of an old rule when most of its (weighted)
words are in that old rule -- and not merely because the old rule's primary
successor already holds them too. Merges are the mirror image: an old rule with
no successor whose words went into a rule that has a predecessor already (the
2009 restructure folded "Every spell has a controller" into the rule on a
spell's owner, for instance).

Candidates are the rules around the leftover's position (the parts of a split
stay together) and the best few by rare tokens (a merge may go far).

When an old rule is split into a parent and subrules (212.9d -> 306.5, 306.5a,
306.5b), the primary successor becomes the first part in document order, so
that the lineage continues through the parent, where the rule now starts.
"""

from __future__ import annotations

from .candidates import Index
from .model import MERGED, SPLIT, Pair
from .profile import Profile
from .similarity import Scorer

MIN_TOKENS = 6  # a merged rule's size (title rules, "Banding", are not merged)
MIN_PART_TOKENS = 4  # a split-off part's ("Loyalty is a characteristic.")
MIN_CONTAINED = 0.65  # share of the part's weight found in the whole
MIN_GAIN = 0.1  # ... and not in the whole's primary partner
DUPLICATE_OF = 0.7  # share of a removed old rule found in another old rule: it restated that rule
DUPLICATE_KEPT = 0.5  # ... and share of it the other rule's successor still holds
FAR = 4  # candidates by rare tokens
SAME_SECTION = 0.15
MOVE_WITHIN = 6  # the first part of a split takes over as primary when this close before it


def _near(profile: Profile, k: int) -> list[int]:
    """The rule's parent, its neighbours, and its own subrules (a long rule split
    into a short parent and subrules: the parent's partner is among its children's)."""
    around = [profile.parent[k]] + [k + d for d in (-1, 1, -2, 2)] + profile.children(k)
    return [x for x in around if x is not None and 0 <= x < len(profile)]


def _best(part: frozenset, wholes: list[tuple[int, frozenset, frozenset, bool, bool]], scorer: Scorer,
          duplicates: bool = False):
    """The candidate holding most of ``part``; one in the section the rest of the
    part's section went to wins a near tie (a permanent's rule goes to 110, a
    spell's to 111). ``wholes``: (rule, its tokens, its partner's tokens, in that
    section, may absorb -- False for a rule paired with identical text).

    With ``duplicates`` (merges: ``part`` is an old rule left without a successor),
    an old rule that restated another old rule -- the same definition in two
    sections, as 414.1 "To counter a spell ..." beside the keyword action 501.3a
    -- merges into that rule's successor when the successor still holds most of it
    and is in the section the rest of the old rule's section went to (414.2 went to
    701.5 too): the restructure kept one of the two. Nothing is new in the whole
    beyond its partner there, so the gain check cannot apply; the section keeps
    formulaic rules out ("Second, any abilities that trigger at the beginning of the
    main phase ..." is no restatement of the upkeep's rule: its section stayed)."""
    best = None
    for k, whole, partner, same_section, absorbs in wholes:
        contained = scorer.contained(part, whole)
        rank = contained + (SAME_SECTION if same_section else 0.0)
        if best and rank <= best[0]:
            continue
        if absorbs and contained >= MIN_CONTAINED and scorer.contained(part, whole, minus=partner) >= MIN_GAIN:
            best = (rank, k, contained)
        elif (duplicates and same_section and contained >= DUPLICATE_KEPT
              and scorer.contained(part, partner) >= DUPLICATE_OF):
            best = (rank, k, contained)  # a restatement of the whole's partner, folded into it
    return best


def _level(number: str) -> bool:
    return number[-1].isalpha()  # a subrule


def _starts_at(old: Profile, new: Profile, i: int, first: int, primary: int) -> bool:
    """Whether a split old rule now starts at ``first`` rather than at its current
    primary partner: ``first`` is the primary's parent (a rule cut into a parent and
    subrules), or comes shortly before it in the same section, or has the old rule's
    level where the primary has not (410.2 -> 603.2 + 603.3a)."""
    if new.section[first] != new.section[primary]:
        return False
    if new.parent[primary] == first or primary - first <= MOVE_WITHIN:
        return True
    level = _level(old.numbers[i])
    return _level(new.numbers[first]) == level != _level(new.numbers[primary])


def find(old: Profile, new: Profile, o2n: dict[int, int], n2o: dict[int, int], scorer: Scorer,
         sections: dict[str, str], skip: set[int] = frozenset(), same: set[int] = frozenset(),
         aside: set[int] = frozenset()) -> list[Pair]:
    """Split and merge links (pairs of kind split/merged); may move a primary pair
    to the first part of a split (``o2n``/``n2o`` are updated in place). Old
    rules in ``skip`` (title rules that became headings) are never merged; rules in
    ``same`` (paired with identical text) neither split nor absorbed anything; pairs of
    the rules in ``aside`` (made on weak evidence, :mod:`kb.align.moves`) are no base for
    a split or a merge at all."""
    found: list[Pair] = []
    added = [j for j in range(len(new)) if j not in n2o and len(new.tokenset(j)) >= MIN_PART_TOKENS]
    removed = [i for i in range(len(old))
               if i not in o2n and i not in skip and len(old.tokenset(i)) >= MIN_TOKENS]
    primaries = (o2n, n2o)  # updated in place when a split moves a primary pair
    if aside:
        o2n = {i: j for i, j in o2n.items() if i not in aside}
        n2o = {j: i for i, j in o2n.items()}
    # a rule paired with identical text (``same``) gave nothing away and took nothing in
    olds = Index(scorer.idf, {i: old.tokenset(i) for i in o2n if i not in same}) if added else None
    news = Index(scorer.idf, {o2n[i]: new.tokenset(o2n[i]) for i in o2n if i not in same}) if removed else None
    # ... but an old rule restating it may have been folded into its successor (see _best)
    kept = Index(scorer.idf, {o2n[i]: new.tokenset(o2n[i]) for i in o2n if i in same}) if removed else None
    parts: dict[int, list[int]] = {}
    for j in added:
        part = new.tokenset(j)
        near = {n2o[k] for k in _near(new, j) if k in n2o and n2o[k] not in same}
        near.update(olds.candidates(part, FAR))
        wholes = [(i, old.tokenset(i), new.tokenset(o2n[i]), sections.get(old.section[i]) == new.section[j], True)
                  for i in near]
        best = _best(part, wholes, scorer)
        if best:
            parts.setdefault(best[1], []).append(j)
            found.append(Pair(old.numbers[best[1]], new.numbers[j], SPLIT, best[2], "split"))
    for i in removed:
        part = old.tokenset(i)
        near = {o2n[k] for k in _near(old, i) if k in o2n and k not in same}
        near.update(news.candidates(part, FAR))
        wholes = [(j, new.tokenset(j), old.tokenset(n2o[j]), sections.get(old.section[i]) == new.section[j], True)
                  for j in near]
        restated = {o2n[k] for k in _near(old, i) if k in o2n and k in same} | set(kept.candidates(part, FAR))
        wholes += [(j, new.tokenset(j), old.tokenset(n2o[j]), sections.get(old.section[i]) == new.section[j], False)
                   for j in restated - near]
        best = _best(part, wholes, scorer, duplicates=True)
        if best:
            found.append(Pair(old.numbers[i], new.numbers[best[1]], MERGED, best[2], "merge"))
    o2n, n2o = primaries
    for i, js in parts.items():
        first, primary = min(js), o2n[i]
        if first < primary and _starts_at(old, new, i, first, primary):
            previous = o2n[i]
            del n2o[previous]
            o2n[i], n2o[first] = first, i
            found = [p for p in found if not (p.kind == SPLIT and p.new == new.numbers[first])]
            share = scorer.contained(new.tokenset(previous), old.tokenset(i))
            found.append(Pair(old.numbers[i], new.numbers[previous], SPLIT, share, "split"))
    return found

"""Where the structure around a rule says it went: the last steps of the cross-section pass
(:mod:`kb.align.moves`) for the old rules it leaves free in a section that moved.

- :func:`pointer_said`: a rule that cites another says where its subject is treated; the free
  rule there that says the sentence the pointer is about gets a merge link from it;
- :func:`children_went`: a rule whose subrules all went under one new rule went to that rule;
- :func:`block`: in the pass's rounds, a rule without a parent whose section dissolved into the
  subrules of a few new rules is sought first among them.

``moved_section(i)`` says whether old rule ``i``'s section went, as a whole, to a section of
another number (:func:`kb.align.moves._moved_section`).
"""

from __future__ import annotations

from . import reminders

POINTER_SAID = 0.55  # a free rule where an old rule points, saying the sentence the pointer is about this alike ...
POINTER_MARGIN = 0.15  # ... and this much more alike than any other rule there
POINTER_TOKENS = 4  # a shorter pointer sentence fits many rules
BLOCK = 0.12  # a left-over rule's candidate under a rule its section-mates went under (like the parent bonus)
CHILDREN_SHARE = 0.75  # an old rule goes where at least this share of its subrules went, all under one rule


def block(matching, i: int, j: int) -> float:
    """``BLOCK`` when old rule ``i`` has no parent and new rule ``j``'s parent is the parent of
    a rule that one of ``i``'s section-mates without parent went to: a section dissolved into a
    few new rules' subrules, and its left-over rule is sought first among them (old 500.1,
    defining the restrictions and requirements of attacking and blocking, whose section-mates went
    to the subrules of 508.1 and 509.1: 508.1c). Only a free rule's candidates get it: a pair made
    on position already counts position."""
    old, new = matching.old, matching.new
    if old.parent[i] is not None or new.parent[j] is None:
        return 0.0
    memo = matching.__dict__.setdefault("_block_parents", {})
    key = (old.section[i], len(matching.o2n))
    parents = memo.get(key)
    if parents is None:
        parents = memo[key] = {new.parent[j2] for k, j2 in matching.o2n.items()
                               if old.section[k] == old.section[i] and old.parent[k] is None
                               and new.parent[j2] is not None}
    return BLOCK if new.parent[j] in parents else 0.0


def _in_scope(number: str, pointed: set[str]) -> bool:
    """Whether new rule ``number`` is one of the ``pointed`` rules or sections, or under one."""
    return any(number == p or number.startswith(p + "." if len(p) == 3 else p) for p in pointed)


def pointer_said(matching, context, moved_section) -> None:
    """Merge an old rule still free in a section that moved into the free rule, among those
    its pointer names (in the new numbering, with their subrules), that says the sentence the
    pointer is about, at least ``POINTER_SAID`` alike and ``POINTER_MARGIN`` more than any
    other rule there: a rule says where its subject is treated, and a sentence of it that moved
    there keeps its words even when the rest of the rule was dropped ("Abilities don't have
    card types ... Instead, there are various categories of abilities. (See rule 402 ...)" and
    the abilities section's "There are four general categories of abilities"). One sentence is
    evidence of where the old rule went, not of what the new rule came from: a merge link (see
    :func:`kb.align.moves.merged`), which leaves the new rule's own lineage (a split of the old abilities rule
    on categories, there) to :mod:`kb.align.splits`."""
    old, new = matching.old, matching.new
    free_new = set(matching.free_new())
    absorbed = matching.__dict__.setdefault("absorbed", {})
    for i in matching.free_old():
        if i in matching.headings or not moved_section(i):
            continue
        words = reminders.pointer_sentence(old.texts[i])
        pointed = context.mapped_cites(i) if len(words) >= POINTER_TOKENS else set()
        if not pointed:
            continue
        ranked = sorted(((reminders.said(matching, words, j), j) for j in range(len(new))
                         if _in_scope(new.numbers[j], pointed) and (i, j) not in matching.given_up),
                        key=lambda r: (-r[0], r[1]))
        if not ranked or ranked[0][1] not in free_new or ranked[0][0] < POINTER_SAID:
            continue
        if len(ranked) == 1 or ranked[0][0] >= ranked[1][0] + POINTER_MARGIN:
            absorbed[i] = ranked[0][1]


def children_went(matching, moved_section, min_tokens: int) -> None:
    """An old rule still free in a section that moved, whose subrules went (at least
    ``CHILDREN_SHARE`` of them, two or more) to the subrules of one new rule in another
    section, went to that rule: paired when it is free, else merged into it (see
    :func:`kb.align.moves.merged`). The rule that introduces a list of cases is the rule that now
    introduces them ("Some abilities trigger when creatures block or are blocked ...",
    whose five cases are now the subrules of the declare-blockers step's rule on such
    triggers), even when it shares few words with it."""
    old, new = matching.old, matching.new
    absorbed = matching.__dict__.setdefault("absorbed", {})
    edges = []
    for i in matching.free_old():
        if i in matching.headings or i in absorbed or len(old.tokenset(i)) < min_tokens \
                or not moved_section(i):
            continue
        children = old.children(i)
        went = [new.parent[matching.o2n[k]] for k in children if k in matching.o2n]
        if len(went) < 2 or went[0] is None or any(p != went[0] for p in went) \
                or len(went) < CHILDREN_SHARE * len(children):
            continue
        j = went[0]
        if new.section[j] == old.section[i] or (i, j) in matching.given_up:
            continue
        if j in matching.n2o:
            absorbed[i] = j
        else:
            edges.append((1.0, 1.0, -i, -j))
    matching._greedy(edges, "moved")

"""Rules that left their section: a last look over the whole newer edition.

The earlier passes look for a rule's successor where the evidence points: rare
words shared, the section most of its neighbours went to, its parent's successor,
the gap between its neighbours' successors. A rule that left its old section for a
different one *and* changed its terms (the 2009 restructure moved parts of "Parts
of a card" and "Permanents" into Game Concepts, and rewrote combat damage and the
triggered abilities) can fall through all of them: its neighbourhood offers no
confident match, and it ends up called removed.

For each old rule still without a partner whose section went, as a whole, to a
section of another number (its neighbourhood moved; an ordinary update keeps its
sections), this pass takes candidates from the whole newer edition -- every rule still
free for a successor, every rule whose text changed for a merge (the rare-token index
over them, plus the structural candidates and glossary anchors of
:class:`kb.align.signals.Context`) -- and weighs them on:

- the text similarity after the terminology map of :mod:`kb.align.normalise`
  ("in play" / "on the battlefield", "play" / "cast", "removed from the game" /
  "exiled", "comes into play" / "enters the battlefield"), so that renamed terms
  count as the same word;
- how much of the old rule the new one holds, in order (a rule whose successor
  grew: "A blocked creature will assign combat damage, divided as its controller
  chooses, ..." is nearly all, in order, inside the longer new rule that replaced it;
  words scattered over a long rule do not count);
- the context bonus: glossary anchors, cited numbers that follow the renumbering,
  parent, section and neighbours.

Two refinements for rules whose terms all changed:

- a pair the position-based passes made (the gap between two pairs, the subrules of the
  parent's successor) in a section that moved is given up when a rule still free anywhere
  is better evidence for the old rule (``REPAIR_MIN``, ``REPAIR_MARGIN``): "Spells that put
  mana into a player's mana pool aren't mana abilities" had been put in the gap next to the
  new mana-ability definition, while the rule saying "A spell can never be a mana ability"
  was left free;
- a candidate below ``MOVE_MIN`` is still taken when it stands alone: the best of every
  rule of the newer edition (those with a predecessor too: a rule absorbed by its better
  match is not moved to a free look-alike) and at least ``LONE_RATIO`` times the evidence of
  the next candidate, with similarity and either much
  of the old rule in order (``LONE_CONTAINED``) or a higher similarity
  (``LONE_SIMILARITY``); a long rule whose evidence is mostly the section bonus does not
  qualify.

And three that look at what the old rule itself says (:mod:`kb.align.reminders`):

- a pair only the old rule's reminders of another rule support ("(... See rule 300.3.)",
  "See rule 503, ...") is given up first, and no later pass remakes it;
- a position-only pair's repair also weighs the old rule's first sentence found, sentence
  by sentence, in the free candidate (``LEAD_WEIGHT``);
- a position-only pair gives way to a merge when the old rule's first sentence is, by
  ``ABSORB_MARGIN`` more than anywhere else, what a rule paired on its text says
  (:func:`_absorbed`).

The free rules are paired in up to ``ROUNDS`` rounds: rules move in blocks, and a round's
pairs put their neighbours' successors among the next round's structural candidates. Last,
a rule whose pair only its pointer supported goes, if still free, to the free rule of the
section it points to that says its first sentence (:func:`_pointed`).

Three last steps read the structure around a rule still free: the sentence its pointer to
another rule is about, said by a free rule where it points (:func:`kb.align.structure.pointer_said`, a merge
link), its first sentence said by a free rule where its parent's concept went, by a renamed glossary
term or the citations of its citers' successors (:func:`kb.align.concepts.anchored_said`, a merge
link), and the one new rule all its subrules went under (:func:`kb.align.structure.children_went`);
in the rounds, a rule without a parent is sought first under the new rules its section-mates went
under (:func:`kb.align.structure.block`).

Only a move counts: when the best candidate is in the section of the old rule's
own number, the rule is left as the earlier passes left it. The best candidate is
paired only when it is free, its evidence clears
``MOVE_MIN`` (calibrated on the tuning half of the 2009 gold sets, see
``kb/bench/gold/alignment_gold_2009_moves.tsv``), and the text itself supports it
(similarity or containment, not the context bonus alone). A candidate already
paired is first left to :mod:`kb.align.splits`, which decides whether the old rule
was merged into it; an old rule that splits leave without any link is then merged
into its best candidate when the evidence clears the higher ``MERGE_MIN``, the text
is alike and the candidate holds much of it in order ("Characteristic-defining
abilities ... are simply read and followed" folded into the stack rule on static
abilities). Otherwise the rule stays removed: "removed" is what is left when no
candidate clears a threshold.
"""

from __future__ import annotations

from cydifflib import SequenceMatcher  # difflib's, compiled: the same blocks and ratios

from . import agree, concepts, reminders, structure
from .candidates import Index

MOVE_MIN = 0.56  # evidence (max(similarity, CONTAIN_WEIGHT * containment) + context bonus)
MIN_SIMILARITY = 0.3  # text support: similarity at least this ...
MIN_CONTAINED = 0.7  # ... or this much of the old rule inside the new one, in order
CONTAIN_WEIGHT = 0.8  # containment counts a little less than similarity
MIN_TOKENS = 8  # shorter old rules ("Unpayable costs can't be paid.") are contained anywhere
TOP_K = 12  # candidates by rare tokens, over the whole newer edition
MERGE_MIN = 0.66  # evidence to merge a left-over old rule into a rule that has a predecessor
MERGE_CONTAINED = 0.55  # ... holding this much of it, in order
MERGE_MIN_TOKENS = 12  # a short formulaic rule ("Substance is a static ability with no effect.") fits many
LONE_MIN = 0.4  # evidence for a candidate that stands alone: below MOVE_MIN, but ...
LONE_RATIO = 1.5  # ... at least this many times the evidence of the next candidate, ...
LONE_CONTAINED = 0.45  # ... holding this much of the old rule in order (and similarity MIN_SIMILARITY),
LONE_SIMILARITY = 0.4  # ... or with at least this similarity
WEAK_PASSES = ("order", "family")  # passes that pair on position more than on text
REPAIR_MIN = 0.5  # a weak pair is given up for a free candidate with at least this evidence ...
REPAIR_MARGIN = 0.02  # ... and this much more than the pair it replaces
ABSORB_LEAD = 0.6  # a weak pair gives way to a merge when the old rule's first sentence is this alike ...
ABSORB_MARGIN = 0.1  # ... and this much more alike than anywhere else
POINTED_LEAD = 0.4  # a free rule of the section an old rule points to, saying its first sentence this alike
ROUNDS = 3  # rounds of the free rules' pairing, each seeing the pairs of the one before
LEAD_WEIGHT = 0.75  # a weak pair's repair: the old rule's first sentence found in the new rule (like containment)


def _best(matching, context, i: int, pool: tuple[Index, frozenset], floor: float = MOVE_MIN, leads: bool = False,
          block: bool = False):
    """(evidence, new rule, similarity, containment) of old rule ``i``'s best candidate in
    ``pool``, or None when the best is in a section of the same number (no move: the
    earlier passes and :mod:`kb.align.splits` have judged the rule's own section) or no
    candidate's evidence can reach ``floor``."""
    old, new, scorer = matching.old, matching.new, matching.scorer
    part = old.tokenset(i)
    index, members = pool
    best = None
    words = old.tokens(i)
    given_up = getattr(matching, "given_up", ())
    for j in set(index.candidates(part, TOP_K)) | set(context.structural_candidates(i)):
        if j not in members or (i, j) in given_up:
            continue
        sim = scorer.similarity(i, j)
        bonus = context.bonus(i, j) + (structure.block(matching, i, j) if block else 0.0)
        first = LEAD_WEIGHT * reminders.lead(matching, i, j) if leads else 0.0
        # the in-order share is at most the share of old tokens found at all: skip the
        # sequence matching when even that cannot reach the threshold or the best so far
        there = new.tokenset(j)
        bound = max(sim, first, CONTAIN_WEIGHT * sum(w in there for w in words) / max(len(words), 1)) + bonus
        if bound < floor or (best is not None and bound < best[0]):
            continue
        held = _kept(words, new.tokens(j))
        evidence = max(sim, CONTAIN_WEIGHT * held, first) + bonus
        if best is None or (evidence, -j) > (best[0], -best[1]):
            best = (evidence, j, sim, held)
    if best is not None and new.section[best[1]] == old.section[i]:
        return None
    return best


def _ranked(matching, context, i: int, pool: tuple[Index, frozenset]) -> list[tuple[float, int, float, float]]:
    """Every candidate of old rule ``i`` in ``pool`` as (evidence, new rule, similarity,
    containment), best first: unlike :func:`_best`, the runner-up is known, so that a
    candidate standing far above all others can be told from one among many alike."""
    old, new, scorer = matching.old, matching.new, matching.scorer
    index, members = pool
    words = old.tokens(i)
    ranked = []
    for j in set(index.candidates(old.tokenset(i), TOP_K)) | set(context.structural_candidates(i)):
        if j in members:
            sim, held = scorer.similarity(i, j), _kept(words, new.tokens(j))
            ranked.append((max(sim, CONTAIN_WEIGHT * held) + context.bonus(i, j), j, sim, held))
    ranked.sort(key=lambda r: (-r[0], r[1]))
    return ranked


def _evidence(matching, context, i: int, j: int, leads: bool = False) -> float:
    """The evidence of the pair (i, j) on this pass's scale."""
    sim = matching.scorer.similarity(i, j)
    held = _kept(matching.old.tokens(i), matching.new.tokens(j))
    first = LEAD_WEIGHT * reminders.lead(matching, i, j) if leads else 0.0
    return max(sim, CONTAIN_WEIGHT * held, first) + context.bonus(i, j)


def _kept(a: list[str], b: list[str]) -> float:
    """The share of old tokens ``a`` found in new tokens ``b`` in the same order (the
    matching blocks of difflib): a rule that grew keeps its words in order; words of
    the old rule scattered over a long new one do not count."""
    if not a or not b:
        return 0.0
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    return sum(block.size for block in matcher.get_matching_blocks()) / len(a)


def _moved_section(matching, context, i: int) -> bool:
    """Whether old rule ``i``'s section went, as a whole, to a section of another number
    (the 2009 restructure: 310 -> 510, 404 -> 603): its rules are expected elsewhere."""
    section = matching.old.section[i]
    target = context.sections.get(section)
    return target is not None and target != section


def _pool(matching, rules) -> tuple[Index, frozenset]:
    """New rules to look among: their rare-token index and the set of them."""
    rules = list(rules)
    matching.new.prepare(rules)
    return Index(matching.scorer.idf, {j: matching.new.tokenset(j) for j in rules}), frozenset(rules)


def merged(matching, context, secondary: list) -> list:
    """Merge links (kind merged, evidence ``moved``) for the old rules still without a
    successor or any link after :mod:`kb.align.splits`, and for those :func:`_absorbed`
    found folded into a rule (their links from :mod:`kb.align.splits`, made on the
    whole text, give way: ``secondary`` is changed in place)."""
    from .model import MERGED, Pair

    old, new = matching.old, matching.new
    absorbed = {i: j for i, j in getattr(matching, "absorbed", {}).items() if i not in matching.o2n}
    found = [Pair(old.numbers[i], new.numbers[j], MERGED, reminders.lead(matching, i, j), "moved")
             for i, j in sorted(absorbed.items())]
    numbers = {old.numbers[i] for i in absorbed}
    secondary[:] = [p for p in secondary if p.old not in numbers]
    linked = {p.old for p in secondary} | numbers
    free = [i for i in matching.free_old() if i not in matching.headings and old.numbers[i] not in linked
            and len(old.tokens(i)) >= MERGE_MIN_TOKENS and _moved_section(matching, context, i)]
    if free:
        # a rule paired with its very text (identical, or equal up to terms) absorbed nothing, nor one
        # this pass paired on weak evidence
        absorbing = _pool(matching, (j for j, i in matching.n2o.items() if matching.evidence.get(i)
                                     not in ("identical", "same-text", "same-terms", "moved")))
        for i in free:
            best = _best(matching, context, i, absorbing)
            if best is None:
                continue
            evidence, j, sim, held = best
            if evidence >= MERGE_MIN and held >= MERGE_CONTAINED and sim >= MIN_SIMILARITY:
                found.append(Pair(old.numbers[i], new.numbers[j], MERGED, held, "moved"))
    if agree.restructure(context.sections):
        linked |= {p.old for p in found}
        everything = _everything(matching)
        for i, j in sorted(agree.agreed(matching, lambda i: _ranked(matching, context, i, everything),
                                        lambda i: len(old.tokenset(i)) >= MIN_TOKENS
                                        and _moved_section(matching, context, i), linked).items()):
            found.append(Pair(old.numbers[i], new.numbers[j], MERGED, matching.scorer.similarity(i, j), "moved"))
    return found


def moved(matching, context) -> None:
    """Pair the old rules left free with a free rule anywhere in the newer edition,
    when the evidence clears the threshold (evidence ``moved``)."""
    matching.given_up = reminders.release(matching, lambda i: _moved_section(matching, context, i))
    if matching.free_new():
        _repair(matching, context)
    _absorbed(matching, context)
    # rules move in blocks: a round's pairs make their neighbours' successors the next round's
    # candidates ("A blocking creature will assign combat damage ..." once "A blocked creature
    # ..." has found 510.1c: 510.1d, which its rare words alone do not reach); a round looks
    # again only at the rules whose neighbourhood or best candidate the round before changed
    index, todo = None, None
    for _ in range(ROUNDS):
        vacant = matching.free_new()
        if not vacant:
            break
        if index is None:
            index = _pool(matching, vacant)[0]  # later rounds' free rules are among these
        todo = _round(matching, context, (index, frozenset(vacant)), todo)
        if not todo:
            break
    if matching.free_new():
        _pointed(matching, context)
        structure.pointer_said(matching, context, lambda i: _moved_section(matching, context, i))
        concepts.anchored_said(matching, lambda i: _moved_section(matching, context, i))
    structure.children_went(matching, lambda i: _moved_section(matching, context, i), MIN_TOKENS)


def _round(matching, context, vacant: tuple[Index, frozenset], todo: set[int] | None) -> set[int]:
    """One round of :func:`moved` over the old rules ``todo`` (None: every one): the old
    rules worth another look -- next to, or under, a rule it paired, or whose best
    candidate it gave to another."""
    old = matching.old
    free = [i for i in matching.free_old() if (todo is None or i in todo) and i not in matching.headings
            and len(old.tokenset(i)) >= MIN_TOKENS and _moved_section(matching, context, i)]
    if not free:
        return set()
    everything = None
    edges = []
    for i in free:
        best = _best(matching, context, i, vacant, LONE_MIN, block=True)
        if best is None:
            continue
        evidence, j, sim, held = best
        if evidence >= MOVE_MIN and (sim >= MIN_SIMILARITY or held >= MIN_CONTAINED):
            edges.append((evidence, sim, -i, -j))
        elif evidence >= LONE_MIN and sim >= MIN_SIMILARITY and (held >= LONE_CONTAINED or sim >= LONE_SIMILARITY):
            everything = everything or _everything(matching)
            if _alone(matching, context, i, everything, j):
                edges.append((evidence, sim, -i, -j))
    matching._greedy(edges, "moved")
    paired = {-mi for _, _, mi, _ in edges if -mi in matching.o2n}
    if not paired:
        return set()
    again = {-mi for _, _, mi, _ in edges} - paired  # their best went to another
    for i in paired:
        again.update(k for k in (old.prev(i), old.next(i)) if k is not None)
        again.update(old.children(i))
    return again


def _everything(matching) -> tuple[Index, frozenset]:
    """Every rule of the newer edition, indexed once per alignment."""
    found = matching.__dict__.get("_moves_everything")
    if found is None:
        found = matching.__dict__["_moves_everything"] = _pool(matching, range(len(matching.new)))
    return found


def _alone(matching, context, i: int, everything: tuple[Index, frozenset], j: int) -> bool:
    """Whether ``j`` is old rule ``i``'s only plausible successor in the whole newer
    edition (``everything``: rules with a predecessor too): the best of all, with evidence
    at least ``LONE_RATIO`` times that of the next candidate. A rule whose terms all changed
    keeps few words, but when one new rule holds far more of them than any other
    ("abilities that produce mana but trigger from other events do use the stack" and the
    mana-ability rule saying so), that rule is where it went. When a rule that already has
    a predecessor is the better match, the old rule was more likely absorbed by it ("Evasion
    abilities are cumulative" into the evasion rule that now ends so) than moved to a free
    look-alike."""
    ranked = _ranked(matching, context, i, everything)
    if not ranked or ranked[0][1] != j:
        return False
    return len(ranked) == 1 or ranked[0][0] >= LONE_RATIO * ranked[1][0]


def _repair(matching, context) -> None:
    """Give up a pair the position-based passes made (the gap between neighbours'
    successors, the parent's successor's subrules) in a section that moved, when a rule
    still free anywhere in the newer edition is better evidence for the old rule: in a
    moved section the old neighbourhood is the least reliable guide, and a rule left
    free is often exactly the one the weak pair stood in for."""
    old = matching.old
    weak = [i for i, e in matching.evidence.items() if e in WEAK_PASSES and len(old.tokenset(i)) >= MIN_TOKENS
            and _moved_section(matching, context, i)]
    if not weak:
        return
    vacant = _pool(matching, matching.free_new())
    edges = []
    for i in weak:
        best = _best(matching, context, i, vacant, REPAIR_MIN, leads=True)
        if best is None:
            continue
        evidence, j, sim, held = best
        if evidence >= REPAIR_MIN and evidence >= _evidence(matching, context, i, matching.o2n[i], leads=True) \
                + REPAIR_MARGIN:
            edges.append((evidence, sim, -i, -j))
    # best first, one old rule per free rule: an old rule whose better candidate another takes
    # keeps the pair it had
    taken = set()
    for evidence, sim, mi, mj in sorted(edges, reverse=True):
        if mj in taken:
            continue
        taken.add(mj)
        matching.unpair_old(-mi)
        matching.pair(-mi, -mj, "moved")


def _absorbed(matching, context) -> None:
    """Give up a pair the position-based passes made in a section that moved when the
    old rule's first sentence is, far more than anywhere else, what a rule that already
    has a predecessor says: the old rule was folded into that rule ("A spell is a card,
    or copy of a spell or card, that's on the stack" into "A spell is a card on the
    stack ..."), and :func:`merged` links it there (``matching.absorbed``)."""
    old, new = matching.old, matching.new
    weak = [i for i, e in matching.evidence.items() if e in WEAK_PASSES and len(old.tokenset(i)) >= MIN_TOKENS
            and _moved_section(matching, context, i)]
    matching.absorbed = {}
    if not weak:
        return
    everything = _everything(matching)
    for i in weak:
        candidates = _lead_candidates(matching, context, i, everything)
        ranked = sorted(((reminders.lead(matching, i, j), j) for j in candidates), key=lambda r: (-r[0], r[1]))
        if not ranked:
            continue
        lead, j = ranked[0]
        runner_up = ranked[1][0] if len(ranked) > 1 else 0.0
        current = reminders.lead(matching, i, matching.o2n[i])
        if (j in matching.n2o and matching.evidence.get(matching.n2o[j]) not in WEAK_PASSES
                and new.section[j] != old.section[i] and lead >= ABSORB_LEAD
                and lead >= max(runner_up, current) + ABSORB_MARGIN):
            matching.given_up.add((i, matching.o2n[i]))
            matching.unpair_old(i)
            matching.absorbed[i] = j


def _lead_candidates(matching, context, i: int, everything: tuple[Index, frozenset]) -> set[int]:
    """New rules that may say old rule ``i``'s first sentence: by its rare tokens and structure."""
    index, _ = everything
    first = reminders.first_tokens(matching, i)
    return set(index.candidates(frozenset(first), TOP_K)) | set(index.candidates(matching.old.tokenset(i), TOP_K)) \
        | set(context.structural_candidates(i))


def _pointed(matching, context) -> None:
    """Pair an old rule whose pair only its pointer to another rule supported (given up by
    :func:`kb.align.reminders.release`) and that is still free with the free rule of the
    section it points to (in the new numbering) that says its first sentence, at least
    ``POINTED_LEAD`` alike: a rule that points to where its subject is treated often moved
    there ("A copy of an object copies that object's mana cost. See rule 503, \\"Copying
    Objects.\\"" into the copy rules' 706.2a, not the layer rule sharing only its pointer)."""
    old, new = matching.old, matching.new
    free_new = set(matching.free_new())
    edges = []
    for i in sorted({i for i, _ in matching.given_up}):
        if i in matching.o2n:
            continue
        sections = {n[:3] for n in context.mapped_cites(i)} - {old.section[i]}
        if not sections:
            continue
        ranked = sorted(((reminders.lead(matching, i, j), j) for j in free_new if new.section[j] in sections
                         and (i, j) not in matching.given_up), key=lambda r: (-r[0], r[1]))
        if ranked and ranked[0][0] >= POINTED_LEAD:
            edges.append((ranked[0][0], ranked[0][0], -i, -ranked[0][1]))
    matching._greedy(edges, "moved")


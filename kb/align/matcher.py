"""Align two editions: run the passes, then say what each pair is.

:func:`align` pairs every rule of the older edition with its successor in the
newer one (see :mod:`kb.align.passes` for how); this module turns the pairing
into :class:`~kb.align.model.Pair` rows: unchanged, renumbered, modified (with
what changed: only the cited numbers, typography, terminology, or the text),
added, removed (or now only a section heading), and split/merged links.
"""

from __future__ import annotations

from rulekb.ingest.model import Edition

from . import moves, splits
from .model import (ADDED, MODIFIED, REFERENCES, REMOVED, RENUMBERED, TERMINOLOGY, TEXT, TYPOGRAPHY,
                    UNCHANGED, Alignment, Pair)
from .normalise import masked, plain
from .passes import Matching
from .profile import Profile, build
from .signals import Context, glossary_anchors, section_votes
from .similarity import Scorer


def _detail(old: Profile, new: Profile, i: int, j: int, o2n: dict[int, int]) -> str:
    """What changed in a modified pair, from the least to the most."""
    a, b = old.texts[i], new.texts[j]
    if masked(a) == masked(b):
        mapped = []
        for number in old.cites(i):
            k = old.index.get(number)
            mapped.append(new.numbers[o2n[k]] if k is not None and k in o2n else number)
        sections = section_votes(old, new, o2n) if any(len(n) == 3 for n in mapped) else {}
        mapped = [sections.get(n, n) if len(n) == 3 else n for n in mapped]
        return REFERENCES if mapped == new.cites(j) else TEXT
    if " ".join(masked(plain(a)).split()) == " ".join(masked(plain(b)).split()):
        return TYPOGRAPHY
    if old.key(i) == new.key(j):
        return TERMINOLOGY
    return TEXT


def align_profiles(old: Profile, new: Profile, moves_pass: bool = True) -> Alignment:
    """Align two prepared editions (see :func:`align`). ``moves_pass=False`` leaves out the
    last look over the whole newer edition (:mod:`kb.align.moves`), for measuring its cost."""
    m = Matching(old, new)
    m.identical()
    m.same_text("text")
    m.became_headings()
    m.same_text("keys")
    if m.free_old() and m.free_new():
        m.scorer = Scorer(old, new)
        context = Context(old, new, m.o2n, glossary_anchors(old, new))
        m.scored(context)
        m.anchored(context)
        m.contained()
        context.refresh()
        m.family(context)
        m.order(context)
        context.refresh()
        if moves_pass:
            moves.moved(m, context)
    else:
        context = None
    sections = section_votes(old, new, m.o2n)
    secondary = splits.find(old, new, m.o2n, m.n2o, m.scorer, sections, set(m.headings),
                            {i for i, e in m.evidence.items() if e in ("identical", "same-text")},
                            {i for i, e in m.evidence.items() if e == "moved"}) if m.scorer else []
    if context is not None and moves_pass:
        context.refresh()
        secondary += moves.merged(m, context, secondary)
    pairs: list[Pair] = []
    for i in range(len(old)):
        j = m.o2n.get(i)
        if j is None:
            heading = m.headings.get(i)
            pairs.append(Pair(old.numbers[i], None, REMOVED, 0.0, "heading" if heading else "",
                              f"heading {heading}" if heading else ""))
            continue
        a, b = old.numbers[i], new.numbers[j]
        if old.texts[i] == new.texts[j]:
            pairs.append(Pair(a, b, UNCHANGED if a == b else RENUMBERED, 1.0, m.evidence[i]))
        else:
            sim = m.scorer.similarity(i, j) if m.scorer else 1.0
            pairs.append(Pair(a, b, MODIFIED, sim, m.evidence[i], _detail(old, new, i, j, m.o2n)))
    for j in m.free_new():
        pairs.append(Pair(None, new.numbers[j], ADDED, 0.0))
    pairs.extend(secondary)
    return Alignment(old.id, new.id, pairs, sections)


def align(old: Edition, new: Edition, moves_pass: bool = True) -> Alignment:
    """Pair each rule of ``old`` with its successor in ``new``, across renumbering.

    Every old rule gets one primary pair (unchanged, renumbered, modified) or is
    removed; every new rule without a predecessor is added; split and merged
    links come on top. See the module docstring for the passes."""
    return align_profiles(build(old), build(new), moves_pass)

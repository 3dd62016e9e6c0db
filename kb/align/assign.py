"""One-to-one assignment of scored candidate pairs, best first.

Every aligner here ends the same way: candidate pairs (a rule of one side, a rule
of the other) with a score, taken strongest first, each rule used once. The
edition passes (:mod:`kb.align.passes`) and the French alignment
(:mod:`kb.translate.align`) both go through :func:`best_first`; what differs is
only how they find candidates and score them.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable


def best_first(edges: Iterable[tuple[tuple, Hashable, Hashable]], taken_left: Collection = (),
               taken_right: Collection = ()) -> list[tuple[Hashable, Hashable]]:
    """The pairs to take from ``edges`` -- ``(key, left, right)``, the smallest key first
    (negate scores: ``(-score, -similarity)``), then the smaller left, then the smaller
    right -- skipping any whose left or right is taken already (``taken_*``, or by an
    earlier edge). Deterministic: ties never depend on the edges' order."""
    used_left, used_right = set(taken_left), set(taken_right)
    chosen = []
    for _key, left, right in sorted(edges, key=lambda edge: (edge[0], edge[1], edge[2])):
        if left not in used_left and right not in used_right:
            chosen.append((left, right))
            used_left.add(left)
            used_right.add(right)
    return chosen

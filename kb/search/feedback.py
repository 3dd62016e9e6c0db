"""The results after the first five, ranked again by what the first results mean.

A card-free question is most often settled by one rule, and the fusion puts it in the first
five; when it does not, the settling rule is most often a neighbour *in meaning* of those first
results (the same matter, other words) rather than of the question's own words. So the meaning
arm is asked once more, with the question's vector moved towards the first results' vectors
(pseudo-relevance feedback, Rocchio's: ``q + FEEDBACK_BETA * mean(first results)``), and that
ranking is one more list of the fusion (:data:`kb.search.rank.RRF_FEEDBACK`) for the results
*after* the first :data:`kb.search.rank.FEEDBACK_KEEP` only: the first five stay as they were
(with the list for every position, recall@5 fell on every tuning part; measured in
docs/search.md). Questions naming a card have their own further lists (what the cards bring,
what the first results cite) and do not take this one: on the scenarios' tuning parts it moved
as many questions out of the first ten as into them.
"""

from __future__ import annotations

from . import rank


def ranked(arm, vector, ordered: list[str], docs: dict, edition: str | None, lang: str,
           grouped: bool, depth: int) -> dict[str, int]:
    """unit -> rank by meaning of the question moved towards the first :data:`kb.search.rank.FEEDBACK_FROM`
    results of ``ordered`` (the fused ranking's units, ``docs`` their documents, ``arm`` the dense arm)."""
    import numpy as np

    if rank.RRF_FEEDBACK <= 0 or rank.FEEDBACK_FROM <= 0:
        return {}
    rows = arm.row_of()
    first = [rows[docs[k]["key"][0]] for k in ordered[:rank.FEEDBACK_FROM] if k in docs and docs[k]["key"][0] in rows]
    if not first:
        return {}
    moved = vector + rank.FEEDBACK_BETA * np.mean(np.asarray(arm.vectors[first], dtype=np.float32), axis=0)
    moved = moved / np.linalg.norm(moved)
    out: dict[str, int] = {}
    for row, _ in arm.nearest(moved, None if grouped else edition, lang, depth * (4 if grouped else 1)):
        key = str(arm.groups[row]) if grouped else str(arm.keys[row])
        if key not in out:
            out[key] = len(out) + 1
            if len(out) >= depth:
                break
    return out


def reorder(scored: dict[str, float], ordered: list[str], feedback: dict[str, int]) -> list[str]:
    """``ordered`` with its first :data:`kb.search.rank.FEEDBACK_KEEP` kept and the rest ranked by their
    fused score plus the feedback list's share; ``scored`` is updated so the scores stay in order:
    the first results are what the feedback was made of, and count as its first."""
    keep = ordered[:rank.FEEDBACK_KEEP]
    share = lambda r: (rank.RRF_K + 1) * rank.RRF_FEEDBACK / (rank.RRF_K + r)  # noqa: E731
    for k in keep:
        scored[k] += share(1)
    rest = ordered[rank.FEEDBACK_KEEP:]
    for k in rest:
        if k in feedback:
            scored[k] += share(feedback[k])
    position = {k: i for i, k in enumerate(rest)}
    return keep + sorted(rest, key=lambda k: (-scored[k], position[k]))

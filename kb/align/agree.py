"""Two views of a rule agree: its words, and what its whole text means.

The last step of the cross-section pass (:mod:`kb.align.moves`), for an old rule still without
a successor or any link in a section that moved. On the pass's word evidence (rare words, the
in-order share, structure) the best candidate of such a rule is its true successor about as
often as a look-alike: a rule folded into a rule that already has a predecessor scores no
higher than the survivor a deleted rule resembles (old 401.4, "static abilities that allow it
to be played from a zone other than a player's hand", and 604.6, "static abilities apply while
a card is in any zone that you could cast or play it from": 0.36; the deleted 408.1g, "Combat
damage goes on the stack", and the unrelated 702.7a: 0.44). A second view that does not count
shared words -- the sentence embedding of :mod:`kb.search.dense` (multilingual-e5-small,
weights inside the package) -- ranks the same candidates on what the texts say: for the rules
that went somewhere, both views name the same rule; for the rules that were deleted they part
(408.1g's nearest, on meaning, is 802.6, not 702.7a).

:func:`agreed` merges the old rule into its best word candidate when

- the edition pair is a restructure: at least ``RESTRUCTURE_SHARE`` of the older edition's
  sections went, as wholes, to sections of other numbers (the 2009 restructure: 82 of 83; the
  next most, 2022-11-18 -> 2023-04-14, 25 of 140), where rules that moved *and* were reworded
  are to be expected -- an ordinary update is left alone and pays nothing;
- that candidate already has a predecessor (the free ones the rounds of :mod:`kb.align.moves`
  have judged on their own thresholds), is in a section of another number, and its evidence is
  at least ``AGREE_MIN``;
- of every candidate the pass weighed (:func:`kb.align.moves._ranked`), it is also the nearest
  on meaning.

A rule whose pair was given up as held only by its reminder (:mod:`kb.align.reminders`) is left
out: its words are the reminder's, and so is its meaning. The embeddings are kept in the
embedding cache of :mod:`kb.search.dense` (``$RULEKB_CACHE/embeddings``, by a digest of the model
and the text), so only the first alignment of a text pays for its embedding (from about 10 ms
for a short rule to 250 ms for a long one; the first ``MAX_PASSAGE`` characters are embedded).
The candidates are embedded a few at a time, best first, and the first one nearer on meaning
than the best ends the question: the 2009 restructure embeds some 180 texts, about 11 s of CPU
once per cache, a few milliseconds after. The model runs in a child process (:class:`_Embedder`):
its many small numpy steps hold the interpreter's lock, and a build aligns beside its reasoner's
thread (the 2009 alignment, cold, with one busy Python thread beside it: 14 s of wall in a child,
41 s here). Without the model (the package missing or broken) the step does nothing.
"""

from __future__ import annotations

AGREE_MIN = 0.35  # word evidence of the agreed candidate, at least this (the pass's scale)
RESTRUCTURE_SHARE = 0.5  # share of the older edition's sections that went to another number
CHUNK = 4  # candidates embedded at a time
MAX_PASSAGE = 600  # characters of a rule embedded: what it says first (the cost grows faster than the length)


def restructure(sections: dict[str, str]) -> bool:
    """Whether an edition pair whose sections went where ``sections`` says (old -> new number,
    :func:`kb.align.signals.section_votes`) is a restructure."""
    return bool(sections) and sum(new != old for old, new in sections.items()) >= RESTRUCTURE_SHARE * len(sections)


def agreed(matching, ranked, moved_section, linked: set[str]) -> dict[int, int]:
    """Old rule -> the new rule, with a predecessor, it was merged into, where both views agree.
    ``ranked(i)`` is old rule ``i``'s candidates, best first, as (evidence, new rule, ...);
    ``moved_section(i)`` whether its section moved; ``linked`` the old numbers already linked."""
    old, new = matching.old, matching.new
    given_up = getattr(matching, "given_up", set())
    released = {i for i, _ in given_up}
    absorbed = getattr(matching, "absorbed", {})
    asked: dict[int, list[int]] = {}
    for i in matching.free_old():
        if i in matching.headings or i in absorbed or i in released or old.numbers[i] in linked \
                or not moved_section(i):
            continue
        candidates = [(evidence, j) for evidence, j, *_ in ranked(i) if (i, j) not in given_up]
        if not candidates or candidates[0][0] < AGREE_MIN:
            continue
        best = candidates[0][1]
        if best in matching.n2o and new.section[best] != old.section[i]:
            asked[i] = [j for _, j in candidates]
    vectors: dict = {}
    found = {}
    with _Embedder() as embed:
        for i, js in sorted(asked.items()):
            if not _settle(i, js, old, new, vectors, embed, found):
                return {}
    return found


def _settle(i: int, js: list[int], old, new, vectors: dict, embed, found: dict) -> bool:
    """Whether the model answered; ``found[i]`` set when old rule ``i``'s best word candidate
    ``js[0]`` is also its nearest on meaning."""
    # the other candidates are embedded a few at a time, in the order of the word evidence:
    # one nearer on meaning than the best is enough to say no (most deleted rules' is among
    # the first), and only an agreement needs them all
    if not _embedded(vectors, {old.texts[i], new.texts[js[0]]}, embed):
        return False
    here = vectors[old.texts[i]]
    best = (float(vectors[new.texts[js[0]]] @ here), -js[0])
    for k in range(1, len(js), CHUNK):
        chunk = js[k:k + CHUNK]
        if not _embedded(vectors, {new.texts[j] for j in chunk}, embed):
            return False
        if any((float(vectors[new.texts[j]] @ here), -j) > best for j in chunk):
            break
    else:
        found[i] = js[0]
    return True


class _Embedder:
    """``embed(passages)``: the model's vectors, computed in one child process started at the
    first passage the cache lacks (a warm cache starts none); here where a process cannot have
    children (a daemonic pool worker) or the child cannot start."""

    def __init__(self):
        self._pool = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self._pool:
            self._pool.shutdown()

    def __call__(self, passages: list[str]):
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        from ..search.dense import embed_passages

        if self._pool is None:  # False once there is no child to have
            self._pool = (False if multiprocessing.current_process().daemon
                          else ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")))
        if self._pool:
            try:
                return self._pool.submit(embed_passages, passages).result()
            except (BrokenProcessPool, OSError):  # no child here (a main module spawn cannot import): embed here
                self._pool.shutdown(cancel_futures=True)
                self._pool = False
        return embed_passages(passages)


def _embedded(vectors: dict, texts: set[str], embed=None) -> bool:
    """Add the embeddings of ``texts`` to ``vectors``; False when the model cannot be loaded."""
    missing = {t for t in texts if t not in vectors}
    if missing:
        got = embeddings(missing, embed)
        if got is None:
            return False
        vectors.update(got)
    return True


def embeddings(texts: set[str], embed=None) -> dict | None:
    """Text -> its L2-normalised embedding, from the embedding cache when it has them; None
    when the model cannot be loaded. ``embed(passages)`` computes what the cache lacks (default:
    the model, here)."""
    import sqlite3

    from ..search.dense import Cache, DenseUnavailable, digest, embed_passages, passage

    passages = {t: passage("rule", t)[:MAX_PASSAGE] for t in texts}
    keys = {t: digest(passages[t]) for t in texts}
    found: dict = {}
    try:
        cache = Cache()
    except (OSError, sqlite3.Error):  # an unusable cache costs time, not correctness
        cache = None
    try:
        if cache is not None:
            found = cache.get_many(keys.values())
        missing = sorted(t for t in texts if keys[t] not in found)
        if missing:
            try:
                fresh = dict(zip((keys[t] for t in missing), (embed or embed_passages)([passages[t] for t in missing])))
            except DenseUnavailable:
                return None
            found.update(fresh)
            if cache is not None:
                try:
                    cache.put_many(fresh)
                except sqlite3.Error:
                    pass
    finally:
        if cache is not None:
            cache.close()
    return {t: found[keys[t]] for t in texts}

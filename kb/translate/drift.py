"""A French text against an English edition, end to end: detect the base among
candidate editions, then report against the target (through the base when the
French translates an older edition: stale rules). Used by ``rulekb
translation-report`` (candidates read from the store) and by the build
(candidates already parsed in memory, :mod:`kb.rdf.translation`).

Why a separate module: the CLI and the build must give the same answer for the
same texts, and only the way the editions are obtained differs.
"""

from __future__ import annotations

import time

from rulekb.ingest.model import Edition

from .align import FeatureCache, align_translation
from .base import detect_base
from .report import translation_report


def drift_report(fr: Edition, english: Edition, candidates: list[Edition] | None = None,
                 base: Edition | None = None, cache: FeatureCache | None = None,
                 alignment_of=None, read_base=None, scoring: FeatureCache | None = None) -> dict:
    """The ``rulekb translation-report`` JSON. Give ``candidates`` to detect the
    base among them, or ``base`` to take it as is. ``alignment_of(base,
    english, numbers)`` may supply the :func:`kb.align.align` result another way (the
    build follows its lineages); ``numbers`` are the base rules the French translates,
    the only ones whose kind of change matters. ``read_base(candidate)``: the edition to report
    against once a candidate is chosen, when the candidates hold only what scoring reads
    (:mod:`kb.translate.candidates`); they are then scored with a cache of their own, or with
    ``scoring``, one holding their rules' features already (:mod:`kb.translate.kept`)."""
    cache = cache or FeatureCache()
    started = time.perf_counter()
    info: dict = {}
    if base is None:
        if scoring is None:
            scoring = cache if read_base is None else FeatureCache()  # (ids shared with the editions read whole)
        best, best_score, runner, runner_score, scores = detect_base(fr, candidates or [english], scoring)
        base = next((c for c in (candidates or [english]) if c.id == best), None)
        if base is not None and read_base is not None:
            base = read_base(base)
        tied = sorted(i for i, s in scores.items() if i != best and round(s, 9) == round(best_score, 9))
        info.update({"candidates": len(candidates or [english]), "score": round(best_score, 4),
                     "runner_up": runner, "runner_up_score": round(runner_score, 4),
                     # editions scoring exactly as the base (the French rules' English never
                     # changed between them): the base is the oldest of them
                     "tied": len(tied), "tied_until": tied[-1] if tied else None})
    else:
        info.update({"candidates": 1, "score": None, "runner_up": None, "runner_up_score": None})
    info["seconds"] = round(time.perf_counter() - started, 2)
    older = base is not None and base.id != english.id and \
        (base.effective_date or "") < (english.effective_date or "")
    if not older:
        data = translation_report(fr, english, base.id if base else None, cache)
    else:
        data = through_base(fr, base, english, cache, alignment_of)
    data["base"] = info
    data["stale_checked"] = older
    return data


def through_base(fr: Edition, base: Edition, english: Edition, cache: FeatureCache, alignment_of=None) -> dict:
    """The report when the French translates an older edition: the French is checked
    against its base (same numbering, same wording: a difference there is the
    translation's), each item's English number is carried to ``english`` through the
    base -> english alignment (``base_rule`` keeps the base number), rules removed since
    the base are no longer missing, and the rules whose English changed since are ``stale``."""
    from ..lineage.cache import aligned
    from .stale import stale_items

    base_of = {pair.new: pair.old for pair in align_translation(fr, base, cache) if pair.new}  # French -> English
    alignment = alignment_of(base, english, set(base_of.values())) if alignment_of else aligned(base, english)
    successors = alignment.successors(merges=False)
    data = translation_report(fr, base, base.id, cache)
    data["us_edition"] = english.id
    data["coverage"]["against"] = base.id
    items = []
    for item in data["items"]:
        if item["us"] is not None:
            item["base_rule"] = item["us"]
            item["us"] = successors.get(item["us"])
            if item["us"] is None and item["kind"] == "missing":
                continue  # removed from the English since the base: nothing to translate
        items.append(item)
    data["items"] = items + stale_items(fr, base, english, alignment, base_of)
    data["pairs"] = {fr_number: en_number for fr_number, en_number in base_of.items() if en_number}
    # base rule -> its rule in ``english`` (the exchange formats' current English of each French rule)
    data["successors"] = {en: successors.get(en) for en in data["pairs"].values()}
    return data

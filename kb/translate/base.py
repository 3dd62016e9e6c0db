"""Which English edition does a French text translate?

Why evidence and not the header date: French translations lag the English
rules, and some texts state only a publication date (the 2008 article), so the
date is a hint that only breaks near-ties. Each candidate is scored by the mean,
over the French rules, of the evidence score against the English rule with the
same number (0 when the number does not exist there). Features are cached per
(edition, number) and only the French rules' numbers are ever looked at, so
128 candidates take about a second.
"""

from __future__ import annotations

from rulekb.ingest.model import Edition

from .align import FeatureCache
from .evidence import features, score

DATE_HINT = 0.01  # at most this much, for editions on or shortly before the stated date


MOVED_FLOOR = 0.6  # below this, look for the text elsewhere in the neighbouring sections
MOVED_WEIGHT = 0.9  # a moved rule counts a little less than one in place


def _neighbourhood(en: Edition, section: str, cache: FeatureCache) -> tuple:
    """The distinct features of a section's rules and its two neighbours' in ``en``,
    interned: editions whose neighbourhood has the same texts share one tuple, so
    the best score of a French rule in it is computed once for all of them."""
    groups = cache.neighbourhoods
    key = (en.id, section)
    found = groups.get(key)
    if found is None:
        numbers = cache.section_numbers
        own = numbers.get(en.id)
        if own is None:
            own = numbers[en.id] = {}
            for number in cache.rules(en):
                own.setdefault(number.split(".")[0], []).append(number)
        wanted = [n for d in (-1, 0, 1) for n in own.get(str(int(section) + d), [])] if section.isdigit() else []
        unique = {id(f): f for f in (cache.get(en, n) for n in wanted) if f is not None}
        interned = cache.interned
        found = groups[key] = interned.setdefault(tuple(unique), tuple(unique.values()))
    return found


def _date_bonus(fr_date: str | None, en_date: str | None) -> float:
    if not fr_date or not en_date or en_date > fr_date:
        return 0.0
    years = (int(fr_date[:4]) - int(en_date[:4])) + (int(fr_date[5:7]) - int(en_date[5:7])) / 12
    return DATE_HINT * max(0.0, 1.0 - years / 3)


def edition_scores(fr: Edition, candidates: list[Edition], cache: FeatureCache | None = None) -> dict[str, float]:
    cache = cache or FeatureCache()
    french = [(rule.number, features(rule.text, rule.examples, fr.language)) for rule in fr.rules]
    out: dict[str, float] = {}
    memo: dict[tuple[int, int], float] = {}
    elsewhere: dict[tuple[int, int], float] = {}  # (French rule, neighbourhood) -> best score there

    def scored(f, e) -> float:
        """score(f, e), once per pair of texts: most English rules keep their text
        from one edition to the next, and features are shared by content (the
        FeatureCache keeps them alive, so their ids are stable meanwhile)."""
        key = (id(f), id(e))
        found = memo.get(key)
        if found is None:
            found = memo[key] = score(f, e)
        return found

    for en in candidates:
        if not french:
            out[en.id] = 0.0
            continue
        total = 0.0
        for number, f in french:
            e = cache.get(en, number)
            best = scored(f, e) if e else 0.0
            if best < MOVED_FLOOR:  # a site may show old text under new numbers
                group = _neighbourhood(en, number.split(".")[0], cache)
                key = (id(f), id(group))
                moved = elsewhere.get(key)
                if moved is None:
                    moved = elsewhere[key] = max((scored(f, x) for x in group), default=0.0)
                best = max(best, MOVED_WEIGHT * moved)
            total += best
        out[en.id] = total / len(french) + _date_bonus(fr.effective_date, en.effective_date)
    return out


def detect_base(fr: Edition, candidates: list[Edition], cache: FeatureCache | None = None):
    """``(best_id, best_score, runner_up_id, runner_score, scores)``; runner-up
    is the best edition whose score differs (identical texts tie exactly)."""
    scores = edition_scores(fr, candidates, cache)
    if not scores:
        return None, 0.0, None, 0.0, {}
    ranked = sorted(scores.items(), key=lambda kv: (-round(kv[1], 9), kv[0]))
    best_id, best = ranked[0]
    runner = next(((i, s) for i, s in ranked[1:] if round(s, 9) != round(best, 9)), (None, 0.0))
    return best_id, best, runner[0], runner[1], scores

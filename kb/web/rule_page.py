"""The page of one rule: its text with the cited rules linked, the rules that
cite it, its place among its neighbours, the concepts it mentions, the French
rules that translate it, and its history across editions.

Small named queries, each anchored on the rule (no scan of the store); the
history's word diffs are computed here from kb.lineage.history's versions. The
queries the build's page data answers (kb.pages: the history's wordings, the
French rules, the siblings and subrules, and no examples, citers or findings
where the rule has none) are read from it when the build wrote it
(:data:`USE_PAGE_DATA`); the store answers the rest.
"""

from __future__ import annotations

import time

from rulekb.ingest import numbers as rule_numbers

from ..lineage import history
from ..errors import NotFound
from ..rdf.iris import parse
from ..service import rule_consistency, run
from . import catalog
from .context import WebContext
from .html import page, segment_markup
from .kept import Kept, digest, memoised
from .markup import citations_from_rows, diff_segments, link_citations

USE_PAGE_DATA = True  # read what the build's page data holds from it (False: every query; the tests compare)


def rule_page(ctx: WebContext, edition: str, number: str):
    from ..service import page_store

    store, mint = ctx.store, ctx.mint
    paged = page_store(store, edition, number, USE_PAGE_DATA)  # kb.pages, else the store itself
    found = run(paged, "rule", edition=edition, number=number)
    if not found:
        catalog.edition(store, edition)  # an unknown edition says so
        raise NotFound(f"edition {edition} has no rule {number}")
    row = found[0]
    reference_rows = run(paged, "rule-references", edition=edition, number=number)
    citations = citations_from_rows(reference_rows)
    entry = catalog.edition(store, edition)
    siblings = [r["sibling_number"] for r in run(paged, "rule-siblings", edition=edition, number=number)]
    before, after = _around(siblings, number)
    parent = row.get("parent")
    values = {
        "title": f"{number} — {edition}",
        "edition": edition,
        "edition_info": entry,
        "lang": entry["language"],
        "number": number,
        "iri": row["rule"],
        "printed": row.get("printed"),
        "text": link_citations(row.get("text", ""), citations),
        "examples": [link_citations(r["text"], citations)
                     for r in run(paged, "rule-examples", edition=edition, number=number)],
        "references": _references(reference_rows),
        "referenced_by": [{"iri": r["source"], "label": r.get("source_number") or f"glossary: {r.get('term', '?')}"}
                          for r in run(paged, "rule-referenced-by", edition=edition, number=number)],
        "concepts": run(paged, "rule-concepts", edition=edition, number=number),
        "parent": {"number": parent, "iri": mint.numbered(edition, parent)} if parent else None,
        "section": mint.section(edition, rule_numbers.section_of(number)),
        "previous": mint.rule(edition, before) if before else None, "previous_number": before,
        "next": mint.rule(edition, after) if after else None, "next_number": after,
        "children": [{"number": r["child_number"], "iri": mint.rule(edition, r["child_number"])}
                     for r in run(paged, "rule-children", edition=edition, number=number)],
        "translations": _translations(ctx, edition, number, entry["language"], paged),
        "consistency": rule_consistency(paged, edition, number),  # the findings citing this rule
        "cards_governed": _cards_governed(paged, entry, edition, number),  # (the page data keeps the counts)
        **history_view(paged, edition, number),
    }
    values.update(_in_time(ctx, entry, values))
    return page(ctx, "rule.html", **values)


def _cards_governed(store, entry: dict, edition: str, number: str) -> int:
    """How many cards (kb.cards) the rule governs: English rules only (cards are linked to the
    newest English edition and followed along lineages, which stay within a language)."""
    from ..service import cards_governed_count

    if entry.get("language") != "en":
        return 0
    return cards_governed_count(store, edition, number)


def _in_time(ctx: WebContext, entry: dict, values: dict) -> dict:
    """Where this version stands in time (kb.timeline): the edition's dates, the wording's
    interval in force, what superseded it and the current version; the SVG of the rule's
    wordings; schema.org Legislation JSON-LD. From the wordings history_view already read."""
    from .. import service
    from ..timeline import svg
    from .timeline_pages import known

    timeline = known(ctx.store)
    resolution = timeline.resolve(values["edition"])
    wordings = values.get("wordings") or []
    status = service.rule_in_force_from(ctx.store, resolution, values["number"], wordings)
    newest = timeline.order.get(entry["language"], [])
    drawing = svg.wordings_timeline(wordings, newest[-1].effective_date if newest else None,
                                    status["wording"]["first"] if status["wording"] else None)
    return {"in_force": status, "versions_drawing": drawing, "jsonld": _jsonld(ctx, entry, values, status)}


def _jsonld(ctx: WebContext, entry: dict, values: dict, status: dict) -> dict:
    """schema.org Legislation: this version, its edition, its work (the lineage), its dates."""
    wording = status["wording"] or {}
    data = {
        "@context": "https://schema.org",
        "@type": "Legislation",
        "@id": values["iri"],
        "name": f"Comprehensive Rules {values['number']} ({values['edition']})",
        "legislationIdentifier": values["number"],
        "inLanguage": values["lang"],
        "legislationLegalForce": "https://schema.org/InForce"
        if (not wording.get("in_force_until") if wording else status["edition"]["current"]) else "https://schema.org/NotInForce",
        "isPartOf": {"@type": "Legislation", "@id": ctx.mint.edition(values["edition"]),
                     "legislationDate": entry.get("effective_date"), "name": f"Comprehensive Rules {values['edition']}"},
    }
    if entry.get("effective_date"):
        data["legislationDate"] = entry["effective_date"]
    if wording:
        data["exampleOfWork"] = {"@id": wording["lineage"]}
        data["temporalCoverage"] = f"{wording['in_force_from']}/{wording.get('in_force_until') or '..'}"
    if wording.get("in_force_until"):
        data["expires"] = wording["in_force_until"]  # superseded on that day
    return data


def _around(ordered: list[str], number: str) -> tuple[str | None, str | None]:
    if number not in ordered:
        return None, None
    index = ordered.index(number)
    return (ordered[index - 1] if index else None), (ordered[index + 1] if index + 1 < len(ordered) else None)


def _references(rows: list[dict]) -> list[dict]:
    """Each cited number once, in rule order, with its target (None: dangling)."""
    seen: dict[str, str | None] = {}
    for row in rows:
        number = row["cited_number"]
        seen[number] = row.get("target") or seen.get(number)
    return [{"number": n, "iri": seen[n]} for n in sorted(seen, key=rule_numbers.sort_key)]


def _translations(ctx: WebContext, edition: str, number: str, language: str, store=None) -> list[dict]:
    """French beside English: for an English rule, the French rules translating
    any version of it; for a French rule, the English rule it translates."""
    store = store if store is not None else ctx.store
    if language == "fr":
        return [{"fr_edition": edition, "fr_number": number, "fr_text": None, **row}
                for row in run(store, "rule-translation-of", edition=edition, number=number)]
    if language != "en":
        return []
    out = []
    for row in run(store, "rule-in-french", edition=edition, number=number):
        fr, en = _edition_of(ctx, row["fr"]), _edition_of(ctx, row["en"])
        if fr and en:  # (rule-in-french names editions by their rules' IRIs: it is faster so)
            out.append({**row, "fr_edition": fr, "en_edition": en})
    return out


def _edition_of(ctx: WebContext, rule_iri: str) -> str | None:
    found = parse(rule_iri[len(ctx.base):]) if rule_iri.startswith(ctx.base) else None
    return found[1].get("edition") if found else None


COSTLY_DIFF = 0.02  # seconds: a diff that took longer is kept apart, out of the LRU's turnover
COSTLY_HISTORY = 0.02  # seconds of CPU: a history whose diffs took longer is kept apart whole
COSTLY_KEPT = 1024  # such diffs kept per process (the longest texts: a few lineages' wordings)
COSTLY_BYTES = 4_000_000  # and at most this much of them
LONGEST_HISTORIES = 32  # lineages whose diffs are computed before the port opens (keep_longest_diffs)
DIFFS_KEPT = Kept(max_entries=16_384, max_bytes=16_000_000)  # the word diffs, per process
_costly: dict[bytes, str] = {}  # digest of (old, new) -> its diff as HTML


def _diff(old: str, new: str) -> str:
    """The words changed from one wording to the next, as HTML (``<ins>``, ``<del>``; the
    history row marks it safe): the same pair is shown on the page of every version of the
    lineage after it, so it is computed once per process (a pure function of the two texts).
    Plain strings, which the garbage collector does not track: a cache of segment objects made
    every full collection walk them (a pause of its own in a page's latency); keyed by a digest
    of the two texts, so the cache does not keep the texts alive. The few diffs of long texts
    (a list of every creature type: over a second under load) are kept apart, so the turnover
    of the others does not make a reader wait for them again."""
    found = _costly.get(digest(old, new))
    return found if found is not None else _diff_kept(old, new)


def _diff_computed(old: str, new: str) -> str:
    started = time.perf_counter()
    html = str(segment_markup(diff_segments(history.word_diff(old, new)), str))
    if time.perf_counter() - started > COSTLY_DIFF:
        _keep_costly(old, new, html)
    return html


_diff_kept = memoised(DIFFS_KEPT, _diff_computed)


def _keep_costly(old: str, new: str, html: str) -> bool:
    """Keep a diff apart, while there is room (entries and bytes); False once full."""
    if len(_costly) >= COSTLY_KEPT or sum(map(len, _costly.values())) + len(html) > COSTLY_BYTES:
        return False
    _costly[digest(old, new)] = html
    return True


def _text_changes(periods: list[dict]):
    """(period, the text before, its text) of each period whose text differs from the last text before it."""
    previous = None
    for period in periods:
        text = period.get("text")
        if previous is not None and text is not None and text != previous:
            yield period, previous, text
        if text is not None:
            previous = text


def keep_longest_diffs(store, lineages: int = LONGEST_HISTORIES) -> int:
    """The word diffs of the ``lineages`` histories holding the most text, computed now and
    kept apart from the LRU's turnover (``rulekb serve`` does it before its port opens). The
    longest (the list of creature types, 205.3m: about 40 wordings of some 3,000 characters)
    is a quarter of a second of CPU, every other request of the process waiting behind it;
    each of its diffs alone is too quick to be kept apart as costly (a history slow to diff as a
    whole is kept whole when a page first computes it: :func:`history_view`). Returns the diffs
    kept."""
    from ..service import longest_histories, page_store

    for edition, number in longest_histories(store, lineages):
        view = history_view(page_store(store, edition, number, USE_PAGE_DATA), edition, number, mark=False)
        _keep(view["periods"])
    return len(_costly)


RULES_AHEAD = 5000  # rule pages of the newest edition rendered before the port opens (it has about 3,100)


def render_rules_ahead(ctx: WebContext, edition: str, limit: int = RULES_AHEAD, seconds: float = 60.0) -> int:
    """Every rule page of ``edition`` rendered once now, its output dropped: what the pages of
    the edition share is then computed and kept (the word diffs of each lineage's wordings, the
    rows of its history, the links), so a reader's first visit to a page costs what the second
    does (``rulekb serve`` does it for the newest edition before its port opens; on the full KB a
    first render cost 1.4-2.1 ms of CPU, a second 0.8-1.2). Stops after ``seconds`` (a slow
    store does not keep the port closed). Returns the pages rendered."""
    deadline = time.monotonic() + seconds
    numbers = [row["number"] for row in run(ctx.store, "edition-rules", edition=edition)][:limit]
    done = 0
    for number in numbers:
        if time.monotonic() > deadline:
            break
        try:
            rule_page(ctx, edition, number)
        except NotFound:
            pass
        done += 1
    return done


def _keep(periods: list[dict]) -> None:
    """The diffs of a history (computed: ``period["diff"]``) kept apart, as far as room is left."""
    for period, old, new in _text_changes(periods):
        if not _keep_costly(old, new, period["diff"]):
            return


def history_view(store, edition: str, number: str, mark: bool = True) -> dict:
    """The rule's wordings in force (the ranges the build stored, kb.timeline.wordings: one
    query, no row per edition), each with the words changed from the one before, and the
    numbers it had before; a store without them: the versions folded into periods."""
    from .. import service

    wordings = service.rule_wordings(store, edition, number)
    if wordings:
        periods = [dict(w) for w in wordings]
        entries = [{"edition": w["first"], "number": w["number"], "last": w["last"],
                    "effective_date": w["in_force_from"]} for w in wordings]
    else:
        entries = history.history(store, number, edition)
        periods = history.periods(entries)
    for period in periods:
        period["current"] = mark and period["first"] <= edition <= period["last"] and period["number"] == number
    started = time.thread_time()  # (CPU: a loaded machine does not make a history look slow)
    for period, old, new in _text_changes(periods):
        period["diff"] = _diff(old, new)
    if time.thread_time() - started > COSTLY_HISTORY:  # slow as a whole (many wordings): kept whole
        _keep(periods)
    names: list[dict] = []
    for entry in entries:
        if entry["number"] is None:
            continue
        if names and names[-1]["number"] == entry["number"]:
            names[-1]["last"] = entry.get("last", entry["edition"])
        else:
            names.append({"number": entry["number"], "first": entry["edition"],
                          "last": entry.get("last", entry["edition"])})
    first = entries[0]
    # kb.lineage.history gives a rule no lineage holds (a partial edition's) one entry without a date
    chained = len(entries) > 1 or first.get("effective_date") is not None
    return {
        "periods": periods,
        "names": names,
        "other_names": [n for n in names if n["number"] != number],
        # a lineage is named after the version it starts with (kb.rdf.lineage)
        "lineage_id": f"{first['edition']}/{first['number']}" if chained and first["number"] else None,
        "wordings": wordings,
    }

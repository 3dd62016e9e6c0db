"""Point-in-time answers from the stored wordings (:mod:`.wordings`): a rule as in force on a
date, the rules changed between two dates, a rule's wordings. Named queries
(``rule-as-of``, ``rules-changed-between``, ``changes-per-date``, ``lineage-versions``, ``number-in-force``,
``edition-graphs``); the rows of ``rules-changed-between`` come from the build's page data when it
keeps them (the same rows, written by the build from the query)."""

from __future__ import annotations

import datetime as dt

from ..errors import KBError, NotFound
from .editions import Resolution, Timeline, parse_date

ENDINGS = ("removed", "merged")


def _run(store, name: str, **params):
    from ..store.queries import run  # the store's named queries, not the front-ends' facade (kb.service imports this module)

    return run(store, name, **{k: v for k, v in params.items() if v is not None})


def _page_data(store):
    """The build's page data (kb.pages), which keeps the rows of rules-changed-between for
    every date (a long window costs Oxigraph over a second, the file a few ms); None: ask
    the store (a remote store, a build without it)."""
    from ..pages import for_store

    return for_store(store)


def timeline(store) -> Timeline:
    """The KB's editions, in the order they came into force (one cheap query)."""
    return Timeline.from_rows(_run(store, "edition-graphs"))


def resolve(store, name: str | None, as_of: str | None = None, *, known: Timeline | None = None,
            today: dt.date | None = None) -> Resolution:
    return (known or timeline(store)).resolve(name, as_of, today)


def _wording(row: dict) -> dict:
    out = {
        "wording": row["wording"],
        "lineage": row["lineage"],
        "number": row.get("number") or row.get("wording_number"),
        "in_force_from": row.get("in_force_from"),
        "in_force_until": row.get("in_force_until"),
        "first": row["first_edition"],
        "last": row["last_edition"],
        "editions": int(row.get("editions", 1)),
        "text": row.get("text", ""),
    }
    return out


def rule_as_of(store, number: str, date: str, language: str = "en", *, known: Timeline | None = None,
               today: dt.date | None = None) -> dict:
    """What rule ``number`` said on ``date``: ``{"number", "date", "edition": Resolution
    dict, "text", "wording": {...}, "superseded_by": {"wording","number","edition"} | None}``."""
    known = known or timeline(store)
    resolution = known.in_force(language, known._date(date, language, today), f"{language}@{date}")
    rows = _run(store, "rule-as-of", number=number, date=resolution.date, lang=language)
    if not rows:
        raise NotFound(f"no rule {number} was in force on {resolution.date} (in force then: {resolution.edition})"
                       + _when_in_force(store, number, resolution.date, language))
    row = rows[0]
    wording = _wording(row)
    return {
        "number": number,
        "date": resolution.date,
        "edition": resolution.to_dict(),
        "text": wording["text"],
        "wording": wording,
        "superseded_by": ({"wording": row["superseded_by"], "number": row.get("next_number"),
                           "edition": row.get("next_edition")} if row.get("superseded_by") else None),
        "ended": ({"kind": row["ended"], "edition": row.get("ended_in"), "date": wording["in_force_until"]}
                  if row.get("ended") in ENDINGS and not row.get("superseded_by") else None),
    }


def _when_in_force(store, number: str, date: str, language: str) -> str:
    """"; 806.6 was in force 2010-02-01 to 2010-06-18 (en/2010-02-01 .. en/2010-04-23), then
    removed in en/2010-06-18": the wordings printed under ``number`` nearest ``date``, before
    and after it (named query ``number-in-force``); "" when the number never was."""
    rows = _run(store, "number-in-force", number=number, lang=language)
    before = [r for r in rows if r.get("in_force_from") and r["in_force_from"] <= date]
    after = [r for r in rows if r.get("in_force_from") and r["in_force_from"] > date]
    said = []
    for row in ([before[-1]] if before else []) + ([after[0]] if after else []):
        until = row.get("in_force_until")
        span = (f"{row['in_force_from']} to {until}" if until else f"since {row['in_force_from']}")
        text = f"{number} was in force {span} ({row['first_edition']} .. {row['last_edition']})"
        if row.get("ended") in ENDINGS:
            text += f", then {row['ended']} in {row['ended_in']}"
        elif row.get("next_number") and row["next_number"] != number:
            text += f", then renumbered {row['next_number']}"
        said.append(text)
    if not said:
        return f"; no {language} edition has a rule {number}"
    return "; " + "; ".join(said)


def _window(start: str, end: str, today: dt.date | None) -> tuple[str, str]:
    first, last = parse_date(start, today), parse_date(end, today)
    if first > last:
        raise KBError(f"from {first} is after to {last}: give the earlier date first")
    return first, last


def rules_changed_between(store, start: str, end: str, language: str | None = None,
                          today: dt.date | None = None) -> list[dict]:
    """Every wording that came into force in (start, end], and every rule removed or merged
    then: ``[{"date","edition","kind","number","previous_number","detail","lineage"}]``."""
    first, last = _window(start, end, today)
    kept = _page_data(store)
    rows = kept.changes(first, last, language) if kept is not None else None
    if rows is None:
        rows = _run(store, "rules-changed-between", **{"from": first, "to": last, "lang": language})
    return [{"date": r["date"], "edition": r["edition"], "kind": r["kind"], "number": r["number"],
             "previous_number": r.get("previous_number"), "detail": r.get("detail"),
             "lineage": r["lineage"], "wording": r["wording"]} for r in rows]


PAGE = 500  # rows a page of a long window holds, in whole dates


def changes_page(store, start: str, end: str, language: str | None = None, *, limit: int = PAGE,
                 after: str | None = None, today: dt.date | None = None) -> dict:
    """A page of :func:`rules_changed_between` (the web's, for a long window: 1999-2026 is 21,000
    rows): the rows of the dates after ``after`` (None: the first page), oldest first, whole
    dates up to ``limit`` rows -- at least one date, so a page may hold more (the 2009
    restructure's date alone has 1,562 rows). ``{"from", "to", "after", "total", "rows",
    "next"}``: ``total`` the rows of the whole window, ``next`` the ``after`` of the next page
    (this page's last date), None on the last. The counts per date come first (named query
    ``changes-per-date``, no row read), then ``rules-changed-between`` over just the page's
    dates: a page costs its own rows, whatever the window."""
    first, last = _window(start, end, today)
    if limit < 1:
        raise KBError(f"limit {limit}: give a page size of 1 or more rows")
    if after is not None:
        after = parse_date(after, today)
        if not first <= after < last:
            raise KBError(f"after {after} is not in the window from {first} to {last}: give the next value of a page")
    kept = _page_data(store)
    per_date = kept.changes_per_date(first, last, language) if kept is not None else None
    if per_date is None:
        per_date = _run(store, "changes-per-date", **{"from": first, "to": last, "lang": language})
    counts = [(r["date"], int(r["changes"])) for r in per_date]
    left = [(date, n) for date, n in counts if after is None or date > after]
    taken, size = 0, 0
    for _, n in left:
        if taken and size + n > limit:
            break
        taken, size = taken + 1, size + n
    rows = rules_changed_between(store, after or first, left[taken - 1][0], language, today) if taken else []
    return {"from": first, "to": last, "after": after, "total": sum(n for _, n in counts), "rows": rows,
            "next": left[taken - 1][0] if taken < len(left) else None}


def wordings(store, edition: str, number: str) -> list[dict]:
    """The wordings of the lineage of ``number`` in ``edition``, oldest first, shaped as
    :func:`kb.lineage.history.periods` shapes periods (``first``, ``last``, ``editions``, ``number``,
    ``text``, ``kind``, ``detail``, ``similarity``) plus ``in_force_from`` / ``in_force_until``;
    a last entry with ``number`` None when the lineage ended (removed or merged, ``into``).
    Empty when the store has no wordings for it (a partial edition's rule, an older store)."""
    rows = _run(store, "lineage-versions", edition=edition, number=number)
    out: list[dict] = []
    for row in rows:
        entry = {**_wording(row), "kind": row.get("kind")}
        if row.get("detail"):
            entry["detail"] = row["detail"]
        if row.get("similarity") and entry["kind"] in ("renumbered", "modified", "split"):
            entry["similarity"] = float(row["similarity"])
        out.append(entry)
    if rows and rows[-1].get("ended") in ENDINGS:
        last = rows[-1]
        out.append({"first": last["ended_in"], "last": last["ended_in"], "editions": 1, "number": None,
                    "text": None, "kind": last["ended"], "in_force_from": rows[-1].get("in_force_until"),
                    "in_force_until": None, **({"into": last["into"]} if last.get("into") else {})})
    return out


def in_force(store, resolution: Resolution, number: str, found: list[dict] | None = None) -> dict:
    """Where the version ``number`` of ``resolution.edition`` stands in time: the edition
    (Resolution dict), its wording (dates in force, first and last edition), the wording that
    superseded it and the current version of the rule (``current``: edition and number, None
    when the lineage ended), and a one-line ``summary``."""
    edition = resolution.edition
    found = wordings(store, edition, number) if found is None else found
    mine = next((w for w in found if w["number"] == number and w["first"] <= edition <= w["last"]), None)
    later = found[found.index(mine) + 1:] if mine else []
    after = later[0] if later else None
    newest = found[-1] if found and found[-1]["number"] else None
    out = {"edition": resolution.to_dict(), "wording": mine, "superseded_by": after,
           "current": ({"edition": newest["last"], "number": newest["number"]} if newest and newest is not mine else None)}
    if mine is None:
        out["summary"] = resolution.reason
        return out
    until = f"until {mine['in_force_until']}" if mine["in_force_until"] else "still in force"
    text = f"{resolution.reason}; this wording in force from {mine['in_force_from']} ({mine['first']}), {until}"
    if after is not None:
        if after["number"] is None:
            text += f"; {after['kind']} in {after['first']}" + (f" into {after['into']}" if after.get("into") else "")
        else:
            text += f"; superseded by {after['number']} of {after['first']} ({after['kind']})"
    if out["current"]:
        text += f"; current version: {newest['number']} of {newest['last']}"
    out["summary"] = text
    return out

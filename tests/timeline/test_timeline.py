"""Rules over time (kb.timeline): the edition resolver, the stored wordings and the
point-in-time queries, the CLI's dates and aliases.

The resolver is tested on invented edition lists (its rules) and on four real editions of
the corpus built into a small KB: en/2009-07-08 (whose text states 2009-07-11), en/2009-07-11,
en/2009-10-01, en/2010-02-01 -- a tie of effective dates and a date a few days off its file.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekb.kb import service
from rulekb.kb.errors import KBError, NotFound
from rulekb.kb.timeline.editions import BadDate, FutureDate, Known, Timeline, parse_date
from rulekb.kb.timeline.wordings import runs

from ..helpers import invoke_cli, run_cli

TODAY = dt.date(2026, 12, 1)
INVENTED = Timeline([
    Known("en/2001-01-10", "en", "2001-01-10"),
    Known("en/2001-06-01", "en", "2001-06-04"),  # states a date a few days off its file
    Known("en/2001-06-04", "en", "2001-06-04"),  # the same effective date: the later wins
    Known("en/2002-03-01", "en", "2002-03-01"),
    Known("en/2002-05-01", "en", "2002-05-01", partial=True),  # a truncated copy: never by date
    Known("fr/2001-02-02", "fr", "2001-02-02", partial=True),
    Known("fr/2003-02-02", "fr", "2003-02-02", partial=True),
    Known("fr/undated-x", "fr", None, partial=True),
])


# -- the resolver's rules ----------------------------------------------------------


@pytest.mark.parametrize("name, expected, how", [
    ("en/latest", "en/2002-03-01", "latest"),  # the partial en/2002-05-01 is not "the rules"
    ("latest", "en/2002-03-01", "latest"),
    ("en", "en/2002-03-01", "latest"),
    ("fr/latest", "fr/2003-02-02", "latest"),  # a language with no complete edition: its dated texts
    ("en@2001-06-03", "en/2001-01-10", "date"),  # en/2001-06-01 states 2001-06-04: not yet
    ("en@2001-06-04", "en/2001-06-04", "date"),  # tie: the later of the two
    ("en@2002-06-15", "en/2002-03-01", "date"),
    ("2001-07-01", "en/2001-06-04", "date"),
    ("fr@2002-01-01", "fr/2001-02-02", "date"),
    ("en/2002-05-01", "en/2002-05-01", "id"),  # an id names any edition, partial too
    ("fr/undated-x", "fr/undated-x", "id"),
])
def test_names_resolve(name, expected, how):
    found = INVENTED.resolve(name, today=TODAY)
    assert (found.edition, found.how) == (expected, how)


def test_the_answer_says_which_edition_and_why():
    found = INVENTED.resolve("en@2001-07-01", today=TODAY)
    assert found.reason == ("in force on 2001-07-01: en/2001-06-04, effective 2001-06-04, "
                            "superseded by en/2002-03-01")
    assert (found.previous, found.superseded_on, found.current) == ("en/2001-06-01", "2002-03-01", False)
    shadowed = INVENTED.resolve("en/2001-06-01", today=TODAY)
    assert "the text states 2001-06-04; its file is dated 2001-06-01" in shadowed.reason
    assert shadowed.superseded_by == "en/2001-06-04"
    assert INVENTED.resolve("en/latest").reason.endswith("the newest en edition")


def test_as_of_beside_a_language_or_nothing():
    assert INVENTED.resolve("en", as_of="2001-07-01", today=TODAY).edition == "en/2001-06-04"
    assert INVENTED.resolve(None, as_of="2001-07-01", today=TODAY).edition == "en/2001-06-04"
    assert INVENTED.resolve("fr", as_of="2004-01-01", today=TODAY).edition == "fr/2003-02-02"
    with pytest.raises(BadDate, match="not both"):
        INVENTED.resolve("en/2002-03-01", as_of="2001-07-01", today=TODAY)


@pytest.mark.parametrize("name, error, words", [
    ("en@2010-13-45", BadDate, "not a date of the calendar"),
    ("yesterday", NotFound, "names no edition"),
    ("10/03/2010", BadDate, "write it YYYY-MM-DD"),
    ("en@10/03/2010", BadDate, "write it YYYY-MM-DD"),
    ("en@1998-01-01", NotFound, "the first, en/2001-01-10, took effect on 2001-01-10"),
    ("en@2001-01-09", NotFound, "the first, en/2001-01-10"),
    ("en@2027-01-01", FutureDate, "the newest en edition is en/2002-03-01"),
    ("de/latest", NotFound, "no dated de edition in the knowledge base (languages: en, fr)"),
    ("de@2001-01-01", NotFound, "no dated de edition"),
    ("en/2001-06-02", NotFound, "nearest: en/2001-06-01, en/2001-06-04"),
    ("en/2001-06-02", NotFound, "en@2001-06-02 names the edition in force on that date"),
])
def test_bad_names_are_one_line_errors_naming_what_exists(name, error, words):
    with pytest.raises(error) as caught:
        INVENTED.resolve(name, today=TODAY)
    assert words in caught.value.message and "\n" not in caught.value.message
    assert caught.value.status in (400, 404)


DATES = st.dates(min_value=dt.date(1990, 1, 1), max_value=TODAY).map(dt.date.isoformat)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(DATES)
def test_a_date_gets_the_newest_edition_in_force_on_it(date):
    try:
        found = INVENTED.resolve(f"en@{date}", today=TODAY)
    except NotFound as error:
        assert date < "2001-01-10" and "took effect" in error.message
        return
    assert found.effective_date <= date
    assert found.superseded_on is None or found.superseded_on > date
    assert not INVENTED.known[found.edition].partial


@settings(max_examples=300, deadline=None)
@given(st.one_of(
    st.text(max_size=30),
    st.builds(lambda lang, d: f"{lang}@{d}", st.sampled_from(["en", "fr", "de", "", "EN"]), st.text(max_size=12)),
    st.builds(lambda y, m, d: f"en@{y:04d}-{m:02d}-{d:02d}", st.integers(0, 9999), st.integers(0, 99), st.integers(0, 99)),
))
def test_any_name_resolves_or_says_why(name):
    try:
        found = INVENTED.resolve(name, today=TODAY)
    except KBError as error:
        assert error.message and "\n" not in error.message and error.status in (400, 404)
        return
    assert found.edition in INVENTED.known


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=20))
def test_parse_date_takes_iso_dates_only(text):
    try:
        value = parse_date(text, TODAY)
    except KBError:
        return
    assert dt.date.fromisoformat(value) <= TODAY and len(value) == 10


def test_runs_cut_a_lineage_where_number_or_text_changes():
    numbers = {"a": "100.1", "b": "100.1", "c": "100.2", "d": "100.2", "e": "100.2"}
    texts = {"a": "x", "b": "x", "c": "x", "d": "y", "e": "y"}
    assert runs(numbers, lambda edition, number: texts[edition]) == [["a", "b"], ["c"], ["d", "e"]]


# -- on four real editions ---------------------------------------------------------


def test_corpus_tie_and_mismatched_date(timeline_kb):
    store, _ = timeline_kb
    known = service.timeline(store)
    assert known.known["en/2009-07-08"].effective_date == "2009-07-11"  # the text's date, not the file's
    assert service.resolve_edition(store, "en@2009-07-11", known=known).edition == "en/2009-07-11"
    assert service.resolve_edition(store, "en@2009-12-31", known=known).edition == "en/2009-10-01"
    assert service.resolve_edition(store, "en/latest", known=known).edition == "en/2010-02-01"
    with pytest.raises(NotFound, match="took effect on 2009-07-11"):
        service.resolve_edition(store, "en@2009-07-10", known=known)


def test_rule_as_of_gives_the_wording_of_the_edition_in_force(timeline_kb):
    store, _ = timeline_kb
    for date, edition in (("2009-08-01", "en/2009-07-11"), ("2009-12-01", "en/2009-10-01"), ("2010-03-15", "en/2010-02-01")):
        answer = service.rule_as_of(store, "100.2", date)
        assert answer["edition"]["edition"] == edition
        assert answer["text"] == service.rule(store, edition, "100.2")["text"]
        w = answer["wording"]
        assert w["first"] <= edition <= w["last"] and w["in_force_from"] <= date
        assert w["in_force_until"] is None or w["in_force_until"] > date
    before = service.rule_as_of(store, "100.2", "2009-08-01")  # 100.2 was reworded on 2009-10-01
    assert before["wording"]["in_force_until"] == "2009-10-01"
    assert before["superseded_by"]["edition"] == "en/2009-10-01"
    with pytest.raises(NotFound, match="no rule 999.9 was in force on 2009-08-01"):
        service.rule_as_of(store, "999.9", "2009-08-01")


def test_wordings_tile_each_lineage_without_gaps(timeline_kb):
    store, _ = timeline_kb
    rows = service.run(store, "lineage-versions", edition="en/2010-02-01", number="100.2")
    assert len(rows) >= 2
    for before, after in zip(rows, rows[1:]):
        assert before["in_force_until"] == after["in_force_from"]
    # every version of a lineage is in exactly one wording: the counts add up
    gaps = store.select("""
        PREFIX rk: <https://w3id.org/rulekb#> PREFIX dcterms: <http://purl.org/dc/terms/>
        SELECT ?lineage WHERE {
          { SELECT ?lineage (COUNT(?v) AS ?versions) WHERE { ?v rk:lineage ?lineage } GROUP BY ?lineage }
          { SELECT ?lineage (SUM(?n) AS ?counted) WHERE { ?w dcterms:isVersionOf ?lineage ; rk:wordingEditions ?n } GROUP BY ?lineage }
          FILTER (?versions != ?counted)
        } LIMIT 5""")
    assert gaps == []


def test_rules_changed_between_agrees_with_the_stored_changes(timeline_kb):
    store, _ = timeline_kb
    rows = service.rules_changed_between(store, "2009-10-01", "2010-12-31")
    assert {r["edition"] for r in rows} == {"en/2010-02-01"}
    changes = service.run(store, "edition-changes", old="en/2009-10-01", new="en/2010-02-01")
    for kind in ("renumbered", "removed"):
        numbers = {(r.get("new_number") or r.get("old_number")) for r in changes if r["kind"] == kind}
        if kind == "removed":  # a merged rule's removal is said once, as merged
            numbers -= {r["old_number"] for r in changes if r["kind"] == "merged"}
        assert {r["number"] for r in rows if r["kind"] == kind} == numbers
    with pytest.raises(KBError, match="give the earlier date first"):
        service.rules_changed_between(store, "2010-01-01", "2009-01-01")


def _key(row: dict) -> str:
    return json.dumps(row, sort_keys=True)


@pytest.mark.parametrize("limit", [1, 40, 500, 100_000])
def test_pages_of_a_window_are_its_rows_in_whole_dates(timeline_kb, limit):
    store, _ = timeline_kb
    for start, end, lang in (("1999-01-01", "2026-12-01", None), ("2009-07-10", "2010-12-31", "en")):
        everything = service.rules_changed_between(store, start, end, lang)
        counts = {r["date"]: int(r["changes"]) for r in service.run(
            store, "changes-per-date", **{"from": start, "to": end, **({"lang": lang} if lang else {})})}
        assert sum(counts.values()) == len(everything) and len(counts) >= 3
        got, after, dates = [], None, []
        while True:
            page = service.rules_changed_page(store, start, end, lang, limit=limit, after=after)
            assert page["total"] == len(everything) and page["after"] == after
            days = sorted({r["date"] for r in page["rows"]})
            assert days and all(counts[d] == sum(r["date"] == d for r in page["rows"]) for d in days)  # whole dates
            assert len(page["rows"]) <= limit or len(days) == 1
            assert after is None or days[0] > after
            dates += days
            got += page["rows"]
            if page["next"] is None:
                break
            assert page["next"] == days[-1]
            after = page["next"]
        # (the same rows; in the query's order, which leaves ties of date, edition and number unordered)
        assert dates == sorted(counts) and sorted(map(_key, got)) == sorted(map(_key, everything))


def test_a_page_refuses_a_cursor_outside_its_window_and_a_bad_limit(timeline_kb):
    store, _ = timeline_kb
    for after, words in (("2009-01-01", "not in the window"), ("2010-12-31", "not in the window"),
                         ("2009-13-45", "not a date of the calendar")):
        with pytest.raises(KBError, match=words):
            service.rules_changed_page(store, "2009-06-01", "2010-12-31", after=after)
    with pytest.raises(KBError, match="page size"):
        service.rules_changed_page(store, "2009-06-01", "2010-12-31", limit=-3)


def test_cli_takes_dates_and_aliases(timeline_kb):
    _, location = timeline_kb
    found = run_cli("rule", "en@2009-12-01", "100.2", "--store", str(location), "--format", "json")
    assert found.returncode == 0, found.stderr
    data = found.json
    assert data["edition"] == "en/2009-10-01" and data["in_force"]["edition"]["how"] == "date"
    assert "in force on 2009-12-01: en/2009-10-01" in found.stderr
    text = invoke_cli("as-of", "100.2", "2009-08-01", "--store", str(location))
    assert text.returncode == 0 and "superseded by 100.2 of en/2009-10-01" in text.stdout
    history = invoke_cli("history", "100.2", "--edition", "en/latest", "--ranges", "--store", str(location), "--format", "json")
    assert history.returncode == 0 and history.json[0]["in_force_from"] == "2009-07-11"
    for args in (("rule", "en", "100.2", "--as-of", "2010-13-45"), ("rule", "yesterday", "100.2"),
                 ("diff", "en@10/03/2010", "en/latest"), ("export", "de/latest"), ("changes", "2009-01-01", "tomorrow")):
        bad = invoke_cli(*args, "--store", str(location))
        assert bad.returncode == 2, (args, bad.stderr)
        assert bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr


def test_the_wording_check_flags_broken_intervals():
    from rulekb.kb.store.embedded import EmbeddedStore

    rk, dc, xsd = "https://w3id.org/rulekb#", "http://purl.org/dc/terms/", "http://www.w3.org/2001/XMLSchema#date"
    w1, w2, w3, lin = ("<http://x/lineage/en/2030-01-01/100.1/wording/1>", "<http://x/lineage/en/2030-01-01/100.1/wording/2>",
                       "<http://x/lineage/en/2030-01-01/100.1/wording/3>", "<http://x/lineage/en/2030-01-01/100.1>")
    g = "<http://x/graph/lineage>"
    quads = f"""
{w1} <{dc}isVersionOf> {lin} {g} .
{w1} <{rk}inForceFrom> "2030-01-01"^^<{xsd}> {g} .
{w1} <{rk}inForceUntil> "2030-06-01"^^<{xsd}> {g} .
{w2} <{dc}isVersionOf> {lin} {g} .
{w2} <{dc}replaces> {w1} {g} .
{w2} <{rk}inForceFrom> "2030-07-01"^^<{xsd}> {g} .
{w2} <{rk}inForceUntil> "2030-03-01"^^<{xsd}> {g} .
{w3} <{dc}isVersionOf> {lin} {g} .
{w3} <{dc}replaces> {w2} {g} .
{w3} <{rk}inForceFrom> "2030-03-01"^^<{xsd}> {g} .
"""
    store = EmbeddedStore.in_memory(quads.encode())
    messages = [row["message"] for row in service.run(store, "wording-interval-violation")]
    assert len(messages) == 2  # w2 starts a month after w1 stops, and stops before it starts; w3 is fine
    assert any("stops (2030-03-01) before it starts (2030-07-01)" in m for m in messages)
    assert any("starts on 2030-07-01 but the wording it replaces stops on 2030-06-01" in m for m in messages)


# -- the queries from the wordings' own links give the rows the joins over every change gave ------

WINDOWS = [("2009-01-01", "2009-12-31"), ("2009-07-10", "2009-07-11"), ("2009-07-11", "2010-02-01"),
           ("2009-10-01", "2010-12-31"), ("1999-01-01", "2026-12-01"), ("2010-02-02", "2026-12-01")]


def test_rules_changed_between_gives_the_rows_the_joins_gave(timeline_kb):
    from .reference import rows, same

    store, _ = timeline_kb
    for start, end in WINDOWS:
        for lang in ("en", None):
            params = {"from": start, "to": end, **({"lang": lang} if lang else {})}
            old, new = rows(store, "rules-changed-between", **params), service.run(store, "rules-changed-between", **params)
            assert same(old, new), (start, end, lang)
    everything = service.run(store, "rules-changed-between", **{"from": "1999-01-01", "to": "2026-12-01"})
    assert {r["kind"] for r in everything} >= {"added", "modified", "renumbered", "removed"}


def test_lineage_versions_and_rule_as_of_give_the_rows_the_joins_gave(timeline_kb):
    from .reference import rows, same

    store, _ = timeline_kb
    numbers = [r["number"] for r in service.run(store, "edition-rules", edition="en/2010-02-01")][::25]
    assert len(numbers) > 20
    for number in numbers + ["100.2"]:
        for edition in ("en/2010-02-01", "en/2009-07-08"):
            old, new = rows(store, "lineage-versions", edition=edition, number=number), \
                service.run(store, "lineage-versions", edition=edition, number=number)
            assert same(old, new), (edition, number)
        for date in ("2009-08-01", "2010-03-15"):
            old, new = rows(store, "rule-as-of", number=number, date=date, lang="en"), \
                service.run(store, "rule-as-of", number=number, date=date, lang="en")
            added = ("ended", "ended_in")  # (columns the reference has not: how the lineage ended)
            assert same(old, [{k: v for k, v in r.items() if k not in added} for r in new]), (number, date)


def test_bench_timeline_gives_wall_and_cpu_medians_and_the_load(timeline_kb):
    from rulekb.kb.bench.timeline import WINDOWS as BENCH_WINDOWS, bench_timeline

    store, _ = timeline_kb
    figures = bench_timeline(store, repeat=1)
    assert set(figures["rules_changed_between_ms"]) == {f"{a}..{b}" for a, b in BENCH_WINDOWS}
    assert set(figures["cpu_ms"]["between"]) == set(figures["rules_changed_between_ms"])
    assert figures["rules_changed_between_rows"]["1999-01-01..2026-12-01"] > 0
    assert figures["wordings"] > 0 and len(figures["load_average"]) == 3
    assert set(figures["cpu_ms"]["ranges"]) == set(figures["history_per_edition_ms"])


def test_a_rule_removed_says_when_and_where(timeline_kb):
    store, _ = timeline_kb
    removed = [r for r in service.rules_changed_between(store, "2009-10-01", "2010-12-31", "en") if r["kind"] == "removed"]
    assert removed
    number = removed[0]["number"]
    before = service.rule_as_of(store, number, "2009-12-01")
    assert before["superseded_by"] is None
    assert before["ended"] == {"kind": "removed", "edition": "en/2010-02-01", "date": "2010-02-01"}
    with pytest.raises(NotFound, match=rf"no rule {number} was in force on 2010-03-01 .*then removed in en/2010-02-01"):
        service.rule_as_of(store, number, "2010-03-01")
    text = invoke_cli("as-of", number, "2009-12-01", "--store", str(timeline_kb[1]))
    assert text.returncode == 0 and "removed in en/2010-02-01" in text.stdout


def test_the_page_data_keeps_the_rows_of_rules_changed_between(timeline_kb, monkeypatch):
    """`rulekb changes` and the web read a window's rows from the build's page data (a long
    window costs Oxigraph over a second): the query's own rows, in its order, for any window,
    and the same answers with the page data gone."""
    from rulekb.kb.pages import for_store
    from rulekb.kb.timeline import answers

    store, _ = timeline_kb
    data = for_store(store)
    assert data is not None and data.has_changes
    dates = [r["date"] for r in service.run(store, "changes-per-date", **{"from": "0000-01-01", "to": "9999-12-31"})]
    windows = [("1999-01-01", "2026-12-01"), (dates[0], dates[-1]), (dates[1], dates[1]), (dates[0], dates[2]),
               ("2009-07-10", "2010-12-31")]
    for start, end in windows:
        for lang in (None, "en", "fr"):
            params = {"from": start, "to": end, **({"lang": lang} if lang else {})}
            assert data.changes(start, end, lang) == service.run(store, "rules-changed-between", **params)
            assert data.changes_per_date(start, end, lang) == service.run(store, "changes-per-date", **params)
    kept = service.rules_changed_between(store, "1999-01-01", "2026-12-01")
    page = service.rules_changed_page(store, "1999-01-01", "2026-12-01", limit=40)
    assert kept and len(kept) > 40
    monkeypatch.setattr(answers, "_page_data", lambda store: None)
    assert service.rules_changed_between(store, "1999-01-01", "2026-12-01") == kept
    assert service.rules_changed_page(store, "1999-01-01", "2026-12-01", limit=40) == page


def test_page_data_rows_of_another_query_text_are_not_used(timeline_kb, monkeypatch):
    from rulekb.kb.pages import PageData, companion
    from rulekb.kb.store import queries

    store, _ = timeline_kb
    real = queries.get

    def changed(name):
        found = real(name)
        if name == "rules-changed-between":
            from dataclasses import replace

            return replace(found, body=found.body + "\n# changed\n")
        return found

    monkeypatch.setattr(queries, "get", changed)
    data = PageData(companion(store.data_dir()))
    try:
        assert not data.has_changes and data.changes("1999-01-01", "2026-12-01", None) is None
    finally:
        data.close()

"""The build's page data (kb.pages) answers what the rule page's named queries answer:
the same rows for every key it holds, the same page bytes with and without it, beside
each build and following a rebuild. No timing here: speed is `rulekb bench serve`'s."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import pytest

from rulekb.kb.pages import ANSWERED, LINEAGE_QUERIES, companion, for_store, paged, write
from rulekb.kb.pages.data import KNOWABLE
from rulekb.kb.service import run
from rulekb.kb.translate.kept import keep

from ..corpus_build import SHARED_ROWS
from ..helpers import WebServer, http

FIXTURES = Path(__file__).parents[1] / "fixtures"
OLD = FIXTURES / "invented-cr-2030-05-05.txt"
NEW = FIXTURES / "web" / "invented-hostile-2031-01-01.html"
HTML = {"Accept": "text/html"}


def rows_agree(store, keys) -> int:
    """Asserts the page data's rows == the named queries' for each key wherever it answers
    (the per-lineage queries: always); returns how many rows were compared."""
    data = for_store(store)
    assert data is not None and data.answers == set(ANSWERED)
    compared = 0
    for edition, number in keys:
        for name in ANSWERED:
            kept = data.rows(name, edition, number)
            if name in LINEAGE_QUERIES:
                assert kept is not None, (name, edition, number)
            if kept is None:
                continue  # the store is asked
            assert kept == run(store, name, edition=edition, number=number), (name, edition, number)
            compared += len(kept) + 1
    return compared


def same_pages(root: str, paths: list[str]) -> None:
    from rulekb.kb.web import rule_page

    with_data = [http(root + p, headers=HTML) for p in paths]
    rule_page.USE_PAGE_DATA = False
    try:
        without = [http(root + p, headers=HTML) for p in paths]
    finally:
        rule_page.USE_PAGE_DATA = True
    for path, (a_status, _, a_body), (b_status, _, b_body) in zip(paths, with_data, without):
        assert a_status == b_status == 200, path
        assert a_body == b_body, path


def same_page_data(built: Path, asked: Path) -> int:
    """Asserts two page data files hold the same tables row for row; returns the rows."""
    import sqlite3

    a, b = sqlite3.connect(built), sqlite3.connect(asked)
    try:
        tables = [name for (name,) in a.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        assert tables == [name for (name,) in b.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        compared = 0
        for table in tables:
            order = ", ".join(str(i + 1) for i in range(min(2, len(a.execute(f"SELECT * FROM {table}").description))))
            # (but the digest a build keeps of what it wrote the file from, for a rebuild to reuse
            # it: kb.pages.reuse; a file written apart has none)
            where = " WHERE key != 'inputs'" if table == "meta" else ""
            rows = a.execute(f"SELECT * FROM {table}{where} ORDER BY {order}").fetchall()
            assert rows == b.execute(f"SELECT * FROM {table}{where} ORDER BY {order}").fetchall(), table
            compared += len(rows)
        return compared
    finally:
        a.close()
        b.close()


@pytest.fixture
def two_editions(tmp_path):
    from rulekb.kb.build import build
    from rulekb.kb.store.embedded import EmbeddedStore

    store = EmbeddedStore(tmp_path / "store")
    report = build([str(OLD), str(NEW)], store, reasoner="none")
    return store, report


def test_the_build_writes_page_data_beside_the_store(two_editions):
    store, report = two_editions
    path = companion(store.data_dir())
    assert report.pages["file"] == str(path) and path.is_file() and report.pages["lineages"] > 0
    keys = [(r["edition"], r["number"]) for r in run(store, "page-lineages")]
    assert {e for e, _ in keys} == {"en/2030-05-05", "en/2031-01-01"}
    assert rows_agree(store, keys) > 0  # wordings of every lineage at least
    data = for_store(store)
    assert data.rows("lineage-versions", "en/2030-05-05", "999.99z") == []  # no such rule: no rows, as the query


def test_page_data_is_not_used_for_a_changed_query(two_editions, monkeypatch):
    from rulekb.kb.pages import reading as page_reading
    from rulekb.kb.store import queries

    store, _ = two_editions
    real = queries.get

    def changed(name):
        found = real(name)
        if name in ("rule-in-french", "rule-siblings"):
            from dataclasses import replace

            return replace(found, body=found.body + "\n# changed\n")
        return found

    monkeypatch.setattr(queries, "get", changed)
    monkeypatch.setattr(page_reading.queries, "get", changed)
    reopened = page_reading.PageData(companion(store.data_dir()))
    assert reopened.answers == set(ANSWERED) - {"rule-in-french", "rule-siblings"}
    assert reopened.rows("rule-in-french", "en/2030-05-05", "100.1") is None  # the store is asked
    assert reopened.rows("rule-siblings", "en/2030-05-05", "100.1") is None


def test_pages_are_the_same_with_and_without_page_data_and_follow_a_rebuild(two_editions, tmp_path):
    from rulekb.kb.build import build
    from rulekb.kb.cli.serve_commands import build_app
    from rulekb.kb.store.embedded import EmbeddedStore

    store, _ = two_editions
    first = companion(store.data_dir())
    app = build_app(store, None, max_rows=1000, timeout=10, cache=0, query_workers=1)
    paths = [f"edition/{e}/rule/{n}" for e, n in
             [("en/2030-05-05", "100.1"), ("en/2031-01-01", "100.1"), ("en/2030-05-05", "100.2")]]
    with WebServer(app) as root:
        same_pages(root, paths)
        build([str(NEW)], EmbeddedStore(store.root), reasoner="none")  # another process's build
        time.sleep(EmbeddedStore.FOLLOW_EVERY + 0.2)
        second = companion(store.data_dir())
        assert second != first and second.is_file() and not first.exists()  # swapped with its build
        assert http(root + paths[0], headers=HTML)[0] == 404
        same_pages(root, paths[1:2])
        assert for_store(store).path == second


def test_a_store_without_page_data_asks_the_store(two_editions, monkeypatch):
    store, _ = two_editions
    path = companion(store.data_dir())
    path.unlink()
    from rulekb.kb.pages import reading as page_reading

    # the look-again interval far longer than the write below can take on a loaded machine
    monkeypatch.setattr(page_reading, "LOOK_EVERY", 3600.0)
    page_reading._OPEN.clear()
    page_reading._LOOKED.clear()
    assert for_store(store) is None
    again = write(store)
    assert Path(again["file"]) == path and for_store(store) is None  # looked a moment ago: not yet
    page_reading._LOOKED.clear()
    assert for_store(store) is not None


def test_page_data_of_another_layout_is_not_read(two_editions):
    """A file written by another version of rulekb (an upgrade without a rebuild: other
    tables or columns) is left alone -- the pages ask the store -- rather than failing them."""
    import sqlite3

    from rulekb.kb.pages import reading as page_reading

    store, _ = two_editions
    path = companion(store.data_dir())
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value = '1' WHERE key = 'layout'")
    db.commit()
    db.close()
    page_reading._OPEN.clear()
    page_reading._LOOKED.clear()
    assert for_store(store) is None
    assert run(paged(store, "en/2030-05-05", "100.1"), "rule", edition="en/2030-05-05", number="100.1")


def test_corpus_page_data_rows_and_pages(corpus_kb, corpus_web, corpus_page_rows):
    """On the real corpus: the rows of a sample of rule versions of English and French
    editions, old and new, and their pages, with and without the page data. The newest
    edition's rules with consistency findings are read from the page-flags rows the build handed
    its page data (the test below: the query's rows), not from the query again (6-9 s of CPU
    over the whole KB): all of them, a superset of the five the query's first rows gave."""
    store, report = corpus_kb
    assert report.pages["keys"] > 100_000
    from rulekb.kb.service import editions

    french = [e["edition"] for e in editions(store) if e["language"] == "fr"]  # (all partial: no lineage)
    keys = []
    for edition, every in [("en/2008-02-01", 150), ("en/2011-02-04", 150), ("en/2026-01-16", 10), (french[-1], 20)]:
        numbers = [r["number"] for r in run(store, "edition-rules", edition=edition)]
        keys += [(edition, n) for n in numbers[::every]]
    # removed, renumbered, a section's first rule, examples, citers, consistency findings
    special = [("en/2010-02-01", "806.6"), ("en/2009-05-01", "200.5a"), ("en/2026-01-16", "100.1"),
               ("en/2026-01-16", "111.2"), ("en/2026-01-16", "702.19"), ("en/2026-01-16", "601.2b")]
    findings = sorted({r["number"] for r in corpus_page_rows["page-flags"]
                       if r["edition"] == "en/2026-01-16" and r["what"] == "findings"})
    assert len(findings) >= 5
    special += [("en/2026-01-16", number) for number in findings]
    assert rows_agree(store, keys + special) > 0
    same_pages(corpus_web, [f"edition/{e}/rule/{n}" for e, n in keys[::6] + special])


_ABSENT = object()  # a key a row does not have


def _bags(a: list[dict], b: list[dict]) -> tuple[Counter, Counter]:
    """Two lists of rows as multisets, each row the tuple of its values under every key either
    list has (``_ABSENT`` where it has none): two rows are the same tuple exactly when they are
    equal dicts. (Each row's items sorted into a tuple was the same check at twice the CPU: 5.5 s
    for the corpus KB's 645,000 rows.)"""
    keys = sorted({key for rows in (a, b) for row in rows for key in row})
    return tuple(Counter(tuple(row.get(key, _ABSENT) for key in keys) for row in rows) for rows in (a, b))


def _same_bag(a: list[dict], b: list[dict]) -> bool:
    first, second = _bags(a, b)
    return first == second


def test_corpus_page_rows_from_the_builds_memory_are_the_queries_rows(corpus_kb, corpus_page_rows, corpus_rows):
    """The build hands the page data the rows of page-structure, page-lineages and page-flags
    made from what it wrote (kb.build.page_rows: kb.rdf.edition.structure_rows,
    kb.rdf.lineage.lineage_rows) instead of asking the store: on the real corpus (numbers two
    nodes share, subrules without their rule, renumbered lineages) they are the queries' rows,
    row for row (as multisets: the file made from them does not depend on their order, the
    tests below on a small KB). So the file the build writes from its memory is the one a write
    asking the store gives: written whole, the two are compared on the small KB below."""
    store, _ = corpus_kb
    assert set(corpus_page_rows) == set(KNOWABLE)
    compared = 0
    for name in KNOWABLE:
        rows = corpus_page_rows[name]
        asked = corpus_rows(name) if name in SHARED_ROWS else run(store, name)  # (each asked once a run)
        assert _same_bag(rows, asked), name
        compared += len(rows)
    assert compared > 500_000


def test_page_data_from_the_builds_memory_is_the_page_data_from_the_queries(two_editions, tmp_path):
    store, report = two_editions
    asked = tmp_path / "asked.sqlite"
    write(store, target=asked, extra=keep)  # (the build's extra: the English rules' scoring evidence)
    assert same_page_data(Path(report.pages["file"]), asked) > 0


def test_page_data_depends_on_the_rows_handed_in_not_on_their_order(two_editions, tmp_path):
    """The rows handed to write() (``known``, the build's, from its memory) in another order
    give the same file: the rows are what the corpus test compares with the queries'."""
    store, _ = two_editions
    rows = {name: run(store, name) for name in KNOWABLE}
    assert all(len(found) > 1 for found in rows.values())
    write(store, target=tmp_path / "asked.sqlite", known=rows)
    write(store, target=tmp_path / "reversed.sqlite", known={name: found[::-1] for name, found in rows.items()})
    assert same_page_data(tmp_path / "asked.sqlite", tmp_path / "reversed.sqlite") > 0


def test_structure_rows_are_page_structures_and_page_flags_rows_for_odd_numbering():
    """A number two rules share (one node, two orders), a subrule whose rule is missing
    (it hangs on the section), a rule whose section is missing (on the part), a rule numbered
    like a section (two nodes of one number), a rule with no parent at all; examples, citations
    (a rule's, an example's, a dangling one) and a printed number: the rows made from memory
    are the queries', as multisets."""
    from rulekb.ingest.model import Edition, Heading, Rule
    from rulekb.kb.rdf.edition import edition_nquads, structure_rows
    from rulekb.kb.rdf.iris import Minter
    from rulekb.kb.store.embedded import EmbeddedStore

    edition = Edition(id="en/2030-01-01", language="en", effective_date="2030-01-01", title="Odd",
                      parts=[Heading("1", "Game Concepts", 1)],
                      sections=[Heading("100", "General", 2), Heading("101", "Other", 3)],
                      rules=[Rule("100.1", "One.", parent="100", order=4), Rule("100.1", "Again, see rule 101.1.", parent="100", order=5),
                             Rule("100.1a", "Sub.", examples=["Example: As rule 102.1 says."], parent="100.1", order=6),
                             Rule("100.2b", "Orphan, see rule 999.9.", parent="100.2", order=7, printed="100.2 b"),
                             Rule("102.1", "No section.", parent="102", order=8), Rule("101", "Like a section.", parent="1", order=9),
                             Rule("101.1", "Under both.", parent="101", order=10), Rule("9.9", "Nowhere.", order=11)])
    mint = Minter.for_base("http://example.org/")
    store = EmbeddedStore.in_memory(edition_nquads(edition, mint).encode())
    rows, numbers, flags = structure_rows(edition, mint)

    assert _same_bag(rows, run(store, "page-structure"))
    assert _same_bag(flags, run(store, "page-flags"))
    assert {r["what"] for r in flags} == {"examples", "printed", "cites", "cited", "twice"}
    assert numbers[mint.rule(edition.id, "100.1")] == {"100.1"}
    assert len([r for r in rows if r["number"] == "100.1"]) == 2  # one node, two orders


def test_siblings_are_left_to_the_store_where_the_number_is_not_the_node():
    """page-structure groups rules by their parent's number; where that is not the parent
    node (a number two nodes carry, a rule with two rows, a tie of orders) the group is None
    and its rules are not placed: rule-siblings and rule-children then ask the store."""
    from rulekb.kb.pages import data as page_data

    rows = {
        "page-structure": [
            {"edition": "e", "number": n, "order": o, "parent_number": p}
            for n, o, p in [("1.1", "2", "1"), ("1.2", "1", "1"),  # a sure group, ordered by order
                            ("2.1", "5", "2"), ("2.2", "5", "2"),  # a tie of orders
                            ("3.1", "7", "3"), ("3.1", "8", "3"), ("3.2", "9", "3"),  # two rows for 3.1
                            ("4.1", "10", "4"), ("4.2", "11", "4"),  # 4 names two nodes
                            ("1.2a", "12", "1.2")]],
    }
    parents, groups = page_data._structure(rows["page-structure"], {("e", "4")})
    assert groups[("e", "1")] == [["1.2", "1"], ["1.1", "2"]] and groups[("e", "1.2")] == [["1.2a", "12"]]
    assert groups[("e", "2")] is None and groups[("e", "3")] is None and groups[("e", "4")] is None
    assert parents == {("e", "1.1"): "1", ("e", "1.2"): "1", ("e", "1.2a"): "1.2"}


def test_a_wordings_concepts_are_kept_in_the_querys_order_and_ties_left_to_the_store():
    """rule-concepts orders its rows by label (unbound first); the page data keeps each
    wording's rows in that order, by the lineage and wording numbers a rule's row gives, and
    keeps none where two labels tie (their order is the store's) or the wording is not placed."""
    from rulekb.kb.pages import data as page_data

    c = "http://x/concept/"
    rows = [{"wording": "w1", "concept": c + "b", "label": "Beta"}, {"wording": "w1", "concept": c + "a", "label": "Alpha"},
            {"wording": "w1", "concept": c + "z"},
            {"wording": "w2", "concept": c + "p", "label": "Same"}, {"wording": "w2", "concept": c + "q", "label": "Same"},
            {"wording": "w3", "concept": c + "r", "label": "Elsewhere"}]
    prefix, kept = page_data._wording_concepts(rows, {"w1": (0, 1), "w2": (4, 0)})
    assert prefix == c
    assert kept == [(0, 1, '[["z"],["a","Alpha"],["b","Beta"]]'), (4, 0, None)]


def test_bench_pages_renders_each_page_both_ways_and_says_the_load(two_editions):
    """`rulekb bench pages`: the figures' shape, never a speed; both ways give the same bytes."""
    from rulekb.kb.bench.pages import bench_pages, sample

    store, _ = two_editions
    keys = sample(store, 6)
    assert len(keys) == len(set(keys)) > 1 and {e for e, _ in keys} == {"en/2030-05-05", "en/2031-01-01"}
    figures = bench_pages(store, pages=6, rounds=1)
    assert figures["pages"] == len(keys) and set(figures["modes"]) == {"page data", "queries"}
    assert figures["same_bytes"] and len(figures["load_average"]) == 3
    assert all(len(mode["cpu_ms"]) == 1 for mode in figures["modes"].values())
    full = figures["full_collections"]  # the collector's full collections of the measured rounds
    assert full["count"] >= 0 and full["cpu_ms_max"] <= full["cpu_ms_total"] and full["tracked_objects"] > 0
    import gc

    assert gc.get_freeze_count() == 0 and all(getattr(c, "__name__", "") != "collected" for c in gc.callbacks)


def test_a_changes_only_file_says_what_it_writes(two_editions, tmp_path):
    """build --add's page data holds the changes alone: its progress says so instead of
    counting anchors and structure it never read ("anchors 0" read like a failed build)."""
    store, _ = two_editions
    heard: list[str] = []
    write(store, heard.append, target=tmp_path / "changes.sqlite", changes_only=True)
    assert any("changes only" in line for line in heard)
    assert not any("anchors" in line or "structure" in line for line in heard)
    heard.clear()
    write(store, heard.append, target=tmp_path / "all.sqlite")
    assert any(line.startswith("pages anchors ") for line in heard)

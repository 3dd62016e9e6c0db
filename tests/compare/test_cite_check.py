"""``rulekb cite-check``: citations found in notes and code, mapped to a later edition.

Unit tests use invented text; the corpus tests follow real renumberings (the spell-owner
rule: 200.5a before the 2009 restructure, 111.2 after it, 112.2 from 2019)."""

from __future__ import annotations

import pytest

from rulekb.kb.compare.cite_check import check, citations

NOTES = """# owner is CR 216.2 (see rule 217.1a); combat per rules 502.2 and 510.1c-d
def f():  # see 613.1f and §419.8; version 111.2 is not a citation; 702.19b bare
    pass  # cf. Comprehensive Rules 999.9
"""


def test_citations_need_a_cue_unless_asked():
    numbers = [c[3] for c in citations(NOTES)]
    assert numbers == ["216.2", "217.1a", "502.2", "510.1c", "510.1d", "613.1f", "419.8", "999.9"]
    assert "111.2" not in numbers and "702.19b" not in numbers
    assert "702.19b" in [c[3] for c in citations(NOTES, bare=True)]
    line, column, cited, _ = citations(NOTES)[0]
    assert (line, column, cited) == (1, 12, "CR 216.2")


def test_french_citations():
    assert [c[3] for c in citations("Cf. règles 510.1 c-d et voir règle 601.")] == ["510.1c", "510.1d", "601"]


def test_nothing_to_cite():
    assert citations("no rules here, only 3.14 and version 1.2.3") == []


@pytest.fixture(scope="module")
def editions(corpus):
    from rulekb.ingest.parse import parse_many

    wanted = ("CR-2009-05-01.txt", "CR-2011-09-30.txt", "CR-2026-01-16.txt")
    parsed = parse_many([str(corpus / "en" / name) for name in wanted]).editions
    return {e.id: e for e in parsed}


def test_a_citation_follows_its_rule_through_the_restructure(editions):
    [finding] = check("the spell's owner: CR 200.5a", editions["en/2009-05-01"], editions["en/2011-09-30"])
    assert finding.new_number == "111.2" and finding.status in ("renumbered", "modified")
    [later] = check("see rule 111.2", editions["en/2011-09-30"], editions["en/2026-01-16"])
    assert later.new_number == "112.2" and later.old_text and later.new_text


def test_numbers_the_edition_lacks_are_not_guessed(editions):
    [finding] = check("rule 999.9", editions["en/2011-09-30"], editions["en/2026-01-16"])
    assert finding.status == "not-in-edition" and finding.new_number is None


def test_cli_diff_pairs_rules_across_the_restructure(corpus_kb):
    from ..helpers import invoke_cli, run_cli

    store, _ = corpus_kb
    result = run_cli("diff", "en/2009-05-01", "en/2009-07-08", "--store", store.location, "--format", "json")
    assert result.returncode == 0, result.stderr
    data = result.json
    assert data["old"] == "en/2009-05-01" and data["counts"]["renumbered"] > 300
    assert {"old": "200.5a", "new": "111.2"}.items() <= next(c for c in data["changes"] if c["old"] == "200.5a").items()
    assert any(t["old"] == "in play" for t in data["term_changes"])
    html = invoke_cli("diff", "en/2025-11-14", "en/2026-01-16", "--store", store.location, "--report", "html")
    assert html.returncode == 0 and "<ins>" in html.stdout


def test_cli_cite_check(corpus_kb, tmp_path):
    from ..helpers import invoke_cli, run_cli

    store, _ = corpus_kb
    notes = tmp_path / "notes.md"
    notes.write_text("the spell's owner: CR 200.5a\nand rule 999.1\n", encoding="utf-8")
    result = run_cli("cite-check", str(notes), "--as-of", "en/2009-05-01", "--to", "en/2011-09-30",
                     "--store", store.location, "--format", "json")
    assert result.returncode == 0, result.stderr
    citations = result.json["citations"]
    assert [c["new_number"] for c in citations] == ["111.2", None]
    assert citations[1]["status"] == "not-in-edition"
    missing = invoke_cli("cite-check", str(tmp_path / "nope.md"), "--as-of", "en/2009-05-01", "--store", store.location)
    assert missing.returncode == 2 and "no such file" in missing.stderr
    unknown = invoke_cli("cite-check", str(notes), "--as-of", "en/1900-01-01", "--store", store.location)
    assert unknown.returncode == 2 and len(unknown.stderr.strip().splitlines()) == 1

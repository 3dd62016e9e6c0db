"""Every English edition in the real corpus: parsed, checked against the
corpus MANIFEST, and rendered back to its own text word for word."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest

from rulekb.ingest import numbers
from rulekb.ingest.decode import decode
from rulekb.ingest.parse import parse_file
from rulekb.ingest.render import round_trip

from ..helpers import manifest_rows

pytestmark = pytest.mark.corpus


ROWS = manifest_rows("en", "file")


@lru_cache(maxsize=None)
def parsed(path: str):
    [edition] = parse_file(path)
    return edition


@pytest.fixture
def row_path(corpus, row) -> Path:
    return corpus / "en" / row["file"]


def test_the_corpus_has_128_english_editions(corpus):
    assert len(ROWS) == 128
    assert len(list((corpus / "en").glob("CR-*.txt"))) == 128


@pytest.mark.parametrize("row", ROWS, ids=[r["file"] for r in ROWS])
def test_edition_round_trips_to_its_source_text(row, row_path):
    edition = parsed(str(row_path))
    text = decode(row_path.read_bytes()).text
    result = round_trip(edition, text)
    assert result.ok, str(result)


@pytest.mark.parametrize("row", ROWS, ids=[r["file"] for r in ROWS])
def test_edition_matches_the_manifest(row, row_path):
    edition = parsed(str(row_path))
    assert edition.id == f"en/{row['effective_date']}"
    assert edition.language == "en"
    expected_encoding = {"ascii": "ascii"}.get(row["encoding"], row["encoding"])
    assert edition.source.encoding == expected_encoding
    truncated = any(w.code == "truncated" for w in edition.warnings)
    assert truncated == (row["ending"] == "TRUNCATED")
    assert edition.partial == truncated


@pytest.mark.parametrize("row", ROWS, ids=[r["file"] for r in ROWS])
def test_edition_structure_is_a_tree_in_document_order(row, row_path):
    edition = parsed(str(row_path))
    known = {r.number for r in edition.rules} | {s.number for s in edition.sections} | {
        p.number for p in edition.parts}
    orphans = [r.number for r in edition.rules if r.parent not in known]
    # a subrule may come without its rule only where the text itself skips it
    assert len(orphans) <= 2, orphans
    keys = [numbers.sort_key(r.number) for r in edition.rules]
    assert keys == sorted(keys), "rules out of order after number repair"
    assert len({r.number for r in edition.rules}) == len(edition.rules), "duplicate rule numbers"
    assert len(edition.rules) > 300 and len(edition.sections) > 60 and len(edition.parts) >= 5
    assert all(not r.text.startswith(("Example", "EXAMPLE")) for r in edition.rules)
    if not edition.partial:
        assert len(edition.glossary) > 150


def test_the_2026_edition_has_the_published_counts(corpus):
    edition = parsed(str(corpus / "en" / "CR-2026-01-16.txt"))
    assert len(edition.sections) == 146
    assert len(edition.rules) == 3114
    assert len(edition.glossary) == 725
    assert len(edition.parts) == 9
    assert edition.rule("111.1").parent == "111"


def test_glossary_references_resolve_to_rules_of_their_edition(corpus):
    total = resolved = 0
    for path in sorted((corpus / "en").glob("CR-*.txt")):
        edition = parsed(str(path))
        known = {r.number for r in edition.rules} | {s.number for s in edition.sections} | {
            p.number for p in edition.parts}
        for entry in edition.glossary:
            total += len(entry.refs)
            resolved += sum(ref in known for ref in entry.refs)
    assert total > 60000
    assert resolved / total > 0.999


def test_the_truncated_copy_parses_what_is_there_and_warns(corpus):
    edition = parsed(str(corpus / "en" / "CR-2013-02-01.txt"))
    assert edition.partial
    assert len(edition.rules) > 1900
    assert [w.code for w in edition.warnings] == ["truncated"]
    assert "glossary" in edition.warnings[0].message


def test_replacement_characters_in_archive_copies_are_kept(corpus):
    for name in ("CR-1999-04-23.txt", "CR-2001-07-23.txt"):
        path = corpus / "en" / name
        source = decode(path.read_bytes()).text
        edition = parsed(str(path))
        assert source.count("\ufffd") > 0
        kept = sum(r.text.count("\ufffd") + sum(e.count("\ufffd") for e in r.examples) for r in edition.rules)
        kept += sum(g.definition.count("\ufffd") + g.term.count("\ufffd") for g in edition.glossary)
        kept += sum(p.count("\ufffd") for p in edition.front_matter + edition.back_matter)
        assert kept == source.count("\ufffd")


def test_hard_wrapped_editions_join_their_lines(corpus):
    edition = parsed(str(corpus / "en" / "CR-1999-04-23.txt"))
    rule = edition.rule("100.1")
    assert "\n" not in rule.text
    assert rule.text.startswith("These Magic rules assume a game between two players.")
    assert rule.text.endswith("<www.wizards.com>.")
    assert edition.rule("214.7a").examples[0].startswith("Merfolk or Wizard is acceptable")


def test_misprinted_numbers_are_read_back_with_evidence(corpus):
    edition = parsed(str(corpus / "en" / "CR-2006-10-01.txt"))
    rule = edition.rule("423.2b")
    assert rule is not None and rule.printed == "432.2b" and rule.parent == "423.2"
    assert edition.rule("432.2b") is None
    assert any(w.code == "misprinted-number" and "432.2b" in w.message for w in edition.warnings)
    kicker = parsed(str(corpus / "en" / "CR-2009-09-04.txt"))
    assert kicker.rule("702.30e").printed == "702.30d"


def test_a_wrapped_line_starting_with_a_cited_number_is_not_a_rule(corpus):
    edition = parsed(str(corpus / "en" / "CR-2003-10-01.txt"))
    assert edition.rule("200.9c").text.endswith('See rule 419.8 "Sources of Damage."')
    assert [r.number for r in edition.rules].count("419.8") == 1


def test_the_2009_restructure_is_just_another_layout(corpus):
    old = parsed(str(corpus / "en" / "CR-2009-05-01.txt"))
    new = parsed(str(corpus / "en" / "CR-2009-07-11.txt"))
    assert old.rule("213.1") is not None and "in play" in " ".join(r.text for r in old.rules)
    assert new.rule("111.1").text.startswith("A spell is a card on the stack.")
    assert any(s.title == "Spells" and s.number == "111" for s in new.sections)
    assert any(s.number == "213" and s.title == "Spells" for s in old.sections)


def test_an_archive_copy_of_an_older_text_is_flagged(corpus):
    edition = parsed(str(corpus / "en" / "CR-2006-06-01.txt"))
    assert edition.id == "en/2006-06-01"
    assert edition.effective_date == "2004-06-01"
    assert any(w.code == "date-mismatch" for w in edition.warnings)


# Any line that opens like a rule number ("704.5aa ...", "217.5c.", "111.1. Text"): laxer than the
# grammar on purpose, so that a number the grammar cannot read (a new shape) still counts here.
_OPENS_WITH_A_NUMBER = re.compile(rf"^\s*{numbers.LAX_RULE}\.?(?:\s|[A-Z“\"(]|$)")


@pytest.mark.parametrize("row", ROWS, ids=[r["file"] for r in ROWS])
def test_no_line_opening_with_a_rule_number_is_silently_inside_another_rule(row, row_path):
    """Each line of the rules that opens with a rule number starts that rule, or the parser said why
    not (a warning on that line, or text kept unplaced): a rule lost inside the one above it fails."""
    edition = parsed(str(row_path))
    lines = decode(row_path.read_bytes()).text.split("\n")
    accounted = {r.line for r in edition.rules} | {w.line for w in edition.warnings} | {u.line for u in edition.unplaced}
    first, last = min(r.line for r in edition.rules), max(r.line for r in edition.rules)
    silent = [f"{i}: {line[:60]}" for i, line in enumerate(lines[first - 1 : last], first)
              if _OPENS_WITH_A_NUMBER.match(line) and i not in accounted]
    assert not silent, silent


def test_every_number_prints_back_and_the_grammar_sorts_rules_in_document_order(corpus):
    """Over every English edition: each rule number formats back from its parts, and sorting the
    rules by the grammar's key is the order the edition prints them in."""
    for path in sorted((corpus / "en").glob("CR-*.txt")):
        edition = parsed(str(path))
        for rule in edition.rules:
            assert numbers.format(numbers.parse(rule.number)) == rule.number, (path.name, rule.number)
            assert numbers.parse(numbers.normalise(f" {rule.number}. ")) == numbers.parse(rule.number)
        assert sorted(edition.rules, key=lambda r: numbers.sort_key(r.number)) == edition.rules, path.name
        subrules = [r.number for r in edition.rules if numbers.is_subrule(r.number)]
        siblings = [(a, b) for a, b in zip(subrules, subrules[1:]) if numbers.parent(a) == numbers.parent(b)]
        steps = sum(numbers.next_subrule(a) == b for a, b in siblings)
        assert steps > 0.99 * len(siblings), path.name  # next_subrule is the edition's own step

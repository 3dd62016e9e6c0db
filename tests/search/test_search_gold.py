"""The search gold set (kb/bench/gold/search_gold.tsv): its shape, and -- on the real
corpus -- that every rule it names exists in the edition it names, parsed by ingest from the
corpus files (not read from a store), so a renumbered or mistyped answer fails here instead of
silently scoring as a miss in ``rulekb bench search``."""

from __future__ import annotations

import csv
import re
from collections import Counter
import pytest

from rulekb.kb.bench.search import GOLD  # package data

from ..helpers import gold_rule_problems

COLUMNS = ["id", "lang", "edition", "question", "rules", "note"]
ENGLISH_EDITION = "en/2026-01-16"
RULE = re.compile(r"^[1-9]\d{2}\.\d+[a-z]?$")


def load() -> list[dict]:
    with open(GOLD, encoding="utf-8") as handle:
        lines = [line for line in handle if line.strip() and not line.startswith("#")]
    reader = csv.reader(lines, delimiter="\t", quoting=csv.QUOTE_NONE)
    header = next(reader)
    assert header == COLUMNS, f"header {header}"
    rows = []
    for number, fields in enumerate(reader, 2):
        assert len(fields) == len(COLUMNS), f"data line {number}: {len(fields)} columns: {fields}"
        rows.append(dict(zip(COLUMNS, fields)))
    return rows


ROWS = load()


def test_ids_are_unique_and_follow_their_language():
    ids = [row["id"] for row in ROWS]
    assert len(ids) == len(set(ids)), [i for i, n in Counter(ids).items() if n > 1]
    for row in ROWS:
        assert re.fullmatch(rf"{row['lang']}-\d{{3}}", row["id"]), row["id"]


def test_counts_and_languages():
    langs = Counter(row["lang"] for row in ROWS)
    assert set(langs) == {"en", "fr"}
    assert langs["en"] >= 130
    assert langs["fr"] >= 30


def test_every_row_is_filled_in():
    for row in ROWS:
        assert row["question"].strip() and row["note"].strip(), row["id"]
        assert row["question"] == row["question"].strip(), row["id"]
        rules = row["rules"].split()
        assert 1 <= len(rules) <= 3, row["id"]
        assert len(rules) == len(set(rules)), row["id"]
        for number in rules:
            assert RULE.match(number), (row["id"], number)


def test_editions_match_languages():
    for row in ROWS:
        if row["lang"] == "en":
            assert row["edition"] == ENGLISH_EDITION, row["id"]
        else:
            assert row["edition"].startswith("fr/"), row["id"]


def test_questions_are_not_repeated():
    questions = Counter(row["question"].lower() for row in ROWS)
    assert not [q for q, n in questions.items() if n > 1]


def test_english_questions_cover_every_section_of_the_rules():
    parts = Counter(number[0] for row in ROWS if row["lang"] == "en" for number in row["rules"].split()[:1])
    assert set(parts) == set("123456789"), parts
    assert min(parts.values()) >= 5, parts


# --- the real corpus --------------------------------------------------------------------


@pytest.fixture(scope="module")
def editions(corpus):
    """The editions the gold set names, parsed from the corpus as a build parses them."""
    from rulekb.ingest.parse import parse_many, parse_path

    found = {e.id: e for e in parse_path(corpus / "en" / f"CR-{ENGLISH_EDITION.split('/')[1]}.txt").editions}
    found.update({e.id: e for e in parse_many([str(corpus / "fr")]).editions if e.language == "fr"})
    return found


def test_every_rule_exists_in_its_edition(editions):
    problems = gold_rule_problems(ROWS, editions)
    assert not problems, "\n".join(problems)


def test_french_answers_are_french_text(editions):
    """A French question's answer is a rule of a French text, not an English page's rule (its
    text French: `gold_rule_problems`)."""
    for row in ROWS:
        if row["lang"] == "fr":
            assert editions[row["edition"]].language == "fr", row["id"]

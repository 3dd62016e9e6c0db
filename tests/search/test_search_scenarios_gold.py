"""The scenario, fresh, shorthand and blind search gold sets (kb/bench/gold/search_scenarios.tsv,
judge-style questions naming real cards; search_gold_fresh.tsv, card-free questions in new words;
search_gold_slang.tsv, card-free questions in players' shorthand; search_blind.tsv and
search_blind_scenarios.tsv, card-free and card questions written blind, held out then a tuning
pool; search_tuning_blind.tsv and search_tuning_blind_scenarios.tsv, more written blind, all tuning): their
shape, their split into a tuning part and a held-out part, and -- on the real corpus -- that
every rule they cite exists in the edition they name (parsed by ingest from the corpus files,
only the editions needed) and that every card they name is in the corpus card file, so a
mistyped number or card name fails here instead of scoring as a silent miss."""

from __future__ import annotations

import csv
import gzip
import json
import re
from collections import Counter
from importlib import resources

import pytest

from ..helpers import gold_rule_problems

GOLD_DIR = resources.files("rulekb.kb.bench").joinpath("gold")  # package data
SCENARIOS = "search_scenarios.tsv"
FRESH = "search_gold_fresh.tsv"
SHORTHAND = "search_gold_slang.tsv"
BLIND = "search_blind.tsv"  # written blind: by writers who never saw the search nor the sets above
BLIND_SCENARIOS = "search_blind_scenarios.tsv"
TUNING_BLIND = "search_tuning_blind.tsv"  # more questions written blind, all tuning (they teach the query adapter)
TUNING_BLIND_SCENARIOS = "search_tuning_blind_scenarios.tsv"
COLUMNS = ["id", "lang", "edition", "split", "cards", "topic", "question", "rules", "note"]
TOPICS = {
    "stack", "priority", "combat", "sba", "replacement", "layers", "copy", "zones", "costs", "triggers",
    "keywords", "multiplayer", "commander", "casting", "mana", "turn", "tokens", "counters", "other",
}
# The areas a judge is asked about most; the scenario set must cover each of them.
SCENARIO_TOPICS = {
    "stack", "combat", "sba", "replacement", "layers", "copy", "zones", "costs", "triggers",
    "keywords", "multiplayer", "commander",
}
ENGLISH_EDITION = "en/2026-01-16"
RULE = re.compile(r"^[1-9]\d{2}\.\d+[a-z]?$")
PREFIX = {SCENARIOS: "sc", FRESH: "fx", SHORTHAND: "sl", BLIND: "bf", BLIND_SCENARIOS: "bs", TUNING_BLIND: "tb",
          TUNING_BLIND_SCENARIOS: "ts"}
HELD_ONLY = (BLIND, BLIND_SCENARIOS)  # written as held-out pools (a blind tuning pool follows each)
TUNE_ONLY = (TUNING_BLIND, TUNING_BLIND_SCENARIOS)  # written as tuning questions, all "tune"
# Rows written later as a further tuning pool, all "tune", when the first tuning parts were
# saturated: (file, language) -> the first id number of the pool. The one-third split applies to
# the rows before it; the held-out rows are the same as before the pool was written.
# pools of tuning questions written after a set was first split (the first id of each)
LATER_TUNING_POOL = {(FRESH, "en"): 55, (FRESH, "fr"): 12, (SCENARIOS, "en"): 134, (SCENARIOS, "fr"): 46,
                     (BLIND, "en"): 36, (BLIND, "fr"): 11, (BLIND_SCENARIOS, "en"): 36, (BLIND_SCENARIOS, "fr"): 11}
# held-out rows written blind after a set's tuning pool, all "held" (the first id of each)
LATER_HELD_POOL = {(BLIND, "en"): 83, (BLIND, "fr"): 23, (BLIND_SCENARIOS, "en"): 84, (BLIND_SCENARIOS, "fr"): 23}


def load(name: str) -> list[dict]:
    text = GOLD_DIR.joinpath(name).read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines and lines[0].startswith("#"), f"{name}: no comment saying how the file was made"
    data = [line for line in lines if line.strip() and not line.startswith("#")]
    reader = csv.reader(data, delimiter="\t", quoting=csv.QUOTE_NONE)
    header = next(reader)
    assert header == COLUMNS, f"{name}: header {header}"
    rows = []
    for number, fields in enumerate(reader, 2):
        assert len(fields) == len(COLUMNS), f"{name} data line {number}: {len(fields)} columns: {fields}"
        rows.append(dict(zip(COLUMNS, fields), file=name))
    return rows


ROWS = {name: load(name) for name in (SCENARIOS, FRESH, SHORTHAND, BLIND, BLIND_SCENARIOS, TUNING_BLIND,
                                      TUNING_BLIND_SCENARIOS)}
ALL = [row for rows in ROWS.values() for row in rows]
WITH_CARDS = ROWS[SCENARIOS] + ROWS[BLIND_SCENARIOS] + ROWS[TUNING_BLIND_SCENARIOS]
CARD_FREE = ROWS[FRESH] + ROWS[SHORTHAND] + ROWS[BLIND] + ROWS[TUNING_BLIND]


def cards_of(row: dict) -> list[str]:
    return [name.strip() for name in row["cards"].split(" | ") if name.strip()]


def test_ids_are_unique_and_name_their_set_and_language():
    ids = [row["id"] for row in ALL]
    assert len(ids) == len(set(ids)), [i for i, n in Counter(ids).items() if n > 1]
    for row in ALL:
        assert re.fullmatch(rf"{PREFIX[row['file']]}-{row['lang']}-\d{{3}}", row["id"]), row["id"]


def test_counts_and_languages():
    scenarios = Counter(row["lang"] for row in ROWS[SCENARIOS])
    assert set(scenarios) == {"en", "fr"}
    assert sum(scenarios.values()) >= 150, scenarios
    assert scenarios["fr"] >= 30, scenarios
    assert len(ROWS[FRESH]) >= 50
    assert len(ROWS[SHORTHAND]) >= 30
    for name in HELD_ONLY:
        languages = Counter(row["lang"] for row in ROWS[name])
        assert sum(languages.values()) >= 40 and languages["fr"] >= 8, (name, languages)


def test_every_row_is_filled_in():
    for row in ALL:
        for column in ("question", "note", "rules", "edition"):
            assert row[column].strip() and row[column] == row[column].strip(), (row["id"], column)
        assert row["topic"] in TOPICS, (row["id"], row["topic"])
        rules = row["rules"].split()
        assert 1 <= len(rules) <= 4, row["id"]
        assert len(rules) == len(set(rules)), row["id"]
        for number in rules:
            assert RULE.match(number), (row["id"], number)


def test_scenarios_name_cards_and_fresh_questions_do_not():
    for row in WITH_CARDS:
        names = cards_of(row)
        assert names, row["id"]
        assert len(names) == len(set(names)), row["id"]
        assert " | ".join(names) == row["cards"], (row["id"], "cards are separated by ' | '")
    for row in CARD_FREE:
        assert row["cards"] == "", row["id"]


def test_editions_match_languages():
    for row in ALL:
        if row["lang"] == "en":
            assert row["edition"] == ENGLISH_EDITION, row["id"]
        else:
            assert row["edition"] == ENGLISH_EDITION or row["edition"].startswith("fr/"), row["id"]


def number(row: dict) -> int:
    return int(row["id"].rsplit("-", 1)[1])


def in_later_pool(row: dict) -> bool:
    """Whether a row belongs to a tuning pool written after its set was first split."""
    first = LATER_TUNING_POOL.get((row["file"], row["lang"]))
    after = LATER_HELD_POOL.get((row["file"], row["lang"]))
    return first is not None and first <= number(row) and (after is None or number(row) < after)


def test_split_is_about_one_third_tune_in_every_set_and_language():
    for name, rows in ROWS.items():
        if name in HELD_ONLY + TUNE_ONLY:
            continue
        as_written = [row for row in rows if not in_later_pool(row)]
        assert {row["split"] for row in as_written} == {"tune", "held"}, name
        for lang in sorted({row["lang"] for row in as_written}):
            part = [row for row in as_written if row["lang"] == lang]
            share = sum(row["split"] == "tune" for row in part) / len(part)
            assert 0.25 <= share <= 0.45, (name, lang, round(share, 2))


def test_later_tuning_pools_are_all_tune_and_leave_the_held_out_part_alone():
    """A pool written after the first split only adds tuning questions: the held-out figure stays
    comparable with the figures measured before it."""
    for (name, lang), first in LATER_TUNING_POOL.items():
        pool = [row for row in ROWS[name] if row["lang"] == lang and in_later_pool(row)]
        assert pool, (name, lang, "the pool is empty")
        assert {row["split"] for row in pool} == {"tune"}, (name, lang)
        numbers = sorted(number(row) for row in pool)
        assert numbers == list(range(first, first + len(pool))), (name, lang, "pool ids are not consecutive")
        before = [row for row in ROWS[name] if row["lang"] == lang and number(row) < first]
        assert max(number(row) for row in before) == first - 1, (name, lang)


def test_later_held_out_pools_follow_the_tuning_pool_and_are_all_held():
    for (name, lang), first in LATER_HELD_POOL.items():
        pool = sorted((row for row in ROWS[name] if row["lang"] == lang and number(row) >= first), key=number)
        assert pool and {row["split"] for row in pool} == {"held"}, (name, lang)
        assert [number(row) for row in pool] == list(range(first, first + len(pool))), (name, lang)
        tuning = [number(row) for row in ROWS[name] if row["lang"] == lang and in_later_pool(row)]
        assert max(tuning) == first - 1, (name, lang, "the held-out pool follows the tuning pool")


def test_blind_sets_were_written_held_out():
    """Written by writers who never saw the search: the rows written first are all held out; the
    tuning pool after them was written later, blind too, on other rules and cards."""
    for name in HELD_ONLY:
        assert {row["split"] for row in ROWS[name] if not in_later_pool(row)} == {"held"}, name
        first = {split: {row["rules"].split()[0] for row in ROWS[name] if row["split"] == split} for split in ("held", "tune")}
        assert not first["held"] & first["tune"], name  # the pool asks about other rules first
    assert not {c for row in ROWS[BLIND_SCENARIOS] if row["split"] == "held" for c in cards_of(row)} & {
        c for row in ROWS[BLIND_SCENARIOS] if row["split"] == "tune" for c in cards_of(row)}


def test_the_blind_tuning_sets_are_all_tune_and_in_both_languages():
    """Written blind as tuning questions (no held-out part: the held-out rows of the sets above
    measure what they teach)."""
    for name in TUNE_ONLY:
        languages = Counter(row["lang"] for row in ROWS[name])
        assert {row["split"] for row in ROWS[name]} == {"tune"}, name
        assert sum(languages.values()) >= 50 and languages["fr"] >= 10, (name, languages)


def test_the_blind_tuning_sets_repeat_no_held_out_question():
    """Written without seeing any set, they ask popular questions too: one sharing 40 % of its words
    (stop words aside) with a held-out question of any set was dropped, so that what the adapter
    learns from them is not the held-out rows' own wording."""
    from rulekb.kb.bench.search import gold_sets

    stop = set("the a an i my is it to of and in do does can if or on for that this be with at what when how are "
               "its your you me they their them it's i'm there as by from so just still get gets got".split())
    words = lambda text: {w for w in re.findall(r"\w+", text.lower()) if w not in stop}  # noqa: E731
    held = [words(q.question) for qs in gold_sets(None).values() for q in qs if not q.tuning]
    for name in TUNE_ONLY:
        for row in ROWS[name]:
            mine = words(row["question"])
            assert max(len(mine & other) / len(mine | other) for other in held) < 0.4, row["id"]


def test_scenarios_cover_the_judge_topics_in_the_held_out_part():
    held = Counter(row["topic"] for row in ROWS[SCENARIOS] if row["split"] == "held")
    tune = Counter(row["topic"] for row in ROWS[SCENARIOS] if row["split"] == "tune")
    for topic in SCENARIO_TOPICS:
        assert held[topic] >= 2, (topic, held[topic])
        assert held[topic] + tune[topic] >= 4, topic
    blind = Counter(row["topic"] for row in ROWS[BLIND_SCENARIOS])
    assert all(blind[topic] >= 2 for topic in SCENARIO_TOPICS), blind


def test_questions_are_not_repeated_nor_taken_from_the_first_gold_set():
    from rulekb.kb.bench.search import GOLD

    questions = Counter(row["question"].lower() for row in ALL)
    assert not [q for q, n in questions.items() if n > 1]
    words = re.compile(r"\w+")
    with open(GOLD, encoding="utf-8") as handle:
        older = [
            set(words.findall(line.split("\t")[3].lower()))
            for line in handle
            if line.strip() and not line.startswith(("#", "id\t"))
        ]
    for row in CARD_FREE:
        mine = set(words.findall(row["question"].lower()))
        closest = max(len(mine & other) / len(mine | other) for other in older)
        assert closest < 0.6, (row["id"], "too close to a question of search_gold.tsv")


@pytest.mark.parametrize("name, least", [(SCENARIOS, 20), (BLIND_SCENARIOS, 3), (TUNING_BLIND_SCENARIOS, 2)])
def test_scenario_questions_are_written_the_ways_players_write_card_names(name, least):
    questions = [row["question"] for row in ROWS[name]]
    double = sum("[[" in q for q in questions)
    single = sum(re.search(r"(?<!\[)\[[^\[\]]+\](?!\])", q) is not None for q in questions)
    plain = sum("[" not in q for q in questions)
    assert min(double, single, plain) >= least, (double, single, plain)


# --- the real corpus --------------------------------------------------------------------


@pytest.fixture(scope="module")
def editions(corpus):
    """Only the editions the two sets name, parsed from the corpus as a build parses them."""
    from rulekb.ingest.parse import parse_many, parse_path

    wanted = {row["edition"] for row in ALL}
    found = {e.id: e for e in parse_path(corpus / "en" / f"CR-{ENGLISH_EDITION.split('/')[1]}.txt").editions}
    if any(edition.startswith("fr/") for edition in wanted):
        found.update({e.id: e for e in parse_many([str(corpus / "fr")]).editions if e.id in wanted})
    return found


@pytest.fixture(scope="module")
def card_names(corpus):
    """Every card name and card face name in the corpus card file."""
    files = sorted((corpus / "cards").glob("*.json.gz"))
    assert files, f"no card file in {corpus / 'cards'}"
    with gzip.open(files[-1], "rt", encoding="utf-8") as handle:
        cards = json.load(handle)
    names = set()
    for card in cards:
        names.add(card["name"])
        names.update(face["name"] for face in card.get("card_faces") or ())
    return names


@pytest.mark.corpus
def test_every_rule_exists_in_its_edition(editions):
    """Every rule exists in its edition, and a French text's rule is French text."""
    problems = gold_rule_problems(ALL, editions)
    assert not problems, "\n".join(problems)


@pytest.mark.corpus
def test_every_named_card_is_in_the_card_file(card_names):
    missing = [(row["id"], name) for row in WITH_CARDS for name in cards_of(row) if name not in card_names]
    assert not missing, missing


def test_most_shorthand_questions_use_shorthand_search_reads():
    """The shorthand set measures reading players' words: most of its questions hold one that
    search reads as the rules' words (the rest use words the rules know: "legend", "APNAP")."""
    from rulekb.kb.search.shorthand import expand

    read = [row["id"] for row in ROWS[SHORTHAND] if expand(row["question"], row["lang"])[1]]
    assert len(read) >= 2 * len(ROWS[SHORTHAND]) // 3, read

"""``rulekb translation-report`` and ``rulekb lexicon`` on invented texts: the widget-duel
fixtures (kb/bench/gold/translate) and a later invented English edition built from them
into a small store, so that the French translates an older English edition (stale rules)."""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET
from pathlib import Path
from importlib import resources

import pytest
from bs4 import BeautifulSoup

from rulekb.kb.translate.lexicon import to_tbx

from ..helpers import edited, invoke_cli, run_cli

FIXTURES = resources.files("rulekb.kb.bench").joinpath("gold", "translate")
EN = FIXTURES / "widget-en-2030-05-05.txt"
FR = FIXTURES / "widget-fr-2030-05-05.txt"
HOSTILE = "<img src=x onerror=alert(1)> & <b>bold</b>"
TBX = "{urn:iso:std:iso:30042:ed-2}"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def _later_english() -> str:
    """The invented English text, four months later: one rule reworded (a number), one
    with only an apostrophe changed (typography), one with hostile markup added."""
    return edited(EN.read_text(encoding="utf-8").replace("May 5, 2030", "September 1, 2030"), [
        ("more than three cogs, it has three cogs instead", "more than four cogs, it has four cogs instead"),
        ("A gadget can have only one controller.", "A gadget can’t have more than one controller.".replace("’", "'")),
        ("It can't return.", f"It can't return. {HOSTILE}."),
    ])


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    from rulekb.kb.build import build
    from rulekb.kb.store.embedded import EmbeddedStore

    root = tmp_path_factory.mktemp("translate-store")
    later = root / "CR-2030-09-01.txt"
    later.write_text(_later_english(), encoding="utf-8")
    location = root / "store"
    build([str(EN), str(later), str(FR)], EmbeddedStore(location), reasoner="none")
    return str(location)



def test_json_shape_base_and_stale_rules(store):
    # as a user starts rulekb; the other commands of this file run in the test's process
    # (tests.helpers.invoke_cli: the same app, parsing, errors and output)
    result = run_cli("translation-report", str(FR), "--store", store, "--format", "json")
    assert result.returncode == 0, result.stderr
    data = result.json
    assert set(data) >= {"fr_edition", "us_edition", "base_detected", "items", "coverage", "base"}
    assert data["fr_edition"] == "fr/2030-05-05"
    assert data["us_edition"] == "en/2030-09-01"  # the newest complete English edition
    assert data["base_detected"] == "en/2030-05-05"
    assert data["base"]["runner_up"] == "en/2030-09-01" and data["base"]["score"] > data["base"]["runner_up_score"]
    assert data["stale_checked"] is True
    for item in data["items"]:
        assert set(item) >= {"fr", "us", "kind", "fr_value", "us_value"}
    # the faithful translation has no other finding; the stale rules are exactly the reworded ones
    assert sorted((i["fr"], i["us"], i["kind"]) for i in data["items"]) == [
        ("101.3", "101.3", "stale"), ("101.6", "101.6", "stale"), ("300.2", "300.2", "stale")]
    by_rule = {i["fr"]: i for i in data["items"]}
    cogs = by_rule["101.6"]
    assert ["delete", "three "] in cogs["diff"] and any(op == "insert" and "four" in t for op, t in cogs["diff"])
    assert "four cogs" in cogs["us_value"] and "three cogs" in cogs["base_value"]
    assert "rouage" in cogs["fr_value"].lower()
    assert HOSTILE in by_rule["300.2"]["us_value"]


def test_typography_only_changes_are_not_stale(tmp_path):
    """101.3 above gained a real word ("can't have more than" for "can have only"); here the
    later edition differs from the base only by its apostrophes and quotes."""
    from rulekb.ingest.parse import parse_file
    from rulekb.kb.translate.stale import stale_items

    text = EN.read_text(encoding="utf-8").replace("May 5, 2030", "September 1, 2030")
    text = text.replace("can't be wound", "can’t be wound").replace('"Duelists."', "“Duelists.”")
    later = tmp_path / "CR-2030-09-01.txt"
    later.write_text(text, encoding="utf-8")
    base, us = parse_file(str(EN))[0], parse_file(str(later))[0]
    fr = parse_file(str(FR))[0]
    assert stale_items(fr, base, us) == []
    reworded = tmp_path / "CR-2030-10-01.txt"
    reworded.write_text(text.replace("September 1, 2030", "October 1, 2030")
                        .replace("can’t be wound", "can’t ever be wound"), encoding="utf-8")
    items = stale_items(fr, base, parse_file(str(reworded))[0])
    assert [(i["fr"], i["kind"], i["detail"]) for i in items] == [("101.4", "stale", "text")]


def test_against_its_own_base_nothing_is_stale_and_french_comes_from_the_kb(store):
    result = invoke_cli("translation-report", "fr/2030-05-05", "--us", "en/2030-05-05", "--base", "en/2030-05-05",
                     "--store", store, "--format", "json")
    assert result.returncode == 0, result.stderr
    data = result.json
    assert data["items"] == [] and data["stale_checked"] is False and data["base_detected"] == "en/2030-05-05"


def test_text_output_is_grouped_by_section(store):
    result = invoke_cli("translation-report", str(FR), "--store", store)
    assert result.returncode == 0, result.stderr
    assert "base en/2030-05-05" in result.stdout
    assert "§101" in result.stdout and "§300" in result.stdout and "[stale]" in result.stdout


def test_html_worklist_escapes_rule_text(store):
    result = invoke_cli("translation-report", str(FR), "--store", store, "--report", "html")
    assert result.returncode == 0, result.stderr
    page = BeautifulSoup(result.stdout, "html.parser")
    assert page.find("img") is None and page.find("b") is None
    assert HOSTILE in page.get_text()  # shown as text
    assert "&lt;img src=x" in result.stdout
    assert any("four" in ins.get_text() for ins in page.find_all("ins"))
    assert any("three" in d.get_text() for d in page.find_all("del"))
    assert "§101" in page.get_text()


def test_markdown_worklist_escapes_rule_text(store):
    result = invoke_cli("translation-report", str(FR), "--store", store, "--report", "md")
    assert result.returncode == 0, result.stderr
    assert "<img" not in result.stdout and "<b>" not in result.stdout and "&lt;img src=x" in result.stdout
    assert "**four**" in result.stdout


def test_bad_input_exits_2_with_one_line(store, tmp_path):
    empty = tmp_path / "nothing.txt"
    empty.write_text("Ceci n'est pas un texte de règles.\n", encoding="utf-8")
    cases = [
        (str(empty),),
        (str(tmp_path / "absent.txt"),),
        ("fr/1999-01-01",),
        (str(FR), "--us", "en/1900-01-01"),
        (str(FR), "--base", "en/1900-01-01"),
        (str(FR), "--us", "fr/2030-05-05"),
        (str(FR), "--report", "html", "--format", "json"),
    ]
    for args in cases:
        result = invoke_cli("translation-report", *args, "--store", store)
        assert result.returncode == 2, (args, result.stdout, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1, (args, result.stderr)
        assert "Traceback" not in result.stderr


NO_RULES = """Les règles complètes du Duel de Widgets Ces règles entrent en vigueur au 1er mai 2030.

Introduction

Ce document inventé est conçu pour les duellistes désirant aller au-delà des bases du jeu. Il ne contient que
son introduction, sans aucune règle numérotée.
"""


def test_a_french_text_without_rules_is_a_result_not_an_error(store, tmp_path):
    """An official excerpt may hold only the front matter: the report says so and exits 0."""
    front = tmp_path / "front-matter.txt"
    front.write_text(NO_RULES, encoding="utf-8")
    text = invoke_cli("translation-report", str(front), "--store", store)
    assert text.returncode == 0, text.stderr
    assert text.stdout.strip() == "no French rules in fr/2030-05-01: the text holds no numbered rules, nothing to compare"
    data = invoke_cli("translation-report", str(front), "--store", store, "--format", "json").json
    assert data["items"] == [] and data["base_detected"] is None and data["note"].startswith("no French rules")
    worklist = invoke_cli("translation-report", str(front), "--store", store, "--report", "md")
    assert worklist.returncode == 0 and "no French rules" in worklist.stdout


def test_lexicon_csv_has_every_source(store):
    result = invoke_cli("lexicon", "--glossary", str(FR), "--us", str(EN), "--format", "csv")
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert set(rows[0]) == {"en", "fr", "source", "key"}
    assert {"en": "Cog", "fr": "Rouage", "source": "glossary", "key": "cog"} in rows
    assert {r["source"] for r in rows} == {"ontology", "core", "glossary"}
    assert any(r["en"] == "graveyard" and r["fr"] == "cimetière" for r in rows)


def test_lexicon_tbx3_parses_and_escapes(store):
    result = invoke_cli("lexicon", "--format", "tbx3")  # TBX v3; `--format tbx` is v2 (tests/translate/test_exchange.py)
    assert result.returncode == 0, result.stderr
    root = ET.fromstring(result.stdout.encode("utf-8"))
    assert root.tag == f"{TBX}tbx" and root.get("type") == "TBX-Basic"
    entries = root.findall(f".//{TBX}conceptEntry")
    assert entries and all({s.get(XML_LANG) for s in e.findall(f"{TBX}langSec")} == {"en", "fr"} for e in entries)
    hostile = to_tbx([{"key": "x", "en": 'a <b> & "c"', "fr": "d <script>é</script>", "source": "core"}])
    parsed = ET.fromstring(hostile.encode("utf-8"))
    terms = [t.text for t in parsed.iter(f"{TBX}term")]
    assert terms == ['a <b> & "c"', "d <script>é</script>"]
    assert "<script>" not in hostile


def test_lexicon_glossary_needs_french_rules(tmp_path):
    empty = tmp_path / "nothing.txt"
    empty.write_text("rien\n", encoding="utf-8")
    result = invoke_cli("lexicon", "--glossary", str(empty), "--us", str(EN))
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1

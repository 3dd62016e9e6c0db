"""The translators' files on invented texts (the widget-duel fixtures and a later invented
English edition, as in test_translate_cli.py): the XLIFF worklist, the TMX memory and the
TBX v2 termbase validate against the official schemas, read back through translate-toolkit
(what Weblate uses), carry the report's findings unchanged, and open in OmegaT."""

from __future__ import annotations

from collections import Counter
from importlib import resources

import pytest
from hypothesis import given, settings, strategies as st
from lxml import etree

from rulekb.kb.translate.exchange.tmx import Pair, sentences, to_tmx
from rulekb.kb.translate.exchange.validate import errors

from ..helpers import assert_bad_input, edited, invoke_cli, run_cli
from .omegat import run_project

FIXTURES = resources.files("rulekb.kb.bench").joinpath("gold", "translate")
EN = FIXTURES / "widget-en-2030-05-05.txt"
FR = FIXTURES / "widget-fr-2030-05-05.txt"
X = "{urn:oasis:names:tc:xliff:document:1.2}"


def _later_english() -> str:
    return edited(EN.read_text(encoding="utf-8").replace("May 5, 2030", "September 1, 2030"), [
        ("more than three cogs, it has three cogs instead", "more than four cogs, it has four cogs instead"),
    ])


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    from rulekb.kb.build import build
    from rulekb.kb.store.embedded import EmbeddedStore

    root = tmp_path_factory.mktemp("exchange-store")
    later = root / "CR-2030-09-01.txt"
    later.write_text(_later_english(), encoding="utf-8")
    location = root / "store"
    build([str(EN), str(later), str(FR)], EmbeddedStore(location), reasoner="none")
    return str(location)


@pytest.fixture(scope="module")
def report(store):
    # the report and the worklist as a user starts rulekb; the other commands of this file run in
    # the test's process (tests.helpers.invoke_cli: the same app, parsing, errors and output)
    result = run_cli("translation-report", "fr/2030-05-05", "--store", store, "--format", "json")
    assert result.returncode == 0, result.stderr
    return result.json


@pytest.fixture(scope="module")
def worklist(store):
    result = run_cli("translation-report", "fr/2030-05-05", "--store", store, "--report", "xliff")
    assert result.returncode == 0 and not result.stderr, result.stderr
    return result.stdout


def _kinds(document: str) -> Counter:
    root = etree.fromstring(document.encode())
    return Counter(n.get("from").removeprefix("rulekb:") for n in root.iter(f"{X}note")
                   if (n.get("from") or "").startswith("rulekb:"))


def test_worklist_validates_and_carries_the_report_unchanged(worklist, report):
    assert errors(worklist, "xliff") == []
    assert _kinds(worklist) == Counter(i["kind"] for i in report["items"])
    assert report["base_detected"] == "en/2030-05-05" and "stale" in _kinds(worklist)


def test_worklist_units_states_notes_and_base(worklist, report):
    root = etree.fromstring(worklist.encode())
    units = list(root.iter(f"{X}trans-unit"))
    ids = [u.get("id") for u in units]
    assert len(ids) == len(set(ids)) and all(u.get("resname") for u in units)
    stale = {i["us"] for i in report["items"] if i["kind"] == "stale"}
    for unit in units:
        target = unit.find(f"{X}target")
        kinds = {n.get("from") for n in unit.findall(f"{X}note")}
        if unit.get("id") in stale:
            assert target.get("state") == "needs-review-translation"
            note = next(n.text for n in unit.findall(f"{X}note") if n.get("from") == "rulekb:stale")
            assert "{+four+}" in note or "[-" in note or "{+" in note
            alt = unit.find(f"{X}alt-trans")
            assert alt.get("origin") == "en/2030-05-05" and alt.find(f"{X}source").text != unit.find(f"{X}source").text
        elif not kinds and target is not None:
            assert target.get("state") == "translated" and target.text
    assert any(u.find(f"{X}target").get("state") == "translated" for u in units if u.find(f"{X}target") is not None)
    groups = list(root.iter(f"{X}group"))
    assert groups and all(g.find(f"{X}note") is not None for g in groups)  # the section titles
    assert {n.get("from") for g in groups for n in g.findall(f"{X}note")} >= {"section-title-en", "section-title-fr"}


def test_worklist_reads_back_through_translate_toolkit(worklist):
    from translate.storage.xliff import xlifffile

    store = xlifffile.parsestring(worklist.encode())
    units = [u for u in store.units if not u.isheader()]
    root = etree.fromstring(worklist.encode())
    assert len(units) == len(list(root.iter(f"{X}trans-unit")))
    translated = [u for u in units if u.xmlelement.find(f"{X}target") is not None
                  and u.xmlelement.find(f"{X}target").get("state") == "translated"]
    assert translated and all(u.target and u.source and u.target != u.source for u in translated)
    # as Weblate will see them: unchanged rules translated, the others to edit or to translate
    assert all(u.istranslated() and not u.isfuzzy() for u in translated)
    review = [u for u in units if u.xmlelement.find(f"{X}target") is not None
              and u.xmlelement.find(f"{X}target").get("state") == "needs-review-translation"]
    assert review and all(u.isfuzzy() for u in review)


def test_copy_source_for_omegat(store):
    result = invoke_cli("translation-report", "fr/2030-05-05", "--store", store, "--report", "xliff", "--copy-source")
    assert result.returncode == 0, result.stderr
    assert errors(result.stdout, "xliff") == []
    root = etree.fromstring(result.stdout.encode())
    for unit in root.iter(f"{X}trans-unit"):
        target = unit.find(f"{X}target")
        if target is not None:
            assert (target.text or "") == (unit.find(f"{X}source").text or "")


def test_memory_validates_and_reads_back(store):
    from translate.storage.tmx import tmxfile

    result = invoke_cli("translation-memory", "fr/2030-05-05", "--store", store)
    assert result.returncode == 0, result.stderr
    assert errors(result.stdout, "tmx") == []
    units = tmxfile.parsestring(result.stdout.encode()).units
    assert len(units) > 10 and all(u.source and u.target for u in units)
    root = etree.fromstring(result.stdout.encode())
    props = {p.get("type"): p.text for p in root.find("body/tu").findall("prop")}
    assert props["x-fr-edition"] == "fr/2030-05-05" and props["x-en-edition"] == "en/2030-05-05"
    assert {tu.get("segtype") for tu in root.iter("tu")} >= {"paragraph"}


def test_memory_against_a_later_edition_holds_only_the_unchanged_rules(store, report):
    result = invoke_cli("translation-memory", "fr/2030-05-05", "--us", "en/2030-09-01", "--store", store)
    assert result.returncode == 0, result.stderr
    root = etree.fromstring(result.stdout.encode())
    rules = {p.text for tu in root.iter("tu") for p in tu.findall("prop") if p.get("type") == "x-fr-rule"}
    flagged = {i["fr"] for i in report["items"] if i.get("fr")}
    assert rules and not rules & flagged


def test_termbase_v2_validates_reads_back_and_marks_history(store):
    from translate.storage.tbx import tbxfile

    result = invoke_cli("lexicon", "--format", "tbx", "--store", store)
    assert result.returncode == 0, result.stderr
    assert errors(result.stdout, "tbx") == []
    root = etree.fromstring(result.stdout.encode())
    assert root.tag == "martif"
    units = tbxfile.parsestring(result.stdout.encode()).units
    assert len(units) == len(root.findall("text/body/termEntry"))
    pairs = {(u.source, u.target) for u in units}
    assert ("mana value", "valeur de mana") in pairs and ("battlefield", "champ de bataille") in pairs
    status = {tig.findtext("term"): tig.findtext("termNote") for tig in root.iter("tig")}
    for old in ("en jeu", "retirer de la partie", "coût converti de mana", "converted mana cost", "in play"):
        assert status[old] == "deprecatedTerm-admn-sts", old
    assert status["valeur de mana"] == status["exiler"] == "preferredTerm-admn-sts"
    # the editions each name held in, among the KB's (invented ones, all after the renames)
    notes = {t.findtext("term"): t.findtext("note") for t in root.iter("tig")}
    assert "en/2030-05-05 … en/2030-09-01" in notes["valeur de mana"]
    assert "held in no edition of the KB" in notes["coût converti de mana"]
    v3 = invoke_cli("lexicon", "--format", "tbx3")
    assert v3.returncode == 0 and "<tbx " in v3.stdout


def test_bad_input_is_one_line_and_exit_2(store, tmp_path):
    assert_bad_input(invoke_cli("translation-memory", "fr/1999-01-01", "--store", store), "no edition 'fr/1999-01-01'")
    assert_bad_input(invoke_cli("translation-memory", "fr/2030-05-05", "--us", "en/1900-01-01", "--store", store),
                     "no edition")
    assert_bad_input(invoke_cli("translation-report", "fr/2030-05-05", "--us", "en/1900-01-01", "--report", "xliff",
                             "--store", store), "no edition")
    assert_bad_input(invoke_cli("translation-report", "fr/2030-05-05", "--copy-source", "--store", store),
                     "--copy-source goes with --report xliff")


def test_control_characters_are_dropped_and_counted(store, tmp_path):
    import re

    text = FR.read_text(encoding="utf-8")
    rule = next(line for line in text.splitlines() if re.match(r"\d{3}\.\d+[a-z]?\.? \S", line) and len(line) > 30)
    # an old page's stray bell and escape (a vertical tab would be a line end: ingest splits lines at it)
    page = tmp_path / "widget-fr-2030-05-05.txt"
    page.write_text(text.replace(rule, rule[:12] + "\x07\x1b" + rule[12:], 1), encoding="utf-8")
    result = invoke_cli("translation-report", str(page), "--store", store, "--report", "xliff")
    assert result.returncode == 0, result.stderr
    assert errors(result.stdout, "xliff") == []
    assert "\x07" not in result.stdout and "\x1b" not in result.stdout
    assert result.stderr.strip() == "rulekb: warning: 2 characters XML 1.0 cannot carry (control characters) dropped"


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=1, max_size=80), st.text(min_size=1, max_size=80))
def test_any_text_makes_a_valid_memory_or_says_why(en, fr):
    try:
        document, cleaner = to_tmx([Pair("fr/x", "1.1", "en/x", "1.1", fr, en)])
    except ValueError:  # nothing left once XML's forbidden characters are dropped
        return
    assert errors(document, "tmx") == []


def test_sentences_split_at_sentence_ends_only():
    assert sentences("See rule 110.5a. A permanent is here. Cf. règle 110.") == \
        ["See rule 110.5a.", "A permanent is here.", "Cf. règle 110."]


def test_omegat_finds_the_segments_fills_unchanged_rules_and_keeps_the_french(store, tmp_path, report):
    from translate.storage.xliff import xlifffile

    work = invoke_cli("translation-report", "fr/2030-05-05", "--store", store, "--report", "xliff", "--copy-source")
    memory = invoke_cli("translation-memory", "fr/2030-05-05", "--us", report["us_edition"], "--store", store)
    terms = invoke_cli("lexicon", "--format", "tbx", "--store", store)
    assert work.returncode == memory.returncode == terms.returncode == 0
    result = run_project(tmp_path / "project", {"source/fr.xlf": work.stdout, "tm/auto/rulekb.tmx": memory.stdout,
                                                "glossary/rulekb.tbx": terms.stdout})
    root = etree.fromstring(work.stdout.encode())
    states = Counter(u.find(f"{X}target").get("state") for u in root.iter(f"{X}trans-unit")
                     if u.find(f"{X}target") is not None)
    assert result["segments"] == sum(states.values())  # one segment per rule with English
    assert result["segments"] - result["remaining"] == states["translated"]  # every unchanged rule filled
    translated = xlifffile.parsestring(result["target"]["fr.xlf"].encode())
    french = {}
    for unit in root.iter(f"{X}trans-unit"):
        note = next((n.text for n in unit.findall(f"{X}note") if n.get("from") == "french"), None)
        target = unit.find(f"{X}target")
        if target is not None and target.get("state") == "translated":
            french[unit.get("id")] = note
    back = {u.xmlelement.get("id"): u.target for u in translated.units if u.xmlelement.get("id") in french}
    assert back and back == french


@pytest.fixture(scope="module")
def web(store):
    from rulekb.kb.store.embedded import EmbeddedStore
    from rulekb.kb.web.app import create_app

    from ..helpers import WebServer

    with WebServer(create_app(EmbeddedStore(store))) as root:
        yield root


def test_worklist_page_offers_the_downloads(web, report):
    import urllib.error
    import urllib.request

    page = urllib.request.urlopen(f"{web}translation?fr=fr/2030-05-05&us=en/2030-09-01").read().decode()
    for fmt in ("xliff", "xliff-omegat", "tmx", "tmx-current", "tbx"):
        assert f"format={fmt}" in page
    for fmt, kind in (("xliff", "xliff"), ("xliff-omegat", "xliff"), ("tmx", "tmx"), ("tmx-current", "tmx"),
                      ("tbx", "tbx")):
        with urllib.request.urlopen(f"{web}translation?fr=fr/2030-05-05&us=en/2030-09-01&format={fmt}") as answer:
            assert answer.status == 200
            assert answer.headers["Content-Disposition"].startswith("attachment; filename=\"rulekb-fr-2030-05-05")
            body = answer.read().decode()
        assert errors(body, kind) == [], fmt
    xliff = urllib.request.urlopen(f"{web}translation?fr=fr/2030-05-05&us=en/2030-09-01&format=xliff").read().decode()
    assert _kinds(xliff) == Counter(i["kind"] for i in report["items"])
    with pytest.raises(urllib.error.HTTPError) as bad:
        urllib.request.urlopen(f"{web}translation?fr=fr/1999-01-01&us=en/2030-09-01&format=xliff")
    assert bad.value.code == 404


def test_termbase_escapes_markup_in_terms():
    from translate.storage.tbx import tbxfile

    from rulekb.kb.translate.exchange.tbx import to_tbx2

    document, _ = to_tbx2([{"key": "x", "en": 'a <b> & "c"', "fr": "d <script>é</script>\x0c", "source": "core"}], [])
    assert errors(document, "tbx") == [] and "<script>" not in document
    pairs = {(u.source, u.target) for u in tbxfile.parsestring(document.encode()).units}
    assert ('a <b> & "c"', "d <script>é</script>") in pairs

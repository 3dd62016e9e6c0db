"""Ranked search (kb/search): analysis, question reading, the index built and
swapped with the store, ranking signals, editions, bad input (hypothesis on the
CLI function and over HTTP). Invented fixtures (tests/fixtures/search and the
French widget text); the real corpus's figures are `rulekb bench search`'s."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekb.kb import service
from rulekb.kb.errors import KBError, NotFound
from rulekb.kb.search import analysis
from rulekb.kb.search.engine import SearchError, searcher_for
from rulekb.kb.search.snippets import segments, snippet
from rulekb.kb.search.understand import understand

from ..helpers import WebServer, http, run_cli

FIXTURES = Path(__file__).parents[1] / "fixtures"
from rulekb.kb.bench.translation_eval import FIXTURES as WIDGETS  # the invented widget rules (package data)

SOURCES = [str(FIXTURES / "search"), str(WIDGETS / "widget-fr-2030-05-05.txt")]
NEW, OLD = "en/2041-01-01", "en/2040-01-01"


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    from rulekb.kb.build import build
    from rulekb.kb.store.embedded import EmbeddedStore

    store = EmbeddedStore(tmp_path_factory.mktemp("search-kb") / "store")
    report = build(SOURCES, store, reasoner="none")
    return store, report


@pytest.fixture(scope="module")
def web(kb):
    from rulekb.kb.web.app import create_app

    with WebServer(create_app(kb[0])) as root:
        yield root


def rules(found: dict) -> list[str]:
    return [hit.get("rule") or f"glossary:{hit.get('term')}" for hit in found["results"]]


# -- analysis and reading ------------------------------------------------------

def test_french_analysis_drops_elision_folds_accents_and_quotes():
    assert analysis.terms("L'attaquant d’un sort « Éclair » qu'il jusqu'à", "fr") == ["attaqu", "sort", "eclair"]
    assert analysis.terms("créatures", "fr") == analysis.terms("Creature", "fr")


def test_english_analysis_stems_and_drops_clitics():
    assert analysis.terms("The player's creatures don't attack", "en") == ["player", "creatur", "don", "attack"]


def test_rule_numbers_question_words_and_historical_names_are_read():
    u = understand("CR 601.2h, rule 613: can I still play it when it is in play?", "en")
    assert u.numbers == ["601.2h"] and u.sections == ["613"]
    assert "can" not in u.words and "still" not in u.words and "play" in u.words
    assert ("in play", "on the battlefield") in u.eras
    assert understand("613", "en").sections == ["613"]
    assert understand("3 damage to any target", "en").sections == []  # a bare small number is not a rule
    fr = understand("Est-ce que la règle 510.1c s'applique ?", "fr")
    assert fr.numbers == ["510.1c"] and "est" not in fr.words


def test_shorthand_searches_as_the_rules_words_and_says_so(kb):
    found = service.search(kb[0], "can my opp's sprockets target a gadget with gizmoproof?", edition=NEW)
    assert found["understood"]["shorthand"] == ["opp → opponent"]
    top = found["results"][0]
    assert top["rule"] == "702.1b" and "shorthand: opp read as 'opponent'" in top["why"]


def test_the_question_matcher_finds_what_the_build_matcher_finds():
    from rulekb.kb.rdf.concepts import Concept, Matcher
    from rulekb.kb.search.understand import LabelMatcher

    labels = {"first-strike": ["First Strike"], "ability": ["Ability", "Abilities"], "owner": ["Owner"],
              "battlefield": ["Battlefield", "champ de bataille"], "you-your": ["You, Your", "You", "Your"]}
    build = Matcher({k: Concept(k, labels={"en": v}) for k, v in labels.items()}, "en")
    question = LabelMatcher(labels)
    for text in ("Does first strike stop abilities?", "The owner's battlefield", "your FIRST STRIKES", "nothing"):
        assert question.mentions(text) == build.mentions(text), text


def test_the_label_index_takes_the_longest_label_at_each_word():
    from rulekb.kb.rdf.concept_keys import LabelIndex

    index = LabelIndex([("first-strike", "First Strike"), ("strike", "Strike"), ("first", "First"),
                        ("double-strike", "Double Strike"), ("ap", "AP"), ("owner", "Owner"), ("other", "Owner")])
    # "first" starts "first strike": that, not "first"; each word starts its own match ("strike")
    assert index.mentions("First strike and double strikes") == {"first-strike", "strike", "double-strike"}
    assert index.mentions("the first of the strikes") == {"first", "strike"}
    assert index.mentions("AP owners'") == {"owner"}  # too short a label; the first key of a label wins
    assert index.mentions("") == frozenset()


def test_a_die_rolled_is_no_creature_dying():
    from rulekb.kb.rdf.concept_keys import LabelIndex

    index = LabelIndex([("dies", "Dies"), ("planar-die", "Planar Die"), ("ability", "Ability")])
    assert index.mentions("Whenever another creature dies, you gain 1 life.") == {"dies"}
    # "dies" is not the plural of "die": the dice of 706 and 901 mentioned a creature dying
    assert index.mentions("To roll a die, a player rolls a six-sided die; the die roll is its result.") == frozenset()
    assert index.mentions("rolling the planar die is a special action") == {"planar-die"}
    assert index.mentions("Abilities") == {"ability"}  # other plurals fold as before


def test_french_elided_articles_do_not_hide_a_label():
    from rulekb.kb.rdf.concept_keys import LabelIndex

    index = LabelIndex([("toughness", "endurance"), ("exile", "exil"), ("object", "objet"), ("player", "Player")])
    assert index.mentions("une créature avec 0 d'endurance") == {"toughness"}
    assert index.mentions("l’objet va en exil, jusqu'à l'exil") == {"object", "exile"}
    assert index.mentions("the player's turn; don't") == {"player"}  # English apostrophes as before


def test_a_french_label_names_no_concept_of_its_complement():
    from rulekb.kb.rdf.concept_keys import LabelIndex
    from rulekb.kb.rdf.concepts import Concept, Matcher

    labels = {"battlefield": ["champ de bataille"], "battle": ["bataille"], "card-type": ["type de carte"],
              "card": ["carte"]}
    french = Matcher({k: Concept(k, labels={"fr": v}) for k, v in labels.items()}, "fr")
    # "champ de bataille" is the battlefield, no battle (15 French rules of 2011 mentioned battles)
    assert french.mentions("Il arrive sur le champ de bataille.") == {"battlefield"}
    assert french.mentions("le type de carte d'une carte ; une bataille") == {"card-type", "card", "battle"}
    # English labels keep their head: a first strike is a strike, an activated ability an ability
    index = LabelIndex([("first-strike", "First Strike"), ("strike", "Strike")])
    assert index.mentions("first strike") == {"first-strike", "strike"}


def test_a_question_asking_whether_a_creature_dies_names_dying():
    from rulekb.kb.search.understand import LabelMatcher, understand

    matcher = LabelMatcher({"dies": ["Dies"], "damage": ["Damage"]})
    for question in ("My 2/2 is dealt 3 damage. Does it die?", "it died before the trigger", "when my bear dies"):
        assert "dies" in understand(question, "en", matcher).concepts, question


def test_a_question_word_names_no_concept_and_my_own_is_no_owner():
    from rulekb.kb.search.understand import LabelMatcher, understand

    # "Mine" (a land type) and "Could" are labels the KB has; in a question they are the asker's words
    matcher = LabelMatcher({"mine": ["mine"], "could": ["Could"], "owner": ["Owner"], "creature": ["Creature"],
                            "token": ["Token"]})
    assert understand("can one creature of mine wear two tokens?", "en", matcher).concepts == ["creature", "token"]
    assert understand("could I sacrifice it?", "en", matcher).concepts == []
    # "own" names the owner as a verb, not after a possessive ("my own turn", "their own creature")
    assert understand("who owns a token?", "en", matcher).concepts == ["owner", "token"]
    assert understand("do I own the creature?", "en", matcher).concepts == ["creature", "owner"]
    for question in ("a player concedes during their own turn", "can I sacrifice my own creature?"):
        assert "owner" not in understand(question, "en", matcher).concepts, question


def test_snippets_mark_the_matched_words_and_merge_neighbours():
    marked = snippet("The wind step comes first. Then the spin step.", {"wind", "step"}, "en")
    assert marked == "The **wind step** comes first. Then the spin **step**."
    assert segments(marked)[1] == ("wind step", True)
    long = snippet("filler " * 100 + "gizmoproof here " + "filler " * 100, {"gizmoproof"}, "en")
    assert long.startswith("…") and long.endswith("…") and "**gizmoproof**" in long and len(long) < 300


# -- the index with the store ---------------------------------------------------

def test_the_build_writes_the_index_beside_the_store_and_reports_it(kb):
    store, report = kb
    data = store.data_dir()
    partner = data.with_name("search-" + data.name[len("data-"):])
    assert (partner / "meta.json").is_file()
    assert report.search["documents"] >= 20 and report.search["bytes"] > 0
    assert sorted(p.name.split("-")[0] for p in store.root.iterdir() if not p.name.startswith(".")) == [
        "current", "data", "pages", "search"]


def test_a_rebuild_swaps_the_pair_and_a_reader_follows(tmp_path):
    from rulekb.kb.build import build
    from rulekb.kb.store.embedded import EmbeddedStore

    store = EmbeddedStore(tmp_path / "store")
    build([SOURCES[0] + "/invented-cr-2040-01-01.txt"], store, reasoner="none")
    first = searcher_for(store)
    assert first.default_edition("en") == OLD
    build(SOURCES[:1], store, reasoner="none")
    second = searcher_for(store)
    assert second is not first and second.default_edition("en") == NEW
    assert len(list(store.root.glob("search-*"))) == 1 and len(list(store.root.glob("data-*"))) == 1

    def broken(directory):
        raise RuntimeError("interrupted while writing the index")

    with pytest.raises(RuntimeError):
        store.replace(iter(()), beside=broken)
    assert searcher_for(store).search("gizmoproof")["edition"] == NEW  # the old pair still answers
    assert len(list(store.root.glob("search-*"))) == 1 and len(list(store.root.glob("data-*"))) == 1


def test_an_index_staged_early_is_cleaned_up_when_the_build_fails_or_is_killed(tmp_path, monkeypatch):
    """The build writes the index from the end of the alignment on, into a staging directory
    under the store (kb.search.home.staging): a build failing after that leaves neither it nor a
    half-written store, and a killed build's staging (its pid gone) goes with the next build;
    a running build's (pid 1 here) stays."""
    import rulekb.kb.build as building
    from rulekb.kb.store.embedded import EmbeddedStore

    store = EmbeddedStore(tmp_path / "store")
    building.build([SOURCES[0] + "/invented-cr-2040-01-01.txt"], store, reasoner="none")
    before = sorted(p.name for p in store.root.iterdir())

    def broken(*args, **kwargs):
        assert list(tmp_path.glob("*/.search-staging-*")), "the index is being written by now"
        raise RuntimeError("the translations failed")

    monkeypatch.setattr(building, "translations", broken)
    with pytest.raises(RuntimeError, match="translations failed"):
        building.build(SOURCES[:1], store, reasoner="none")
    assert sorted(p.name for p in store.root.iterdir()) == before
    assert searcher_for(store).default_edition("en") == OLD  # the old pair still answers

    fresh = EmbeddedStore(tmp_path / "first")
    with pytest.raises(RuntimeError, match="translations failed"):
        building.build(SOURCES[:1], fresh, reasoner="none")
    assert not fresh.root.exists()  # a first build that failed leaves no empty store behind

    monkeypatch.undo()
    (store.root / ".search-staging-1-running").mkdir()
    killed = store.root / f".search-staging-{_dead_pid()}-killed"
    (killed / "index").mkdir(parents=True)
    building.build(SOURCES[:1], store, reasoner="none")
    assert not killed.exists() and (store.root / ".search-staging-1-running").is_dir()
    assert searcher_for(store).default_edition("en") == NEW


def _dead_pid() -> int:
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_store_without_an_index_says_to_rebuild(tmp_path):
    from rulekb.kb.store.embedded import EmbeddedStore

    store = EmbeddedStore(tmp_path / "nothing")
    with pytest.raises(KBError, match="rulekb build"):
        service.search(store, "anything")


# -- ranking -------------------------------------------------------------------

def test_a_rule_number_goes_straight_to_the_rule(kb):
    found = service.search(kb[0], "what does CR 702.1b say?")
    assert rules(found)[0] == "702.1b" and "rule 702.1b cited" in found["results"][0]["why"]


def test_a_concept_brings_its_defining_rules_with_why(kb):
    found = service.search(kb[0], "can my opponent's sprocket target a gadget with gizmoproof?")
    assert found["edition"] == NEW
    top = found["results"][0]
    assert top["rule"] == "702.1b"
    assert any("Gizmoproof" in why for why in top["why"]) and any(w.startswith("words:") for w in top["why"])
    assert "**" in top["snippet"] and top["iri"].endswith("/edition/en/2041-01-01/rule/702.1b")


def test_a_question_asking_what_a_thing_is_reads_so_in_both_languages():
    for asked in ("what are linked gadgets?", "What's a sprocket", "what does gizmoproof mean?", "define gizmoproof",
                  "the meaning of gizmoproof", "what does gizmoproof do?"):
        assert understand(asked, "en").asks_definition, asked
    for asked in ("qu'est-ce qu'un gadget ?", "Que signifie gizmoproof ?", "c'est quoi un rouage ?"):
        assert understand(asked, "fr").asks_definition, asked
    for other in ("can a gadget with gizmoproof be targeted?", "what does gizmoproof stop when a sprocket targets?",
                  "when is gizmoproof checked?", "est-ce qu'un gadget peut attaquer ?"):
        assert not understand(other, "en" if other.isascii() else "fr").asks_definition, other


def test_asking_what_a_thing_is_widens_its_definitions_lead(kb):
    """The words alone (no meaning arm): the defining rule's lead over the rule that only
    speaks of the thing grows when the question asks what the thing is."""
    from rulekb.kb.search.engine import searcher_for

    searcher = searcher_for(kb[0])

    def lead(question):
        hits = {h.get("rule"): h["score"] for h in searcher.search(question, edition=NEW, dense=False)["results"]}
        return hits["702.1a"] - hits["702.1b"]

    assert lead("what is gizmoproof?") > lead("gizmoproof?") + 0.1


def test_a_phrase_the_question_quotes_leads_to_the_rule_that_quotes_it(kb):
    """Card text quoted in a question ("Wind only as a sprocket") is matched as a phrase: the
    rule quoting that template gains on a rule that only shares its words."""
    from rulekb.kb.search.engine import searcher_for
    from rulekb.kb.search.understand import understand

    assert understand('it says "wind only as a sprocket"; when?', "en").quoted == [
        ("wind only as a sprocket", ["wind", "onli", "sprocket"])]
    assert understand("« arrive avec deux marqueurs »", "fr").quoted == [
        ("arrive avec deux marqueurs", ["arriv", "deux", "marqueur"])]
    assert understand('a "sprocket" only', "en").quoted == []  # one word is no phrase
    searcher = searcher_for(kb[0])

    def lead(question):
        hits = [(h.get("rule"), h["score"]) for h in searcher.search(question, edition=NEW, dense=False)["results"]]
        assert hits[0][0] == "702.2b", hits
        return hits[0][1] - hits[1][1]

    quoted = searcher.search('"wind only as a sprocket"?', edition=NEW, dense=False)
    assert quoted["understood"]["quoted"] == ["wind only as a sprocket"]
    quoted = quoted["results"]
    assert "quotes 'wind only as a sprocket'" in quoted[0]["why"]
    assert not any(w.startswith("quotes") for hit in quoted[1:] for w in hit["why"])
    assert lead('my gadget says "wind only as a sprocket": can I wind it?') > \
        lead("my gadget says wind only as a sprocket: can I wind it?") + 0.1


def test_historical_names_reach_the_rules_of_the_other_era(kb):
    found = service.search(kb[0], "what happens to a rewound gadget, is it removed from the game?", edition=NEW)
    assert rules(found)[0] == "101.2"
    assert any(w.startswith("historical name: removed from the game") for w in found["results"][0]["why"])


def test_the_bm25_baseline_ranks_on_words_alone(kb):
    searcher = searcher_for(kb[0])
    plain = searcher.search("can a gadget with gizmoproof be targeted?", baseline=True)
    assert plain["results"] and all(hit["why"] == [] for hit in plain["results"])


# -- editions -------------------------------------------------------------------

def test_all_editions_give_one_hit_per_lineage_with_its_editions(kb):
    found = service.search(kb[0], "gadget owner duelist brought", all_editions=True)
    assert found["edition"] == "all"
    owners = [hit for hit in found["results"] if hit.get("rule") == "101.1"]
    assert len(owners) == 1 and owners[0]["editions"] == [OLD, NEW] and owners[0]["lineage"]
    assert len(rules(found)) == len(set(rules(found)))
    obsolete = service.search(kb[0], "mana drain", all_editions=True)
    assert obsolete["results"][0]["term"] == "Mana Drain (Obsolete)"


def test_edition_and_french(kb):
    old = service.search(kb[0], "deck forty gadget cards", edition=OLD)
    assert rules(old)[0] == "100.2" and "forty" in old["results"][0]["text"]
    french = service.search(kb[0], "qui est le propriétaire d'un gadget ?", lang="fr")
    assert french["lang"] == "fr" and rules(french)[0] == "101.1"
    assert "propriétaire" in french["results"][0]["snippet"]
    with pytest.raises(NotFound):
        service.search(kb[0], "gadget", edition="en/1999-01-01")


def test_ask_falls_back_to_the_likely_rules(kb):
    data = service.ask(kb[0], "how many gadget cards must a deck have?")
    assert data["answer"] is None and data["rules"] and data["rules"][0]["rule"] == "100.2"


# -- bad input -----------------------------------------------------------------

@pytest.mark.parametrize("query", ["", "   ", "?!.,;« »", "\x00\x01\x7f", "x" * 10_000])
def test_unsearchable_queries_are_one_line_errors(kb, query):
    with pytest.raises(SearchError) as caught:
        service.search(kb[0], query)
    assert "\n" not in str(caught.value) and caught.value.status == 400


@pytest.mark.parametrize("query", ['title:gadget AND (owner OR "duelist', "gadget*", "owner~2", "\\gadget\\",
                                    "NOT gadget -owner +duelist", "gadget 所有者 владелец", "gad\x00get"])
def test_query_syntax_is_searched_as_words(kb, query):
    found = service.search(kb[0], query)
    assert isinstance(found["results"], list)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(['"', "“", "”", "«", "»", "'", "‘", "’", "gadget", "wind", "only", "as", "a",
                                 "sprocket", " ", "the", "x", "702.1", "\\", "*", ":"]), max_size=40))
def test_fuzz_quoted_phrases_search_or_say_why_not(kb, parts):
    """Quotes of every kind, nested, unclosed, empty or of stop words only: a search or one clear error."""
    from rulekb.kb.search.engine import SearchError, searcher_for

    query = "".join(parts)
    try:
        found = searcher_for(kb[0]).search(query, edition=NEW, dense=False)
    except SearchError as exc:
        assert "\n" not in str(exc)
        return
    from rulekb.kb.search import analysis

    assert all(len(analysis.terms(q, "en")) >= 2 for q in found["understood"].get("quoted", []))


def test_the_cli_search_json_shape_and_exit_codes(kb):
    where = ["--store", str(kb[0].root)]
    ok = run_cli("search", "gizmoproof", *where, "--format", "json")
    data = json.loads(ok.stdout)
    assert ok.returncode == 0 and {"query", "edition", "results"} <= set(data)
    assert {"kind", "edition", "rule", "score", "snippet", "text", "iri", "why"} <= set(data["results"][0])
    text = run_cli("search", "gizmoproof", *where)
    assert text.returncode == 0 and "702.1" in text.stdout and "why:" in text.stdout
    quoted = run_cli("search", 'it says "wind only as a sprocket"', *where)
    assert quoted.returncode == 0 and "matched as phrases: 'wind only as a sprocket'" in quoted.stdout
    empty = run_cli("search", "?!", *where)
    assert empty.returncode == 2 and empty.stderr.count("\n") == 1 and "Traceback" not in empty.stderr
    both = run_cli("search", "x", "--edition", NEW, "--all-editions", *where)
    assert both.returncode == 2
    asked = run_cli("ask", "how many gadget cards must a deck have?", *where, "--format", "json")
    assert asked.returncode == 0 and json.loads(asked.stdout)["answer"] is None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=300))
def test_fuzz_the_cli_search_function(kb, query):
    from typer.testing import CliRunner

    from rulekb.kb.cli import app

    result = CliRunner().invoke(app, ["search", query, "--store", str(kb[0].root), "--format", "json"])
    assert result.exit_code in (0, 2), result.output
    if result.exit_code == 0:
        assert "results" in json.loads(result.stdout)
    assert "Traceback" not in result.output


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=300), st.sampled_from(["", NEW, "all", "fr"]))
def test_fuzz_search_over_http(web, query, edition):
    scope = "lang=fr" if edition == "fr" else f"edition={quote(edition)}"  # the API: lang=fr; the page: edition=fr
    status, _, body = http(web + f"api/search?q={quote(query)}&{scope}")
    assert status in (200, 400), body[:200]
    data = json.loads(body)
    assert ("results" in data) if status == 200 else set(data) == {"error"}
    status, _, page = http(web + f"search?q={quote(query)}&edition={quote(edition or NEW)}")
    assert status in (200, 303, 400), page[:200]
    assert b"Traceback" not in page


def test_the_search_page_ranks_marks_and_pages(web):
    status, _, page = http(web + f"search?q={quote('gadget')}&edition={NEW}")
    text = page.decode()
    assert status == 200 and "<mark>" in text and 'class="why"' in text
    assert 'href="/edition/en/2041-01-01/rule/' in text
    status, _, page = http(web + "search?q=gadget&edition=all")
    assert status == 200 and "editions)" in page.decode()
    status, _, page = http(web + "search?q=gadget&page=0")
    assert status == 400
    status, _, body = http(web + "api/search?q=gizmoproof&limit=1")
    data = json.loads(body)
    assert status == 200 and len(data["results"]) == 1 and data["more"] is True


def test_the_language_a_question_is_written_in():
    from rulekb.kb.search.analysis import language_of

    assert language_of("Est-ce que je peux attaquer avec la créature que je viens de voler ?") == "fr"
    assert language_of("Does the creature I just stole have to wait a turn before it attacks?") == "en"
    assert language_of("trample") is None  # too short to tell: the edition's language is used


def test_the_search_page_says_how_it_read_shorthand(web):
    status, _, page = http(web + f"search?q={quote('can my opp target a gadget with gizmoproof?')}&edition={NEW}")
    assert status == 200 and "Read in the rules’ words: opp → opponent." in page.decode()
    asked = quote('it says <b>"wind only as a sprocket"</b>')
    status, _, page = http(web + f"search?q={asked}&edition={NEW}")
    assert status == 200 and "Matched as phrases: “wind only as a sprocket”." in page.decode()
    assert "<b>" not in page.decode()  # the quote as the asker wrote it, escaped


def test_the_search_page_says_a_question_in_another_language_leans_on_meaning(web):
    status, _, page = http(web + f"search?q={quote('combien de joueurs peuvent jouer une partie de duel ?')}&edition={NEW}")
    assert status == 200 and "Asked in French, the texts are in English: the meaning leads the ranking." in page.decode()

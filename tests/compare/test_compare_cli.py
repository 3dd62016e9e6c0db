"""``rulekb contradictions``, editions read back from the KB (kb.rdf.stored_edition) and the
human reports (kb.compare.report): the word diff and its escaping on invented text, the
command on two invented editions (embedded and remote store), and on the real corpus."""

from __future__ import annotations

from html.parser import HTMLParser
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from rulekb.kb.compare.report import Entry, Pane, Report, html, markdown, md_escape, side_by_side, similarity, word_diff
from rulekb.kb.errors import NotFound

from ..helpers import invoke_cli, run_cli

# ---------------------------------------------------------------- the word diff


def _words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+(?:['’\-][^\W_]+)*|\S", text)


def test_word_diff_marks_the_changed_words_only():
    diff = word_diff("A gizmo's owner is the player who built it.",
                     "A gizmo's owner is the player who last repaired it.")
    assert diff == [("equal", "A gizmo's owner is the player who "), ("delete", "built "),
                    ("insert", "last repaired "), ("equal", "it.")]


@pytest.mark.parametrize("old,new", [
    ("The sprocket is in the tray.", "The sprocket is on the table, face up."),
    ("", "A new rule."),
    ("An old rule.", ""),
    ("Same words.", "Same words."),
    ("state-based effects (see rule 104.3)", "state-based actions (see rules 104.3-4)"),
    ("one  two\nthree", "one two three four"),
])
def test_word_diff_puts_each_text_back_together(old, new):
    diff = word_diff(old, new)
    assert _words("".join(t for op, t in diff if op != "insert")) == _words(old)
    assert _words("".join(t for op, t in diff if op != "delete")) == _words(new)
    old_side, new_side = side_by_side(old, new)
    assert "".join(t for _, t in old_side) == old.lstrip() and "".join(t for _, t in new_side) == new.lstrip()
    assert all(op != "insert" for op, _ in old_side) and all(op != "delete" for op, _ in new_side)


def test_similarity_is_the_share_of_words_in_common():
    assert similarity("a b c", "a b c") == 1.0 and similarity("", "") == 1.0
    assert similarity("a b c", "a b d") == pytest.approx(2 / 3)


def test_punctuation_is_a_word_of_its_own_and_compounds_stay_whole():
    assert word_diff("the owner.", "the owner,") == [("equal", "the owner"), ("delete", "."), ("insert", ",")]
    assert word_diff("state-based effects", "state-based actions")[1:] == [("delete", "effects"),
                                                                           ("insert", "actions")]


# ---------------------------------------------------------------- escaping: rule text is data, never markup

HOSTILE_OLD = 'A gizmo <script>alert("old")</script> & its <b>owner</b> | ~~x~~ **y** [z](javascript:1) `w`'
HOSTILE_NEW = 'A gizmo <script>alert("new")</script> & its <b>keeper</b> | ~~x~~ **y** [z](javascript:2) `w`'


def _report(old: str = HOSTILE_OLD, new: str = HOSTILE_NEW) -> Report:
    entry = Entry('owner-changed: gizmo <i>"owner"</i>', Pane("en/2030-01-01", "101.2", old),
                  Pane("en/2030-06-01", "101.2", new), ("note with <u>markup</u> & #1",), "high")
    lonely = Entry("definition-added: widget", None, Pane("en/2030-06-01", "", "<em>new</em>", "Widget"))
    return Report("Invented <title>", ("1. a summary line",), (entry, lonely),
                  (("Term changes", ("old", "new"), (("<a>", "<b>"),)),))


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)


def test_html_report_escapes_rule_text_and_marks_the_changes():
    page = html(_report())
    tags = _Tags()
    tags.feed(page)
    assert "script" not in tags.tags and "b" not in tags.tags and "u" not in tags.tags and "em" not in tags.tags
    assert "i" not in tags.tags and "a" not in tags.tags
    soup = BeautifulSoup(page, "html.parser")
    assert soup.title.get_text() == "Invented <title>"
    first = soup.select("section")[0]
    old_cell, new_cell = first.select("table.diff td")
    assert old_cell.get_text() == HOSTILE_OLD and new_cell.get_text() == HOSTILE_NEW
    assert [d.get_text() for d in old_cell.select("del")] == ['old', "owner", "1"]
    assert [i.get_text() for i in new_cell.select("ins")] == ['new', "keeper", "2"]
    assert not old_cell.select("ins") and not new_cell.select("del")
    assert [th.get_text() for th in first.select("th")] == ["en/2030-01-01 rule 101.2", "en/2030-06-01 rule 101.2"]
    second = soup.select("section")[1]
    assert [td.get_text() for td in second.select("td")] == ["—", "<em>new</em>"]
    assert "glossary: Widget" in second.get_text()


def test_markdown_report_escapes_rule_text_and_marks_the_changes():
    text = markdown(_report())
    assert "<script" not in text and "<b>" not in text and "<em>" not in text and "<u>" not in text
    assert "&lt;script&gt;" in text
    row = next(line for line in text.splitlines() if "alert" in line)
    # one row of two cells: the text's own pipes are escaped
    assert len(re.findall(r"(?<!\\)\|", row)) == 3
    old_cell, new_cell = re.split(r"(?<!\\)\|", row)[1:3]
    assert "~~old~~" in old_cell and "~~owner~~" in old_cell and "**" not in old_cell.replace(r"\*\*", "")
    assert "**new**" in new_cell and "**keeper**" in new_cell
    assert r"\~\~x\~\~" in old_cell and r"\*\*y\*\*" in new_cell and r"\[z\]" in old_cell
    assert "\n1\\. a summary line" in text  # a line that would open a list


def test_md_escape_keeps_a_cell_on_one_line():
    assert md_escape("a\nb") == "a<br>b"
    assert md_escape("# not a heading", line_start=True).startswith(r"\#")


# ---------------------------------------------------------------- two invented editions, through the CLI

HOSTILE_RULE = '<img src=x onerror=alert(1)> & <b>{}</b> | ~~struck~~ **starred** [link](javascript:alert(1))'


def _cr(date_text: str, rules: list[tuple[str, str]], glossary: list[tuple[str, str]]) -> str:
    """An invented rules text in the official layout."""
    lines = ["Gizmo Brawl Comprehensive Rules", "", f"These rules are effective as of {date_text}.", "",
             "Introduction", "", "An invented text in the layout of a rules document, for tests.", "",
             "Contents", "", "1. Basics", "100. General", "101. Gizmos", "", "Glossary", "", "Credits", "",
             "1. Basics", "", "100. General", ""]
    for number, text in rules:
        if number == "101":
            lines += ["101. Gizmos", ""]
        else:
            lines += [f"{number}{'.' if number[-1].isdigit() else ''} {text}", ""]
    lines += ["Glossary", ""]
    for term, definition in glossary:
        lines += [term, definition, ""]
    return "\n".join(lines + ["Credits", "", "Invented for the rulekb tests.", ""])


def _invented(where: str, owner: str, bold: str) -> list[tuple[str, str]]:
    return [
        ("100.1", "A gizmo brawl is played by two or more players."),
        ("100.2", f"Each player keeps their gizmos {where} until the brawl ends."),
        ("100.2a", "A gizmo can't leave during a brawl.\nExample: Ana's gizmo stays."),
        ("101", ""),
        ("101.1", f"A gizmo is a card {where}."),
        ("101.2", f"A token's owner is the player {owner}. A sticker reads {HOSTILE_RULE.format(bold)}."),
        ("101.4", f"Gears that break stay {where} for the rest of the turn."),
        ("101.5", f"A player may count the sprockets {where} at any time."),
        ("101.5a", f"Counting the sprockets {where} doesn't use the stack. See rules 101.4 and 100.1."),
    ]


OLD, NEW = "en/2030-01-01", "en/2030-06-01"


@pytest.fixture(scope="module")
def invented(tmp_path_factory):
    """Two invented editions (a token's owner and a term change between them), parsed and built."""
    from rulekb.ingest.parse import parse_file
    from rulekb.kb.build import build
    from rulekb.kb.store.embedded import EmbeddedStore

    root = tmp_path_factory.mktemp("invented-editions")
    glossary = [("Gizmo", "A card. See rule 101.1."), ("Token", "See rules 101.2 and 100.1, and section 1.")]
    files = {OLD: root / "CR-2030-01-01.txt", NEW: root / "CR-2030-06-01.txt"}
    files[OLD].write_text(_cr("January 1, 2030", _invented("in the tray", "who made it", "bold"), glossary))
    files[NEW].write_text(_cr("June 1, 2030", _invented("on the table", "under whose control it was made", "brave"),
                              glossary))
    store = EmbeddedStore(root / "store")
    build([str(f) for f in files.values()], store, reasoner="none")
    parsed = {eid: parse_file(str(f))[0] for eid, f in files.items()}
    return store, files, parsed


def test_a_stored_edition_is_the_parsed_edition(invented):
    from rulekb.kb.rdf.stored_edition import stored_edition

    store, _, parsed = invented
    for eid, edition in parsed.items():
        stored = stored_edition(store, eid)
        a, b = edition.to_dict(), stored.to_dict()
        for key in ("edition", "language", "effective_date", "title", "partial", "parts", "sections", "rules",
                    "glossary"):
            assert a[key] == b[key], key
        assert stored.rule("100.2a").examples == ["Ana's gizmo stays."]
        assert stored.glossary[1].refs == ["101.2", "100.1", "1"]
    with pytest.raises(NotFound, match="no edition 'en/2031-01-01'"):
        stored_edition(store, "en/2031-01-01")


def test_contradictions_json_follows_the_design_shape(invented):
    """As a user starts it; the tests below run the command in this process (tests.helpers.invoke_cli:
    the same parsing, errors and output, without an interpreter's start each time)."""
    store, _, parsed = invented
    result = run_cli("contradictions", OLD, NEW, "--store", store.location, "--format", "json")
    assert result.returncode == 0, result.stderr
    data = result.json
    assert (data["old"], data["new"]) == (OLD, NEW) and data["reasoner"] is None
    [owner] = [i for i in data["items"] if i["kind"] == "owner-changed"]
    assert {"concept", "aspect", "kind", "old", "new", "severity", "explanation"} <= set(owner)
    assert (owner["concept"], owner["aspect"]) == ("token", "owner")
    for side, eid in (("old", OLD), ("new", NEW)):
        assert {"edition", "rule", "text"} <= set(owner[side])
        assert (owner[side]["edition"], owner[side]["rule"]) == (eid, "101.2")
        assert owner[side]["text"] == parsed[eid].rule("101.2").text
    assert ("tray", "table") in {(t["old"], t["new"]) for t in data["term_changes"]}


def test_contradictions_text_and_reports(invented):
    store, files, _ = invented
    text = invoke_cli("contradictions", OLD, NEW, "--store", store.location)
    assert text.returncode == 0, text.stderr
    assert "owner-changed: token (owner)" in text.stdout and "tray -> table" in text.stdout
    page = invoke_cli("contradictions", OLD, NEW, "--store", store.location, "--report", "html")
    assert page.returncode == 0, page.stderr
    soup = BeautifulSoup(page.stdout, "html.parser")
    assert not soup.find("img") and not soup.find("b") and not soup.find("a")
    owner = next(s for s in soup.select("section") if "owner-changed" in s.h2.get_text())
    old_cell, new_cell = owner.select("table.diff td")
    assert "<img src=x onerror=alert(1)> & <b>bold</b>" in old_cell.get_text()
    assert [d.get_text() for d in old_cell.select("del")] == ["who", "it", "bold"]
    assert [i.get_text() for i in new_cell.select("ins")] == ["under whose control it was", "brave"]
    assert "tray" in soup.select("table.terms")[0].get_text()
    md = invoke_cli("contradictions", OLD, NEW, "--store", store.location, "--report", "md")
    assert md.returncode == 0 and "~~bold~~" in md.stdout and "**brave**" in md.stdout
    assert "<img" not in md.stdout and "&lt;img" in md.stdout
    # a source file instead of an id: parsed, not read from the KB
    by_file = invoke_cli("contradictions", str(files[OLD]), NEW, "--store", store.location, "--format", "json")
    assert by_file.returncode == 0, by_file.stderr
    assert by_file.json["items"] == invoke_cli("contradictions", OLD, NEW, "--store", store.location,
                                            "--format", "json").json["items"]


def test_the_same_edition_twice_has_no_changes(invented):
    store, _, _ = invented
    result = invoke_cli("contradictions", NEW, NEW, "--store", store.location)
    assert result.returncode == 0 and "no changes" in result.stdout
    data = invoke_cli("contradictions", NEW, NEW, "--store", store.location, "--format", "json").json
    assert data["items"] == [] and data["term_changes"] == []


@pytest.mark.parametrize("args,message", [
    ([OLD, "en/2031-01-01"], "no edition 'en/2031-01-01' in the knowledge base"),
    (["xx/nothing", NEW], "no edition 'xx/nothing'"),
    ([OLD, "missing-file.txt"], "no file 'missing-file.txt'"),
    ([OLD, NEW, "--report", "html", "--format", "json"], "choose one"),
    ([OLD, NEW, "--reasoner", "pellet"], "pellet"),
])
def test_bad_input_is_one_line_and_exit_2(invented, args, message):
    store, _, _ = invented
    result = invoke_cli("contradictions", *args, "--store", store.location)
    assert result.returncode == 2
    assert message in result.stderr
    if "--reasoner" not in args:  # typer's own usage message is several lines
        assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


def test_owlrl_reasoner_runs(invented):
    store, _, _ = invented
    result = invoke_cli("contradictions", OLD, NEW, "--store", store.location, "--reasoner", "owlrl", "--format", "json")
    assert result.returncode == 0, result.stderr
    assert result.json["reasoner"] == "owlrl"
    assert any(i["kind"] == "owner-changed" for i in result.json["items"])


def test_a_stored_edition_from_a_remote_store(invented, tmp_path):
    """The same editions built into a real SPARQL server (oxigraph serve) come back the same."""
    from rulekb.kb.build import build
    from rulekb.kb.store.remote import RemoteStore
    from rulekb.kb.rdf.stored_edition import stored_edition

    from ..store.test_remote_store import _serve, _stop

    _, files, parsed = invented
    process, url = _serve(tmp_path, "--union-default-graph")
    try:
        remote = RemoteStore(url)
        build([str(f) for f in files.values()], remote, reasoner="none")
        for eid, edition in parsed.items():
            stored = stored_edition(remote, eid)
            assert [(r.number, r.text, r.examples, r.order) for r in stored.rules] == \
                [(r.number, r.text, r.examples, r.order) for r in edition.rules]
            assert [(g.term, g.definition, g.refs) for g in stored.glossary] == \
                [(g.term, g.definition, g.refs) for g in edition.glossary]
        result = run_cli("contradictions", OLD, NEW, "--store", url, "--format", "json")
        assert result.returncode == 0, result.stderr
        assert any(i["kind"] == "owner-changed" for i in result.json["items"])
    finally:
        _stop(process)


# ---------------------------------------------------------------- the real corpus


def _parsed(corpus: Path, eid: str):
    from rulekb.ingest.parse import parse_file

    lang, date = eid.split("/")
    return parse_file(str(corpus / lang / f"CR-{date}.txt"))[0]


@pytest.mark.parametrize("eid", ["en/2026-01-16", "en/2009-05-01"])
def test_a_stored_real_edition_gives_the_statements_of_its_source(corpus, corpus_kb, eid):
    from rulekb.kb.define import edition_statements
    from rulekb.kb.rdf.stored_edition import stored_edition

    store, _ = corpus_kb
    stored, parsed = stored_edition(store, eid), _parsed(corpus, eid)
    assert edition_statements(stored) == edition_statements(parsed)
    a, b = parsed.to_dict(), stored.to_dict()
    for key in ("effective_date", "language", "title", "sections", "parts", "rules", "glossary"):
        assert a[key] == b[key], key


def test_the_2009_restructure_changes_the_owner_of_a_token(corpus, corpus_kb):
    store, _ = corpus_kb
    old, new = "en/2009-05-01", "en/2009-07-08"
    result = invoke_cli("contradictions", old, new, "--store", store.location, "--format", "json")
    assert result.returncode == 0, result.stderr
    data = result.json
    assert (data["old"], data["new"]) == (old, new)
    [token] = [i for i in data["items"] if (i["kind"], i["concept"], i["aspect"]) == ("owner-changed", "token", "owner")]
    editions = {old: _parsed(corpus, old), new: _parsed(corpus, new)}
    for side, eid in (("old", old), ("new", new)):
        assert token[side]["edition"] == eid and token[side]["rule"]
        assert token[side]["text"] == editions[eid].rule(token[side]["rule"]).text
        assert "token" in token[side]["text"].lower()
    assert token["severity"] == "high"
    terms = {(t["old"], t["new"]) for t in data["term_changes"]}
    assert ("removed from the game", "exile") in terms
    page = invoke_cli("contradictions", old, new, "--store", store.location, "--report", "html")
    assert page.returncode == 0, page.stderr
    soup = BeautifulSoup(page.stdout, "html.parser")
    assert len(soup.select("section")) == len(data["items"])
    assert all(len(s.select("table.diff td")) == 2 for s in soup.select("section"))
    assert soup.select("del") and soup.select("ins")


def test_the_2024_renaming_of_tribal(corpus_kb):
    store, _ = corpus_kb
    result = invoke_cli("contradictions", "en/2024-03-08", "en/2024-06-07", "--store", store.location, "--format", "json")
    assert result.returncode == 0, result.stderr
    assert ("tribal", "kindred") in {(t["old"], t["new"]) for t in result.json["term_changes"]}
    assert any(i["kind"] == "renamed" and i["concept"] == "kindred" for i in result.json["items"])

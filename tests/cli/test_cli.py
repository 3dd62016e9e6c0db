"""The ``rulekb`` command as users meet it: JSON on stdout, one-line errors, exit codes."""

from __future__ import annotations

import json

import pytest

from ..helpers import invoke_cli, run_cli



def _commands() -> list[list[str]]:
    """Every command and subcommand of the app, so a new one cannot miss its --help."""
    import typer

    from rulekb.kb.cli import app

    def walk(command, path):
        yield path
        for name, sub in getattr(command, "commands", {}).items():  # a group
            yield from walk(sub, [*path, name])

    return list(walk(typer.main.get_command(app), []))


COMMANDS = _commands()


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "rulekb")
def test_every_command_has_help(command):
    # `rulekb --help` as a user starts it; each command's help in this process (the same app and
    # the same rendering: a process each was 13 s of CPU for the 45 commands)
    result = invoke_cli(*command, "--help") if command else run_cli("--help")
    assert result.returncode == 0
    assert "Usage:" in result.stdout


def test_parse_json_follows_the_contract(fixtures):
    result = run_cli("parse", str(fixtures / "invented-cr-2030-05-05.txt"), "--format", "json")
    assert result.returncode == 0, result.stderr
    data = result.json
    for key in ("edition", "language", "effective_date", "title", "source", "sections", "rules", "glossary", "warnings"):
        assert key in data
    assert data["edition"] == "en/2030-05-05"
    assert data["rules"][0] == {
        "number": "100.1",
        "text": 'A widget duel is played by two or more duelists. See rule 101, "Gadgets."',
        "examples": [],
        "parent": "100",
        "order": 3,
    }
    assert {"term": "Gadget", "definition": "A card on the table. See rule 101.1.", "refs": ["101.1"]} in data["glossary"]
    assert result.stderr == ""


def test_parse_prints_a_human_summary_by_default(fixtures):
    result = run_cli("parse", str(fixtures / "invented-cr-2030-05-05.txt"))
    assert result.returncode == 0
    assert "en/2030-05-05" in result.stdout and "10 rules" in result.stdout


def test_parse_a_directory_lists_every_edition(fixtures, tmp_path):
    text = (fixtures / "invented-cr-2030-05-05.txt").read_text()
    (tmp_path / "a.txt").write_text(text)
    (tmp_path / "b.txt").write_text(text.replace("May 5, 2030", "June 6, 2031"))
    (tmp_path / "README.md").write_text("not a document")  # not read: not a document suffix
    (tmp_path / "junk.txt").write_text("hello, this is not a rules text\n")
    result = run_cli("parse", str(tmp_path), "--summary", "--format", "json")
    assert result.returncode == 0
    assert [row["edition"] for row in result.json] == ["en/2030-05-05", "en/2031-06-06"]
    assert "junk.txt" in result.stderr and "not a Comprehensive Rules document" in result.stderr
    strict = run_cli("parse", str(tmp_path), "--summary", "--strict")
    assert strict.returncode == 2


@pytest.mark.parametrize(
    "content,message",
    [
        (b"", "empty input"),
        (b"\x00\x01\x02\x03" * 300, "binary input"),
        (b"Dear diary,\nnothing about rules here.\n", "not a Comprehensive Rules document"),
        (b"<html><body><nav>Home</nav><p>Welcome to my blog.</p></body></html>", "not a Comprehensive Rules document"),
        (b"PK\x03\x04garbage", "zip"),
        (b"%PDF-1.4\n%garbage that is not a pdf", "PDF"),
    ],
    ids=["empty", "binary", "prose", "html", "broken-zip", "broken-pdf"],
)
def test_bad_input_is_one_line_on_stderr_and_exit_2(tmp_path, content, message):
    path = tmp_path / "input.txt"
    path.write_bytes(content)
    result = run_cli("parse", str(path), "--format", "json")
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("rulekb: error: ")
    assert message.lower() in lines[0].lower()


def test_a_missing_file_is_exit_2(tmp_path):
    result = run_cli("parse", str(tmp_path / "nope.txt"))
    assert result.returncode == 2
    assert "no such file or directory" in result.stderr


@pytest.mark.corpus
def test_the_rulings_summary_is_refused(corpus):
    result = run_cli("parse", str(corpus / "other" / "Rulings-Summaries-1999-04-21.txt"))
    assert result.returncode == 2
    assert "not a Comprehensive Rules document" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.corpus
def test_parse_json_of_a_real_edition_is_valid_json_with_warnings(corpus):
    result = run_cli("parse", str(corpus / "en" / "CR-2013-02-01.txt"), "--format", "json")
    assert result.returncode == 0
    data = json.loads(result.stdout)
    assert data["partial"] is True
    assert any(w["code"] == "truncated" for w in data["warnings"])


@pytest.mark.corpus
def test_bench_ingest_prints_figures(corpus):
    result = run_cli("bench", "ingest", "--repeat", "1", "--format", "json")
    assert result.returncode == 0, result.stderr
    figures = result.json
    assert figures["editions"] == 128
    assert figures["rules"] > 200000
    assert figures["total_seconds_median"] > 0 and figures["mb_per_second"] > 0

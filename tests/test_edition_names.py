"""``en/latest``, ``fr/latest`` and a date wherever an edition is named: every command and
route that takes an edition, on invented editions (tests/fixtures/numbers: en/2021-01-01,
en/2021-04-01, fr/2021-04-01), each answered as with the id the name resolves to.

The names and what they resolve to (the one resolver, kb.timeline.editions):"""

from __future__ import annotations

import json
import re
from urllib.parse import quote

import pytest

from .helpers import WebServer, http, invoke_cli, run_cli

NAMES = {  # name -> the id it resolves to
    "en/latest": "en/2021-04-01",
    "fr/latest": "fr/2021-04-01",
    "en@2021-02-01": "en/2021-01-01",
    "fr@2021-05-01": "fr/2021-04-01",
    "2021-05-01": "en/2021-04-01",
}
WITH_LANGUAGE = [name for name in NAMES if name[:2] in ("en", "fr")]  # (a bare date: for a few commands)
ENGLISH = [name for name in WITH_LANGUAGE if NAMES[name].startswith("en/")]
FRENCH = [name for name in WITH_LANGUAGE if NAMES[name].startswith("fr/")]


_BY_ID: dict = {}  # the answers given for ids, kept: several names resolve to one id


def _cli(location, *args, stdin: bytes | None = None):
    return run_cli(*args, "--store", str(location), input=stdin)


def _in_process(location, *args, stdin: bytes | None = None):
    """The command run in this process: the comparisons below run some 120 commands, and a
    process each spent 40 s of CPU on interpreters' starts (the tests that follow run it as a
    user does, in a process of its own)."""
    return invoke_cli(*args, "--store", str(location), input=stdin)


def _cli_by_id(location, *args, stdin: bytes | None = None):
    key = (str(location), args, stdin)
    if key not in _BY_ID:
        _BY_ID[key] = _in_process(location, *args, stdin=stdin)
    return _BY_ID[key]


_HOW = {"asked", "how", "reason", "summary", "resolved", "resolution", "seconds",  # how it was named, timings
        "candidates_from"}  # where --base auto read its candidates: the page data, then the choice it kept


def _answer(data):
    """JSON without what says how the edition was named (which differs by design) and timings."""
    if isinstance(data, dict):
        resolution = "how" in data and "asked" in data  # a resolution: its date is the one asked
        return {k: _answer(v) for k, v in data.items() if k not in _HOW and not (resolution and k == "date")}
    if isinstance(data, list):
        return [_answer(v) for v in data]
    return data


def _same(location, build_args, name: str, stdin: bytes | None = None):
    """The command run with ``name`` and with the id it names: the same answer, exit 0 (or 1:
    findings, for the commands that report them)."""
    by_name = _in_process(location, *build_args(name), stdin=stdin)
    by_id = _cli_by_id(location, *build_args(NAMES[name]), stdin=stdin)
    assert by_id.returncode in (0, 1), by_id.stderr
    assert by_name.returncode == by_id.returncode, (name, by_name.stderr, by_id.stderr)
    assert "rror" not in by_name.stderr, by_name.stderr
    try:
        assert _answer(json.loads(by_name.stdout)) == _answer(json.loads(by_id.stdout)), name
    except json.JSONDecodeError:  # (export writes Turtle, translation-memory TMX with its creation date)
        assert _undated(by_name.stdout) == _undated(by_id.stdout), name
    return by_name


def _undated(text: str) -> str:
    return re.sub(r'creationdate="[^"]*"', "", text)


J = ("--format", "json")
COMMANDS = {  # command -> (the names it takes, its arguments for one name)
    "rule": (list(NAMES), lambda n: ("rule", n, "101.1z", *J)),
    "history": (WITH_LANGUAGE, lambda n: ("history", "101.1z", "--edition", n, *J)),
    "export": (WITH_LANGUAGE, lambda n: ("export", n)),
    "search": (list(NAMES), lambda n: ("search", "paint colour", "--edition", n, *J)),
    "define": (WITH_LANGUAGE, lambda n: ("define", "paint", "--edition", n, *J)),
    "ask": (WITH_LANGUAGE, lambda n: ("ask", "What is paint?", "--edition", n, *J)),
    "consistency": (WITH_LANGUAGE, lambda n: ("consistency", n, *J)),
    "diff": (WITH_LANGUAGE, lambda n: ("diff", NAMES.get(n, n)[:2] + "/2021-04-01", n, *J)),
    "contradictions": (ENGLISH, lambda n: ("contradictions", "en/2021-01-01", n, *J)),
    "validate": (WITH_LANGUAGE, lambda n: ("validate", "--edition", n, *J)),
    "translation-report": (FRENCH, lambda n: ("translation-report", n, "--us", "en/latest", *J)),
    "translation-report --us": (ENGLISH, lambda n: ("translation-report", "fr/2021-04-01", "--us", n, *J)),
    "lexicon --us": (ENGLISH, lambda n: ("lexicon", "--glossary", "fr/2021-04-01", "--us", n, *J)),
    "lexicon --glossary": (FRENCH, lambda n: ("lexicon", "--glossary", n, "--us", "en/2021-04-01", *J)),
    "translation-memory": (FRENCH, lambda n: ("translation-memory", n, "--us", "en/2021-04-01")),
    "translation-memory --us": (ENGLISH, lambda n: ("translation-memory", "fr/2021-04-01", "--us", n)),
}
CASES = [(command, name) for command, (names, _) in COMMANDS.items() for name in names]


@pytest.mark.parametrize("command,name", CASES, ids=[f"{c}-{n}" for c, n in CASES])
def test_every_command_takes_latest_and_dates(numbers_kb, command, name):
    _, location = numbers_kb
    _same(location, COMMANDS[command][1], name)


def test_cite_check_takes_latest_and_dates(numbers_kb):
    _, location = numbers_kb
    text = b"As rule 101.1z says, and rules 101.1y-z.\n"
    for name in ENGLISH:
        _same(location, lambda n: ("cite-check", "-", "--as-of", n, "--to", "en/latest", *J), name, stdin=text)
        _same(location, lambda n: ("cite-check", "-", "--as-of", "en/2021-01-01", "--to", n, *J), name, stdin=text)


def test_search_said_which_edition_answered(numbers_kb):
    _, location = numbers_kb
    result = _cli(location, "search", "paint colour", "--edition", "fr/latest")
    assert result.returncode == 0 and "fr/2021-04-01" in result.stderr


def test_bench_translation_files_takes_latest(numbers_kb):
    _, location = numbers_kb
    result = _cli(location, "bench", "translation-files", "fr/latest", "--repeat", "1", *J)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["fr_edition"] == "fr/2021-04-01"


def test_bench_serve_resolves_its_edition_before_any_load(numbers_kb):
    _, location = numbers_kb
    result = _cli(location, "bench", "serve", "--edition", "en@1990-01-01", "--quick")
    assert result.returncode == 2 and "1990-01-01" in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_an_unknown_name_is_one_line_and_exit_2_everywhere(numbers_kb):
    _, location = numbers_kb
    for args in (("search", "paint", "--edition", "en@1990-01-01"), ("consistency", "xx/latest"),
                 ("validate", "--edition", "en@1990-01-01"), ("translation-report", "fr@1990-01-01")):
        result = _cli(location, *args)
        assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, (args, result.stderr)


# -- the web --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def numbers_web(numbers_kb):
    from rulekb.kb.web.app import create_app

    store, _ = numbers_kb
    with WebServer(create_app(store)) as root:
        yield root


def _routes(name: str) -> list[str]:
    lang = NAMES[name][:2]
    q = quote(name, safe="")
    out = [f"search?q=paint+colour&edition={q}", f"api/search?q=paint+colour&edition={q}",
           f"api/history/101.1z?edition={q}", f"effects/{name}", f"api/effects/{name}",
           f"diff?old={lang}/2021-04-01&new={q}", f"contradictions?old={lang}/2021-04-01&new={q}"]
    if lang == "fr":
        out.append(f"translation?fr={q}&us=en/2021-04-01")
    else:
        out.append(f"translation?fr=fr/2021-04-01&us={q}")
    if "/latest" in name:
        out += [f"edition/{name}/rule/101.1z", f"api/rule/{name}/101.1z", f"api/edition/{name}"]
    elif "@" in name:
        out += [f"edition/{name}/rule/101.1z"]
    return out


WEB_CASES = [(name, route) for name in NAMES for route in _routes(name)]


@pytest.mark.parametrize("name,route", WEB_CASES, ids=[r for _, r in WEB_CASES])
def test_every_route_takes_latest_and_dates(numbers_web, name, route):
    status, _, body = http(numbers_web + route)
    assert status == 200, (route, body[:300])
    target = route.replace(quote(name, safe=""), quote(NAMES[name], safe="")).replace(name, NAMES[name])
    status_id, _, body_id = http(numbers_web + target)
    assert status_id == 200, (target, body_id[:300])
    if route.startswith("api/"):
        assert _answer(json.loads(body)) == _answer(json.loads(body_id)), route
    else:
        assert NAMES[name].encode() in body, route

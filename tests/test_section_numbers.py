"""A section number where a rule number is expected (``rulekb rule ED 601``,
``rulekb history 601``, /api/rule/.../601, the rule page route) shows the
section: its title, its rules, the citations they make and what cites it."""

from __future__ import annotations

import json

import pytest

from .helpers import WebServer, http, run_cli

TEXT = """Widget Duel Comprehensive Rules

These rules are effective as of {date}.

1. Basics

100. General

100.1. A widget duel is played by two duelists. See rule 101, "Gadgets."

100.2. Each duelist brings a deck.

101. {title}

101.1. A gadget is a card on the table.

101.2. A gadget can be spun (see rule 100.2).

Glossary

Gadget
A card on the table. See rule 101, "Gadgets."

Credits

Invented for a test.
"""


@pytest.fixture(scope="module")
def section_kb(tmp_path_factory):
    from rulekb.kb.build import build
    from rulekb.kb.store.embedded import EmbeddedStore

    root = tmp_path_factory.mktemp("sections")
    for date, printed, title in (("2030-05-05", "May 5, 2030", "Gadgets"), ("2031-05-05", "May 5, 2031", "Gizmos")):
        (root / f"CR-{date}.txt").write_text(TEXT.format(date=printed, title=title), encoding="utf-8")
    store = EmbeddedStore(root / "store")
    build([str(root / "CR-2030-05-05.txt"), str(root / "CR-2031-05-05.txt")], store, reasoner="owlrl")
    return store, root / "store"


def test_rule_with_a_section_number_gives_the_section(section_kb):
    from rulekb.kb import service

    store, _ = section_kb
    data = service.rule(store, "en/2030-05-05", "101")
    assert data["kind"] == "section" and data["title"] == "Gadgets"
    assert [r["number"] for r in data["rules"]] == ["101.1", "101.2"]
    assert data["references"] == ["100.2"]
    assert "100.1" in data["referenced_by"] and "glossary: Gadget" in data["referenced_by"]
    part = service.rule(store, "en/2030-05-05", "1")
    assert part["kind"] == "part" and [s["number"] for s in part["sections"]] == ["100", "101"]


def test_history_of_a_section_number(section_kb):
    from rulekb.kb.lineage.history import history

    store, _ = section_kb
    entries = history(store, "101", "en/2031-05-05")
    assert [(e["edition"], e["text"], e["kind"]) for e in entries] == [
        ("en/2030-05-05", "Gadgets", None), ("en/2031-05-05", "Gizmos", "retitled")]


def test_a_missing_number_is_still_refused(section_kb):
    from rulekb.kb import service
    from rulekb.kb.errors import NotFound

    store, _ = section_kb
    with pytest.raises(NotFound):
        service.rule(store, "en/2030-05-05", "102")


def test_cli_and_web_show_the_section(section_kb):
    from rulekb.kb.web.app import create_app

    store, path = section_kb
    result = run_cli("rule", "en/2030-05-05", "101", "--store", str(path), "--format", "json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["title"] == "Gadgets"
    text = run_cli("rule", "en/2030-05-05", "101.", "--store", str(path))
    assert text.returncode == 0 and "Gadgets" in text.stdout and "101.2" in text.stdout
    history = run_cli("history", "101", "--edition", "en/2030-05-05", "--store", str(path))
    assert history.returncode == 0, history.stderr
    with WebServer(create_app(store)) as root:
        status, _, body = http(root + "api/rule/en/2030-05-05/101")
        assert status == 200 and json.loads(body)["kind"] == "section"
        status, _, body = http(root + "edition/en/2030-05-05/rule/101", headers={"Accept": "text/html"})
        page = body.decode("utf-8")
        assert status == 200, page.split("<main>")[-1][:600]
        assert "Gadgets" in page and "Cited by" in page and "glossary: Gadget" in page

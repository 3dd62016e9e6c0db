"""A subrule past z (``101.1aa`` after ``101.1z``, as a 2026 edition has ``704.5aa``), end to end
on invented editions: parsed as its own rule, answered by ``rulekb rule``, added (not merged) by
the diff, and cited -- "rules 101.1z-aa" names both -- with no dangling citation."""

from __future__ import annotations

import json

from rulekb.ingest import refs
from rulekb.ingest.parse import parse_file

from .conftest import FIXTURES
from .helpers import invoke_cli, run_cli

NEW = FIXTURES / "numbers" / "invented-cr-2021-04-01.txt"


def test_parse_reads_each_subrule_past_z_as_a_rule():
    [edition] = parse_file(str(NEW))
    numbers = [r.number for r in edition.rules]
    assert numbers[-5:] == ["101.1z", "101.1aa", "101.1ab", "101.2", "101.3"]
    assert edition.rule("101.1aa").parent == "101.1"
    assert edition.rule("101.1z").text == "Zinc is a paint colour. Gadgets painted zinc are zinc gadgets."
    assert refs.cited_numbers(edition.rule("101.2").text) == ["101.1z", "101.1aa", "101.1ab"]
    assert len(refs.cited_numbers(edition.rule("101.1").text)) == 26  # "rules 101.1a-ab"
    assert not edition.warnings


def test_rulekb_rule_answers_a_two_letter_subrule(numbers_kb):
    _, location = numbers_kb
    result = run_cli("rule", "en/2021-04-01", "101.1aa", "--store", str(location), "--format", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["number"] == "101.1aa" and data["text"].startswith("Azure is a paint colour.")
    referenced = {r if isinstance(r, str) else r.get("number") for r in data.get("referenced_by", [])}
    assert {"101.1", "101.2"} <= referenced, data.get("referenced_by")


def test_the_diff_adds_the_new_subrules_and_leaves_z_alone(numbers_kb):
    _, location = numbers_kb
    result = invoke_cli("diff", "en/2021-01-01", "en/2021-04-01", "--store", str(location), "--format", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    changes = {(c.get("old"), c.get("new")): c["kind"] for c in data["changes"]}
    assert changes.get((None, "101.1aa")) == "added" and changes.get((None, "101.1ab")) == "added"
    assert not any(kind in ("removed", "merged") for kind in changes.values()), changes
    assert ("101.1z", "101.1z") not in changes or changes[("101.1z", "101.1z")] == "unchanged"


def test_citations_of_the_new_subrules_resolve_and_none_dangles(numbers_kb):
    _, location = numbers_kb
    rule = invoke_cli("rule", "en/2021-04-01", "101.2", "--store", str(location), "--format", "json")
    assert rule.returncode == 0, rule.stderr
    data = json.loads(rule.stdout)
    assert data["references"] == ["101.1z", "101.1aa", "101.1ab"] and data["dangling"] == []
    result = invoke_cli("consistency", "en/2021-04-01", "--store", str(location), "--format", "json")
    assert result.returncode == 0, result.stderr
    findings = json.loads(result.stdout)["findings"]
    assert not [f for f in findings if f["kind"].startswith("citation")], findings
    dangling = invoke_cli("query", "dangling-references", "--store", str(location), "--format", "json")
    assert dangling.returncode == 0, dangling.stderr
    assert json.loads(dangling.stdout)["results"]["bindings"] == []


def test_the_kb_with_two_letter_subrules_validates(numbers_kb):
    _, location = numbers_kb
    result = invoke_cli("validate", "--edition", "en/2021-04-01", "--edition", "fr/2021-04-01",
                     "--store", str(location), "--format", "json")
    report = json.loads(result.stdout)
    assert result.returncode == 0 and report["conforms"], report["violations"][:3]

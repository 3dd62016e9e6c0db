"""``rulekb bench translation-files --every-french``: every French text of the KB exported as a
translator's first ``translation-report --base auto --report xliff`` (a new process, an empty
cache) and again (the choice kept), on the invented editions of tests/fixtures/numbers (one
French text)."""

from __future__ import annotations

import json

from ..helpers import run_cli


def test_every_french_text_first_export_and_again(numbers_kb):
    _, location = numbers_kb
    result = run_cli("bench", "translation-files", "--every-french", "--repeat", "1", "--store", str(location),
                     "--format", "json")
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert figures["texts"] == 1 and list(figures["per_text"]) == ["fr/2021-04-01"] and not figures["failed"]
    one = figures["per_text"]["fr/2021-04-01"]
    assert all(one[column] > 0 for column in ("first_wall", "first_cpu", "again_wall", "again_cpu"))
    assert figures["summary"]["first_cpu"]["slowest_text"] == "fr/2021-04-01"
    assert figures["summary"]["first_wall"]["median"] == one["first_wall"]
    assert "bench translation-files: 1/1 fr/2021-04-01: first" in result.stderr
    text = run_cli("bench", "translation-files", "--every-french", "--repeat", "1", "--store", str(location))
    assert text.returncode == 0 and "first export (empty cache)" in text.stdout and "CPU median" in text.stdout


def test_one_text_or_every_one(numbers_kb):
    _, location = numbers_kb
    for args in ((), ("fr/latest", "--every-french")):
        result = run_cli("bench", "translation-files", *args, "--store", str(location))
        assert result.returncode == 2 and result.stderr.strip().splitlines() == \
            ["rulekb: error: give one French text, or --every-french"], result.stderr

"""Run the real ``rulekb`` command in a subprocess, as a user would."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent


@dataclass
class CliResult:
    returncode: int
    stdout: str
    stderr: str

    @property
    def json(self):
        return json.loads(self.stdout)


def run_cli(*args: str, input: bytes | None = None, timeout: float = 300, env: dict | None = None) -> CliResult:
    completed = subprocess.run(
        [sys.executable, "-m", "kb.cli", *args],
        input=input,
        capture_output=True,
        timeout=timeout,
        cwd=PROJECT,
        env=env,
    )
    return CliResult(
        completed.returncode,
        completed.stdout.decode("utf-8", "replace"),
        completed.stderr.decode("utf-8", "replace"),
    )


def manifest_rows(part: str, key: str) -> list[dict]:
    """The rows of ``corpus/PART/MANIFEST.tsv``; without a corpus, one row whose
    ``key`` is MISSING, so parametrized tests still run once and fail in CI
    through the ``corpus`` fixture."""
    from kb.corpus import corpus_dir

    root = corpus_dir()
    manifest = root / part / "MANIFEST.tsv" if root else None
    if manifest is None or not manifest.exists():
        return [{key: "MISSING"}]
    with manifest.open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))

"""Run the real ``rulekb`` command in a subprocess, as a user would."""

from __future__ import annotations

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

"""Run the real ``rulekb`` command in a subprocess, as a user would (or in the test's process,
for many answers of one store), and what tests share: skip-or-fail, bad input, a cache of one's own."""

from __future__ import annotations

import csv
import json
import os
import re
import socket
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

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
        [sys.executable, "-m", "rulekb.kb.cli", *args],
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


def invoke_cli(*args: str, input: bytes | None = None) -> CliResult:
    """The ``rulekb`` command run in this process (typer's test runner): the same parsing,
    resolution and output as :func:`run_cli` without a new interpreter's start (a quarter of a
    second of CPU each), for a test that compares many answers of one store. Exceptions that
    escape the command fail the test as a traceback would on a terminal."""
    from typer.testing import CliRunner

    from rulekb.kb.cli import app

    result = CliRunner().invoke(app, list(args), input=input, catch_exceptions=False)
    return CliResult(result.exit_code, result.stdout, result.stderr)


def own_cache(folder: Path) -> Path:
    """``folder`` as a ``RULEKB_CACHE`` of a test's own (it reasons afresh), sharing the compiled
    Java drivers of the run's cache (``RULEKB_CACHE`` as it is before the test sets its own):
    compiling them again tests nothing and cost 1.5 s of CPU each time (kb.hermit.launch puts a
    compile in place whole, so processes sharing the folder never see half of one)."""
    from rulekb.kb.json_cache import cache_folder

    shared = cache_folder("java")
    shared.mkdir(parents=True, exist_ok=True)
    folder.mkdir(parents=True, exist_ok=True)
    if not (folder / "java").exists():
        (folder / "java").symlink_to(shared, target_is_directory=True)
    return folder


def assert_bad_input(result: CliResult, message: str) -> None:
    """Bad input: exit 2 and one line on stderr that says ``message`` (no traceback)."""
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr


def edited(text: str, edits: list[tuple[str, str]]) -> str:
    """``text`` with each ``(old, new)`` replaced in turn: an invented later edition made
    from a fixture. An ``old`` the text lacks fails the test (the fixture changed)."""
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    return text


def in_ci() -> bool:
    """Whether the tests run in CI (``CI=true``): there a missing tool or corpus is a failure."""
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def need(reason: str) -> None:
    """Something a test needs is missing: skip it on a developer machine, fail it in CI,
    so CI cannot pass by skipping."""
    if in_ci():
        pytest.fail(reason)
    pytest.skip(reason)


def manifest_rows(part: str, key: str) -> list[dict]:
    """The rows of ``corpus/PART/MANIFEST.tsv``; without a corpus, one row whose
    ``key`` is MISSING, so parametrized tests still run once and fail in CI
    through the ``corpus`` fixture."""
    from rulekb.kb.corpus import corpus_dir

    root = corpus_dir()
    manifest = root / part / "MANIFEST.tsv" if root else None
    if manifest is None or not manifest.exists():
        return [{key: "MISSING"}]
    with manifest.open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


class WebServer:
    """A real uvicorn server for a Starlette app on a free loopback port, in a thread:
    ``with WebServer(app) as root:`` gives ``http://127.0.0.1:PORT/``."""

    def __init__(self, app, **config):
        """``config``: more uvicorn.Config settings (``http=`` a protocol class, ``limit_concurrency=``...)."""
        import threading

        import uvicorn

        self.port = free_port()
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="error", **config))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> str:
        import time

        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        return f"http://127.0.0.1:{self.port}/"

    def __exit__(self, *exc):
        self.server.should_exit = True
        self.thread.join(10)


def http(url: str, *, data: bytes | None = None, headers: dict | None = None, method: str | None = None):
    """(status, headers, body) of a plain HTTP request -- error answers too."""
    import urllib.error
    import urllib.request

    request = urllib.request.Request(url, data=data, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers, err.read()


def assert_one_clear_line(exc: Exception, *words: str) -> None:
    """An error a user sees: one line, nothing chained on, naming each of ``words``."""
    message = str(exc)
    assert "\n" not in message and "Traceback" not in message
    assert exc.__cause__ is None  # nothing from pypdf, zipfile or lxml chained on
    for word in words:
        assert word in message


_PORTS_BELOW = 32768  # the kernel's ephemeral ports start here (ip_local_port_range)
_PORTS_PER_WORKER = 1500
_ports: dict[str, int] = {}


def free_port() -> int:
    """A loopback port nothing listens on now (bound, then closed): for a server a test starts,
    or for an address that must refuse connections.

    Not the kernel's pick (``bind(0)``): two test workers could both be handed one port in the
    seconds before either server binds it, and ``rulekb serve`` binds with SO_REUSEPORT, so both
    would listen on it and a killed replica would seem alive (the other one answering for it).
    Each xdist worker takes its own range below the ephemeral ports (where no outgoing
    connection lands either) and hands out each of its ports once, in turn."""
    if not _ports:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
        _ports["first"] = _PORTS_BELOW - _PORTS_PER_WORKER * ((int(worker) if worker.isdigit() else 0) % 8 + 1)
        _ports["next"] = _ports["first"]
    for _ in range(_PORTS_PER_WORKER):
        port = _ports["next"]
        _ports["next"] = _ports["first"] + (port + 1 - _ports["first"]) % _PORTS_PER_WORKER
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue  # in use on this machine: the next one
            return port
    raise RuntimeError(f"no free port in {_ports['first']}..{_ports['first'] + _PORTS_PER_WORKER - 1}")


def invented_edition(eid: str, rules: list[tuple[str, str]], glossary=()):
    """An English edition of invented rules (number, text), each subrule under its parent
    ("702.19b" under "702.19"), and glossary entries (term, cited rules) with an invented
    definition: what the aligner's tests pair."""
    from rulekb.ingest.model import Edition, GlossaryEntry, Rule

    edition = Edition(eid, "en", eid.split("/")[1], "Invented Rules")
    edition.rules = [Rule(n, t, parent=n[:-1] if n[-1].isalpha() else None) for n, t in rules]
    edition.glossary = [GlossaryEntry(term, "An invented definition.", list(refs)) for term, refs in glossary]
    return edition


def gold_rule_problems(rows: list[dict], editions: dict) -> list[str]:
    """What is wrong with a search gold set's answers: an edition the corpus lacks, a rule
    number its edition does not have, a French text's answer that is not French text."""
    problems = []
    for row in rows:
        edition = editions.get(row["edition"])
        if edition is None:
            problems.append(f"{row['id']}: no edition {row['edition']} in the corpus")
            continue
        for number in row["rules"].split():
            rule = edition.rule(number)
            if rule is None:
                problems.append(f"{row['id']}: {row['edition']} has no rule {number}")
            elif edition.language == "fr" and not re.search(FRENCH_WORDS, rule.text, re.IGNORECASE):
                problems.append(f"{row['id']}: {number} of {row['edition']} is not French text")
    return problems


FRENCH_WORDS = r"\b(le|la|les|une?|des|est|sont|ne|pas)\b"

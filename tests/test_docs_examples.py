"""Every shell example in README.md and docs/ runs, so an example cannot rot.

- A ```console block shows commands (``$ rulekb …``) with their real output, trimmed: each
  command runs against the corpus KB, and every output line shown (a line ``…`` marks a cut)
  must be in what the command prints now, spaces aside.
- A ```sh block is commands alone: each runs against a KB of its own, a copy of one built
  once from the invented fixture edition (so an example that builds or adds an edition
  changes nothing else), and
  must exit 0, or N where the line ends with ``# exit N``.
- Either way a command runs in a scratch directory whose ``../shared/corpus`` is the corpus,
  as from a checkout; a line ending in `` &`` starts a server, on one CPU (see :func:`_one_cpu`),
  stopped when its block ends, and the lines after it wait for its ``--port`` to open. The
  Quickstart's block is what CI runs
  itself, so it is not run here. ```text blocks are not run.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(sh|console)[^\n]*\n(.*?)^```", re.S | re.M)
EXIT = re.compile(r"\s+#\s*exit\s+(\d+)\s*$")
WAIT_FOR_SERVER = 120  # seconds a server started by an example may take to open its port
COMMAND_TIMEOUT = 300  # seconds an example's command may take (a loaded machine)
PORT = re.compile(r"--(?:port[ =]|bind[ =]\S*:)(\d+)")  # where an example's server listens


@dataclass
class Command:
    line: str
    expected_exit: int = 0
    output: tuple[str, ...] = ()
    background: bool = False


@dataclass
class Example:
    page: str
    kind: str  # "sh" or "console"
    commands: list[Command]

    @property
    def id(self) -> str:
        return f"{self.page}:{self.commands[0].line[:50]}"


def _examples() -> list[Example]:
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        if page.name == "README.md" and "## Quickstart" in text:  # CI runs the Quickstart itself
            quick = text.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
            text = text.replace(quick, "")
        for kind, body in FENCE.findall(text):
            commands = _commands(body, kind)
            if commands:
                found.append(Example(str(page.relative_to(ROOT)), kind, commands))
    return found


def _commands(body: str, kind: str) -> list[Command]:
    lines = body.replace("\\\n", " ").splitlines()
    commands: list[Command] = []
    for line in lines:
        if kind == "console" and not line.startswith("$ "):
            if commands and line.strip():
                commands[-1].output += (line,)
            continue
        line = line[2:] if kind == "console" else line
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        expected = EXIT.search(line)
        line = EXIT.sub("", line) if expected else line.split("  # ")[0]
        background = line.rstrip().endswith("&")
        commands.append(Command(line.rstrip().rstrip("&").rstrip(), int(expected.group(1)) if expected else 0,
                                background=background))
    return commands


EXAMPLES = _examples()


def test_the_pages_have_examples_to_run():
    assert any(e.kind == "console" for e in EXAMPLES) and any(e.page == "README.md" for e in EXAMPLES)


def test_an_example_is_read_as_commands_output_and_exits():
    body = "$ rulekb rule en/latest 111.2\n111.2 (en/2026-01-16)\n…\n$ rulekb serve --port 9 &\n"
    read = _commands(body, "console")
    assert [c.line for c in read] == ["rulekb rule en/latest 111.2", "rulekb serve --port 9"]
    assert read[0].output == ("111.2 (en/2026-01-16)", "…") and read[1].background
    assert _commands("rulekb update  # exit 2\n# a comment\n", "sh") == [Command("rulekb update", 2)]
    assert PORT.search("oxigraph serve --bind 127.0.0.1:7878 &").group(1) == "7878"


def _normal(text: str) -> str:
    return " ".join(text.split())


def _scratch(tmp_path: Path, corpus: Path) -> Path:
    """A working directory whose ../shared/corpus is the corpus, as from a checkout."""
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "corpus").symlink_to(corpus)
    work = tmp_path / "work"
    work.mkdir()
    return work


def _environment(store: Path, corpus: Path, tmp_path: Path) -> dict:
    env = dict(os.environ)
    env.update(RULEKB_STORE=str(store), RULEKB_CORPUS=str(corpus), RULEKB_CACHE=str(tmp_path / "cache"),
               PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}", COLUMNS="200")
    env.pop("RULEKB_BASE_IRI", None)
    return env


def _wait_for_port(port: int, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + WAIT_FOR_SERVER
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise AssertionError(f"the example's server exited with {server.returncode}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.25)
    raise AssertionError(f"the example's server did not open port {port} in {WAIT_FOR_SERVER} s")


def _one_cpu() -> None:
    """(In an example's server process, before it starts.) One CPU of those the tests may use: a
    server sizes itself by the CPUs it may use (`rulekb serve`: a server process each, every one
    warmed before the port opens, 10 s of CPU each on the corpus KB; docs/deploy.md), and an
    example shows what the server answers, not how many processes answer it. The supervisor's
    processes sharing the port are tested where that is the point (tests/bench/test_serve_bench.py,
    tests/web/test_serve_tail.py)."""
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def _run(example: Example, env: dict, cwd: Path) -> None:
    servers: list[subprocess.Popen] = []
    try:
        for command in example.commands:
            if command.background:
                servers.append(subprocess.Popen(["bash", "-c", f"exec {command.line}"], cwd=cwd, env=env,
                                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                                start_new_session=True, preexec_fn=_one_cpu))
                port = PORT.search(command.line)
                _wait_for_port(int(port.group(1)) if port else 8000, servers[-1])
                continue
            # (no pipefail: `rulekb … | head` ends rulekb with a broken pipe, as any command)
            done = subprocess.run(["bash", "-c", command.line], cwd=cwd, env=env,
                                  capture_output=True, text=True, timeout=COMMAND_TIMEOUT)
            assert done.returncode == command.expected_exit, (
                f"{example.page}: `{command.line}` exited {done.returncode}, not {command.expected_exit}:\n"
                f"{done.stderr[-2000:]}")
            printed = _normal(done.stdout + "\n" + done.stderr)
            for shown in command.output:
                if shown.strip() in ("…", "..."):
                    continue
                for piece in shown.split("…"):  # a line cut short: each piece is printed
                    assert _normal(piece) in printed, (
                        f"{example.page}: `{command.line}` no longer prints {piece.strip()!r};\nit prints:\n"
                        f"{done.stdout[:3000]}")
    finally:
        for server in servers:
            try:
                os.killpg(server.pid, signal.SIGTERM)
                server.wait(timeout=20)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(server.pid, signal.SIGKILL)


def _embeddings_of_the_run(cache: Path) -> None:
    """Into the example's own empty ``cache``, the sentence embeddings the run's cache holds
    (``$RULEKB_CACHE/embeddings``, where the corpus build aligning the 2009 restructure put its
    vectors: kb.align.agree), copied with SQLite's backup (the file is in WAL mode). The cache
    is keyed by a digest of the model and the text, so an example prints the same with or
    without it; without it, ``rulekb diff en/2009-05-01 en/2009-07-08`` embedded some 180 texts
    again (15 s of CPU, 50 s of a loaded CI run). None there: nothing is copied."""
    import sqlite3

    from rulekb.kb.json_cache import cache_folder

    for source in sorted(cache_folder("embeddings").glob("*.sqlite")):
        (cache / "embeddings").mkdir(parents=True, exist_ok=True)
        old = new = None
        try:
            old, new = sqlite3.connect(source, timeout=60), sqlite3.connect(cache / "embeddings" / source.name)
            old.backup(new)
        except sqlite3.Error:  # (a cache that cannot be read costs the example time, not correctness)
            (cache / "embeddings" / source.name).unlink(missing_ok=True)
        finally:
            for db in (old, new):
                if db is not None:
                    db.close()


@pytest.mark.corpus
@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.kind == "console"], ids=lambda e: e.id)
def test_a_console_example_prints_what_the_page_shows(example, corpus_kb, corpus, tmp_path):
    store, _ = corpus_kb
    _embeddings_of_the_run(tmp_path / "cache")
    _run(example, _environment(Path(store.location), corpus, tmp_path), _scratch(tmp_path, corpus))


@pytest.fixture(scope="session")
def shell_kb(fixtures, tmp_path_factory) -> Path:
    """The KB the shell examples start from, built once: the invented fixture edition, without
    reasoning. Each example gets a copy of its own (:func:`test_a_shell_example_runs`)."""
    from rulekb.kb.build import build
    from rulekb.kb.store.embedded import EmbeddedStore

    location = tmp_path_factory.mktemp("shell-kb") / "store"
    build([str(fixtures / "invented-cr-2030-05-05.txt")], EmbeddedStore(location), reasoner="none")
    return location


@pytest.mark.corpus
@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.kind == "sh"], ids=lambda e: e.id)
def test_a_shell_example_runs(example, corpus, shell_kb, tmp_path):
    # a copy (its `current` link relative): what an example builds, adds or publishes stays its own
    shutil.copytree(shell_kb, tmp_path / "store", symlinks=True)
    _run(example, _environment(tmp_path / "store", corpus, tmp_path), _scratch(tmp_path, corpus))
    shutil.rmtree(tmp_path / "cache", ignore_errors=True)

"""kb.hermit.launch: the Java programs rulekb ships, compiled once into the cache -- keyed by what
the classes depend on, not by where the libraries are installed, and put in place whole, so
processes compiling at the same moment never run half of one."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from rulekb.kb.hermit import launch

from ..helpers import need

SOURCE = "public class RulekbHello { public static void main(String[] args) { System.out.println(\"hello\"); } }\n"


@pytest.fixture
def java() -> str:
    found = shutil.which("java")
    if not found or not (Path(found).resolve().with_name("javac").is_file() or shutil.which("javac")):
        need("needs a JDK (java and javac)")
    return found


@pytest.fixture
def library(tmp_path) -> Path:
    jar = tmp_path / "one-venv" / "lib.jar"  # (any file: javac reads only what the program imports)
    jar.parent.mkdir()
    jar.write_bytes(b"PK\x05\x06" + bytes(18))  # an empty zip
    return jar


def test_a_library_installed_elsewhere_reuses_the_compiled_classes(java, library, tmp_path, monkeypatch):
    monkeypatch.setenv("RULEKB_CACHE", str(tmp_path / "cache"))
    first = launch.compiled(java, "RulekbHello", SOURCE, [str(library)])
    assert first and (Path(first) / "RulekbHello.class").is_file()
    other = tmp_path / "another-venv" / "lib.jar"  # the same library, another clone's environment
    other.parent.mkdir()
    shutil.copy(library, other)
    compiles = []
    real_run = subprocess.run
    monkeypatch.setattr(launch.subprocess, "run", lambda *a, **k: compiles.append(a) or real_run(*a, **k))
    assert launch.compiled(java, "RulekbHello", SOURCE, [str(other)]) == first and not compiles
    other.write_bytes(library.read_bytes() + b"\0")  # another version of it: compiled again, beside
    assert launch.compiled(java, "RulekbHello", SOURCE, [str(other)]) != first and compiles
    out = real_run([java, "-cp", first, "RulekbHello"], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "hello"


def test_a_compile_that_loses_the_race_uses_the_winners_classes(java, library, tmp_path, monkeypatch):
    """Another process's classes land first, while this one compiles: this one's are dropped, the
    winner's used; nothing is left half-written in the cache."""
    monkeypatch.setenv("RULEKB_CACHE", str(tmp_path / "cache"))
    winner = Path(launch.compiled(java, "RulekbHello", SOURCE, [str(library)]))
    moved = winner.with_name(winner.name + "-won")
    winner.rename(moved)  # as if not there yet when this process looked
    real_run = subprocess.run

    def compile_while_the_other_lands(*args, **kwargs):
        done = real_run(*args, **kwargs)
        moved.rename(winner)
        return done

    monkeypatch.setattr(launch.subprocess, "run", compile_while_the_other_lands)
    assert launch.compiled(java, "RulekbHello", SOURCE, [str(library)]) == str(winner)
    assert sorted(p.name for p in winner.parent.iterdir()) == [winner.name]  # no temporary folder left

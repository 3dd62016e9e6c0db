"""Documentation is tested: every command and every named query is in the README
or documented where it lives; the README's Quickstart is exactly two commands."""

from __future__ import annotations

import re
from pathlib import Path

import typer.main

from rulekb.kb.cli import app

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def _commands(group=None, prefix="") -> list[str]:
    click_group = typer.main.get_command(app) if group is None else group
    names = []
    for name, command in click_group.commands.items():
        names.append(f"{prefix}{name}")
        if hasattr(command, "commands"):
            names.extend(_commands(command, prefix=f"{prefix}{name} "))
    return names


def test_every_command_is_in_the_readme():
    missing = [name for name in _commands() if f"rulekb {name.split()[0]}" not in README]
    assert not missing, f"commands missing from README.md: {missing}"


def test_every_command_has_a_help_text():
    group = typer.main.get_command(app)
    for name, command in group.commands.items():
        assert command.help or command.short_help, f"rulekb {name} has no help text"


def test_the_quickstart_is_two_commands():
    section = README.split("## Quickstart", 1)[1].split("##", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    commands = [line for line in block.splitlines() if line.strip()]
    assert len(commands) == 2
    assert "rulekb build" in commands[0] and "pytest" in commands[1]


def test_ci_runs_the_readme_test_command():
    section = README.split("## Quickstart", 1)[1].split("##", 1)[0]
    test_command = re.search(r"```sh\n.*\n(.*pytest.*)\n```", section, re.S).group(1).strip()
    ci = (Path(__file__).resolve().parent.parent / ".ci" / "run").read_text()
    assert test_command in ci

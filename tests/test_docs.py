"""Documentation is tested, so it cannot silently go stale: the README stays short and its
Quickstart is exactly two commands; the generated pages of docs/ (the CLI reference, the
named queries, the ontology's terms) equal what the code writes now; every page the README
or a page links to exists; no comment, docstring, test or page names an internal work item
instead of saying why; no module grows past 500 lines. (The examples in the pages are run
by tests/test_docs_examples.py.)"""

from __future__ import annotations

import re
from pathlib import Path

import typer.main

from rulekb.kb.cli import app
from rulekb.kb.cli import reference

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = ROOT / "docs"
MAX_README_LINES = 250
MAX_MODULE_LINES = 500

# an issue's, a stop's or a session's number, or "this stop": names of internal work items,
# which mean nothing to a reader of the code (say the reason instead)
INTERNAL = re.compile(r"\b(issues?|stops?|sessions?)\s*#?\d+|\bthis (stop|session)\b", re.I)
WRITTEN = (".py", ".md", ".rq", ".ttl", ".tsv", ".html", ".toml", ".txt", ".java", ".cfg", ".css", ".js")
SKIP = {".venv", ".git", "__pycache__", ".pytest_cache", ".hypothesis", "node_modules", "yasgui"}


def _commands(group=None, prefix="") -> list[str]:
    click_group = typer.main.get_command(app) if group is None else group
    names = []
    for name, command in click_group.commands.items():
        names.append(f"{prefix}{name}")
        if hasattr(command, "commands"):
            names.extend(_commands(command, prefix=f"{prefix}{name} "))
    return names


def _ours() -> list[Path]:
    """The project's own text files (code, tests, queries, ontology, docs; not vendored ones)."""
    found = []
    for path in sorted(ROOT.rglob("*")):
        parts = path.relative_to(ROOT).parts
        if path.is_file() and path.suffix in WRITTEN and not SKIP & set(parts) and parts[0] not in ("build", "dist") \
                and not parts[-1].endswith(".egg-info") and not any(p.endswith(".egg-info") for p in parts):
            found.append(path)
    return found


def test_the_generated_pages_are_current():
    stale = reference.stale()
    assert not stale, f"stale generated docs: {stale} (run: python -m rulekb.kb.cli.reference)"


def test_every_command_and_option_is_in_the_cli_reference():
    page = (DOCS / "cli.md").read_text(encoding="utf-8")
    assert all(f"`rulekb {name}`" in page for name in _commands())
    group = typer.main.get_command(app)
    for name, command in group.commands.items():
        for option in getattr(command, "params", []):
            if option.param_type_name == "option" and option.name != "help":
                assert f"`{option.opts[0]}`" in page, f"rulekb {name} {option.opts[0]} is not in docs/cli.md"


def test_every_command_has_a_help_text():
    group = typer.main.get_command(app)
    for name, command in group.commands.items():
        assert command.help or command.short_help, f"rulekb {name} has no help text"


def test_every_named_query_and_check_is_in_the_queries_page():
    from rulekb.kb.store.queries import checks, registry

    page = (DOCS / "queries.md").read_text(encoding="utf-8")
    missing = [name for name in [*registry(), *checks()] if f"### {name}\n" not in page]
    assert not missing, f"queries missing from docs/queries.md: {missing}"
    untitled = [q.name for q in [*registry().values(), *checks().values()] if not q.description]
    assert not untitled, f"named queries without a description in their header: {untitled}"


def test_a_stale_generated_part_is_found(tmp_path):
    page = tmp_path / "cli.md"
    page.write_text("# x\n<!-- generated: cli -->\nold text\n<!-- end generated -->\n", encoding="utf-8")
    assert "old text" not in reference.regenerated(page)
    assert set(reference.stale(tmp_path)) == {"cli.md", "data-model.md (no generated part 'ontology')",
                                              "queries.md (no generated part 'queries')"}


def test_the_readme_is_short():
    assert len(README.splitlines()) <= MAX_README_LINES


def test_the_quickstart_is_two_commands():
    section = README.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    commands = [line for line in block.splitlines() if line.strip()]
    assert len(commands) == 2
    assert "rulekb build" in commands[0] and "pytest" in commands[1]


def test_ci_runs_the_readme_test_command():
    section = README.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    test_command = re.search(r"```sh\n.*\n(.*pytest.*)\n```", section, re.S).group(1).strip()
    ci = (ROOT / ".ci" / "run").read_text()
    assert test_command in ci


def test_every_link_between_pages_resolves():
    broken = []
    for page in [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
            if "://" in target or target.startswith("mailto:"):
                continue
            if not (page.parent / target).exists():
                broken.append(f"{page.relative_to(ROOT)} -> {target}")
    assert not broken, f"links to missing files: {broken}"


def test_every_docs_page_is_linked_from_the_readme():
    unlinked = [p.name for p in sorted(DOCS.glob("*.md")) if f"docs/{p.name}" not in README]
    assert not unlinked, f"docs pages the README does not link: {unlinked}"


def test_no_internal_work_item_is_named():
    found = []
    for path in _ours():
        if path == Path(__file__).resolve():  # (its own examples of what the pattern finds)
            continue
        gold = path.suffix == ".tsv" and path.parent.name == "gold"  # its rows are players' words ("stop 1 damage")
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if INTERNAL.search(line) and not (gold and not line.startswith("#")):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not found, "say why, not which work item:\n" + "\n".join(found)


def test_the_internal_reference_pattern_finds_what_it_should():
    assert INTERNAL.search("the cuts of issue 18 made it smaller")
    assert INTERNAL.search("figures of stop 31") and INTERNAL.search("measured this stop")
    assert not INTERNAL.search("stop the server 15 s later") and not INTERNAL.search("an issue with 3 rules")


def test_no_module_is_over_500_lines():
    long = [f"{p.relative_to(ROOT)} ({n} lines)" for p in _ours() if p.suffix == ".py"
            for n in [len(p.read_text(encoding="utf-8").splitlines())] if n > MAX_MODULE_LINES]
    assert not long, f"modules over {MAX_MODULE_LINES} lines (split them by concern): {long}"

"""The packaging contract: installed, the four folders at the top are one package,
``rulekb`` (``rulekb.ingest``, ``rulekb.kb``, ``rulekb.queries``, ``rulekb.ontology``): pyproject.toml lists
every package of the tree, and no code imports the folders under their bare names (from the
repository root ``kb`` is importable too -- the current directory is on sys.path -- so one such
import would load a module twice)."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOPS = ("ingest", "kb", "queries", "ontology")
SKIP = {".venv", ".git", "__pycache__"}
OUTPUT = {"build", "dist"}  # setuptools' output folders at the top (kb/build is code)


def _skipped(path: Path) -> bool:
    parts = path.relative_to(ROOT).parts
    return bool(SKIP & set(parts)) or parts[0] in OUTPUT


def _python_files():
    for path in sorted(ROOT.rglob("*.py")):
        if not _skipped(path):
            yield path


def test_every_package_of_the_tree_is_listed():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert config["package-dir"] == {f"rulekb.{top}": top for top in TOPS}
    tree = sorted(".".join(("rulekb", *d.relative_to(ROOT).parts))  # data folders too (templates/, gold/)
                  for top in TOPS for d in [ROOT / top, *(ROOT / top).rglob("*")]
                  if d.is_dir() and not _skipped(d))
    assert sorted(config["packages"]) == tree
    assert all(name.split(".")[0] == "rulekb" for name in config["package-data"])


def test_no_import_under_the_bare_names():
    bare = []
    for path in _python_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            bare += [f"{path.relative_to(ROOT)}:{node.lineno}: {n}" for n in names if n.split(".")[0] in TOPS]
    assert bare == []


def test_the_cli_and_the_web_app_load_each_module_once():
    code = ("import sys, rulekb.kb.cli.app, rulekb.kb.web.app\n"
            "print(' '.join(m for m in sys.modules if m.split('.')[0] in {'ingest', 'kb', 'queries', 'ontology'}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.split() == []

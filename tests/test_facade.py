"""The front door: kb.cli and kb.web import from kb only the facade (kb.service), the error
root (kb.errors) and their own package -- and the few exceptions listed here, each with its
reason. A new deep import from a front-end fails this test: add a function to kb/service.py
instead (or, if it really is presentation the front-ends share, list it here and say why)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

ALWAYS = ("rulekb.kb.service", "rulekb.kb.errors")
# module -> (the front-end files that may import it, why)
EXCEPTIONS = {
    "rulekb.kb.bench": (("kb/cli/bench.py", "kb/cli/bench_features.py", "kb/cli/build_bench.py"), "`rulekb bench ...`: the benchmarks are their own front door"),
    "rulekb.kb.compare.report": (("kb/cli/", "kb/web/compare_views.py"),
                          "rendering a report (md/html) and its columns: presentation both front-ends share"),
    "rulekb.kb.translate.worklist": (("kb/cli/translate_commands.py", "kb/web/compare_views.py"),
                              "the translator's worklist by section: presentation both front-ends share"),
    "rulekb.kb.translate.lexicon": (("kb/cli/translate_commands.py",), "`rulekb lexicon`'s CSV and TBX writers"),
    "rulekb.kb.rdf.iris": (("kb/web/",), "the IRI shapes the pages route by"),
    "rulekb.kb.store.queries": (("kb/web/editor.py", "kb/web/killable.py"), "the named-query registry the editor lists"),
    "rulekb.kb.store.describe": (("kb/web/resources.py",), "the RDF a dereferenced IRI serves"),
    "rulekb.kb.store.void": (("kb/web/resources.py",), "the VoID description /void serves"),
    "rulekb.kb.store.kind": (("kb/web/editor.py", "kb/web/sparql_results.py", "kb/web/killable.py"),
                      "bind_values and the RDF formats of the SPARQL protocol"),
    "rulekb.kb.store.embedded": (("kb/web/query_pool.py",), "a query worker process opens the embedded store itself"),
    "rulekb.kb.lineage.history": (("kb/web/rule_page.py",), "the periods and word diff the rule page displays"),
    "rulekb.kb.define.ask": (("kb/web/concept_pages.py",), "a type annotation only (TYPE_CHECKING)"),
    "rulekb.kb.consistency.report": (("kb/cli/consistency_commands.py",), "`rulekb consistency --report`'s md/html writer"),
    "rulekb.kb.allocator": (("kb/cli/__init__.py",), "the process's allocator, chosen before any work (it re-executes the command)"),
    "rulekb.kb.progress": (("kb/cli/output.py",), "the stage reporter the CLI implements (bars on a terminal, lines otherwise)"),
    "rulekb.kb.timeline.svg": (("kb/web/",), "the SVG timelines the pages draw: presentation"),
    "rulekb.kb.timeline.feeds": (("kb/web/timeline_pages.py",), "the Atom documents the feeds serve: presentation"),
    "rulekb.kb.timeline.effects": (("kb/web/timeline_pages.py",), "the labels and one-line summaries of an edition's effects"),
}


def _modules() -> set[str]:
    names = set()
    for path in ROOT.joinpath("kb").rglob("*.py"):
        parts = ("rulekb", *path.relative_to(ROOT).with_suffix("").parts)  # installed names
        names.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def _imports(path: Path, modules: set[str]) -> set[str]:
    """The kb modules a file imports (``from rulekb.kb.store import queries`` counts kb.store.queries)."""
    module = ".".join(("rulekb", *path.relative_to(ROOT).with_suffix("").parts))
    package = module.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("rulekb.kb."))
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                full = f"{target}.{alias.name}"
                found.add(full if full in modules else target)
    return {name for name in found if name == "rulekb.kb" or name.startswith("rulekb.kb.")}


def _front_end_imports() -> list[tuple[str, str]]:
    modules = _modules()
    out = []
    for front in ("cli", "web"):
        for path in sorted(ROOT.joinpath("kb", front).rglob("*.py")):
            for name in sorted(_imports(path, modules)):
                out.append((str(path.relative_to(ROOT)), name))
    return out


def _allowed(file: str, name: str) -> bool:
    own = "rulekb.kb." + file.split("/")[1]
    if name == own or name.startswith(own + ".") or name in ALWAYS:
        return True
    if file.startswith("kb/cli/") and (name == "rulekb.kb.web" or name.startswith("rulekb.kb.web.")):
        return True  # `rulekb serve` starts the web front-end
    for module, (files, _) in EXCEPTIONS.items():
        if (name == module or name.startswith(module + ".")) and file.startswith(files):
            return True
    return False


def test_front_ends_import_only_the_facade_their_package_and_the_listed_exceptions():
    unlisted = [f"{file} imports {name}" for file, name in _front_end_imports() if not _allowed(file, name)]
    assert unlisted == [], "call these through kb/service.py:\n" + "\n".join(unlisted)


def test_every_listed_exception_is_still_needed():
    imported = _front_end_imports()  # (once: in the comprehension it was read again for each exception)
    used = {module for module in EXCEPTIONS
            for _, name in imported if name == module or name.startswith(module + ".")}
    assert sorted(set(EXCEPTIONS) - used) == []


def test_the_check_catches_a_deep_import(tmp_path):
    assert not _allowed("kb/web/pages.py", "rulekb.kb.rdf.stored_edition")
    assert not _allowed("kb/cli/diff_commands.py", "rulekb.kb.align")
    assert _allowed("kb/web/pages.py", "rulekb.kb.service") and _allowed("kb/cli/app.py", "rulekb.kb.cli.output")

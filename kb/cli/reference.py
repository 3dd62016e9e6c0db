"""The generated parts of ``docs/``: the CLI reference from the typer app, the named
queries and QC checks from the headers of ``queries/*.rq``, the ontology's terms from
``ontology/rulekb.ttl``.

A generated part sits between two markers in its page::

    <!-- generated: cli -->
    ...
    <!-- end generated -->

``python -m rulekb.kb.cli.reference`` rewrites every generated part; ``--check``
only says which pages are stale (exit 1), which is what ``tests/test_docs.py`` asks.
Nothing here reads the environment: the same code writes the same pages on every machine.
"""

from __future__ import annotations

import enum
import re
import sys
from collections.abc import Callable
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs"
_PART = re.compile(r"(<!-- generated: (?P<name>[a-z-]+) -->\n)(?P<body>.*?)(<!-- end generated -->)", re.S)


# -- the CLI ---------------------------------------------------------------------


def cli_reference() -> str:
    """Every command of ``rulekb``, in ``rulekb --help``'s order: its help, its arguments
    and its options with their defaults."""
    import typer.main

    from . import app

    root = typer.main.get_command(app)
    out: list[str] = ["Commands: " + ", ".join(f"[`{name}`](#rulekb-{name})" for name in root.commands) + ".", ""]
    for name, command in root.commands.items():
        out.extend(_command(f"rulekb {name}", command, level=3))
    return "\n".join(out).rstrip() + "\n"


def _command(path: str, command, level: int) -> list[str]:
    lines = [f"{'#' * level} `{path}`", ""]
    if command.help:
        lines += [_plain(command.help), ""]
    if hasattr(command, "commands"):  # a group: its subcommands
        for name, sub in command.commands.items():
            lines += _command(f"{path} {name}", sub, level + 1)
        return lines
    arguments = [p for p in command.params if p.param_type_name == "argument"]
    options = [p for p in command.params if p.param_type_name == "option" and p.name != "help"]
    usage = " ".join([path] + [_argument_usage(a) for a in arguments] + (["[OPTIONS]"] if options else []))
    lines += ["```text", usage, "```", ""]
    if arguments:
        lines += ["| argument | what |", "|---|---|"]
        lines += [f"| `{a.name.upper()}` | {_cell(getattr(a, 'help', '') or '')}{'' if a.required else ' (optional)'} |"
                  for a in arguments]
        lines.append("")
    if options:
        lines += ["| option | what | default |", "|---|---|---|"]
        lines += [f"| {_names(o)} | {_cell(o.help or '')} | {_default(o)} |" for o in options]
        lines.append("")
    return lines


def _argument_usage(argument) -> str:
    name = argument.name.upper() + ("..." if argument.nargs == -1 else "")
    return name if argument.required else f"[{name}]"


def _names(option) -> str:
    names = [*option.opts, *option.secondary_opts]
    return ", ".join(f"`{n}`" for n in names)


def _default(option) -> str:
    if option.is_flag and not option.secondary_opts:
        return "off" if not option.default else "on"
    value = option.default
    if callable(value):
        return "(computed)"
    if isinstance(value, enum.Enum):
        value = value.value
    if value is None or value == () or value == []:
        return ""
    if isinstance(value, bool):
        return f"`--{'' if value else 'no-'}{option.name.replace('_', '-')}`" if option.secondary_opts else str(value)
    if isinstance(value, (list, tuple)):
        value = " ".join(str(v) for v in value)
    return f"`{value}`"


def _plain(text: str) -> str:
    """A help text as Markdown: typer's line breaks (``\\b``) dropped, paragraphs kept."""
    text = text.replace("\b", "")
    paragraphs = [" ".join(part.split()) for part in re.split(r"\n\s*\n", text.strip())]
    return "\n\n".join(p for p in paragraphs if p)


def _cell(text: str) -> str:
    return " ".join(text.replace("|", "\\|").split())


# -- the named queries -----------------------------------------------------------


def queries_reference() -> str:
    """Every named query (``rulekb query NAME``, ``/sparql`` users read the files) and
    every QC check (``rulekb validate``), from their header comments."""
    from ..service import named_queries

    registry, checks = named_queries()
    out = ["## Named queries", ""]
    out += ["| query | what |", "|---|---|"]
    out += [f"| [`{q.name}`](#{q.name}) | {_cell(q.title)} |" for q in registry.values()]
    out.append("")
    for query in registry.values():
        out += _query(query)
    out += ["## QC checks", "",
            "Each check is a query in `queries/checks/` whose every row is a violation; `rulekb validate` "
            "runs them all.", ""]
    for query in checks.values():
        out += _query(query, severity=True)
    return "\n".join(out).rstrip() + "\n"


def _query(query, severity: bool = False) -> list[str]:
    folder = "checks/" if query.check else ""
    lines = [f"### {query.name}", "", f"**{query.title}** (`queries/{folder}{query.name}.rq`)", ""]
    if query.description:
        lines += [query.description, ""]
    if severity:
        lines += [f"Severity: {query.severity}.", ""]
    if query.params:
        lines += ["| parameter | what |", "|---|---|"]
        lines += [f"| `{name}` | {_cell(text)} |" for name, text in query.params.items()]
        lines.append("")
    if query.example:
        lines += ["```text", query.example, "```", ""]
    return lines


# -- the ontology ----------------------------------------------------------------


def ontology_reference() -> str:
    """The ontology's classes and properties (``ontology/rulekb.ttl``): each with its
    English label and comment, properties with their domain and range."""
    import rdflib
    from rdflib.namespace import OWL, RDF, RDFS

    from rulekb.ontology import turtle

    graph = rdflib.Graph().parse(data=turtle(), format="turtle")

    def short(node) -> str:
        try:
            prefix, _, name = graph.namespace_manager.compute_qname(str(node))
            return f"{prefix}:{name}"
        except Exception:  # noqa: BLE001 (a node with no prefix: its IRI)
            return str(node)

    def english(node, predicate) -> str:
        values = [v for v in graph.objects(node, predicate) if getattr(v, "language", None) in (None, "en")]
        return _cell(str(sorted(values)[0])) if values else ""

    def named(kind) -> list:
        return sorted({s for s in graph.subjects(RDF.type, kind) if isinstance(s, rdflib.URIRef)}, key=short)

    out = ["### Classes", "", "| class | label | comment | subclass of |", "|---|---|---|---|"]
    for node in named(OWL.Class):
        parents = ", ".join(sorted(short(p) for p in graph.objects(node, RDFS.subClassOf) if isinstance(p, rdflib.URIRef)))
        out.append(f"| `{short(node)}` | {english(node, RDFS.label)} | {english(node, RDFS.comment)} | {parents} |")
    out += ["", "### Properties", "", "| property | kind | label | domain | range | comment |", "|---|---|---|---|---|---|"]
    kinds = ((OWL.ObjectProperty, "object"), (OWL.DatatypeProperty, "data"), (OWL.AnnotationProperty, "annotation"))
    for kind, word in kinds:
        for node in named(kind):
            domain = ", ".join(sorted(short(d) for d in graph.objects(node, RDFS.domain) if isinstance(d, rdflib.URIRef)))
            range_ = ", ".join(sorted(short(r) for r in graph.objects(node, RDFS.range) if isinstance(r, rdflib.URIRef)))
            out.append(f"| `{short(node)}` | {word} | {english(node, RDFS.label)} | {domain} | {range_} | "
                       f"{english(node, RDFS.comment)} |")
    return "\n".join(out).rstrip() + "\n"


PARTS: dict[str, tuple[str, Callable[[], str]]] = {  # a generated part: its page and what writes it
    "cli": ("cli.md", cli_reference),
    "queries": ("queries.md", queries_reference),
    "ontology": ("data-model.md", ontology_reference),
}


def regenerated(page: Path) -> str:
    """``page``'s text with every generated part written anew."""
    text = page.read_text(encoding="utf-8")

    def fill(match: re.Match) -> str:
        name = match.group("name")
        if name not in PARTS:
            raise SystemExit(f"{page}: unknown generated part {name!r} (known: {', '.join(PARTS)})")
        return match.group(1) + PARTS[name][1]() + match.group(4)

    return _PART.sub(fill, text)


def stale(docs: Path = DOCS) -> list[str]:
    """The pages whose generated parts differ from what the code would write now (a page
    that lost its part counts too)."""
    out = []
    for name, (page, _) in PARTS.items():
        path = docs / page
        if not path.exists() or f"<!-- generated: {name} -->" not in path.read_text(encoding="utf-8"):
            out.append(f"{page} (no generated part {name!r})")
        elif regenerated(path) != path.read_text(encoding="utf-8"):
            out.append(page)
    return sorted(set(out))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["--check"]:
        found = stale()
        for page in found:
            print(f"docs/{page} is stale: run python -m rulekb.kb.cli.reference", file=sys.stderr)
        return 1 if found else 0
    if argv:
        print("usage: python -m rulekb.kb.cli.reference [--check]", file=sys.stderr)
        return 2
    for page in sorted({page for page, _ in PARTS.values()}):
        path = DOCS / page
        path.write_text(regenerated(path), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

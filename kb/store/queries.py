"""The registry of named SPARQL queries in ``queries/``.

Each ``NAME.rq`` opens with a header comment::

    # title: Rules of a section
    # description: ...
    # param edition: edition id, e.g. en/2026-01-16
    # param section: section number, e.g. 111
    # example: rulekb query section-rules --param edition=en/2026-01-16 --param section=111

The shared prefixes (``queries/_prefixes.rq``) are added to every query, so a
file carries only its own logic. QC checks live in ``queries/checks/`` as
``NAME-violation.rq``: any row they return is a violation -- of the KB
(``# severity: violation``, the default) or of the source text the KB keeps as
written (``# severity: warning``, e.g. a rule citing a number its edition lacks).
Parameters are bound by a VALUES block opening every WHERE clause (subqueries
included: a parameter is a constant of the whole query). Both the CLI and the
web endpoint use this one registry; SPARQL is never assembled in Python.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ..errors import NotFound, QueryError

_HEADER = re.compile(r"^#\s*(title|description|param|example|severity)\s*:?\s*(.*)$")
_PARAM = re.compile(r"^(\w+)\s*:\s*(.*)$")


@dataclass(frozen=True)
class NamedQuery:
    name: str
    title: str
    description: str
    params: dict[str, str] = field(default_factory=dict)
    example: str = ""
    body: str = ""  # without the header
    check: bool = False
    severity: str = "violation"  # checks: "violation" (the KB is wrong) or "warning" (the source is)

    @property
    def text(self) -> str:
        """The runnable query: shared prefixes + body."""
        return prefixes() + "\n" + self.body

    def optional(self, param: str) -> bool:
        """A parameter described as "(optional) ..." may be left out: the query then
        sees its variable unbound (and says what that means, e.g. every language)."""
        return self.params.get(param, "").startswith("(optional)")

    def bindings(self, given: dict[str, str]) -> dict[str, str]:
        unknown = set(given) - set(self.params)
        if unknown:
            raise QueryError(
                f"query {self.name!r} has no parameter {', '.join(sorted(unknown))}"
                f" (it takes: {', '.join(self.params) or 'none'})"
            )
        missing = [p for p in self.params if p not in given and not self.optional(p)]
        if missing:
            raise QueryError(f"query {self.name!r} needs --param {missing[0]}=... ({self.params[missing[0]]})")
        return dict(given)


def _files():
    from rulekb.queries import files

    return files()


@lru_cache(maxsize=1)
def prefixes() -> str:
    text = _files().joinpath("_prefixes.rq").read_text(encoding="utf-8")
    return "\n".join(line for line in text.splitlines() if not line.startswith("#"))


def parse_query_file(name: str, text: str, check: bool = False) -> NamedQuery:
    meta: dict[str, str] = {"title": "", "description": "", "example": "", "severity": ""}
    params: dict[str, str] = {}
    body_lines: list[str] = []
    in_header = True
    for line in text.splitlines():
        m = _HEADER.match(line) if in_header else None
        if m:
            key, value = m.groups()
            if key == "param":
                pm = _PARAM.match(value)
                if pm:
                    params[pm.group(1)] = pm.group(2)
            else:
                meta[key] = (meta[key] + " " + value).strip()
            continue
        if in_header and line.startswith("#"):
            meta["description"] = (meta["description"] + " " + line.lstrip("# ")).strip()
            continue
        in_header = False
        body_lines.append(line)
    return NamedQuery(name, meta["title"] or name, meta["description"], params, meta["example"],
                      "\n".join(body_lines).strip() + "\n", check, meta["severity"] or "violation")


@lru_cache(maxsize=1)
def registry() -> dict[str, NamedQuery]:
    out: dict[str, NamedQuery] = {}
    root = _files()
    for entry in sorted(root.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".rq") and not entry.name.startswith("_"):
            name = entry.name[:-3]
            out[name] = parse_query_file(name, entry.read_text(encoding="utf-8"))
    return out


@lru_cache(maxsize=1)
def checks() -> dict[str, NamedQuery]:
    out: dict[str, NamedQuery] = {}
    for entry in sorted(_files().joinpath("checks").iterdir(), key=lambda e: e.name):
        if entry.name.endswith("-violation.rq"):
            name = entry.name[: -len(".rq")]
            out[name] = parse_query_file(name, entry.read_text(encoding="utf-8"), check=True)
    return out


def get(name: str) -> NamedQuery:
    found = registry().get(name) or checks().get(name)
    if found is None:
        raise NotFound(f"no named query {name!r} (rulekb query --list shows them)")
    return found


def from_file(path: str | Path) -> NamedQuery:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise QueryError(f"cannot read {path}: {exc}") from None
    query = parse_query_file(path.stem, text)
    return query


def adhoc(text: str) -> NamedQuery:
    """A query typed by the user; the shared prefixes are declared before it
    (a PREFIX of its own with the same name redefines ours)."""
    return NamedQuery("sparql", "ad hoc query", "", {}, "", text)


def example_params(query: NamedQuery) -> dict[str, str]:
    """The parameters a query's header example sets (``--param name=value``)."""
    import shlex

    words = shlex.split(query.example)
    return {
        words[i + 1].partition("=")[0]: words[i + 1].partition("=")[2]
        for i, word in enumerate(words)
        if word == "--param" and i + 1 < len(words)
    }


def run(store, name: str, **params) -> list[dict[str, str]]:
    """The rows of the named query ``name`` with ``params`` bound, over ``store``."""
    query = get(name)
    return store.select(query.text, query.bindings(params))


def editions(store) -> list[dict]:
    rows = run(store, "editions")
    return [
        {
            "edition": row["edition"],
            "language": row["language"],
            "effective_date": row.get("effective_date"),
            "partial": row.get("partial") == "true",
            "rules": int(row.get("rules", 0)),
            "source": row.get("source"),
        }
        for row in _one_per(rows, "edition")
    ]


def _one_per(rows: list[dict], key: str) -> list[dict]:
    """Editions with several sources come back once per source: keep the first."""
    seen: dict[str, dict] = {}
    for row in rows:
        seen.setdefault(row[key], row)
    return list(seen.values())

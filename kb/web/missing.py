"""The helpful 404 of an IRI the store knows nothing about.

An IRI can be well formed and still name nothing: a rule an edition does not
have, an edition the KB lacks, an example past the last one. The error page
says which part is missing and offers the nearest things that exist: the
editions that have that rule number, the nearest numbers in that edition, the
known editions of that language.
"""

from __future__ import annotations

from rulekb.ingest import numbers

from ..service import run
from .context import WebContext
from .errors import WebError

MAX_SUGGESTIONS = 8


def not_found(ctx: WebContext, kind: str, parts: dict) -> WebError:
    """The error to raise for ``kind``/``parts`` (as kb.rdf.iris.parse gives them)."""
    edition = parts.get("edition")
    if edition and not run(ctx.store, "edition-exists", edition=edition):
        return WebError(404, f"no edition {edition} in the knowledge base", _editions_like(ctx, edition))
    number = parts.get("number")
    if kind == "citation" and parts["owner"].startswith("rule/"):
        number = parts["owner"].split("/")[1]
    if kind in ("rule", "example", "statement", "citation") and number:
        if not run(ctx.store, "rule", edition=edition, number=number):
            return WebError(404, f"edition {edition} has no rule {number}", _rules_like(ctx, edition, number))
        rule = ctx.mint.rule(edition, number)
        what = kind if kind != "citation" else f"citation in {parts['owner']}"
        return WebError(404, f"rule {number} of {edition} has no {what} {parts.get('index', '')}".rstrip(),
                        [(f"rule {number} of {edition}", ctx.href(rule))])
    if kind == "concept":
        return WebError(404, f"no concept {parts['slug']!r} in the knowledge base",
                        [(f"search the rules for {parts['slug'].replace('-', ' ')!r}",
                          ctx.href(f"search?q={parts['slug'].replace('-', '+')}"))])
    if kind == "graph":
        return WebError(404, f"no named graph {parts['name']!r}",
                        [(f"graph/{name}", ctx.href(ctx.mint.graph(name))) for name in ("concepts", "lineage", "ontology")])
    if kind == "lineage":
        lineage_edition, _, start = parts["lineage"].rpartition("/")
        return WebError(404, f"no lineage {parts['lineage']} (lineages are named after the rule they start with)",
                        [(f"rule {start} of {lineage_edition}", ctx.href(ctx.mint.rule(lineage_edition, start)))])
    what = {"part": f"part {number}", "section": f"section {number}", "glossary": f"glossary entry {parts.get('slug')!r}",
            "inferred": f"inferred statement {parts.get('index')}", "edition": "such edition",
            "meaning-change": f"change of meaning {parts.get('index')}",
            "change": f"change {parts.get('old') or ''}..{parts.get('new') or ''}"}.get(kind, kind)
    links = [(f"edition {edition}", ctx.href(ctx.mint.edition(edition)))] if edition else []
    return WebError(404, f"{edition or 'the knowledge base'} has no {what}", links)


def _editions_like(ctx: WebContext, edition: str) -> list[tuple[str, str]]:
    """The known editions of the same language, the nearest dates first."""
    language, _, date = edition.partition("/")
    rows = [r for r in run(ctx.store, "edition-graphs") if r["language"] == language]
    if not rows:
        rows = run(ctx.store, "edition-graphs")
    dated = sorted(rows, key=lambda r: _distance(r.get("effective_date") or "", date))
    return [(f"edition {r['edition']}", ctx.href(r["ed"])) for r in dated[:MAX_SUGGESTIONS]]


def _distance(a: str, b: str) -> int:
    """How far apart two ISO dates are, roughly (in days); undated ones last."""
    def days(text: str) -> int | None:
        try:
            year, month, day = (int(x) for x in text[:10].split("-"))
            return year * 372 + month * 31 + day
        except ValueError:
            return None

    x, y = days(a), days(b)
    if x is None:
        return 10**9
    return abs(x - y) if y is not None else -x  # no date asked: the newest first


def _rules_like(ctx: WebContext, edition: str, number: str) -> list[tuple[str, str]]:
    """The nearest numbers in the edition, then the editions that have this number."""
    found = []
    if numbers.is_valid(number):
        target = numbers.sort_key(number)
        near = run(ctx.store, "section-rules", edition=edition, section=numbers.section_of(number))
        near.sort(key=lambda r: _gap(numbers.sort_key(r["number"]), target))
        found += [(f"rule {r['number']} of {edition}", ctx.href(r["rule"])) for r in near[:4]]
        elsewhere = run(ctx.store, "rule-across-editions", number=number)[::-1]  # newest first
        found += [(f"rule {number} of {r['edition']}", ctx.href(r["rule"])) for r in elsewhere[:4]]
    found.append((f"edition {edition}", ctx.href(ctx.mint.edition(edition))))
    return found[:MAX_SUGGESTIONS + 1]


def _gap(a: tuple, b: tuple) -> tuple:
    return tuple(abs(x - y) for x, y in zip(a, b))

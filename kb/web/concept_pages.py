"""Pages of what lives across editions: a concept (``rulekb define`` as a page,
with its glossary definitions through the editions) and a lineage (one rule
through every edition, renumbered or not)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import service
from ..errors import NotFound
from ..service import run
from . import catalog
from .context import WebContext
from .html import page
from .rule_page import history_view

if TYPE_CHECKING:
    from ..define.ask import Asker

def _asker(store) -> Asker:
    return catalog.asker(store)


def concept_exists(ctx: WebContext, slug: str) -> bool:
    return ctx.mint.concept(slug) in _asker(ctx.store).labels.by_concept


def concept_page(ctx: WebContext, slug: str):
    store = ctx.store
    iri = ctx.mint.concept(slug)
    asker = _asker(store)
    names = asker.labels.by_concept.get(iri)
    if not names:
        raise NotFound(f"no concept {slug!r} in the knowledge base (search the rules, or see an edition's glossary)")
    defined = _define(asker, iri, names)
    link = lambda label: asker.labels.resolve(label)  # noqa: E731  a neighbour's label -> its concept
    glossary = run(store, "concept-glossary", concept=iri)
    english = (names.get("pref", {}).get("en") or names.get("pref", {}).get("", []) or [slug])[0]
    return page(
        ctx, "concept.html", title=f"{english} — concept", iri=iri, label=english,
        labels={lang: _distinct(names.get("pref", {}).get(lang, []) + names.get("alt", {}).get(lang, []))
                for lang in ("en", "fr")},
        historical=sorted({label for labels in names.get("hidden", {}).values() for label in labels}),
        definitions=_grouped(glossary), defined=defined,
        neighbours={kind: [{"label": label, "iri": link(label)} for label in (defined or {}).get(kind, [])]
                    for kind in ("broader", "narrower", "related")},
    )


def _distinct(labels: list[str]) -> list[str]:
    """Labels once each, whatever their case ("owner", "Owner")."""
    seen: dict[str, str] = {}
    for label in labels:
        seen.setdefault(label.casefold(), label)
    return list(seen.values())


def _define(asker: Asker, iri: str, names: dict) -> dict | None:
    """``rulekb define`` for this concept: it takes a label, so try the concept's
    own labels until one resolves to it (two concepts may share a label)."""
    for kind in ("pref", "alt", "hidden"):
        for labels in names.get(kind, {}).values():
            for label in labels:
                if asker.labels.resolve(label) == iri:
                    return asker.define(label)
    return None


def _grouped(rows: list[dict]) -> list[dict]:
    """Glossary entries (newest first) folded into runs of editions of one
    language with the same term and definition."""
    out: list[dict] = []
    for row in rows:
        language = row["edition"].split("/", 1)[0]
        last = out[-1] if out else None
        if last and last["language"] == language and last["term"] == row["term"] \
                and last["definition"] == row["definition"]:
            last["first"] = row["edition"]
            last["editions"] += 1
            continue
        out.append({"language": language, "term": row["term"], "definition": row["definition"], "entry": row["entry"],
                    "first": row["edition"], "last": row["edition"], "editions": 1})
    return out


def lineage_page(ctx: WebContext, lineage: str | None = None, lineage_id: str | None = None):
    """``lineage/en/2003-07-01/200.4a``: named after the rule it starts with
    (kb.rdf.iris.parse calls the id ``lineage``; ``lineage_id`` is the same)."""
    store = ctx.store
    lineage_id = lineage or lineage_id or ""
    edition, _, number = lineage_id.rpartition("/")
    if edition.count("/") != 1:
        raise NotFound(f"no lineage {lineage_id!r} (a lineage is named EDITION/NUMBER, e.g. en/2003-07-01/200.4a)")
    try:
        found = service.lineage(store, edition, number)
    except NotFound:
        found = None
    if not found or found["iri"] != ctx.mint.lineage(lineage_id):
        raise NotFound(f"no lineage {lineage_id!r} in the knowledge base")
    view = history_view(store, edition, number, mark=False)
    view.pop("lineage_id")
    latest = next((n for n in reversed(view["names"])), None)
    return page(ctx, "lineage.html", title=f"{' → '.join(n['number'] for n in view['names'])} across editions",
                lineage_id=lineage_id, iri=found["iri"], ended=found.get("ended"), latest=latest, **view)

"""Pages of an edition and its parts: the edition (sources, warnings, table of
contents, glossary index, neighbours), a part (its sections), a section (its
rules in order, like a chapter) and a glossary entry."""

from __future__ import annotations

from ..errors import NotFound
from ..service import run
from . import catalog
from .context import WebContext
from .html import page
from .kept import Kept, digest
from .markup import citations_from_rows, link_citations

# Rendered section pages, per process: a section lists every rule under it, and the longest
# (702, every keyword ability: 242 KB) took 40-166 ms of CPU to query and render -- the tail of
# a mixed load, every other request of the process waiting behind it. Kept whatever the
# response cache (``--cache``) says, like a rule page's history rows: keyed by the build, so a
# rebuild the server follows renders them again. The newest edition's are rendered before the
# port opens (:func:`render_sections_ahead`).
SECTIONS_KEPT = Kept(max_entries=2048, max_bytes=16_000_000)


def edition_page(ctx: WebContext, edition: str):
    store = ctx.store
    entry = catalog.edition(store, edition)
    info = run(store, "edition-info", edition=edition)
    before, after = catalog.neighbours(store, edition)
    return page(
        ctx, "edition.html",
        title=f"{(info[0].get('title') if info else None) or 'Comprehensive Rules'} — {edition}",
        edition=edition, entry=entry, info=info[0] if info else {},
        sources=[r["source"] for r in info if r.get("source")],
        warnings=[r["warning"] for r in run(store, "edition-warnings", edition=edition)],
        parts=_contents(run(store, "edition-sections", edition=edition)),
        glossary=run(store, "edition-glossary-terms", edition=edition),
        before=before, after=after,
        consistency=_consistency(store, edition),
    )


def _consistency(store, edition: str) -> dict | None:
    """The edition's consistency findings (places joined for the page); None for a KB
    built before they existed."""
    from .. import service

    data = service.consistency(store, edition)
    for item in data["findings"]:
        item["places"] = " | ".join(item["rules"])
    return data


def _contents(headings: list[dict]) -> list[dict]:
    """Parts with their sections, in document order (a section belongs to the
    part heading before it; sections before any part go in an untitled one)."""
    parts: list[dict] = []
    for row in headings:
        if row["kind"] == "part":
            parts.append({"number": row["number"], "title": row["title"], "sections": []})
        else:
            if not parts:
                parts.append({"number": None, "title": None, "sections": []})
            parts[-1]["sections"].append({"number": row["number"], "title": row["title"]})
    return parts


def part_page(ctx: WebContext, edition: str, number: str):
    catalog.edition(ctx.store, edition)
    parts = [p for p in _contents(run(ctx.store, "edition-sections", edition=edition)) if p["number"] == number]
    if not parts:
        raise NotFound(f"edition {edition} has no part {number}")
    return page(ctx, "section.html", title=f"Part {number} — {edition}", edition=edition, kind="part",
                number=number, heading=parts[0]["title"], sections=parts[0]["sections"], rules=[])


def section_page(ctx: WebContext, edition: str, number: str):
    from starlette.responses import HTMLResponse

    build = ctx.store.build_id()
    if build is None:  # a store of no known build (in memory, a remote one down): nothing to key on
        return _section_page(ctx, edition, number)
    key = digest(ctx.base, build, edition, number)
    body = SECTIONS_KEPT.get(key)
    if body is not None:
        return HTMLResponse(body)
    response = _section_page(ctx, edition, number)
    SECTIONS_KEPT.put(key, bytes(response.body))
    return response


def kept_section(ctx: WebContext, edition: str | None, number: str | None):
    """The section page this process keeps for this build, or None (not rendered yet, or no build
    to key on): answered on the event loop, with no thread and no query."""
    from starlette.responses import HTMLResponse

    build = ctx.store.build_id() if edition and number else None
    body = SECTIONS_KEPT.get(digest(ctx.base, build, edition, number)) if build else None
    return HTMLResponse(body) if body is not None else None


def render_sections_ahead(ctx: WebContext, edition: str, seconds: float = 60.0) -> int:
    """Every section page of ``edition`` rendered and kept now (``rulekb serve`` does it for the
    newest edition of an embedded store before its port opens: over a remote store each page asks
    it five queries); stops after ``seconds`` (a slow store does not keep the port closed).
    Returns how many."""
    import time

    deadline = time.monotonic() + seconds
    numbers = [h["number"] for h in run(ctx.store, "edition-sections", edition=edition) if h["kind"] == "section"]
    done = 0
    for number in numbers:
        if time.monotonic() > deadline:
            break
        section_page(ctx, edition, number)
        done += 1
    return done


def _section_page(ctx: WebContext, edition: str, number: str):
    store = ctx.store
    catalog.edition(store, edition)
    headings = run(store, "edition-sections", edition=edition)
    titles = [h for h in headings if h["kind"] == "section" and h["number"] == number]
    if not titles:
        raise NotFound(f"edition {edition} has no section {number}")
    numbers = [h["number"] for h in headings if h["kind"] == "section"]
    index = numbers.index(number)
    citations: dict[str, list[dict]] = {}  # citing rule -> its section-references rows
    for row in run(store, "section-references", edition=edition, section=number):
        citations.setdefault(row["number"], []).append(row)
    examples: dict[str, list[str]] = {}
    for row in run(store, "section-examples", edition=edition, section=number):
        examples.setdefault(row["number"], []).append(row["text"])
    rules = []
    for row in run(store, "section-rules", edition=edition, section=number):
        cited = citations_from_rows(citations.get(row["number"], []), ctx.mint.numbered, edition)
        rules.append({"number": row["number"], "iri": row["rule"], "text": link_citations(row.get("text", ""), cited),
                      "examples": [link_citations(text, cited) for text in examples.get(row["number"], [])]})
    return page(ctx, "section.html", title=f"{number}. {titles[0]['title']} — {edition}", edition=edition,
                kind="section", number=number, heading=titles[0]["title"], sections=[], rules=rules,
                referenced_by=[{"iri": r["source"], "label": r.get("source_number") or f"glossary: {r.get('term', '?')}"}
                               for r in run(store, "rule-referenced-by", edition=edition, number=number)],
                lang=catalog.edition(store, edition)["language"],
                previous=numbers[index - 1] if index else None,
                next=numbers[index + 1] if index + 1 < len(numbers) else None)


def glossary_page(ctx: WebContext, edition: str, slug: str):
    store = ctx.store
    catalog.edition(store, edition)
    iri = ctx.mint.glossary(edition, slug)
    rows = run(store, "glossary-entry", entry=iri)
    if not rows:
        raise NotFound(f"edition {edition} has no glossary entry {slug!r}")
    first = rows[0]
    return page(ctx, "glossary.html", title=f"{first['term']} — glossary of {edition}", edition=edition,
                iri=iri, term=first["term"], concept=first.get("concept"),
                lang=catalog.edition(store, edition)["language"],
                definition=link_citations(first["definition"], citations_from_rows(rows)))

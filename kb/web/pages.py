"""The HTML pages people read: home and search (routes of their own), and the
page of every kind of IRI the KB mints (``PAGES``, called by the dereferencing
layer, :mod:`.resources`, when a browser asks for an IRI).

``PAGES[kind](ctx, **parts)`` returns an HTML response or raises
:class:`kb.errors.NotFound`; kinds and parts: edition(edition),
part(edition, number), section(edition, number), rule(edition, number),
glossary(edition, slug), concept(slug), lineage(lineage_id). The functions are
synchronous (they query the store): call them from a worker thread.
"""

from __future__ import annotations

import re
from itertools import groupby
from urllib.parse import quote_plus

from starlette.requests import Request
from starlette.responses import RedirectResponse
from starlette.routing import Route

from rulekb.ingest import numbers as rule_numbers

from ..service import language_name, run
from . import catalog
from .concept_pages import concept_exists, concept_page, lineage_page
from .context import WebContext
from .edition_pages import edition_page, glossary_page, part_page, section_page
from .errors import WebError
from .html import page
from .card_pages import card_page
from .rule_page import rule_page

PAGES = {
    "edition": edition_page,
    "part": part_page,
    "section": section_page,
    "rule": rule_page,
    "glossary": glossary_page,
    "concept": concept_page,
    "lineage": lineage_page,
    "card": card_page,
}

MAX_QUERY = 200  # characters of a search
PER_PAGE = 20  # ranked results a search page shows
MAX_PAGES = 25
_TYPED_NUMBER = re.compile(rf"^\s*(?:(?:cr|rule|règle|regle)\s+)?({rule_numbers.CITED})\.?\s*$", re.IGNORECASE)


def routes(ctx: WebContext) -> list[Route]:
    def home(request: Request):
        return home_page(ctx)

    def search(request: Request):
        from .timeline_pages import alias_redirect

        redirect = alias_redirect(ctx, request, ("edition",))  # en/latest, en@2010-03-15: the id they name
        if redirect is not None:
            return redirect
        params = request.query_params
        return search_page(ctx, params.get("q", ""), params.get("edition") or None, params.get("page", "1"))

    return [Route("/", home, methods=["GET", "HEAD"]), Route("/search", search, methods=["GET", "HEAD"])]


def home_page(ctx: WebContext):
    editions = catalog.editions(ctx.store)
    groups = []
    for language in ("en", "fr"):
        mine = sorted((e for e in editions if e["language"] == language),
                      key=lambda e: (e.get("effective_date") or "", e["edition"]), reverse=True)
        dated = [e for e in mine if e.get("effective_date")]
        years = [(year, list(items)) for year, items in groupby(dated, key=lambda e: e["effective_date"][:4])]
        groups.append({"language": language, "count": len(mine), "years": years,
                       "undated": [e for e in mine if not e.get("effective_date")]})
    english = [e["edition"] for e in editions if e["language"] == "en" and not e["partial"]]
    newest = english[-1] if english else None
    # the examples link only to what this KB has (a test KB of invented rules has no 111.2)
    example_rule = "111.2" if newest and run(ctx.store, "rule", edition=newest, number="111.2") else None
    concepts = [slug for slug in ("owner", "permanent") if concept_exists(ctx, slug)]
    return page(ctx, "home.html", title="The Comprehensive Rules, every edition", groups=groups,
                total=len(editions), newest=newest, older=english[-2] if len(english) > 1 else None,
                example_rule=example_rule, example_concepts=concepts,
                search_editions=_search_choices(editions), chosen=newest, timeline=_timeline(ctx))


def _timeline(ctx: WebContext):
    from .timeline_pages import editions_svg

    return editions_svg(ctx, "en")


def _search_choices(editions: list[dict]) -> list[str]:
    """Editions a search can run in: the complete ones, newest first."""
    return [e["edition"] for e in sorted(editions, key=lambda e: (e.get("effective_date") or "", e["edition"]), reverse=True)
            if not e["partial"]]


def _definitional(store, question: str, edition: str | None) -> dict | None:
    """The KB's definitional answer to a question (kb.define.ask, kept per build), or None."""
    from ..errors import KBError

    try:
        found = catalog.asker(store).ask(question, edition=edition)
    except KBError:
        return None
    return found if found.get("answer") is not None else None


def search_page(ctx: WebContext, query: str, edition: str | None, page_number: str = "1"):
    """Ranked search (:func:`kb.service.search`): snippets with the matched words
    marked, why each rule ranked there, pages of :data:`PER_PAGE`; ``edition`` is
    an edition id, ``all`` (every English edition, one hit per lineage) or ``fr``
    (the French texts). A question the KB answers by definition shows the answer first."""
    from .. import service
    from ..service import snippet_segments as marked_segments
    from .markup import Segment

    store = ctx.store
    if len(query) > MAX_QUERY:
        raise WebError(400, f"a search is at most {MAX_QUERY} characters (this one has {len(query)})")
    try:
        number_of_page = int(page_number)
    except ValueError:
        raise WebError(400, f"page must be a number from 1 to {MAX_PAGES} (got {page_number[:20]!r})") from None
    if not 1 <= number_of_page <= MAX_PAGES:
        raise WebError(400, f"page must be a number from 1 to {MAX_PAGES} (got {number_of_page})")
    lang, scope = None, edition
    if edition == "fr":
        lang, scope = "fr", None
    elif edition != "all":
        scope = edition = edition or catalog.newest(store)
        catalog.edition(store, edition)  # 404 for an unknown edition
    text = query.strip()
    typed = _TYPED_NUMBER.match(text)
    if typed and scope not in (None, "all"):  # "702.19b": straight to the rule, when the edition has it
        number = rule_numbers.normalise(typed.group(1))
        iri = ctx.mint.numbered(scope, number)
        if "." not in number or run(store, "rule", edition=scope, number=number):
            return RedirectResponse(ctx.href(iri), status_code=303)
    results, more, answer, arms, cards, unknown_cards, shorthand, met, quoted = [], False, None, [], [], [], [], [], []
    asked_in = cards_note = None
    if text:
        found = service.search(store, text, edition=scope if scope != "all" else None, lang=lang,
                               all_editions=scope == "all", limit=PER_PAGE, offset=(number_of_page - 1) * PER_PAGE)
        more, arms = found["more"], found.get("arms", [])
        shorthand = found["understood"].get("shorthand", [])
        quoted = found["understood"].get("quoted", [])
        if found["understood"].get("meaning_leads"):  # kb.search.rank.RRF_CROSS
            asked_in = (language_name(found["understood"]["asked_in"]), language_name(found["lang"]))
        if number_of_page == 1:
            cards, unknown_cards = found.get("cards", []), found.get("unknown_cards", [])
            cards_note = found["understood"].get("cards_note")  # (French names the card file lacks)
            met = found["understood"].get("interactions", [])
        for hit in found["results"]:
            results.append({**hit, "segments": [Segment(piece, "mark" if marked else "text")
                                                for piece, marked in marked_segments(hit["snippet"])]})
        if number_of_page == 1 and text.endswith("?"):
            answer = _definitional(store, text, None if scope in (None, "all") else scope)
    base = f"search?q={quote_plus(text)}&edition={quote_plus(edition or 'all')}"
    return page(ctx, "search.html", title=f"Search: {text}" if text else "Search the rules", query=text,
                edition=edition or "all", results=results, answer=answer, page_number=number_of_page, arms=arms,
                cards=cards, unknown_cards=unknown_cards, cards_note=cards_note, shorthand=shorthand, quoted=quoted, interactions=met, asked_in=asked_in,
                first=(number_of_page - 1) * PER_PAGE + 1,
                previous=f"{base}&page={number_of_page - 1}" if number_of_page > 1 else None,
                next=f"{base}&page={number_of_page + 1}" if more and number_of_page < MAX_PAGES else None,
                search_editions=_search_choices(catalog.editions(store)), chosen=edition or "all")

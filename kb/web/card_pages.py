"""Card pages (kb.cards): ``/card/{slug}`` (through the IRI dereferencing of
:mod:`.resources`, HTML here, RDF there) and ``/cards?edition=&number=``, the cards a rule
governs. Every value is escaped by the templates; card text is data, never markup."""

from __future__ import annotations

from starlette.requests import Request
from starlette.routing import Route

from ..errors import NotFound
from .context import WebContext
from .errors import WebError
from .html import page

MAX_LISTED = 2000  # cards a rule's list shows (Flying governs four thousand)


def card_page(ctx: WebContext, slug: str):
    from .. import service

    data = service.card_by_slug(ctx.store, slug)
    if data is None:
        raise NotFound(f"no card {slug!r} in this KB")
    return page(ctx, "card.html", title=data["name"], card=data, iri=data["iri"])


def cards_page(ctx: WebContext, edition: str, number: str):
    from .. import service
    from . import catalog

    if not edition or not number or len(edition) > 40 or len(number) > 20:
        raise WebError(400, "give an edition and a rule number, e.g. /cards?edition=en/2026-01-16&number=702.19")
    catalog.edition(ctx.store, edition)  # 404 for an unknown edition
    rows = service.cards_governed_by_rule(ctx.store, edition, number)
    return page(ctx, "cards.html", title=f"Cards governed by {number} — {edition}", edition=edition, number=number,
                rule_iri=ctx.mint.rule(edition, number), cards=rows[:MAX_LISTED], total=len(rows),
                limit=MAX_LISTED)


def routes(ctx: WebContext) -> list[Route]:
    def cards(request: Request):
        params = request.query_params
        return cards_page(ctx, params.get("edition", ""), params.get("number", ""))

    return [Route("/cards", cards, methods=["GET", "HEAD"])]

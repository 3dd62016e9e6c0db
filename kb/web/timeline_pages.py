"""Rules over time on the web: permalinks by date, effects of an edition, feeds, timelines.

- ``/rule/111.2``                  the rule as a work: 303 to its current version (the newest
                                   English edition's 111.2; ``?lang=fr``), ``?as-of=2010-03-15``
                                   to the version in force on that date
- ``/edition/en/latest/...``       302 to the same path under the newest edition
- ``/edition/en@2010-03-15/...``   302 to the same path under the edition in force on the date
- ``/effects/en/2009-07-08``       what an edition changed (HTML; ``.json`` or Accept JSON),
                                   also ``/api/effects/en/2009-07-08``
- ``/api/as-of/111.2?date=2010-03-15``  ``rulekb as-of`` (JSON; ``&lang=``)
- ``/api/changes?from=&to=``       ``rulekb changes`` (JSON; ``&lang=``), paged in whole dates
                                   (``&limit=``, default 500 rows; the total in ``X-Total-Count``,
                                   the next page in ``Link: <...&after=DATE>; rel="next"``)
- ``/feed/editions``               Atom: the newest editions and what each changed
- ``/feed/rule/111.2``             Atom: every change to that rule's lineage (newest edition's
                                   number; ``?lang=``)

Every edition name goes through :func:`kb.service.resolve_edition` (one resolver); its
errors are 4xx pages naming the nearest editions.
"""

from __future__ import annotations

import re

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from rulekb.ingest import numbers

from .. import service
from ..errors import NotFound
from ..timeline import effects, feeds, svg
from . import catalog
from .context import WebContext
from .errors import WebError
from .html import page

_NUMBER = re.compile(numbers.RULE_OR_SUBRULE)
FEED_EDITIONS = 40  # entries of /feed/editions


def known(store):
    """The resolver's editions, kept per build."""
    return catalog.per_build(store, "timeline", lambda: service.timeline(store))


def counts(store) -> dict:
    """Every edition's change counts, kept per build (one query over every change)."""
    return catalog.per_build(store, "change-counts", lambda: service.change_counts(store))


def resolve(ctx: WebContext, name: str | None, as_of: str | None = None):
    return service.resolve_edition(ctx.store, name, as_of, known=known(ctx.store))


def _number(number: str) -> str:
    number = number.strip().rstrip(".")
    if not _NUMBER.fullmatch(number):
        raise WebError(404, f"{number[:40]!r} is not a rule number (e.g. 111.2, 702.19b)")
    return number


def _wants_json(request: Request, path: str) -> bool:
    return path.endswith(".json") or "application/json" in (request.headers.get("accept") or "").split(",")[0]


def editions_svg(ctx: WebContext, language: str = "en") -> dict | None:
    complete = [e for e in catalog.editions(ctx.store) if e["language"] == language and not e["partial"]]
    return svg.editions_timeline(complete, counts(ctx.store))


def routes(ctx: WebContext) -> list[Route]:
    def work(request: Request):
        number = _number(request.path_params["number"])
        lang = request.query_params.get("lang", "en")
        as_of = request.query_params.get("as-of") or request.query_params.get("as_of")
        resolution = resolve(ctx, lang if as_of else f"{lang}/latest", as_of)
        if not service.run(ctx.store, "rule", edition=resolution.edition, number=number):
            others = [r["edition"] for r in service.run(ctx.store, "rule-across-editions", number=number)]
            near = [e for e in others if e.startswith(lang + "/")][-3:]
            raise WebError(404, f"{resolution.edition} ({resolution.reason.split(':', 1)[0]}) has no rule {number}"
                           + (f"; editions with a rule {number}: {', '.join(near)}" if near else ""),
                           [(f"{e} {number}", ctx.href(ctx.mint.rule(e, number))) for e in near])
        target = ctx.href(ctx.mint.rule(resolution.edition, number))
        return RedirectResponse(target, status_code=303, headers={"X-Rulekb-Resolved": resolution.reason})

    def alias(request: Request):
        params = request.path_params
        name = f"{params['lang']}/latest" if "date" not in params else f"{params['lang']}@{params['date']}"
        rest = params.get("rest", "")
        if rest and not rest.startswith("/"):
            raise WebError(404, f"no resource of the knowledge base has the path {request.url.path[:120]}")
        resolution = resolve(ctx, name)
        query = f"?{request.url.query}" if request.url.query else ""
        target = ctx.href(ctx.mint.edition(resolution.edition) + rest) + query
        return RedirectResponse(target, status_code=302, headers={"X-Rulekb-Resolved": resolution.reason})

    async def effects_page(request: Request):
        path = request.path_params["edition"]
        as_json = _wants_json(request, path) or request.url.path.startswith(ctx.root + "api/")
        name = path[: -len(".json")] if path.endswith(".json") else path
        resolution = await anyio.to_thread.run_sync(resolve, ctx, name)
        data = await anyio.to_thread.run_sync(service.edition_effects, ctx.store, resolution.edition)
        data["resolved"] = resolution.to_dict()
        if as_json:
            return JSONResponse(data)
        timeline = await anyio.to_thread.run_sync(editions_svg, ctx, resolution.language)
        return page(ctx, "effects.html", title=f"What {resolution.edition} changed", data=data,
                    resolution=resolution, summary=effects.summary(data["counts"]), labels=effects.LABELS,
                    timeline=timeline)

    async def as_of_api(request: Request):
        number = _number(request.path_params["number"])
        date = request.query_params.get("date")
        if not date:
            raise WebError(400, "give the date: /api/as-of/NUMBER?date=2010-03-15")
        lang = request.query_params.get("lang", "en")
        data = await anyio.to_thread.run_sync(
            lambda: service.rule_as_of(ctx.store, number, date, lang, known=known(ctx.store)))
        return JSONResponse(data)

    async def changes_api(request: Request):
        params = request.query_params
        start, end = params.get("from"), params.get("to")
        if not start or not end:
            raise WebError(400, "give both dates: /api/changes?from=2009-06-01&to=2009-12-31")
        lang = params.get("lang") or None
        try:
            limit = int(params.get("limit") or CHANGES_PAGE)
        except ValueError:
            raise WebError(400, "limit must be a whole number") from None
        if not 1 <= limit <= CHANGES_MOST:
            raise WebError(400, f"limit must be between 1 and {CHANGES_MOST}")
        found = await anyio.to_thread.run_sync(
            lambda: service.rules_changed_page(ctx.store, start, end, lang, limit=limit, after=params.get("after") or None))
        return JSONResponse(found["rows"], headers=_page_headers(request, found))

    async def editions_feed(request: Request):
        return await anyio.to_thread.run_sync(_editions_feed, ctx)

    async def rule_feed(request: Request):
        number = _number(request.path_params["number"])
        lang = request.query_params.get("lang", "en")
        return await anyio.to_thread.run_sync(_rule_feed, ctx, number, lang)

    return [
        Route("/rule/{number}", work, methods=["GET", "HEAD"]),
        Route("/edition/{lang}/latest{rest:path}", alias, methods=["GET", "HEAD"]),
        Route("/edition/{lang}@{date}{rest:path}", alias, methods=["GET", "HEAD"]),
        Route("/effects/{edition:path}", effects_page, methods=["GET", "HEAD"]),
        Route("/api/effects/{edition:path}", effects_page, methods=["GET", "HEAD"]),
        Route("/api/as-of/{number}", as_of_api, methods=["GET", "HEAD"]),
        Route("/api/changes", changes_api, methods=["GET", "HEAD"]),
        Route("/feed/editions", editions_feed, methods=["GET", "HEAD"]),
        Route("/feed/rule/{number}", rule_feed, methods=["GET", "HEAD"]),
    ]


CHANGES_PAGE, CHANGES_MOST = 500, 5000  # rows of a page of /api/changes (whole dates): by default, at most


def _page_headers(request: Request, found: dict) -> dict:
    """A page of /api/changes says the window's total and links the next page (RFC 8288): the
    body stays the list of rows, whole for any window that fits one page."""
    headers = {"X-Total-Count": str(found["total"])}
    if found["next"] is not None:
        from urllib.parse import urlencode

        query = {k: v for k, v in request.query_params.items() if k != "after"}
        headers["Link"] = f'<{request.url.path}?{urlencode({**query, "after": found["next"]})}>; rel="next"'
    return headers


def _atom(body: bytes) -> Response:
    return Response(body, media_type="application/atom+xml; charset=utf-8")


def _editions_feed(ctx: WebContext) -> Response:
    changed = counts(ctx.store)
    dated = [e for e in catalog.editions(ctx.store) if e.get("effective_date")]
    dated.sort(key=lambda e: (e["effective_date"], e["edition"]), reverse=True)
    entries = []
    for e in dated[:FEED_EDITIONS]:
        entries.append(feeds.edition_entry(e, changed.get(e["edition"], {}), ctx.mint.edition(e["edition"]), ctx.base))
    return _atom(feeds.feed(ctx.base + "feed/editions", "rulekb: new editions of the Comprehensive Rules",
                            ctx.base + "feed/editions", ctx.base, entries))


def _rule_feed(ctx: WebContext, number: str, lang: str) -> Response:
    resolution = resolve(ctx, f"{lang}/latest")
    wordings = service.rule_wordings(ctx.store, resolution.edition, number)
    if not wordings:
        if not service.run(ctx.store, "rule", edition=resolution.edition, number=number):
            raise NotFound(f"{resolution.edition} (the newest {lang} edition) has no rule {number}")
    entries = []
    for w in reversed(wordings):
        if w["kind"] is None:  # the oldest wording the KB has: no change made it
            continue
        title = (f"{number}: {w['kind']} in {w['first']}" if w["number"] is None
                 else f"{w['number']}: {w['kind']} in {w['first']}")
        entries.append({"id": w.get("wording") or ctx.mint.edition(w["first"]) + f"#{w['kind']}-{number}",
                        "updated": w.get("in_force_from") or w["first"].partition("/")[2],
                        "title": title,
                        "href": ctx.mint.rule(w["first"], w["number"]) if w["number"] else ctx.base + f"effects/{w['first']}",
                        "summary": w.get("detail") or w["kind"], "content": w.get("text") or None})
    self_href = ctx.base + f"feed/rule/{number}"
    return _atom(feeds.feed(self_href + (f"?lang={lang}" if lang != "en" else ""),
                            f"rulekb: changes to rule {number} ({lang})", self_href,
                            ctx.mint.rule(resolution.edition, number), entries))


def _names_by_alias(value: str) -> bool:
    """An alias or a date (``en/latest``, ``latest``, ``en``, ``en@2010-03-15``, ``2010-03-15``),
    not an id: an unknown id is the page's own 404, with the nearest ids it suggests."""
    return service.names_by_alias(value)


def alias_redirect(ctx: WebContext, request: Request, names: tuple[str, ...]) -> Response | None:
    """A 302 to the same URL with every edition parameter in ``names`` that is an alias or
    a date (``en/latest``, ``en@2010-03-15``) replaced by the edition id it resolves to;
    None when they are all ids already (or absent). Bad names: the resolver's 4xx."""
    from urllib.parse import urlencode

    timeline = known(ctx.store)
    items = list(request.query_params.multi_items())
    changed, reasons = False, []
    for index, (key, value) in enumerate(items):
        value = value.strip()
        if key in names and value and value != "all" and value not in timeline.known and _names_by_alias(value):
            resolution = resolve(ctx, value)
            items[index] = (key, resolution.edition)
            reasons.append(f"{value} -> {resolution.reason}")
            changed = True
    if not changed:
        return None
    target = request.url.path + "?" + urlencode(items)
    return RedirectResponse(target, status_code=302, headers={"X-Rulekb-Resolved": "; ".join(reasons)[:900]})

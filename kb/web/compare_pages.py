"""``/diff``, ``/translation`` and ``/contradictions``: comparisons, as pages and JSON.

- ``/diff?old=ID&new=ID[&kind=modified,added...][&format=json]``: every rule of the
  older edition paired with its successor (``rulekb diff``), by section, old beside
  new with the changed words marked; unchanged rules only with ``kind=unchanged``
  (or ``all``). Without editions: a form, the two newest English editions chosen.
- ``/translation?fr=ID[&us=ID][&kind=stale...][&format=json]``: the translator's
  worklist (``rulekb translation-report ID --base auto``) against an English edition
  (default: the newest), with the base edition detected, its score and runner-up.
  ``&format=xliff`` (``xliff-omegat``: targets holding the English, for OmegaT 3.6),
  ``tmx`` (every aligned pair of the French text with its base), ``tmx-current`` (the
  rules still translating the English shown: what a CAT tool fills exactly) or ``tbx``
  (TBX v2 termbase) downloads the translators' files (``rulekb translation-report
  --report xliff``, ``rulekb translation-memory``, ``rulekb lexicon --format tbx``).
- ``/contradictions?old=ID&new=ID[&format=json]``: changes of meaning between two
  editions' definitions (``rulekb contradictions``, no reasoner).

Edition ids are checked against the KB's editions first (unknown: 404 with the
nearest ids); the work runs in a worker thread and is cached per pair
(:mod:`.comparisons`); rendering reuses the CLI's reports (:mod:`.compare_views`).
"""

from __future__ import annotations

from urllib.parse import urlencode

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..errors import RulekbError
from .comparisons import LRU, Comparisons
from .compare_views import (DIFF_DEFAULT_KINDS, DIFF_KINDS, contradictions_view, diff_json, diff_view,
                            parse_kinds, translation_json, translation_view)
from .context import WebContext
from .errors import WebError, error_response, status_and_message
from .timeline_pages import alias_redirect
from .html import page

TRANSLATION_KINDS = ("missing", "extra", "reference-mismatch", "number-mismatch", "name-mismatch",
                     "sentence-missing", "sentence-added", "stale", "terminology-inconsistency")


def _param(request: Request, name: str) -> str:
    return (request.query_params.get(name) or "").strip()


# format -> (file name suffix, media type): the translators' files the worklist page offers
DOWNLOADS = {
    "xliff": (".xlf", "application/xliff+xml"),
    "xliff-omegat": ("-omegat.xlf", "application/xliff+xml"),
    "tmx": (".tmx", "application/x-tmx+xml"),
    "tmx-current": ("-current.tmx", "application/x-tmx+xml"),
    "tbx": (".tbx", "application/x-tbx+xml"),
}


def _wants_json(request: Request) -> bool:
    fmt = _param(request, "format").lower()
    if fmt and fmt not in ("json", "html"):
        raise WebError(400, f"unknown format {fmt[:40]!r}: json or html")
    return fmt == "json"


def _answers_errors(handler):
    """Errors answered here rather than raised: with ``format=json`` as JSON (the shape of
    :mod:`.errors`, whatever the Accept header says), else by :func:`.errors.error_response`
    (a WebError raised to the app would reach Starlette's last-resort handler, which logs
    a traceback for what is only a bad parameter)."""
    async def answer(self, request: Request):
        try:
            return await handler(self, request)
        except RulekbError as exc:
            if (request.query_params.get("format") or "").strip().lower() != "json":
                return error_response(request, exc)
            status, message, _ = status_and_message(exc)
            return JSONResponse({"error": {"status": status, "message": message}}, status_code=status)
    return answer


def _kinds(request: Request, known, default):
    try:
        return parse_kinds(request.query_params.getlist("kind"), known, default)
    except ValueError as exc:
        raise WebError(400, str(exc)) from None


class ComparePages:
    def __init__(self, ctx: WebContext):
        self.ctx = ctx
        self.data = Comparisons(ctx.store)
        # comparisons computed at once (each takes a CPU for seconds): as many as queries
        self.limiter = anyio.CapacityLimiter(ctx.limits.workers)
        self.diff_views = LRU()  # the word-marked rows of a pair and kinds: 0.3-0.5 s for the 2009 pair

    def link(self, path: str, **params) -> str:
        return self.ctx.href(path) + "?" + urlencode({k: v for k, v in params.items() if v})

    async def _editions(self):
        return await anyio.to_thread.run_sync(self.data.editions)

    # -- /diff ---------------------------------------------------------------------------

    async def _pair(self, request: Request, action: str, options=lambda: None):
        """The two editions of ``/diff`` or ``/contradictions``: (old, new, wants JSON, what
        ``options`` reads from the request), both ids checked against the KB's editions; or the
        response to give instead (an alias's redirect, the form when one is missing)."""
        redirect = await anyio.to_thread.run_sync(alias_redirect, self.ctx, request, ("old", "new"))
        if redirect is not None:  # en/latest, en@2010-03-15: to the ids they name
            return redirect
        old, new = _param(request, "old"), _param(request, "new")
        wants_json = _wants_json(request)
        chosen = options()
        editions = await self._editions()
        if not old or not new:
            return self._pair_form(request, action, old, new, editions)
        self.data.check(old, "edition", editions, lambda e: self.link(action, old=e, new=new))
        self.data.check(new, "edition", editions, lambda e: self.link(action, old=old, new=e))
        return old, new, wants_json, chosen

    @_answers_errors
    async def diff(self, request: Request):
        pair = await self._pair(request, "diff", lambda: _kinds(request, DIFF_KINDS, DIFF_DEFAULT_KINDS))
        if not isinstance(pair, tuple):
            return pair
        old, new, wants_json, kinds = pair
        result = await anyio.to_thread.run_sync(self.data.diff, old, new, limiter=self.limiter)
        if wants_json:
            return JSONResponse(diff_json(result.data, kinds))
        view = await anyio.to_thread.run_sync(
            self.diff_views.get, (old, new, kinds), lambda: diff_view(self.ctx, result, kinds), limiter=self.limiter)
        return page(self.ctx, "diff.html", title=f"Diff {old} → {new}", old=old, new=new,
                    counts=result.data["counts"], kinds=kinds, all_kinds=DIFF_KINDS,
                    kind_link=lambda k: self.link("diff", old=old, new=new, kind=k),
                    json_link=self.link("diff", old=old, new=new, kind=",".join(kinds), format="json"),
                    old_link=self.ctx.href(self.ctx.mint.edition(old)), new_link=self.ctx.href(self.ctx.mint.edition(new)),
                    seconds=round(result.seconds, 2), **view)

    def _pair_form(self, request: Request, action: str, old: str, new: str, editions: list[dict]):
        english = self.data.english()
        newest = [e["edition"] for e in english[-2:]]
        if len(newest) == 2:
            old, new = old or newest[0], new or newest[1]
        titles = {"diff": "Compare two editions", "contradictions": "Contradictions between two editions"}
        return page(self.ctx, "diff.html", title=titles[action], form=True, action=action, old=old, new=new,
                    editions=editions)

    # -- /translation ------------------------------------------------------------------

    @_answers_errors
    async def translation(self, request: Request):
        redirect = await anyio.to_thread.run_sync(alias_redirect, self.ctx, request, ("fr", "us"))
        if redirect is not None:
            return redirect
        fr, us = _param(request, "fr"), _param(request, "us")
        download = _param(request, "format").lower()
        download = download if download in DOWNLOADS else None
        wants_json = download is None and _wants_json(request)
        kinds = _kinds(request, TRANSLATION_KINDS, ()) or None  # default: every kind
        await self._editions()
        french, english = self.data.french(), self.data.english()
        if not fr:
            return page(self.ctx, "translation.html", title="Translation worklist", form=True,
                        french=french, english=english, fr=fr, us=us or (english[-1]["edition"] if english else ""))
        self.data.check(fr, "French edition with rules", french, lambda e: self.link("translation", fr=e, us=us))
        if not english:
            raise WebError(404, "no complete English edition in the knowledge base")
        us = us or english[-1]["edition"]
        self.data.check(us, "complete English edition", english, lambda e: self.link("translation", fr=fr, us=e))
        if download is not None:
            text = await anyio.to_thread.run_sync(self.data.download, download, fr, us, limiter=self.limiter)
            suffix, media = DOWNLOADS[download]
            name = f"rulekb-{fr.replace('/', '-')}-{us.replace('/', '-')}{suffix}"
            return Response(text.encode("utf-8"), media_type=f"{media}; charset=utf-8",
                            headers={"Content-Disposition": f'attachment; filename="{name}"'})
        result = await anyio.to_thread.run_sync(self.data.translation, fr, us, limiter=self.limiter)
        if wants_json:
            return JSONResponse(translation_json(result.data, kinds))
        view = await anyio.to_thread.run_sync(translation_view, self.ctx, result, kinds, limiter=self.limiter)
        data = result.data
        return page(self.ctx, "translation.html", title=f"Translation worklist {fr} ↔ {us}", form=False,
                    fr=fr, us=us, base=data["base"], base_detected=data.get("base_detected"),
                    coverage=data.get("coverage") or {}, stale_checked=data.get("stale_checked"),
                    kinds=kinds, kind_link=lambda k: self.link("translation", fr=fr, us=us, kind=k),
                    all_link=self.link("translation", fr=fr, us=us),
                    json_link=self.link("translation", fr=fr, us=us, format="json"),
                    download_links=[(label, self.link("translation", fr=fr, us=us, format=fmt)) for fmt, label in (
                        ("xliff", "XLIFF worklist"), ("xliff-omegat", "XLIFF for OmegaT"), ("tmx", "TMX memory"),
                        ("tmx-current", "TMX of the unchanged rules"), ("tbx", "TBX termbase"))],
                    fr_link=self.ctx.href(self.ctx.mint.edition(fr)), us_link=self.ctx.href(self.ctx.mint.edition(us)),
                    base_link=self.ctx.href(self.ctx.mint.edition(data["base_detected"])) if data.get("base_detected") else None,
                    seconds=round(result.seconds, 2), **view)

    # -- /contradictions ---------------------------------------------------------------

    @_answers_errors
    async def contradictions(self, request: Request):
        pair = await self._pair(request, "contradictions")
        if not isinstance(pair, tuple):
            return pair
        old, new, wants_json, _ = pair
        data = await anyio.to_thread.run_sync(self.data.contradictions, old, new, limiter=self.limiter)
        if wants_json:
            return JSONResponse(data)
        view = contradictions_view(self.ctx, data)
        return page(self.ctx, "contradictions.html", title=f"Contradictions {old} → {new}", old=old, new=new,
                    diff_link=self.link("diff", old=old, new=new),
                    json_link=self.link("contradictions", old=old, new=new, format="json"), **view)


def routes(ctx: WebContext) -> list:
    pages = ComparePages(ctx)
    return [
        Route("/diff", pages.diff, methods=["GET"]),
        Route("/translation", pages.translation, methods=["GET"]),
        Route("/contradictions", pages.contradictions, methods=["GET"]),
    ]

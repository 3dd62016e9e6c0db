"""Exceptions to HTTP answers, in one place.

A :class:`kb.errors.KBError` carries its status (404 NotFound, 400 QueryError,
503 StoreError); Starlette's HTTPException its own. Browsers get the HTML error
page (with a way back), API clients JSON ``{"error": {"status", "message"}}``,
everyone else one line of text. Unexpected exceptions are a 500 with a short
message, never a traceback.
"""

from __future__ import annotations

import logging
from http import HTTPStatus

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from ..errors import KBError, RulekbError
from . import conneg

log = logging.getLogger("rulekb.web")


class WebError(KBError):
    """An HTTP error a handler raises on purpose, with suggestions for the page."""

    def __init__(self, status: int, message: str, suggestions: list[tuple[str, str]] | None = None):
        super().__init__(message, status=status)
        self.suggestions = suggestions or []


def status_and_message(exc: BaseException) -> tuple[int, str, list]:
    """The one place an exception becomes an HTTP status: a :class:`RulekbError`
    (ingest's, the KB's, the web's own) says its status; Starlette's HTTPException
    its own; anything else is a 500 with a short message."""
    if isinstance(exc, RulekbError):
        return exc.status, exc.message, getattr(exc, "suggestions", [])
    if isinstance(exc, HTTPException):
        return exc.status_code, str(exc.detail), []
    return 500, "internal error (logged on the server)", []


def error_response(request: Request, exc: Exception) -> Response:
    status, message, suggestions = status_and_message(exc)
    if status >= 500 and not isinstance(exc, (RulekbError, HTTPException)):
        log.exception("unexpected error on %s", request.url.path, exc_info=exc)
    reason = HTTPStatus(status).phrase if status in HTTPStatus._value2member_map_ else "Error"
    wants = conneg.negotiate(["text/html", "application/json", "text/plain"], request.headers.get("accept"))
    if request.url.path.startswith(_api_prefix(request)):
        wants = "application/json"
    if wants == "text/html":
        from .html import page

        ctx = request.app.state.ctx
        return _retry_after(page(ctx, "error.html", status=status, title=f"{status} {reason}",
                                 reason=reason, message=message, suggestions=suggestions), exc)
    if wants == "application/json":
        return _retry_after(JSONResponse({"error": {"status": status, "message": message}}, status_code=status), exc)
    return _retry_after(PlainTextResponse(message + "\n", status_code=status), exc)


def _api_prefix(request: Request) -> str:
    return "/api/"


async def handle(request: Request, exc: Exception) -> Response:
    return error_response(request, exc)


def _retry_after(response: Response, exc: Exception) -> Response:
    """A 503 that knows when to come back (kb.web.killable.Unavailable) says so."""
    retry = getattr(exc, "retry_after", None)
    if retry:
        response.headers["Retry-After"] = str(retry)
    return response

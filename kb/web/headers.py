"""The headers a public site sends on every response (an ASGI middleware).

- ``Content-Security-Policy``: scripts, styles, images, fonts and connections
  from this server only; no inline script (the query editor's configuration is
  a ``<script type="application/json">`` data block, which is not executed, and
  its scripts are files under ``/static/``); inline ``style`` attributes are
  allowed (YASGUI sets them); no plugins, no framing, forms post here only.
- ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: strict-origin-when-cross-origin``,
  ``X-Frame-Options: DENY`` (for browsers without ``frame-ancestors``).

A header the application already set is left as it is.
"""

from __future__ import annotations

CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
       "frame-ancestors 'none'")
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"strict-origin-when-cross-origin"),
    (b"x-frame-options", b"DENY"),
]


class SecurityHeaders:
    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def with_headers(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers += [(name, value) for name, value in HEADERS if name not in present]
                message = {**message, "headers": headers}
            await send(message)

        return await self.app(scope, receive, with_headers)

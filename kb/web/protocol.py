"""The HTTP protocol ``rulekb serve`` runs: the guarded httptools protocol (:mod:`.guard`), made cheaper per response.

Two savings, each measured on a point lookup (``rulekb bench serve --scenario "sparql point"``):

- A response the app can give at once is written at once. When the app (under
  uvicorn's ProxyHeadersMiddleware only: a response cache in front keeps the
  normal way) has an ``answer_now(scope)`` -- :class:`kb.web.sparql_fast.FastLookups`'
  bounded lookups, through :class:`kb.web.app._App` -- the protocol asks it as
  soon as a request's head is read; an answer is written then, in one write,
  with no ASGI task, no middleware and no ``send`` messages (they cost more
  than the lookup). A request it does not answer (None) goes the ASGI way.
  Such answers are not in uvicorn's access log (``rulekb serve`` turns it off).
- Every other response's head is held and sent with its body's first part, in
  one write (:class:`_HeadWithBody`): one loopback ``send`` less per response.
"""

from __future__ import annotations

from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware
from uvicorn.protocols.http.httptools_impl import STATUS_LINE

from .guard import GuardedHttpTools

_OK = STATUS_LINE[200]


class ServerProtocol(GuardedHttpTools):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        app = self.app.app if isinstance(self.app, ProxyHeadersMiddleware) else self.app
        self._answer_now = getattr(app, "answer_now", None)

    def on_headers_complete(self) -> None:
        previous = self.cycle
        super().on_headers_complete()
        cycle = self.cycle
        if cycle is not previous and not cycle.response_complete:  # a new request the app answers
            cycle.transport = _HeadWithBody(self.transport, cycle)

    def _start_asgi_task(self, cycle, app) -> None:
        # app is self.app unless uvicorn answers for itself (a 503 past limit_concurrency)
        # (and while the client does not read its answers, the ASGI way waits for it: backpressure)
        if self._answer_now is not None and app is self.app and not self.flow.write_paused:
            answer = self._answer_now(cycle.scope)
            if answer is not None:
                self._write_now(cycle, *answer)
                return
        super()._start_asgi_task(cycle, app)

    def _write_now(self, cycle, head: bytes, body: bytes) -> None:
        """The response, as uvicorn's cycle would write it (its default headers: Date), and its end."""
        cycle.response_started = cycle.response_complete = True
        parts = [_OK]
        for name, value in cycle.default_headers:
            parts += (name, b": ", value, b"\r\n")
        parts += (head, b"content-length: %d\r\n" % len(body))
        if not cycle.keep_alive:
            parts.append(b"connection: close\r\n")
        parts += (b"\r\n", body)
        self.transport.write(b"".join(parts))
        if not cycle.keep_alive:
            self.transport.close()
        cycle.on_response()


class _HeadWithBody:
    """The transport as a response sees it: the head (the first write once the response has
    started: not a ``100 Continue``) is held and sent with the first body write, so a small
    answer goes out in one ``send`` call, not two. Every body message of a response to
    anything but HEAD writes (uvicorn writes ``b""`` for an empty one), so the head is never
    left behind; a HEAD's head is not held; a close sends what is held first."""

    __slots__ = ("_transport", "_cycle", "_held", "_first")

    def __init__(self, transport, cycle):
        self._transport, self._cycle, self._held = transport, cycle, b""
        self._first = cycle.scope["method"] != "HEAD"  # a HEAD's body message writes nothing

    def write(self, data: bytes) -> None:
        if self._first and self._cycle.response_started:
            self._first, self._held = False, data
            return
        if self._held:
            data, self._held = self._held + data, b""
        self._transport.write(data)

    def close(self) -> None:
        if self._held:
            self._transport.write(self._held)
            self._held = b""
        self._transport.close()

    def __getattr__(self, name):  # is_closing, get_extra_info...
        return getattr(self._transport, name)

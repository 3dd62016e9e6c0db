"""The HTTP protocol of ``rulekb serve``: uvicorn's httptools protocol, with limits.

uvicorn's httptools parser reads a request head of any size (a 32 MB header is
held in memory) and waits for it, and for a declared body, as long as the
client likes (200 connections sending a byte a second stay open). This
subclass adds, per connection:

- ``MAX_HEAD`` bytes of request line and headers: past it, 431 and close;
  ``MAX_HEADERS`` header fields: past it, 431.
- ``HEAD_TIMEOUT`` seconds to send the whole head once a request begins (the
  connection's first byte, or the first after a response): then 408 and close.
- ``BODY_TIMEOUT`` seconds to send the body a request declares, once its head
  is read: then the connection is closed (the handler sees a disconnect).
- ``MAX_CONNECTIONS`` open connections per server process: the next ones get a
  503 and are closed at once (uvicorn's ``limit_concurrency`` only answers
  after a whole head is read).

The limits are class attributes: :func:`guarded` makes a subclass with others
(the tests use short timeouts). ``rulekb serve`` passes the class to uvicorn as
its ``http`` protocol.
"""

from __future__ import annotations

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

_REASONS = {408: b"Request Timeout", 431: b"Request Header Fields Too Large", 503: b"Service Unavailable"}


class GuardedHttpTools(HttpToolsProtocol):
    MAX_HEAD = 64 * 1024  # bytes of request line + headers
    MAX_HEADERS = 100  # header fields
    HEAD_TIMEOUT = 10.0  # seconds to send the head
    BODY_TIMEOUT = 30.0  # seconds to send the declared body
    MAX_CONNECTIONS = 1024  # open connections per server process

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._in_head = True
        self._head_bytes = 0
        self._header_count = 0
        self._timer = None
        self._refused = False

    # -- the connection cap -------------------------------------------------------------

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        if len(self.connections) > self.MAX_CONNECTIONS:
            self._refuse(503, "too many open connections: try again later")
        else:  # a connection that sends nothing is not kept either
            self._timer = self.loop.call_later(self.HEAD_TIMEOUT, self._head_too_slow)

    def connection_lost(self, exc) -> None:
        self._cancel_timer()
        super().connection_lost(exc)

    # -- the head: size, count, time -------------------------------------------------------

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return
        if self._in_head:
            if self._timer is None:
                self._timer = self.loop.call_later(self.HEAD_TIMEOUT, self._head_too_slow)
            self._head_bytes += len(data)
        super().data_received(data)
        if self._in_head and self._head_bytes > self.MAX_HEAD and not self._refused:
            self._refuse(431, f"the request head is over {self.MAX_HEAD} bytes")

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._in_head, self._header_count = True, 0

    def on_header(self, name: bytes, value: bytes) -> None:
        self._header_count += 1
        if self._header_count > self.MAX_HEADERS:
            if not self._refused:
                self._refuse(431, f"more than {self.MAX_HEADERS} header fields")
            return
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        if self._refused:
            return
        self._in_head = False
        self._cancel_timer()
        self._head_bytes = 0
        super().on_headers_complete()
        if self.cycle is not None and self.cycle.more_body and self._expects_body():
            self._timer = self.loop.call_later(self.BODY_TIMEOUT, self._body_too_slow)

    def on_body(self, body: bytes) -> None:
        if not self._refused:
            super().on_body(body)

    def on_message_complete(self) -> None:
        self._cancel_timer()
        if not self._refused:
            super().on_message_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._in_head, self._head_bytes = True, 0  # the next request's head, on a kept-alive connection

    # -- helpers ------------------------------------------------------------------------------

    def _expects_body(self) -> bool:
        for name, value in self.headers:
            if name.lower() == b"content-length":
                return value.strip() not in (b"0", b"")
            if name.lower() == b"transfer-encoding":
                return True
        return False

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _head_too_slow(self) -> None:
        self._timer = None
        if self._in_head and not self._refused:
            self._refuse(408, f"the request head was not sent within {self.HEAD_TIMEOUT:g} s")

    def _body_too_slow(self) -> None:
        self._timer = None
        if self.cycle is not None and self.cycle.more_body and not self._refused:
            self._refused = True
            self.logger.warning("closed a connection whose body did not come within %g s", self.BODY_TIMEOUT)
            self.transport.close()

    def _refuse(self, status: int, message: str) -> None:
        """Answer ``status`` with one line, and close: nothing more is read from this connection."""
        self._refused = True
        self._cancel_timer()
        body = (message + "\n").encode()
        head = (b"HTTP/1.1 %d %s\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: %d\r\n"
                b"connection: close\r\n\r\n" % (status, _REASONS[status], len(body)))
        if not self.transport.is_closing():
            self.transport.write(head + body)
            self.transport.close()


def guarded(**limits) -> type[GuardedHttpTools]:
    """A subclass with other limits: ``guarded(HEAD_TIMEOUT=1.0, MAX_CONNECTIONS=50)``."""
    unknown = set(limits) - {"MAX_HEAD", "MAX_HEADERS", "HEAD_TIMEOUT", "BODY_TIMEOUT", "MAX_CONNECTIONS"}
    if unknown:
        raise TypeError(f"unknown limits: {', '.join(sorted(unknown))}")
    return type("GuardedHttpTools", (GuardedHttpTools,), dict(limits))

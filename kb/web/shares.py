"""A bounded share of the query workers per client.

The endpoint evaluates at most ``workers`` queries at once (the killable
worker processes); without shares, one client sending four runaway queries
would hold all of them until the deadline while everyone else waits. Each
client (by its address: behind a reverse proxy, every client has the proxy's)
holds at most ``share`` slots at once; its further requests wait for its own
slots -- and give up with a 503 after the deadline -- never for the others'.
"""

from __future__ import annotations

from contextlib import asynccontextmanager

import anyio

from .sparql_check import ProtocolError


def default_share(workers: int) -> int:
    """Half the workers (at least one): a client can never hold them all when there are two or more."""
    return max(1, workers // 2)


class ClientShares:
    def __init__(self, share: int):
        self.share = max(1, share)
        self._limiters: dict[str, anyio.CapacityLimiter] = {}
        self._users: dict[str, int] = {}

    def busy(self, client: str) -> int:
        limiter = self._limiters.get(client)
        return int(limiter.borrowed_tokens) if limiter else 0

    @asynccontextmanager
    async def slot(self, client: str | None, timeout: float):
        """One of ``client``'s slots for the body of the ``async with``; a 503 when
        none frees within ``timeout`` seconds."""
        key = client or "?"
        limiter = self._limiters.get(key)
        if limiter is None:
            limiter = self._limiters[key] = anyio.CapacityLimiter(self.share)
        self._users[key] = self._users.get(key, 0) + 1
        try:
            try:
                with anyio.fail_after(timeout):
                    await limiter.acquire()
            except TimeoutError:
                raise ProtocolError(503, f"this client already has {self.share} queries running; "
                                         f"none finished within {timeout:g} s") from None
            try:
                yield
            finally:
                limiter.release()
        finally:
            self._users[key] -= 1
            if not self._users[key]:  # nobody holds or waits: forget the client
                del self._users[key]
                del self._limiters[key]

"""What every handler of the web endpoint needs: the store, the base IRI, the limits.

IRIs the KB mints live under one base (kb.rdf.iris); the server answers for them at
the same paths under its own root. ``href`` turns an IRI into the link a page
prints: a root-relative path under the base's path (``/rulekb/edition/...`` for
a base ``https://example.org/rulekb/``), so pages work on any host and port and
behind a reverse proxy that strips the prefix; IRIs outside the base stay as
they are.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from urllib.parse import quote, urlsplit

from ..rdf.iris import Minter, base_iri
from ..service import Store


@dataclass
class Limits:
    max_body: int = 1_000_000  # bytes of a request body
    max_rows: int = 10_000  # rows of a SELECT, triples of a CONSTRUCT
    timeout: float = 30.0  # seconds per query
    workers: int = 4  # queries evaluated at once
    per_client: int = 0  # of them one client may hold at once (0: half, kb.web.shares.default_share)


@dataclass
class WebContext:
    store: Store  # kb.store.embedded.EmbeddedStore or kb.store.remote.RemoteStore
    base: str  # the KB's base IRI, ending in "/"
    limits: Limits = field(default_factory=Limits)

    @classmethod
    def create(cls, store, base: str | None = None, limits: Limits | None = None) -> "WebContext":
        return cls(store=store, base=base_iri(base), limits=limits or Limits())

    @property
    def mint(self) -> Minter:
        return Minter(self.base)

    @property
    def root(self) -> str:
        """The path the base IRI has: "/" or "/rulekb/"."""
        return _root(self.base)

    def iri(self, path: str) -> str:
        """The IRI a request path (relative to the server's root) names."""
        return self.base + path.lstrip("/")

    def href(self, iri_or_path: str) -> str:
        """A link for a page: an IRI under the base as a root-relative path; a
        path of the server ("sparql", "/api/...") under the base's path."""
        if iri_or_path.startswith(self.base):
            rest = iri_or_path[len(self.base):]
        elif "://" in iri_or_path:
            return iri_or_path
        else:
            rest = iri_or_path.lstrip("/")
        return self.root + _quoted(rest)


_SAFE = "/?&=.,:;~-_#%+"
QUOTED_KEPT, QUOTED_LONGEST = 65536, 128  # paths kept per process, and the longest kept: about 30 MB at most


def _quoted(rest: str) -> str:
    """A path as a link prints it (a page prints dozens: the same IRIs again and again); kept
    when short (the KB's IRIs are), so what is kept stays bounded in bytes whatever a request
    makes a page print."""
    return _quoted_kept(rest) if len(rest) <= QUOTED_LONGEST else quote(rest, safe=_SAFE)


@lru_cache(maxsize=QUOTED_KEPT)
def _quoted_kept(rest: str) -> str:
    return quote(rest, safe=_SAFE)


@lru_cache(maxsize=64)
def _root(base: str) -> str:
    path = urlsplit(base).path or "/"
    return path if path.endswith("/") else path + "/"

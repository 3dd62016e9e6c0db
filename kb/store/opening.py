"""Opening a store by its location: an embedded store for a directory, a remote one for a URL.

Apart from both implementations so that neither imports the other.
"""

from __future__ import annotations

from pathlib import Path

from .kind import Store, default_location


def open_store(location: str | None = None) -> Store:
    """An embedded store for a directory, a remote one for an http(s) URL."""
    location = location or default_location()
    if location.startswith(("http://", "https://")):
        from .remote import RemoteStore

        return RemoteStore(location)
    from .embedded import EmbeddedStore

    return EmbeddedStore(Path(location))

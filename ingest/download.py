"""One HTTP(S) GET of a rules text, with the reason when it fails (offline, refused, too large).

The network layer under :mod:`.fetch` (known editions, the download cache) and
:mod:`.parse` (a URL given as a source): it imports neither, so they do not import
each other.
"""

from __future__ import annotations

import socket
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

from .errors import FetchError

USER_AGENT = "rulekb/0.1 (+https://github.com/rulekb)"
TIMEOUT_SECONDS = 30
MAX_DOWNLOAD_BYTES = 64 * 1024 * 1024


def download(url: str, timeout: float = TIMEOUT_SECONDS) -> tuple[bytes, str]:
    """GET a URL; return (bytes, url). Raise FetchError with the reason."""
    if not url.startswith(("http://", "https://")):
        raise FetchError(f"only http(s) URLs can be fetched: {url!r}")
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    with failures_said(url, timeout):
        with urllib.request.urlopen(request, timeout=timeout) as response:
            data = response.read(MAX_DOWNLOAD_BYTES + 1)
    if len(data) > MAX_DOWNLOAD_BYTES:
        raise FetchError(f"download larger than {MAX_DOWNLOAD_BYTES} bytes: refused", source=url)
    return data, url


@contextmanager
def failures_said(url: str, timeout: float = TIMEOUT_SECONDS) -> Iterator[None]:
    """A GET's failures (HTTP status, no host, no connection, timeout, a broken transfer) as one
    :class:`FetchError` each, saying why; a FetchError raised inside goes through as it is."""
    try:
        yield
    except FetchError:
        raise
    except urllib.error.HTTPError as exc:
        raise FetchError(f"HTTP {exc.code} {exc.reason}", source=url) from None
    except urllib.error.URLError as exc:
        reason = exc.reason
        if isinstance(reason, socket.gaierror):
            raise FetchError(f"cannot resolve the host (offline?): {reason.strerror}", source=url) from None
        raise FetchError(f"cannot connect (offline or unreachable): {reason}", source=url) from None
    except (TimeoutError, socket.timeout):
        raise FetchError(f"timed out after {timeout:g} s", source=url) from None
    except OSError as exc:
        raise FetchError(f"download failed: {exc}", source=url) from None

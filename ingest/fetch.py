"""Download official rules texts by URL into a local cache.

Wizards publishes each edition as ``MagicCompRules YYYYMMDD.txt`` (also PDF and
DOCX); :data:`known_editions.tsv` lists the URLs we know. Downloads are written
atomically (a temporary file renamed into place), checked to be a rules text
before they are kept, and never half-written. Offline, the error says so.
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from .download import MAX_DOWNLOAD_BYTES, TIMEOUT_SECONDS, USER_AGENT, download  # noqa: F401  (the network layer)
from .errors import FetchError, IngestError
from .layouts.common import source_name


@dataclass(frozen=True, slots=True)
class KnownEdition:
    date: str
    url: str
    note: str


def known_editions() -> list[KnownEdition]:
    text = resources.files("rulekb.ingest").joinpath("known_editions.tsv").read_text(encoding="utf-8")
    out = []
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            date, url, note = (line.split("\t") + ["", ""])[:3]
            out.append(KnownEdition(date, url, note))
    return out


def cache_dir(override: Path | str | None = None) -> Path:
    if override:
        return Path(override)
    env = os.environ.get("RULEKB_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "rulekb" / "downloads"


def resolve(target: str, mirror: str | None = None) -> str:
    """A URL as given, or the known URL of an edition date (optionally on a mirror)."""
    if target.startswith(("http://", "https://")):
        return target
    date = target.removeprefix("en/")
    for known in known_editions():
        if known.date == date:
            if mirror:
                base = urlsplit(mirror)
                path = base.path.rstrip("/") + urlsplit(known.url).path
                return urlunsplit((base.scheme, base.netloc, path, "", ""))
            return known.url
    if re.fullmatch(r"\d{4}-\d\d-\d\d", date):
        raise FetchError(f"no known download URL for edition {date}; pass the URL itself (rulekb fetch --list shows the known ones)")
    raise FetchError(f"not an edition date (YYYY-MM-DD) or an http(s) URL: {target!r}")


def cached_name(url: str) -> str:
    name = source_name(url) or "download"
    return re.sub(r"[^A-Za-z0-9._ -]", "_", name)


def fetch_to_cache(url: str, cache: Path | str | None = None, force: bool = False) -> tuple[Path, bool]:
    """Download into the cache unless already there; return (path, downloaded?).

    The download is parsed before it is kept: an HTML error page or a truncated
    body never lands in the cache under a rules file name.
    """
    from .parse import parse_bytes  # fetch -> parse; parse reaches the network through .download only

    directory = cache_dir(cache)
    target = directory / cached_name(url)
    if target.exists() and not force:
        return target, False
    data, _ = download(url)
    try:
        parse_bytes(data, url)
    except IngestError as exc:
        raise FetchError(f"downloaded, but not a rules text: {exc.message}", source=url) from None
    write_whole(target, data)
    return target, True


def write_whole(target: Path, data: bytes) -> None:
    """``data`` into ``target`` (its folder made), renamed into place whole: a reader of the
    download cache never sees half a file."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".part-")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# ---------------------------------------------------------------- is there a newer edition?

RULES_PAGE = "https://magic.wizards.com/en/rules"  # where Wizards lists the current rules texts
_HREF = re.compile(r"""href\s*=\s*["']([^"']+)["']""", re.IGNORECASE)
_LISTED = re.compile(r"MagicCompRules[^/]*?(?<!\d)(\d{4})(\d\d)(\d\d)(?!\d)[^/]*\.(?:txt|pdf|docx)$", re.IGNORECASE)


def rules_page() -> str:
    """The page listing the official texts: ``RULEKB_RULES_PAGE``, else Wizards' rules page."""
    return os.environ.get("RULEKB_RULES_PAGE") or RULES_PAGE


def listed_editions(page: str | None = None, timeout: float = TIMEOUT_SECONDS) -> list[tuple[str, str]]:
    """(date, absolute URL) of every rules text the page links to (``MagicCompRules
    YYYYMMDD.txt``, .pdf or .docx), newest first, the .txt preferred for a date."""
    from html import unescape
    from urllib.parse import unquote, urljoin

    page = page or rules_page()
    data, _ = download(page, timeout=timeout)
    text = data.decode("utf-8", "replace")
    found: dict[str, str] = {}
    for href in _HREF.findall(text):
        href = unescape(href)
        match = _LISTED.search(unquote(urlsplit(href).path))
        if not match:
            continue
        year, month, day = match.groups()
        date = f"{year}-{month}-{day}"
        url = urljoin(page, href.replace(" ", "%20"))
        if date not in found or url.lower().endswith(".txt"):
            found[date] = url
    if not found:
        raise FetchError("the page lists no rules text (MagicCompRules YYYYMMDD.txt/.pdf/.docx)", source=page)
    return sorted(found.items(), reverse=True)


def check_newer(known_dates: list[str], page: str | None = None) -> dict:
    """Does the page list an edition newer than every date in ``known_dates`` (the KB's
    English editions)? The listed date is the file's (``MagicCompRules 20260116.txt``),
    which is the edition id rulekb gives it."""
    listed = listed_editions(page)
    newest_date, newest_url = listed[0]
    kb_newest = max(known_dates) if known_dates else None
    newer = [(d, u) for d, u in listed if (kb_newest is None or d > kb_newest) and d not in known_dates]
    return {
        "page": page or rules_page(),
        "listed_newest": {"date": newest_date, "url": newest_url},
        "kb_newest": kb_newest,
        "newer": [{"date": d, "url": u} for d, u in newer],
        "up_to_date": not newer,
    }

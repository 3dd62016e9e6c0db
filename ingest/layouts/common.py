"""Helpers every layout parser shares: naming an edition by its dates."""

from __future__ import annotations

import posixpath
from urllib.parse import unquote, urlsplit

from .. import dates
from ..model import Edition


def source_name(location: str) -> str:
    """The last path segment of a file path or URL (query strings ignored)."""
    path = urlsplit(location).path if "://" in location else location
    return posixpath.basename(unquote(path).replace("\\", "/"))


def name_edition(edition: Edition, stated: str | None) -> None:
    """Set ``effective_date`` and ``id``.

    The text's own statement ("effective as of ...") is the effective date. The
    edition is *named* by the date in its source's file name when there is one
    (``CR-2009-07-08.txt``, ``MagicCompRules 20260116.txt``): archives and
    Wizards name files by publication date, which can differ from the stated
    date by days (and one archive copy is an older text under a newer name).
    Any disagreement is a warning, never silent.
    """
    named = dates.from_name(source_name(edition.source.location)) if edition.source else None
    edition.effective_date = stated or named
    if stated and named and stated != named:
        edition.warn(
            "date-mismatch",
            f"the text states it is effective as of {stated}; the source is named for {named}, "
            f"which names the edition",
        )
    elif named and not stated:
        edition.warn("no-date", f"no effective date in the text; took {named} from the source name")
    date = named or stated
    edition.id = f"{edition.language}/{date}" if date else ""

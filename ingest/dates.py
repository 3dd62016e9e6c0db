"""Dates as the rules texts state them, in English and French, to ISO 8601."""

from __future__ import annotations

import datetime as _dt
import re

EN_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        "january february march april may june july august september october november december".split()
    )
}
FR_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        "janvier février mars avril mai juin juillet août septembre octobre novembre décembre".split()
    )
}
FR_MONTHS.update({"fevrier": 2, "aout": 8, "decembre": 12})

_EN_PHRASE = re.compile(
    r"(?:effective|current)\s+as\s+of\s+(\w+)\s+(\d{1,2}),?\s+(\d{4})", re.IGNORECASE
)
# "Ces règles entrent en vigueur au 1er février 2010", "sont datées du 1 er Mai 2006"
_FR_PHRASE = re.compile(
    r"(?:en\s+vigueur\s+(?:au|le|à\s+partir\s+du)|datées\s+du)\s+(\d{1,2})\s*(?:er)?\s+(\w+)\s+(\d{4})",
    re.IGNORECASE,
)
# "COMPREHENSIVE RULES      04/23/99" (1999 header, US order)
_US_SHORT = re.compile(r"^\s*COMPREHENSIVE RULES\s+(\d\d)/(\d\d)/(\d\d)\s*$")
# "le lundi 14 avril 2008", "le Vendredi 27 Février 2004 à 15:13"
_FR_BYLINE = re.compile(
    r"\ble\s+(?:lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche)\s+(\d{1,2})\s*(?:er)?\s+(\w+)\s+(\d{4})",
    re.IGNORECASE,
)


def iso(year: int, month: int, day: int) -> str | None:
    try:
        return _dt.date(year, month, day).isoformat()
    except ValueError:
        return None


def english_effective_date(text: str) -> str | None:
    m = _EN_PHRASE.search(text)
    if m and m.group(1).lower() in EN_MONTHS:
        return iso(int(m.group(3)), EN_MONTHS[m.group(1).lower()], int(m.group(2)))
    for line in text.splitlines()[:10]:
        m = _US_SHORT.match(line)
        if m:
            return iso(1900 + int(m.group(3)) if int(m.group(3)) > 50 else 2000 + int(m.group(3)),
                       int(m.group(1)), int(m.group(2)))
    return None


def french_effective_date(text: str) -> str | None:
    m = _FR_PHRASE.search(text)
    if m and m.group(2).lower() in FR_MONTHS:
        return iso(int(m.group(3)), FR_MONTHS[m.group(2).lower()], int(m.group(1)))
    return None


def french_byline_date(text: str) -> str | None:
    m = _FR_BYLINE.search(text)
    if m and m.group(2).lower() in FR_MONTHS:
        return iso(int(m.group(3)), FR_MONTHS[m.group(2).lower()], int(m.group(1)))
    return None


def dmy(text: str) -> str | None:
    """``30/09/2011`` -> ``2011-09-30``."""
    m = re.fullmatch(r"\s*(\d{1,2})/(\d{1,2})/(\d{4})\s*", text)
    return iso(int(m.group(3)), int(m.group(2)), int(m.group(1))) if m else None


def from_name(name: str) -> str | None:
    """A date in a file name: ``CR-2011-09-30.txt``, ``MagicCompRules 20260116.txt``."""
    m = re.search(r"((?:19|20)\d\d)-?([01]\d)-?([0-3]\d)", name)
    return iso(int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else None

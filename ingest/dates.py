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


# "Posté le 20/08/2015 par Pleykorn", "Envoyé le 3/4/2005"
_FR_POSTED_NUMERIC = re.compile(
    r"\b(?:Posté|Publié|Envoyé|[ÉE]crit|Mis\s+en\s+ligne)\b[^\n]{0,60}?\ble\s+(\d{1,2})/(\d{1,2})/(\d{4})\b",
    re.IGNORECASE,
)
# phpBB/forumactif post header: "MessageSujet: Règles officielles du troll   13.07.13 13:18"
_FORUM_POST_STAMP = re.compile(
    r"\bMessage\s*Sujet\s*:[^\n]*?\b(\d{1,2})\.(\d{1,2})\.(\d{2}|\d{4})\s+\d{1,2}:\d{2}\b",
    re.IGNORECASE,
)
# a page's date stamp on a line of its own: "Lexique 09/11/2008", "Mis à jour le 02/03/2009"
_STAMP_LINE = re.compile(
    r"^[ \t]*(?:Lexique|Article|Publié(?:\s+le)?|Posté(?:\s+le)?|Mise?\s+à\s+jour(?:\s+le)?)[ \t]*:?[ \t]+"
    r"(\d{1,2})/(\d{1,2})/(\d{4})[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)


def _year(text: str) -> int:
    """Two-digit years in forum stamps: 13 -> 2013, 99 -> 1999."""
    year = int(text)
    if len(text) == 2:
        year += 2000 if year < 70 else 1900
    return year


def french_byline_date(text: str) -> str | None:
    """The publication date a French page states for itself (never a rules date).

    Reads bylines ("Ecrit par X le lundi 14 avril 2008", "Envoyé par X le
    Vendredi 27 Février 2004 à 15:13", "Posté le 20/08/2015 par X"), forum post
    stamps ("MessageSujet: … 13.07.13 13:18") and date-stamp lines ("Lexique
    09/11/2008"). Dates without a year ("Jeu 8 Mar - 12:18") are not dates here.
    Registration dates ("Date d'inscription", "Inscrit le") are not matched.
    """
    found = [(m.start(), d) for m, d in _byline_matches(text) if d]
    return min(found)[1] if found else None


def _byline_matches(text: str):
    for m in _FR_BYLINE.finditer(text):
        month = FR_MONTHS.get(m.group(2).lower())
        yield m, iso(int(m.group(3)), month, int(m.group(1))) if month else None
    for pattern in (_FR_POSTED_NUMERIC, _FORUM_POST_STAMP, _STAMP_LINE):
        for m in pattern.finditer(text):
            yield m, iso(_year(m.group(3)), int(m.group(2)), int(m.group(1)))


def stated_rules_date(text: str, language: str = "fr") -> str | None:
    """The date a text states for the rules themselves ("Ces règles entrent en
    vigueur au …", "effective as of …"), the given language's phrase first."""
    finders = (french_effective_date, english_effective_date)
    if language != "fr":
        finders = finders[::-1]
    for find in finders:
        found = find(text)
        if found:
            return found
    return None


def dmy(text: str) -> str | None:
    """``30/09/2011`` -> ``2011-09-30``."""
    m = re.fullmatch(r"\s*(\d{1,2})/(\d{1,2})/(\d{4})\s*", text)
    return iso(int(m.group(3)), int(m.group(2)), int(m.group(1))) if m else None


def from_name(name: str) -> str | None:
    """A date in a file name: ``CR-2011-09-30.txt``, ``MagicCompRules 20260116.txt``."""
    m = re.search(r"((?:19|20)\d\d)-?([01]\d)-?([0-3]\d)", name)
    return iso(int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else None

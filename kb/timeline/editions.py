"""One resolver for every way of naming an edition: its id, an alias, or a date.

Forms (``resolve``), each also given as ``--as-of DATE`` beside a language or nothing:

- ``en/2010-02-01``: that edition (any id the KB has, partial ones included);
- ``en/latest``, ``fr/latest``, ``latest`` (English), a bare ``en``: the newest edition;
- ``en@2010-03-15``, a bare ``2010-03-15`` (English): the edition in force on that date.

**In force on a date** = the newest edition of the language whose *effective* date (the date
the text states, ``rk:effectiveDate``) is on or before it. The editions are taken in the order
the build chains them (effective date, then id), which settles both awkward cases of the
corpus:

- editions stated a few days off their file date (19 English ones: ``CR-2009-07-08.txt``
  states 2009-07-11, ``CR-2024-08-02.txt`` 2024-07-30...) count from the date they state;
- two editions stating the same date (en/2009-07-08 and en/2009-07-11 both state 2009-07-11;
  ``CR-2006-06-01.txt``, an archive copy of the 2004-06-01 text, states 2004-06-01): the later
  of the two in that order is in force from that date -- the later publication of a date
  replaces the earlier -- and the earlier is never in force by date (its id still names it).

Only complete editions answer a date or ``latest`` for a language that has any (an excerpt,
some site pages or a truncated copy is not "the rules" of its day); a language with none
(French, in this corpus) is answered from its dated partial texts. Undated texts never are.
A date before a language's first edition or after today, a malformed date, a language without
editions: a :class:`~kb.errors.KBError` naming the nearest editions.
"""

from __future__ import annotations

import datetime as dt
import re
from bisect import bisect_right
from dataclasses import dataclass

from ..errors import KBError, NotFound

DEFAULT_LANGUAGE = "en"
_ISO = re.compile(r"\d{4}-\d{2}-\d{2}")
_LANGUAGE = re.compile(r"[a-z]{2}")


def names_by_alias(value: str) -> bool:
    """An alias or a date (``en/latest``, ``latest``, ``en``, ``en@2010-03-15``, ``2010-03-15``),
    not an id: what a caller holding only ids resolves first (:meth:`Timeline.resolve`)."""
    value = value.strip()
    return ("@" in value or value == "latest" or value.endswith("/latest")
            or _LANGUAGE.fullmatch(value) is not None or _ISO.fullmatch(value) is not None)


class BadDate(KBError):
    """A date that is not one (400)."""


class FutureDate(NotFound):
    """A date after today (404: no edition is in force yet)."""


@dataclass(frozen=True)
class Known:
    """An edition as the resolver needs it."""

    id: str
    language: str
    effective_date: str | None
    partial: bool = False


@dataclass(frozen=True)
class Resolution:
    """Which edition answered a name, and why."""

    edition: str
    language: str
    effective_date: str | None
    asked: str  # the name as given
    how: str  # "id", "latest" or "date"
    date: str | None = None  # the date asked (how == "date")
    superseded_by: str | None = None  # the next edition in force after this one
    superseded_on: str | None = None  # its effective date
    previous: str | None = None  # the edition in force before this one
    current: bool = False  # the newest edition of its language (nothing supersedes it)

    @property
    def reason(self) -> str:
        """"in force on 2010-03-15: en/2010-02-01, effective 2010-02-01, superseded by en/2010-06-18"."""
        lead = {"date": f"in force on {self.date}", "latest": f"{self.language}/latest",
                "id": "edition"}[self.how]
        text = f"{lead}: {self.edition}, effective {self.effective_date or 'undated'}"
        stated = _file_date(self.edition)
        if stated and self.effective_date and stated != self.effective_date:
            text += f" (the text states {self.effective_date}; its file is dated {stated})"
        if self.superseded_by:
            text += f", superseded by {self.superseded_by}"
            if self.superseded_on and self.superseded_on != _file_date(self.superseded_by):
                text += f" (effective {self.superseded_on})"
        elif self.current:
            text += f", the newest {self.language} edition"
        return text

    def to_dict(self) -> dict:
        return {"edition": self.edition, "language": self.language, "effective_date": self.effective_date,
                "asked": self.asked, "how": self.how, "date": self.date, "superseded_by": self.superseded_by,
                "superseded_on": self.superseded_on, "previous": self.previous, "current": self.current,
                "reason": self.reason}


def _file_date(edition_id: str) -> str | None:
    tail = edition_id.partition("/")[2]
    return tail if _ISO.fullmatch(tail) else None


def parse_date(text: str, today: dt.date | None = None) -> str:
    """``text`` as an ISO date, or :class:`BadDate` saying what is wrong with it."""
    value = (text or "").strip()
    if not _ISO.fullmatch(value):
        raise BadDate(f"{text[:40]!r} is not a date: write it YYYY-MM-DD, e.g. 2010-03-15")
    try:
        day = dt.date.fromisoformat(value)
    except ValueError:
        raise BadDate(f"{value} is not a date of the calendar (YYYY-MM-DD, e.g. 2010-03-15)") from None
    today = today or dt.date.today()
    if day > today:
        raise FutureDate(f"{value} is in the future (today is {today.isoformat()})")
    return value


class Timeline:
    """The editions of a KB, per language, in the order they came into force."""

    def __init__(self, known: list[Known]):
        self.known = {k.id: k for k in known}
        self.languages = sorted({k.language for k in known})
        self.order: dict[str, list[Known]] = {}
        for language in self.languages:
            same = [k for k in known if k.language == language and k.effective_date]
            complete = [k for k in same if not k.partial]
            self.order[language] = sorted(complete or same, key=lambda k: (k.effective_date, k.id))

    @classmethod
    def from_rows(cls, rows: list[dict]) -> "Timeline":
        """From ``edition-graphs`` rows (or ``kb.service.editions`` entries)."""
        seen: dict[str, Known] = {}
        for row in rows:
            partial = row.get("partial")
            seen.setdefault(row["edition"], Known(row["edition"], row["language"], row.get("effective_date"),
                                                  partial is True or partial == "true"))
        return cls(list(seen.values()))

    # -- the forms ---------------------------------------------------------

    def resolve(self, name: str | None, as_of: str | None = None, today: dt.date | None = None,
                language: str | None = None) -> Resolution:
        """The edition ``name`` (and/or ``as_of``) names: see the module's docstring."""
        asked = (name or "").strip()
        if as_of is not None:
            date = self._date(as_of, asked or language or DEFAULT_LANGUAGE, today)
            if asked and asked not in self.languages and not _LANGUAGE.fullmatch(asked):
                if asked in self.known or "/" in asked or "@" in asked:
                    raise BadDate(f"give an edition ({asked}) or --as-of {as_of}, not both "
                                  f"(or a language with --as-of: {asked.split('/')[0].split('@')[0]})")
            return self.in_force(asked or language or DEFAULT_LANGUAGE, date, f"{asked or language or 'en'}@{date}")
        if not asked:
            asked = "latest"
        if asked in self.known:
            return self._explained(self.known[asked], asked, "id")
        if asked == "latest" or _LANGUAGE.fullmatch(asked):
            return self.latest(DEFAULT_LANGUAGE if asked == "latest" else asked, asked)
        lang, slash, rest = asked.partition("/")
        if slash and rest == "latest" and _LANGUAGE.fullmatch(lang):
            return self.latest(lang, asked)
        lang, at, when = asked.partition("@")
        if at and (_LANGUAGE.fullmatch(lang) or not lang):
            return self.in_force(lang or DEFAULT_LANGUAGE, self._date(when, lang or DEFAULT_LANGUAGE, today), asked)
        if _ISO.fullmatch(asked) or re.fullmatch(r"[\d/.-]{6,10}", asked):
            language = language or DEFAULT_LANGUAGE
            return self.in_force(language, self._date(asked, language, today), asked)
        raise NotFound(self._unknown(asked))

    def latest(self, language: str, asked: str) -> Resolution:
        order = self._ordered(language)
        return self._explained(order[-1], asked, "latest")

    def in_force(self, language: str, date: str, asked: str) -> Resolution:
        order = self._ordered(language)
        index = bisect_right([k.effective_date for k in order], date) - 1
        if index < 0:
            first = order[0]
            raise NotFound(f"no {language} edition was in force on {date}: the first, {first.id}, "
                           f"took effect on {first.effective_date}")
        return self._explained(order[index], asked, "date", date)

    # -- helpers -----------------------------------------------------------

    def _date(self, text: str, language: str, today: dt.date | None) -> str:
        try:
            return parse_date(text, today)
        except FutureDate as error:
            order = self.order.get(language) if _LANGUAGE.fullmatch(language) else None
            if order:
                raise FutureDate(f"{error.message}: the newest {language} edition is {order[-1].id}, "
                                 f"effective {order[-1].effective_date} ({language}/latest)") from None
            raise

    def _ordered(self, language: str) -> list[Known]:
        if not _LANGUAGE.fullmatch(language or ""):
            raise NotFound(f"{language!r} is not a language code (the KB has {', '.join(self.languages) or 'none'})")
        order = self.order.get(language)
        if not order:
            raise NotFound(f"no dated {language} edition in the knowledge base "
                           f"(languages: {', '.join(self.languages) or 'none: rulekb build'})")
        return order

    def _explained(self, known: Known, asked: str, how: str, date: str | None = None) -> Resolution:
        order = self.order.get(known.language, [])
        key = (known.effective_date or "", known.id)
        later = [k for k in order if (k.effective_date, k.id) > key]
        earlier = [k for k in order if (k.effective_date, k.id) < key]
        after = later[0] if later else None
        return Resolution(known.id, known.language, known.effective_date, asked, how, date,
                          after.id if after else None, after.effective_date if after else None,
                          earlier[-1].id if earlier else None, after is None and known in order)

    def neighbours(self, edition_id: str) -> list[str]:
        """The ids just before and just after ``edition_id`` (same language, by id)."""
        lang = edition_id.partition("/")[0]
        ids = sorted(k.id for k in self.order.get(lang) or [])
        index = bisect_right(ids, edition_id)
        return ids[max(index - 1, 0): index + 1]

    def _unknown(self, asked: str) -> str:
        lang = asked.partition("/")[0].partition("@")[0]
        if _LANGUAGE.fullmatch(lang) and lang not in self.languages:
            return (f"no edition {asked[:60]!r} in the knowledge base: no {lang} editions in the knowledge base "
                    f"(languages: {', '.join(self.languages) or 'none'})")
        if "/" not in asked and "@" not in asked:
            return (f"{asked[:60]!r} names no edition: give an id (en/2010-02-01), an alias (en/latest) "
                    f"or a date (en@2010-03-15, YYYY-MM-DD)")
        near = self.neighbours(asked) if _LANGUAGE.fullmatch(lang) else []
        hint = f"; nearest: {', '.join(near)}" if near else ""
        when = asked.partition("/")[2]
        alias = f" ({lang}@{when} names the edition in force on that date)" if _ISO.fullmatch(when) else ""
        return f"no edition {asked[:60]!r} in the knowledge base{hint}{alias} (rulekb editions lists them)"

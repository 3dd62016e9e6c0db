"""Rules over time as the front door offers them (re-exported by :mod:`kb.service`): each
function one call into :mod:`.answers` or :mod:`.editions`, imported when first called."""

from __future__ import annotations


def timeline(store):
    """The editions in the order they came into force (:class:`kb.timeline.editions.Timeline`)."""
    from . import answers

    return answers.timeline(store)


def resolve_edition(store, name: str | None, as_of: str | None = None, *, known=None, today=None):
    """An edition named by id, alias (``en/latest``) or date (``en@2010-03-15``, ``as_of``):
    a :class:`kb.timeline.editions.Resolution` (``.edition``, ``.reason``)."""
    from . import answers

    return answers.resolve(store, name, as_of, known=known, today=today)


def names_by_alias(name: str) -> bool:
    """``en/latest``, ``en@2010-03-15``, a bare date...: a name to resolve, not an id."""
    from .editions import names_by_alias as by_alias

    return by_alias(name)


def rule_as_of(store, number: str, date: str, language: str = "en", *, known=None, today=None) -> dict:
    from . import answers

    return answers.rule_as_of(store, number, date, language, known=known, today=today)


def rules_changed_between(store, start: str, end: str, language: str | None = None) -> list[dict]:
    from . import answers

    return answers.rules_changed_between(store, start, end, language)


def rules_changed_page(store, start: str, end: str, language: str | None = None, *, limit: int | None = None,
                       after: str | None = None) -> dict:
    """A page of rules_changed_between, in whole dates, with the window's total and the next page's cursor."""
    from . import answers

    return answers.changes_page(store, start, end, language, limit=limit or answers.PAGE, after=after)


def rule_wordings(store, edition: str, number: str) -> list[dict]:
    from . import answers

    return answers.wordings(store, edition, number)


def rule_in_force(store, resolution, number: str) -> dict:
    """The dates a rule version's wording was in force, what superseded it, its current version."""
    from . import answers

    return answers.in_force(store, resolution, number)

"""Stale French rules: the French translates an older English edition (its base)
and the English rule changed after it.

Why through the English alignment and not the French text: the French keeps the
base edition's numbering and wording, so the change a translator must carry over
is exactly the English base -> target change of the rule it translates.
:func:`kb.align.align` pairs base and target; a French rule is stale when its
base rule's primary successor is ``modified`` in a way a reader sees. Changes of
typography only (quotes, dashes, spacing: ``detail == "typography"``) are not
stale, nor is a rule only renumbered with the same text (the report's
alignment already finds it under its new number), nor one whose only change is
the 2018 gender-neutral pronouns ("his or her" -> "their": French "son" either way)
-- unless a rule it cites was renumbered: the French cites the base's number, and a
translator must be told every such citation (typography masks cited numbers, so a
rule whose quotes changed beside a renumbered citation was skipped).
"""

from __future__ import annotations

from rulekb.ingest.model import Edition
from rulekb.ingest.refs import cited_numbers

NOT_STALE = frozenset({"typography"})


def stale_items(fr: Edition, base: Edition, us: Edition, alignment=None,
                base_of: dict[str, str | None] | None = None) -> list[dict]:
    """One item per French rule whose English counterpart changed after ``base``:
    ``fr_value`` the French text, ``us_value`` the new English text, ``base_value``
    the English text the French translates, ``diff`` the English word diff
    (``[[op, text], ...]``, op in equal/delete/insert), ``detail`` what changed
    (text, terminology, references). ``base_of``: French number -> the base rule it
    translates (from :func:`kb.translate.align_translation`; default: the same number)."""
    if base.id == us.id:
        return []
    from rulekb.kb.align import align
    from rulekb.kb.align.model import MODIFIED
    from rulekb.kb.compare.report import word_diff

    alignment = alignment or align(base, us)
    modified = {p.old: p for p in alignment.pairs if p.kind == MODIFIED and p.old is not None}
    old_rules = {r.number: r for r in base.rules}
    new_rules = {r.number: r for r in us.rules}
    items = []
    for rule in fr.rules:
        number = base_of.get(rule.number) if base_of is not None else rule.number
        pair = modified.get(number)
        if pair is None or pair.new not in new_rules or number not in old_rules:
            continue
        old, new = old_rules[number], new_rules[pair.new]
        old_text, new_text = _full(old), _full(new)
        # a cited rule renumbered between base and target: the French still cites the
        # base's number, whatever else changed ("typography" masks cited numbers)
        renumbered = cited_numbers(old_text) != cited_numbers(new_text)
        if not renumbered and (pair.detail in NOT_STALE or old_text == new_text or _pronouns_only(old_text, new_text)):
            continue
        detail = "references" if renumbered and pair.detail in NOT_STALE else pair.detail or "text"
        items.append({"fr": rule.number, "us": pair.new, "kind": "stale", "base_rule": number,
                      "fr_value": _full(rule), "us_value": new_text, "base_value": old_text,
                      "detail": detail,
                      "diff": [[op, text] for op, text in word_diff(old_text, new_text)]})
    return items


# the 2018 gender-neutral pronouns: nothing for a French text to carry over
_PRONOUNS = (("himself or herself", "themselves"), ("his or her", "their"), ("he or she", "they"),
             ("him or her", "them"))


def _pronouns_only(old: str, new: str) -> bool:
    """The English changed only its pronouns ("his or her" -> "their"), and its
    typography: the French ("son", "sa") has nothing to change. Cited numbers count."""
    from rulekb.kb.align.normalise import plain

    def even(text: str) -> str:
        text = plain(text)
        for before, after in _PRONOUNS:
            text = text.replace(before, after)
        return " ".join(text.split())

    return even(old) == even(new)


def _full(rule) -> str:
    return " ".join([rule.text, *rule.examples]).strip()

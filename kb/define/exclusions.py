"""Exclusion lists: a rule that says what something is *not* by listing it.

"For example, characteristics don't include whether a permanent is tapped, a
spell's target, an object's owner or controller, what an Aura enchants, and so
on." / "Characteristics don't include any other information, such as ..." /
"Par exemple, les caractéristiques n'incluent pas le fait qu'un permanent soit
engagé ou dégagé, la cible d'un sort, ..." -> one ``not-a`` statement per
listed item (``whether-a-permanent-is-tapped`` not-a ``characteristic``), so
that "is whether a permanent is tapped a characteristic?" is answered "no" with
the rule, and the reasoner gets the disjointness (kb.reason.axioms reads not-a).

An item is its words as printed (an article aside); "an object's owner or
controller" and "a spell or permanent's controller" are split into the two
things they name. The subject must be a bare plural noun (a quantified one,
"Some abilities don't include ...", is no definition).
"""

from __future__ import annotations

import re

from ..rdf.concepts import concept_key
from ..define.common import _clean

_EN = re.compile(
    r"^(?:For example, )?(?P<x>[A-Za-z][a-z]+s|[A-Za-z][a-z]+ [a-z]+s) (?:don't|do not) include "
    r"(?:any other information, (?:such as|like) )?(?P<list>.+?)(?:,? (?:and|or) so on|, etc)?\.?$")
_FR = re.compile(
    r"^(?:Par exemple, )?(?:les |des )(?P<x>[a-zà-ÿ]+s(?: [a-zà-ÿ]+s)?) "
    r"(?:n'incluent pas|ne comprennent pas|ne contiennent pas|n'englobent pas) "
    r"(?:d'autres informations, (?:comme|telles que) )?(?P<list>.+?)(?:,? etc\.*)?\.?$", re.IGNORECASE)
_QUANTIFIERS = {"Some", "Most", "All", "Many", "These", "Those", "Other", "Such"}
_EN_ART = re.compile(r"^(?:an?|the) ", re.IGNORECASE)
_FR_ART = re.compile(r"^(?:une?|les?|la|des|l') ?", re.IGNORECASE)


def _items(listed: str, language: str) -> list[str]:
    parts = [p.strip() for p in re.split(r",\s*", listed) if p.strip()]
    if parts:
        parts[-1] = re.sub(r"^(?:and|or|et|ou) ", "", parts[-1])
    out: list[str] = []
    for part in parts:
        part = (_FR_ART if language == "fr" else _EN_ART).sub("", part).strip()
        if language == "en":
            m = re.fullmatch(r"(.+?'s) ([a-z]+) or ([a-z]+)", part)  # an object's owner or controller
            if m:
                out += [f"{m.group(1)} {m.group(2)}", f"{m.group(1)} {m.group(3)}"]
                continue
            m = re.fullmatch(r"([a-z]+) or ([a-z]+)'s ([a-z]+)", part)  # a spell or permanent's controller
            if m:
                out += [f"{m.group(1)}'s {m.group(3)}", f"{m.group(2)}'s {m.group(3)}"]
                continue
        if part and len(part.split()) <= 8:
            out.append(part)
    return out


def read(sentence: str, language: str) -> list[tuple]:
    """(concept, "not-a", value, (), qualifier, language) for each listed item."""
    s = _clean(sentence)
    if language == "fr":
        m = _FR.match(s)
        if not m:
            return []
        from ..define.french import _fr_term, _fr_words

        words = _fr_words(m.group("x"))
        term = _fr_term(words, 0)
        if not term or term[1] != len(words):
            return []
        value = term[0]
    else:
        m = _EN.match(s)
        if not m or m.group("x").split()[0].capitalize() in _QUANTIFIERS:
            return []
        value = concept_key(m.group("x"))
    items = _items(m.group("list"), language)
    if len(items) < 2:  # a list, or nothing we read
        return []
    return [(concept_key(item), "not-a", value, (), "", language) for item in items if concept_key(item) != value]

"""The sets a glossary entry enumerates, as the same statements rules' lists become.

A glossary definition usually leaves its term out: the entry "Object" reads "An
ability on the stack, a card, a copy of a card, a token, a spell, or a permanent.
See rule 109, "Objects."" -- a noun phrase whose subject is the term. Read with its
subject restored ("An object is an ability on the stack, ...") it is the very
sentence rule 109.1 prints, and the English reader of :mod:`kb.define` turns it into
the same ``kinds`` statement (concept ``object``, its members normalised the same
way). Sentences that already have a subject ("There are five basic land types: ...")
are read as they are.

Only closed enumerations are kept (aspects ``kinds`` and ``members``, two members or
more, not narrowed by the words after them nor open) whose concept is the entry's own
term: a glossary entry that names a list in passing
("To move an Aura, Equipment, or Fortification onto another object") enumerates no
set of its term. What is not read (precision before recall):

- a definition that opens with a verb ("To move ..."), a number ("1. Text on an
  object ..."), or a word other than an article: only "A ..."/"An ..." noun phrases
  get their subject back;
- French glossaries: the corpus's French texts have none, and restoring a French
  subject needs the term's gender, which the lexicon does not give.
"""

from __future__ import annotations

import re

from ..rdf.concepts import concept_key
from .splitting import sentences

LISTS = ("kinds", "members")
_NOUN_PHRASE = re.compile(r"^(?:A|An) [a-z]")
_OBSOLETE = re.compile(r"\s*\((?:obsolete|obsolète)\)\s*$", re.IGNORECASE)


def _article(word: str) -> str:
    return "An" if word[:1].lower() in "aeiou" else "A"


def _subjects(term: str) -> list[str]:
    """The term as the subject of a sentence: each name of a comma list ("Control,
    Controller"), in lower case unless it is a proper name in the rules' own casing."""
    label = _OBSOLETE.sub("", term).strip()
    return [part.strip() for part in label.split(",") if part.strip()]


def glossary_statements(term: str, definition: str, language: str) -> list:
    """The enumeration statements (:class:`kb.define.Statement`, aspects kinds/members)
    a glossary entry makes about its own term."""
    from . import extract

    if language != "en" or _OBSOLETE.search(term):
        return []
    said = sentences(definition)
    if not said:
        return []
    names = _subjects(term)
    keys = {concept_key(name) for name in names}
    found = []
    first = said[0].strip()
    if _NOUN_PHRASE.match(first):
        for name in names:
            subject = name if name[:1].isupper() and name[1:2].isupper() else name.lower()
            sentence = f"{_article(subject)} {subject} is {first[0].lower()}{first[1:]}"
            found += [st for st in extract(sentence, language) if st.concept in keys]
    found += [st for st in extract(definition, language) if st.concept in keys]
    out, seen = [], set()
    for st in found:
        key = (st.concept, st.aspect, st.members, st.qualifier)
        if st.aspect in LISTS and len(st.members) >= 2 and _closed(st.qualifier) and key not in seen:
            seen.add(key)
            out.append(st)
    return out


def _closed(qualifier: str) -> bool:
    """A list that says what the set is: not one the words after it narrow ("A cost is an
    action or payment necessary to ...": a cost is one of those, not every one of them),
    nor an open one ("some", "including")."""
    from .common import NARROWED, OPEN_QUALIFIERS

    parts = set(qualifier.split("+")) if qualifier else set()
    return NARROWED not in parts and not parts & OPEN_QUALIFIERS

"""Concept-level changes between two editions, read from their glossaries and checked
against their rules.

- obsolete: the new glossary marks a term "(Obsolete)" the old one did not ("Mana
  Burn", 2009; "Damage Assignment Order", 2024); revived: the reverse ("Cast", 2009);
- removed / added: a term in one glossary only, *and* (as a phrase) used at least twice
  in that edition's rules and at most a fifth as often in the other's -- glossary
  entries come and go with layout and parse accidents (and informal entries the rules
  never use), a concept the rules still use has not disappeared;
- renamed: an obsolete or removed term whose current name (terminology.RENAMES) is the
  added one ("In Play" -> "Battlefield", "Tribal" -> "Kindred"), or a removed term a
  term change rewrote ("Comes into Play" -> "enters the battlefield"), severity "info".

A truncated edition (a parse warning "truncated") says nothing about terms after the
last glossary entry it has.
"""

from __future__ import annotations

import re
from functools import lru_cache

from rulekb.kb.rdf.concepts import concept_key

from .model import Finding, Side
from .terminology import RENAMES

_PLAIN = re.compile(r"[a-z]+(?: [a-z]+)*")
_WORDS = re.compile(r"[a-z0-9]+|[^\sa-z0-9]")  # words, and punctuation that keeps them apart
_OBSOLETE = re.compile(r"\s*\((?:obsolete|obsolète)\)\s*$", re.IGNORECASE)


class Glossary:
    def __init__(self, edition):
        self.edition = edition.id
        self.entries: dict[str, tuple[str, str, bool]] = {}  # key -> (term, definition, obsolete)
        for entry in edition.glossary:
            key = concept_key(entry.term)
            self.entries.setdefault(key, (entry.term, entry.definition, bool(_OBSOLETE.search(entry.term))))
        truncated = any(w.code == "truncated" for w in edition.warnings)
        self.last = max((e.term.lower() for e in edition.glossary), default="") if truncated else None
        self._text = None
        self._words: str | None = None  # the rules' words, one space apart
        self._rules = edition.rules
        self._edition = edition
        self._refs = {concept_key(e.term): list(e.refs) for e in edition.glossary}
        self._index = None

    def covers(self, term: str) -> bool:
        """Does this glossary speak about ``term`` (False past the end of a truncated one)?"""
        return self.last is None or term.lower() <= self.last

    def side(self, key: str) -> Side:
        """The entry's side of a finding: the rule that defines the term (the one its
        entry cites, a cited section resolved; else a rule with a defining sentence
        for it) with that rule's text, and the glossary definition beside it."""
        term, definition, _ = self.entries[key]
        number = self.defining_rule(key)
        if number is None:
            return Side(self.edition, "", definition, None, term)
        return Side(self.edition, number, self._index.rules[number].text, None, term, definition)

    def defining_rule(self, key: str) -> str | None:
        from rulekb.kb.define.defining import SectionIndex, defines, defining_rules, term_forms

        if self._index is None:
            self._index = SectionIndex(self._edition)
        term = self.entries[key][0]
        found = defining_rules(self._index, term, self._refs.get(key, []), self.entries[key][1])
        if found:
            return found[0]
        forms = term_forms(term)
        return next((r.number for r in self._rules if "." in r.number and defines(r.text, forms)), None)

    def count(self, term: str) -> int:
        """How often the term (its first comma part, obsolete mark aside) occurs in the rules."""
        phrase = _OBSOLETE.sub("", term).split(",")[0].strip().lower()
        if len(phrase) < 3:
            return 0
        if _PLAIN.fullmatch(phrase):  # the usual case: a substring count over the words, in C
            if self._words is None:  # two spaces apart, so "absorb absorb" counts twice
                self._words = "  " + "  ".join(filter(None, (_words_of(r.text) for r in self._rules))) + "  "
            phrase = "  ".join(phrase.split())
            return sum(self._words.count(f" {phrase}{ending} ") for ending in ("", "s", "es"))
        if self._text is None:
            self._text = "\n".join(r.text for r in self._rules).lower().replace("’", "'")
        return len(re.findall(r"\b" + re.escape(phrase) + r"(?:s|es)?\b", self._text))


@lru_cache(maxsize=1 << 16)  # a rule text recurs in edition after edition
def _words_of(text: str) -> str:
    """A rule text's words and punctuation (lower case), two spaces apart, as Glossary.count
    reads them: the rules' words are these joined by two spaces."""
    return "  ".join(_WORDS.findall(text.lower().replace("’", "'")))


def compare(old: Glossary, new: Glossary, term_changes=None) -> list[Finding]:
    """``term_changes``: a callable giving the editions' kb.compare.terms changes, asked
    only when a term disappears (a term that changed wording is renamed, not removed)."""
    out: list[Finding] = []
    renamed_to: set[str] = set()
    for key in sorted(old.entries):
        term, _, was_obsolete = old.entries[key]
        target = RENAMES.get(key)
        if key in new.entries:
            now_obsolete = new.entries[key][2]
            if now_obsolete and not was_obsolete:
                if target and target in new.entries and target not in old.entries:
                    renamed_to.add(target)
                    out.append(_renamed(key, target, old, new))
                else:
                    out.append(Finding("concept-obsolete", key, "concept", old.side(key), new.side(key),
                                       f"{new.edition} marks {_plain(term)} obsolete", "medium"))
            elif was_obsolete and not now_obsolete:
                out.append(Finding("concept-revived", key, "concept", old.side(key), new.side(key),
                                   f"{_plain(term)} was obsolete in {old.edition}; {new.edition} uses it again",
                                   "medium"))
            continue
        if was_obsolete or not new.covers(term):
            continue
        if target and target in new.entries and target not in old.entries:
            renamed_to.add(target)
            out.append(_renamed(key, target, old, new))
            continue
        before, after = old.count(term), new.count(term)
        reworded = _reworded(term, term_changes) if before >= 2 and after <= before / 5 else None
        if reworded:
            out.append(Finding("renamed", key, "concept", old.side(key), None,
                               f"{_plain(term)} is now worded {reworded[0]!r} ({reworded[1]})", "info",
                               (key,), ()))
        elif before >= 2 and after <= before / 5:
            out.append(Finding("concept-removed", key, "concept", old.side(key), None,
                               f"{_plain(term)} is gone from the glossary, and the rules use it "
                               f"{after} times instead of {before}", "medium"))
    for key in sorted(new.entries):
        term, _, obsolete = new.entries[key]
        if key in old.entries or key in renamed_to or obsolete or not old.covers(term):
            continue
        before, after = old.count(term), new.count(term)
        if after >= 2 and before <= after / 5:
            out.append(Finding("concept-added", key, "concept", None, new.side(key),
                               f"{_plain(term)} is new: in the glossary, and in the rules {after} times "
                               f"instead of {before}", "info"))
    return out


def _reworded(term: str, term_changes) -> tuple[str, str] | None:
    """The term's new wording when a term change of two words or more rewrote it."""
    if term_changes is None:
        return None
    phrase = " " + " ".join(re.findall(r"[a-z]+", _OBSOLETE.sub("", term).split(",")[0].lower())) + " "
    for change in term_changes():
        old = f" {change.old_term} "
        if phrase == old or (len(change.old_term.split()) >= 2 and old in phrase):
            return (phrase.replace(old, f" {change.new_term} ").strip(),
                    f"{change.old_term!r} -> {change.new_term!r} in {change.rules} rules")
    return None


def _renamed(key: str, target: str, old: Glossary, new: Glossary) -> Finding:
    return Finding("renamed", target, "concept", old.side(key), new.side(target),
                   f"{_plain(old.entries[key][0])} is now called {_plain(new.entries[target][0])}", "info",
                   (key,), (target,))


def _plain(term: str) -> str:
    return '"' + _OBSOLETE.sub("", term) + '"'

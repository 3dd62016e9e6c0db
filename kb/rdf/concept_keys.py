"""A glossary term's concept key, the same in every edition ("Characteristics" ->
"characteristic"), and the crude singular behind it: the words :mod:`.concepts`,
:mod:`kb.define` and :mod:`kb.search` normalise alike. A leaf: it imports nothing of the
project but the IRI slug, so the definition readers can use it without reaching the
concept graph (which itself uses :mod:`kb.define.defining`)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from .iris import slug

_OBSOLETE = re.compile(r"\s*\((?:obsolete|obsolète)\)\s*$", re.IGNORECASE)
_WORD = re.compile(r"[a-zà-ÿ0-9]+(?:['’][a-zà-ÿ]+)?", re.IGNORECASE)
MIN_LABEL = 3  # "X" and "AP" would match everywhere
HEAD_FIRST = frozenset({"fr"})  # languages whose labels name their head first: no match nested in a longer one


# words whose final s is not a plural
_NOT_PLURAL = frozenset({"plains", "status", "dies", "becomes", "monstrous", "poisonous", "ravenous", "ones"})
# ... and whose crude singular is another word: "dies" is the verb, "die" the dice of 706 and 901
# (read as "dies", 25 rules of the 2026 edition mentioned a creature dying)
_NOT_SINGULAR = frozenset({"dies"})


@lru_cache(maxsize=1 << 16)  # a term recurs in every edition's glossary (62,000 entries, a few thousand terms)
def concept_key(term: str) -> str:
    """The concept a glossary term names, the same in every edition: case,
    "(Obsolete)", accents, apostrophes and a plural last word aside
    ("Characteristics" -> "characteristic", "Turn Markers" -> "turn-marker")."""
    key = slug(_OBSOLETE.sub("", term))
    head, _, last = key.rpartition("-")
    if last not in _NOT_PLURAL and not last.endswith(("ss", "us", "is", "as", "os")):
        singular = _norm(last)
        key = f"{head}-{singular}" if head else singular
    return key


def label_keys(term: str) -> list[str]:
    """The keys a term answers to: its own, and each part of a comma list
    ("Control, Controller" also answers to "control" and "controller")."""
    parts = [p for p in re.split(r",\s*", _OBSOLETE.sub("", term)) if p.strip()]
    return list(dict.fromkeys([concept_key(term)] + ([concept_key(p) for p in parts] if len(parts) > 1 else [])))


@lru_cache(maxsize=1 << 16)  # (3.5 million calls in a build's definitions, over a few thousand words)
def _norm(word: str) -> str:
    """Lower case, and a crude singular: "abilities" -> "ability", "cards" -> "card"."""
    w = word.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    if w in _NOT_SINGULAR:
        return w
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
        return w[:-1]
    return w


# a French elided article or pronoun before a word: "l'exil", "d'endurance", "qu'un" (the word
# pattern keeps an apostrophe inside a word, for English "player's" and "don't")
_CLITIC = re.compile(r"^(?:l|d|qu|s|n|j|m|t|c|jusqu|lorsqu|puisqu|quoiqu)['’](?=[a-zà-ÿ])", re.IGNORECASE)


def words(text: str) -> list[str]:
    """A text's words as labels are matched: lower case, crude singular, French elisions off."""
    return [_norm(_CLITIC.sub("", w)) for w in _WORD.findall(text)]


class LabelIndex:
    """Concept labels as word n-grams, and the walk that finds them in a text: at each
    word, the longest label starting there wins. The build's matcher
    (:class:`kb.rdf.concepts.Matcher`, each rule's ``rk:mentions``) and search's
    (:class:`kb.search.understand.LabelMatcher`, a question's concepts) are this one."""

    def __init__(self, labels: Iterable[tuple[str, str]], lang: str = "en"):  # (concept key, label), first key wins
        # ``nested``: whether a word inside a longer label's match starts a match of its own. In English
        # the words after a label's first are its head ("activated ability" is an ability); in French
        # its complement ("champ de bataille", the battlefield, is no battle): French labels are not nested
        self.nested = lang not in HEAD_FIRST
        self.index: dict[tuple[str, ...], str] = {}
        # first word -> the label lengths starting with it, longest first: most
        # words start no label and cost one dictionary lookup
        self.starts: dict[str, list[int]] = {}
        for key, label in labels:
            found = tuple(words(label))
            if found and len(" ".join(found)) >= MIN_LABEL:
                self.index.setdefault(found, key)
                self.starts.setdefault(found[0], []).append(len(found))
        for lengths in self.starts.values():
            lengths.sort(reverse=True)

    def mentions(self, text: str) -> frozenset[str]:
        """The concept keys whose labels ``text`` holds."""
        said = words(text)
        found = set()
        after = 0  # (not nested) the first word past the last match
        for i, word in enumerate(said):
            if i < after:
                continue
            for n in self.starts.get(word, ()):
                key = self.index.get(tuple(said[i : i + n]))
                if key:
                    found.add(key)
                    if not self.nested:
                        after = i + n
                    break
        return frozenset(found)

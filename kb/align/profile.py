"""One edition, prepared for aligning: structure at once, tokens when needed.

Aligning a run of editions uses each edition twice (as the newer side, then as
the older), so whatever is derived from an edition's text is kept here and
reused. Rules are addressed by their index in ``edition.rules``.

Tokens are computed lazily: in an ordinary update nearly every rule is paired
by identical number and text, and never needs tokenising. Token weights (IDF)
come from a fixed stride sample of each edition's rules (about 500), so they do
not depend on which rules happen to be left over, and cost the same for every
edition.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from rulekb.ingest import refs
from rulekb.ingest.model import Edition

from .normalise import tokens, tokens_many

SAMPLE = 500  # rules per edition the token statistics are taken from


def content(rule) -> str:
    """What a rule says: its text and its examples (a changed example is a change)."""
    if rule.examples:
        return rule.text + "\n" + "\n".join(rule.examples)
    return rule.text


@dataclass(slots=True)
class Profile:
    edition: Edition
    numbers: list[str]
    texts: list[str]  # content(rule), raw
    index: dict[str, int]  # number -> rule index
    parent: list[int | None]  # index of the parent rule (None for a section's rules)
    section: list[str]
    glossary: dict[str, list[str]]  # term key -> the numbers its entry cites
    _tokens: list[list[str] | None] = field(default_factory=list)
    _sets: dict[int, frozenset] = field(default_factory=dict)
    _cites: dict[int, list[str]] = field(default_factory=dict)
    _df: Counter | None = None
    _sampled: int = 0

    @property
    def id(self) -> str:
        return self.edition.id

    def __len__(self) -> int:
        return len(self.numbers)

    def prepare(self, indices) -> None:
        """Tokenise these rules now, in one batch (faster than one by one)."""
        todo = [i for i in indices if self._tokens[i] is None]
        if todo:
            for i, toks in zip(todo, tokens_many([self.texts[i] for i in todo])):
                self._tokens[i] = toks

    def tokens(self, i: int) -> list[str]:
        found = self._tokens[i]
        if found is None:
            found = self._tokens[i] = tokens(self.texts[i])
        return found

    def key(self, i: int) -> str:
        """The tokens joined: equal keys = equal text up to terms, typography and cited numbers."""
        return " ".join(self.tokens(i))

    def tokenset(self, i: int) -> frozenset:
        found = self._sets.get(i)
        if found is None:
            found = self._sets[i] = frozenset(self.tokens(i))
        return found

    def cites(self, i: int) -> list[str]:
        """The rule and section numbers rule ``i`` cites (ingest.refs, ranges expanded)."""
        found = self._cites.get(i)
        if found is None:
            found = self._cites[i] = refs.cited_numbers(self.texts[i])
        return found

    @property
    def df(self) -> Counter:
        """In how many of the sampled rules each token occurs."""
        if self._df is None:
            step = max(1, len(self) // SAMPLE)
            sample = range(0, len(self), step)
            self.prepare(sample)
            self._df = Counter()
            for i in sample:
                self._df.update(self.tokenset(i))
            self._sampled = len(sample)
        return self._df

    @property
    def sampled(self) -> int:
        self.df
        return self._sampled

    def children(self, i: int) -> list[int]:
        """The subrules of rule ``i`` (111.2 -> 111.2a, 111.2b ...)."""
        found = []
        k = i + 1
        while k < len(self.numbers) and self.parent[k] == i:
            found.append(k)
            k += 1
        return found

    def prev(self, i: int) -> int | None:
        return i - 1 if i > 0 else None

    def next(self, i: int) -> int | None:
        return i + 1 if i + 1 < len(self.numbers) else None


def term_key(term: str) -> str:
    """A glossary term, comparable across the 2009 renaming ("In Play" ~ "Battlefield")."""
    return " ".join(tokens(term))


def build(edition: Edition) -> Profile:
    rules = edition.rules
    numbers = [r.number for r in rules]
    index: dict[str, int] = {}
    for i, number in enumerate(numbers):
        index.setdefault(number, i)
    parent = []
    for rule in rules:
        p = rule.parent
        parent.append(index.get(p) if p and "." in p else None)
    glossary: dict[str, list[str]] = {}
    for entry in edition.glossary:
        if entry.refs:
            glossary.setdefault(term_key(entry.term), list(entry.refs))
    return Profile(
        edition=edition, numbers=numbers, texts=[content(r) for r in rules], index=index,
        parent=parent, section=[n[:3] for n in numbers], glossary=glossary, _tokens=[None] * len(rules),
    )


def idf_table(old: Profile, new: Profile) -> dict[str, float]:
    """Inverse document frequency over both editions' sampled rules: rare words (a
    keyword's name, "horsemanship") weigh much more than "the", "creature", "_bf".
    Tokens outside the samples get the weight of a token seen once."""
    n = old.sampled + new.sampled + 1
    a, b = old.df, new.df
    table = {token: math.log(n / (a.get(token, 0) + b.get(token, 0) + 0.5)) for token in a.keys() | b.keys()}
    table[""] = math.log(n / 1.5)  # the default, see Scorer
    return table

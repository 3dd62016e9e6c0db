"""How a question's words meet the card names (:mod:`kb.cards.recognise`) in a search.

- :class:`Common`: the words that are the rules' or the questions' before they are a card's
  name when alone (a concept's label, a question word, a stop word, a word the rules' text
  uses in lower case);
- :func:`in_rules`: whether the rules' text uses a word in lower case;
- :func:`as_what_they_are`: the question as the dense arm reads it, each card named by what
  it is;
- :func:`quoted_kinds`: card text the question quotes ("how do the \"when you do\" abilities
  work?", 'it says "enters tapped"'), read as a card's Oracle text is: the kinds of ability it
  has, as the KB's concepts.
"""

from __future__ import annotations

import re
from functools import cached_property

from . import analysis
from .rank import term
from .understand import QUOTED

WORD_SAMPLE = 200  # rule texts read to see whether the rules use a word in lower case
_SEEN_MAX = 50_000  # words whose answer a searcher keeps (a server's questions bring new words forever)
_DETERMINERS = {"a", "an", "the", "my", "your", "his", "her", "its", "our", "their", "this", "that", "each", "another"}
_WORD = re.compile(r"(?<![\w'’-])\w+")


class Common:
    """Folded words and labels of the concepts, question words, every stop word of the analyzers,
    and any one word the rules' text uses in lower case."""

    def __init__(self, concepts: dict, in_rules=None):
        self._concepts = concepts
        self._in_rules = in_rules  # word -> whether the rules' text uses it (one-word names only)
        self._seen: dict[str, bool] = {}  # its answers: each reads up to WORD_SAMPLE rule texts

    @cached_property
    def words(self) -> frozenset[str]:
        from ..cards.names import norm
        from .understand import QUESTION_WORDS

        words = {norm(w) for lang_words in QUESTION_WORDS.values() for w in lang_words}
        for row in self._concepts.values():
            for labels in row["labels"].values():
                for label in labels:
                    folded = norm(label)
                    words.update(folded.split())
                    words.add(folded)  # a whole label too: "two headed giant" is the rules' phrase
        return frozenset(words)

    @cached_property
    def players_words(self) -> frozenset[str]:
        """Players' shorthand (:mod:`.shorthand`: "blink", "tutor", "fizzle"), folded: in lower case
        it is the verb, not the card of that name ("if I blink my creature" is no Blink)."""
        from ..cards.names import norm
        from .shorthand import SHORTHAND

        return frozenset(norm(form) for table in SHORTHAND.values() for group in table for form in group)

    def written_lower(self, word: str) -> bool:
        """Whether the rules' text writes this one word in lower case ("chance", "last"); a
        creature type ("spider", "giant") it writes only capitalised. Unknown without the rules: True."""
        if self._in_rules is None or not word or " " in word:
            return True
        return self._rules_write_lower(word)

    def __contains__(self, word) -> bool:
        if word in self.words or (bool(word) and not analysis.terms(word, "en")):
            return True
        if not word or " " in word or self._in_rules is None:
            return False
        return self._rules_write_lower(word)

    def _rules_write_lower(self, word: str) -> bool:
        """``in_rules(word)``, remembered (each answer reads up to WORD_SAMPLE rule texts)."""
        if word not in self._seen:
            if len(self._seen) > _SEEN_MAX:
                self._seen.clear()
            self._seen[word] = self._in_rules(word)
        return self._seen[word]


def in_rules(searcher, schema, word: str) -> bool:
    """Whether a word is one the rules' text uses as a word, in lower case ("wind" in "the wind
    step", "winds" in "it winds itself", "flash" in "has flash"): then, alone, it is no card.
    A word the rules write only capitalised is a name there too ("Grapeshot", "Clone", "Serra
    Angel" in an example), or a creature type ("Angel", "Spider"): it does not stop a card's name."""
    for lang in analysis.LANGS:
        for t in analysis.terms(word, lang):
            if searcher.doc_freq(f"text_{lang}", t) == 0:
                continue
            found = searcher.search(term(schema, f"text_{lang}", t), limit=WORD_SAMPLE, count=False).hits
            for _, addr in found:
                text = searcher.doc(addr).get_first(f"text_{lang}") or ""
                if any(w[0].islower() and analysis.word_term(w, lang) == t for w in _WORD.findall(text)):
                    return True
    return False


def as_what_they_are(question: str, spans: list, concepts: dict, lang: str) -> str:
    """The question with each card's name replaced by its card types ("I bolt Grizzly Bears"
    -> "I bolt the creature"), for the dense arm: a sentence model knows nothing of a card's
    name, and reads the sentence better with what the card is (measured on the tuning part of
    the English scenario questions, then of the French ones: :mod:`.engine`). In French, by the
    French labels and with no article."""
    out, pos = [], 0
    for (start, end), kinds in spans:
        labels = [(concepts.get(k, {}).get("labels", {}).get(lang) or [k])[0].lower() for k in kinds]
        before = question[pos:start]
        said = " ".join(labels or ["card"])
        last = before.split()[-1] if before.split() else ""
        article = ""  # (a French article agrees with a gender the labels do not give: none added)
        if lang == "en":
            if last.lower() in ("a", "an"):  # "so an Insectile Aberration" -> "so a creature", not "an creature"
                indefinite = "an" if said[:1] in "aeiou" else "a"
                before = (before[:before.rstrip().rfind(last)]
                          + (indefinite.capitalize() if last[0].isupper() else indefinite) + " ")
            article = "" if last.lower() in _DETERMINERS else "the "
        out += [before, article + said]
        pos = end
    out.append(question[pos:])
    return " ".join("".join(out).split())


_NOT_KINDS = {"static", "spell"}  # what any sentence would be: no evidence


def quoted_kinds(question: str, lang: str) -> dict[str, float]:
    """concept -> weight: the kinds of ability (:data:`kb.cards.link.SHAPES`: triggered, replacement,
    an intervening "if", a reflexive trigger ...) of the card text ``question`` quotes, weighed as a
    named card's shapes are (:data:`kb.cards.recognise.WEIGHTS`); English only (the card linker
    reads English Oracle text)."""
    from ..cards.link import SHAPES, ability_shapes
    from ..cards.recognise import WEIGHTS

    if lang != "en":
        return {}
    out: dict[str, float] = {}
    for m in QUOTED.finditer(question):
        quote = next(g for g in m.groups() if g).strip()
        for shape in ability_shapes("", quote[:1].upper() + quote[1:], set()):
            if shape not in _NOT_KINDS:
                out.setdefault(SHAPES[shape], WEIGHTS["shape"])
    return out

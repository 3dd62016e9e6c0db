"""How text becomes terms, in English and in French: the same analyzers index
the rules and read the queries.

- words are runs of letters and digits (``\\w+``): punctuation, French quotes
  « », apostrophes (straight or curly) and dashes separate them, so "702.19b"
  is "702" "19b" (rule numbers are matched by :mod:`.understand`, not here);
- lower case, then stop words (tantivy's lists) and the clitics an apostrophe
  leaves behind: French elision ``l'`` ``d'`` ``qu'`` ``j'`` ``n'`` ``s'``
  ``c'`` ``jusqu'`` ``lorsqu'`` ..., English ``'s`` ``n't`` ``'ll``;
- Snowball stemming (English, French) on the accented word, then accent
  folding, so "créatures", "creature" and "Créature" are one term.
"""

from __future__ import annotations

import re
from functools import lru_cache

import tantivy

LANGS = ("en", "fr")
LANGUAGE_NAMES = {"en": "English", "fr": "French"}  # as a page or a terminal names them
STEMMER = {"en": "english", "fr": "french"}
CLITICS = {
    "en": ["s", "t", "d", "ll", "re", "ve", "m"],
    "fr": ["jusqu", "lorsqu", "puisqu", "quoiqu", "presqu", "quelqu"],
}
WORD = re.compile(r"\w+")


def analyzer(lang: str) -> tantivy.TextAnalyzer:
    return (tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.regex(r"\w+"))
            .filter(tantivy.Filter.lowercase())
            .filter(tantivy.Filter.stopword(STEMMER[lang]))
            .filter(tantivy.Filter.custom_stopword(CLITICS[lang]))
            .filter(tantivy.Filter.stemmer(STEMMER[lang]))
            .filter(tantivy.Filter.ascii_fold())
            .build())


def register(index: tantivy.Index) -> None:
    """The analyzers by name (``text_en``, ``text_fr``): tantivy keeps only the names in the index."""
    for lang in LANGS:
        index.register_tokenizer(f"text_{lang}", analyzer(lang))


@lru_cache(maxsize=2)
def _analyzer(lang: str) -> tantivy.TextAnalyzer:
    return analyzer(lang)


def terms(text: str, lang: str) -> list[str]:
    """The terms of ``text`` as the index holds them (stop words gone, stemmed, folded)."""
    return _analyzer(lang).analyze(text)


@lru_cache(maxsize=50_000)
def word_term(word: str, lang: str) -> str | None:
    """The term one word becomes (None for a stop word): how snippets mark words."""
    found = _analyzer(lang).analyze(word)
    return found[0] if found else None


def language_of(text: str) -> str | None:
    """The language a question is written in, by its function words: the words that are stop
    words in one language and not in the other ("est", "que", "le" / "the", "does", "it"). None
    when neither has two more than the other has (a short or mixed question)."""
    words = [w.lower() for w in WORD.findall(text)]
    only = {lang: sum(1 for w in words if not terms(w, lang) and all(terms(w, other) for other in LANGS if other != lang))
            for lang in LANGS}
    best = max(LANGS, key=lambda lang: only[lang])
    rest = max((only[lang] for lang in LANGS if lang != best), default=0)
    return best if only[best] >= 2 and only[best] > rest else None

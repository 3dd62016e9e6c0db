"""Language-independent evidence that a French rule and an English rule say
the same thing, without machine translation.

Why these signals: a translator rewrites every word, but keeps (or should keep)
the rules a rule cites, the numbers and quantities it states, the card names of
its examples, its number of sentences and examples, and the game concepts it
mentions. Each is extracted per rule into :class:`Features` (cached by the
caller) and compared by :func:`score`, which gives 0..1 per pair.

Traps handled: French "un/une" is also the article "a", so one/un/une are not
counted as numbers; older French says "blessures" where newer says "dégâts";
rule citations are digits too, so they are removed before numbers are read;
titles quoted after a citation are translated, so they are not names.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from rulekb.ingest import refs

_WORDS = {
    "en": {"two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
           "eight": "8", "nine": "9", "ten": "10", "twenty": "20", "thirty": "30",
           "forty": "40", "fifty": "50", "zero": "0", "twice": "2", "both": "both",
           "first": "1th", "second": "2th", "third": "3th", "fourth": "4th", "fifth": "5th",
           "sixth": "6th", "seventh": "7th", "eighth": "8th", "ninth": "9th", "tenth": "10th"},
    "fr": {"deux": "2", "trois": "3", "quatre": "4", "cinq": "5", "six": "6", "sept": "7",
           "huit": "8", "neuf": "9", "dix": "10", "vingt": "20", "trente": "30",
           "quarante": "40", "cinquante": "50", "zéro": "0", "premier": "1th",
           "première": "1th", "premiers": "1th", "premières": "1th", "deuxième": "2th",
           "second": "2th", "seconde": "2th", "troisième": "3th", "quatrième": "4th",
           "cinquième": "5th", "sixième": "6th", "septième": "7th", "huitième": "8th",
           "neuvième": "9th", "dixième": "10th", "plusieurs": "2"},
}
# Core terms the ontology's labels may not carry (older French words included).
CORE_TERMS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "player": (("player",), ("joueur",)),
    "card": (("card",), ("carte",)),
    "spell": (("spell",), ("sort",)),
    "token": (("token",), ("jeton",)),
    "library": (("library",), ("bibliothèque",)),
    "graveyard": (("graveyard",), ("cimetière",)),
    "battlefield": (("battlefield",), ("champ de bataille",)),
    "in-play": (("in play",), ("en jeu",)),
    "hand": (("hand",), ("main",)),
    "stack": (("stack",), ("pile",)),
    "exile": (("exile", "exiled"), ("exil", "exilé", "exilée")),
    "removed-from-game": (("removed from the game",), ("retiré de la partie", "retirée de la partie")),
    "controller": (("controller",), ("contrôleur",)),
    "owner": (("owner",), ("propriétaire",)),
    "ability": (("ability", "abilities"), ("capacité",)),
    "creature": (("creature",), ("créature",)),
    "land": (("land",), ("terrain",)),
    "sorcery": (("sorcery", "sorceries"), ("rituel",)),
    "instant": (("instant",), ("éphémère",)),
    "enchantment": (("enchantment",), ("enchantement",)),
    "artifact": (("artifact",), ("artefact",)),
    "planeswalker": (("planeswalker",), ("arpenteur",)),
    "mana": (("mana",), ("mana",)),
    "damage": (("damage",), ("dégâts", "dégât", "blessure")),
    "counter": (("counter",), ("marqueur",)),
    "permanent": (("permanent",), ("permanent",)),
    "opponent": (("opponent",), ("adversaire",)),
    "turn": (("turn",), ("tour",)),
    "game": (("game",), ("partie",)),
    "copy": (("copy", "copies"), ("copie",)),
    "effect": (("effect",), ("effet",)),
    "target": (("target",), ("cible",)),
    "zone": (("zone",), ("zone",)),
    "deck": (("deck",), ("paquet", "bibliothèque")),
}
# French renderings that are true alternatives for one English term (the key of
# CORE_TERMS), each rendering with its labels; the terminology check of the
# report compares only these. Older French texts say "blessures" for damage,
# newer ones "dégâts". "en jeu" is not here: it renders "in play", another term.
ALTERNATIVE_RENDERINGS: dict[str, dict[str, tuple[str, ...]]] = {
    "damage": {"dégâts": ("dégâts", "dégât"), "blessures": ("blessure",)},
}
_ABBREV = re.compile(r"\b(?:cf|e\.g|i\.e|etc|p\. ex|ex|St|Mr|vs)\.", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?…](?:[)»\"”’']*)(?=\s+[«\"“(]?[A-ZÀ-ÖØ-Þ0-9])|[.!?…][)»\"”’']*\s*$")
_CAP = r"[A-ZÀ-ÖØ-Þ][\w'’-]*"
_NAME_RUN = re.compile(rf"{_CAP}(?:\s+(?:(?:of|the|de|du|des|la|le)\s+)?{_CAP})*")
_LEAD = frozenset("a an the each if when as le la les l un une si chaque quand lorsqu example exemple "
                  "see cf voir in dans this ce cette it il elle".split())
_QUOTE = re.compile(r"[«“\"]\s*([^«»“”\"]{1,60}?)\s*[»”\"]")
_NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.]\d)")
_WORD = re.compile(r"[a-zà-ÿ]+", re.IGNORECASE)
_MANA = re.compile(r"\{[^{}]{1,6}\}")
_ORDINAL = re.compile(r"(?<![\w.])(\d+)(?:ème|eme|ère|er|e|th|st|nd|rd)\b", re.IGNORECASE)
# "’" closes a quotation, unless a letter precedes it: French elision ("en provenance d’")
_TERMINAL = re.compile(r"(?:[.!?…:;)»\"”]|(?<![^\W\d_])’)\s*$")


@dataclass(frozen=True, slots=True)
class Features:
    refs: frozenset[str]
    numbers: frozenset[str]
    names: frozenset[str]
    terms: frozenset[str]
    sentences: int
    examples: int
    length: int
    complete: bool  # ends like a sentence (an excerpt page may cut the last rule)
    all_sentences: int = 0  # text and examples
    full_length: int = 0
    number_tokens: tuple[str, ...] = ()  # every number, once per occurrence


def _fold(text: str) -> str:
    return unicodedata.normalize("NFC", text).replace("’", "'")


def strip_citations(text: str) -> str:
    """The text without its rule citations (and a quoted title right after one)."""
    out, pos = [], 0
    for citation in refs.find(text):
        out.append(text[pos:citation.start])
        pos = citation.end
        title = re.match(r"\s*,?\s*[«“\"][^«»“”\"]{0,80}[»”\"]", text[pos:])
        if title:
            pos += title.end()
        out.append(" ")
    out.append(text[pos:])
    return "".join(out)


def count_sentences(text: str) -> int:
    text = _ABBREV.sub("ABBR", _fold(text).strip())
    return max(1, len(_SENTENCE_END.findall(text))) if text else 0


def numbers_in(text: str, language: str) -> frozenset[str]:
    """Digits and number words of ``text`` (citations removed): see :func:`number_tokens`."""
    return frozenset(number_tokens(text, language))


def number_tokens(text: str, language: str) -> tuple[str, ...]:
    """Every digit and number word of ``text``, once per occurrence (citations
    removed). Not counted: mana symbols ("{2}{W}": a French copy often loses them
    with their images). "two or more" is 2 and so is French "plusieurs" (several).
    Digits with an ordinal ending ("8ème", "8th") are ordinals, "8th" like "eighth"
    (every ordinal is written N + "th", so the languages meet)."""
    plain = re.sub(r"\b(?:first|double) strike\b", " ", _fold(strip_citations(text)), flags=re.I)
    plain = _MANA.sub(" ", plain)
    found = [m.group(1) + "th" for m in _ORDINAL.finditer(plain)]
    plain = _ORDINAL.sub(" ", plain)
    found += [m.group(0) for m in _NUMBER.finditer(plain)]
    if language == "fr":  # "les deux" is "both" and "deux points" a colon, not the quantity two
        plain = re.sub(r"\bdeux[- ]points\b", " ", plain, flags=re.I)
        plain = re.sub(r"\b(?:tou(?:te)?s\s+)?les\s+deux\b", " both ", plain, flags=re.I)
        found += ["both"] * plain.count(" both ")
    table = _WORDS.get(language, {})
    for word in _WORD.findall(plain.lower()):
        if word in table:
            found.append(table[word])
    return tuple(sorted(found))


def names_in(text: str) -> frozenset[str]:
    """Capitalised names not at a sentence start, multi-word names anywhere, and
    quoted title-case names not following a citation."""
    plain = re.sub(r"[_*]", "", _fold(strip_citations(text)))
    found: set[str] = set()
    for m in _NAME_RUN.finditer(plain):
        before = plain[:m.start()].rstrip()
        at_start = not before or before[-1] in ".!?:;»\"”(" or before.endswith(("Example", "Exemple"))
        runs, current = [], []
        for word in m.group(0).split():  # "Ana's Sprocket" is two names
            current.append(re.sub(r"'s$", "", word))
            if word.endswith("'s"):
                runs.append(current)
                current = []
        runs.append(current)
        for i, words in enumerate(r for r in runs if r):
            whole = len(words)
            while words and words[0].lower().strip("'") in _LEAD:
                words.pop(0)
            if not words or (i == 0 and at_start and whole == 1):
                continue
            found.add(" ".join(words))
    for m in _QUOTE.finditer(plain):
        content = m.group(1).strip(" .,")
        if content and all(w[:1].isupper() or w.lower() in ("of", "the", "de", "du", "des", "la", "le")
                           for w in content.split()):
            found.add(content)
    return frozenset(found)


@lru_cache(maxsize=1)
def term_table() -> dict[str, tuple[list[re.Pattern], list[re.Pattern]]]:
    """Concept key -> (English patterns, French patterns), from the ontology's
    bilingual labels plus :data:`CORE_TERMS`."""
    def pattern(label: str) -> re.Pattern:
        return re.compile(r"(?<![\w])" + re.escape(label) + r"(?:s|x|es)?(?![\w])", re.IGNORECASE)

    return {k: ([pattern(x) for x in en], [pattern(x) for x in fr]) for k, (en, fr) in _term_labels().items()}


@lru_cache(maxsize=1)
def _term_labels() -> dict[str, tuple[set[str], set[str]]]:
    table: dict[str, tuple[set[str], set[str]]] = {}
    for key, (en, fr) in CORE_TERMS.items():
        table.setdefault(key, (set(), set()))
        table[key][0].update(en)
        table[key][1].update(fr)
    try:
        from rulekb.kb.rdf.lexicon import ontology_labels
        for key, info in ontology_labels().items():
            if info.get("fr") and key not in table:
                table[key] = ({key.replace("-", " ")}, {_fold(x).lower() for x in info["fr"]})
    except Exception:  # the ontology is optional evidence
        pass
    return table


@lru_cache(maxsize=1)
def _term_index() -> tuple[dict, ...]:
    """Per side: first word of a label -> the keys with such a label (a single-word
    label also under its plural forms). A label can only match a text holding its
    first word, so only those keys' patterns are tried (300 labels per rule made
    base detection spend seconds in regex searches)."""
    index: tuple[dict, dict] = ({}, {})
    for key, (en, fr) in _term_labels().items():
        for side, labels in ((0, en), (1, fr)):
            for label in labels:
                words = _TOKEN.findall(label.lower())
                if not words:
                    continue
                forms = [words[0]] + ([words[0] + s for s in ("s", "x", "es")] if len(words) == 1 else [])
                for form in forms:
                    index[side].setdefault(form, set()).add(key)
    return index


_TOKEN = re.compile(r"\w+")


def terms_in(text: str, language: str) -> frozenset[str]:
    side = 0 if language == "en" else 1
    plain = _fold(text)
    index, table = _term_index()[side], term_table()
    keys = set().union(*(index.get(w, ()) for w in set(_TOKEN.findall(plain.lower()))))
    return frozenset(key for key in keys if any(p.search(plain) for p in table[key][side]))


def features(text: str, examples: list[str] | tuple[str, ...], language: str) -> Features:
    """The evidence of one rule; cached by content (most rules repeat unchanged
    across editions)."""
    return _features(text, tuple(examples), language)


@lru_cache(maxsize=65536)
def _features(text: str, examples: tuple[str, ...], language: str) -> Features:
    full = " ".join([text, *examples])
    return Features(
        refs=frozenset(refs.cited_numbers(full)),
        numbers=frozenset(tokens := number_tokens(full, language)),
        number_tokens=tokens,
        names=names_in(full),
        terms=terms_in(full, language),
        sentences=count_sentences(text),
        examples=len(examples),
        length=len(text),
        # an unclosed parenthesis ("(Voir règle 410." ending a quotation) is a cut too
        complete=bool(_TERMINAL.search(full)) and full.count("(") <= full.count(")"),
        all_sentences=count_sentences(text) + sum(count_sentences(x) for x in examples),
        full_length=len(full),
    )


def _jaccard(a: frozenset, b: frozenset) -> float | None:
    if not a and not b:
        return None
    return len(a & b) / len(a | b)


def score(fr: Features, en: Features) -> float:
    """0..1: how well the evidence of a French rule agrees with an English one.
    Signals both sides lack are left out rather than counted as agreement, except
    shape (sentences, examples, length), which every rule has."""
    parts: list[tuple[float, float]] = []  # (weight, agreement)
    for weight, value in ((3.0, _jaccard(fr.refs, en.refs)), (2.0, _jaccard(fr.numbers, en.numbers)),
                          (2.0, _jaccard(fr.terms, en.terms))):
        if value is not None:
            parts.append((weight, value))
    if fr.names and en.names:
        parts.append((1.0, len(fr.names & en.names) / len(fr.names | en.names)))
    parts.append((1.0, 1.0 if fr.examples == en.examples else 0.0))
    if fr.complete:
        top = max(fr.sentences, en.sentences, 1)
        parts.append((1.0, 1.0 - abs(fr.sentences - en.sentences) / top))
    ratio = fr.length / max(en.length, 1)
    if fr.complete or ratio < 1.0:
        parts.append((1.5, 1.0 if 0.8 <= ratio <= 1.7 else max(0.0, 1.0 - min(abs(ratio - 1.2), 1.0))))
    total = sum(w for w, _ in parts)
    return sum(w * v for w, v in parts) / total if total else 0.0


def _label_pattern(label: str) -> re.Pattern:
    return re.compile(r"(?<![\w])" + re.escape(label) + r"(?:s|x|es)?(?![\w])", re.IGNORECASE)


@lru_cache(maxsize=1)
def _rendering_patterns() -> dict[str, dict[str, list[re.Pattern]]]:
    return {key: {name: [_label_pattern(x) for x in labels] for name, labels in renderings.items()}
            for key, renderings in ALTERNATIVE_RENDERINGS.items()}


def renderings_in(text: str) -> dict[str, frozenset[str]]:
    """Term key -> the alternative French renderings (:data:`ALTERNATIVE_RENDERINGS`)
    that ``text`` uses; terms with none are left out."""
    plain = _fold(text)
    found = {}
    for key, renderings in _rendering_patterns().items():
        used = frozenset(name for name, pats in renderings.items() if any(p.search(plain) for p in pats))
        if used:
            found[key] = used
    return found

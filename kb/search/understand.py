"""Reading a question with what the KB knows, before any ranking.

- **Rule numbers** ("702.19b", "rule 613", "CR 601.2h", "règle 510.1c", a
  query that is only "613"): the rule (or the section) itself.
- **Concepts**: the glossary's terms, keyword abilities and actions, and the
  ontology's French labels, found in the question by the build's own label
  matcher (:class:`kb.rdf.concepts.Matcher`: word n-grams, plurals folded); each
  brings its defining rules and the rules that mention it (:mod:`.rank`).
- **Historical names** across eras, both ways ("in play" / "battlefield",
  "removed from the game" / "exile", "played" / "cast", "converted mana cost" /
  "mana value", "tribal" / "kindred"...): the other era's words join the query
  (weighed less) and the other era's concept joins the concepts
  (:data:`kb.compare.terminology.RENAMES`).
- **Question words** ("can I", "what happens if", "how does ... work",
  "est-ce que", "qu'est-ce qui se passe") are not evidence: they are dropped
  before BM25 (unless nothing else is left).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from rulekb.ingest import numbers as rule_numbers

from ..rdf.concept_keys import LabelIndex  # the concept matcher (a leaf: no rdflib)
from . import analysis, shorthand

MAX_CHARS = 1000  # a question, not a document

_NUMBER = re.compile(
    rf"(?<![\w.])(?:(?:rules?|r[èe]gles?|cr|section|§)\s*)?(?P<section>{rule_numbers.SECTION_IN_TEXT})"
    rf"(?:\.(?P<rule>{rule_numbers.DIGITS})(?P<letter>{rule_numbers.LETTER})?)?(?![\w])",
    re.IGNORECASE)
_PREFIXED = re.compile(r"^(?:rules?|r[èe]gles?|cr|section|§)", re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\ufeff]")

# historical name groups: each phrase of a group brings the others (en, fr)
ERAS = {
    "en": [
        ("in play", "on the battlefield"),
        ("into play", "onto the battlefield"),
        ("comes into play", "enters the battlefield"),
        ("leaves play", "leaves the battlefield"),
        ("removed from the game", "exiled", "exile"),
        ("converted mana cost", "mana value"),
        ("tribal", "kindred"),
        ("played", "cast"),
        ("totem armor", "umbra armor"),
        ("state-based effects", "state-based actions"),
        ("local enchantment", "aura"),
        ("his or her", "their"),
    ],
    "fr": [
        ("en jeu", "champ de bataille"),
        ("retiré de la partie", "exilé", "exil"),
        ("coût converti de mana", "valeur de mana"),
        ("tribal", "parenté"),
        ("joué", "lancé"),
    ],
}

# a verb names the concept its noun labels ("who owns a token?" is about the owner)
NOUNS = {
    "en": {"own": "owner", "owns": "owner", "owned": "owner", "control": "controller", "controls": "controller",
           "controlled": "controller", "attacks": "attacking creature", "blocks": "blocking creature",
           "targets": "target", "targeted": "target", "sacrificed": "sacrifice", "exiled": "exile",
           "discarded": "discard", "destroyed": "destroy", "countered": "counter", "tapped": "tap",
           "untapped": "untap", "copied": "copy", "milled": "mill", "scry": "scry", "won": "win",
           "die": "dies", "died": "dies"},
    "fr": {"possède": "propriétaire", "contrôle": "contrôleur", "contrôlé": "contrôleur"},
}

# before a verb of :data:`NOUNS`, a possessive makes it another word: "my own turn" is no owner
POSSESSIVES = {"en": {"my", "your", "his", "her", "its", "our", "their"}}

QUESTION_WORDS = {
    "en": set("""can could may might must should would will shall does do did doing done what whats when
        where which who whom whose why how happens happen happened happening if is are am was were be been
        i me my mine we us our ok okay allowed possible exactly please tell explain mean means meaning work
        works working rule rules cr mtg magic still ever get gets anything something someone actually really
        say says""".split()),
    "fr": set("""est ce que qu quoi quel quelle quels quelles comment pourquoi quand où ou peut peux peuvent
        puis je j moi mon ma mes on il elle se passe arrive règle règles regle regles si fait fonctionne
        marche veut dire signifie cr mtg magic""".split()),
}




class LabelMatcher(LabelIndex):
    """The concepts a question names, by their labels: the build's matcher
    (:class:`kb.rdf.concepts.Matcher`, which found each rule's ``rk:mentions``: the same
    :class:`~kb.rdf.concept_keys.LabelIndex`) over the labels the index keeps, without
    importing the RDF layers (a cold ``rulekb search`` stays fast)."""

    def __init__(self, labels: dict[str, list[str]], lang: str = "en"):  # concept key -> labels of one language
        # a label that is only a question word is not read in a question: "a card of mine" is no
        # Mine (the land type), "could I ...?" no glossary "Could"
        asked = QUESTION_WORDS.get(lang, set())
        super().__init__(((key, label) for key, names in labels.items() for label in names
                          if not all(w in asked for w in label.lower().split())), lang)


@dataclass
class Understood:
    text: str  # the cleaned question
    lang: str
    numbers: list[str] = field(default_factory=list)  # rule numbers cited ("702.19b")
    sections: list[str] = field(default_factory=list)  # section numbers cited ("613")
    words: list[str] = field(default_factory=list)  # the words that are evidence
    terms: list[str] = field(default_factory=list)  # their index terms (analysis), in order
    phrases: list[list[str]] = field(default_factory=list)  # consecutive term pairs
    quoted: list[tuple[str, list[str]]] = field(default_factory=list)  # (a phrase the question quotes, its terms)
    concepts: list[str] = field(default_factory=list)  # concept keys named in the question
    eras: list[tuple[str, str]] = field(default_factory=list)  # (phrase asked, phrase of the other era)
    shorthand: list[tuple[str, str]] = field(default_factory=list)  # (players' shorthand as written, read as)
    era_terms: list[str] = field(default_factory=list)  # the other era's terms
    cards: list[dict] = field(default_factory=list)  # cards the question names (kb.cards.recognise), what each brought
    unknown_cards: list[str] = field(default_factory=list)  # bracketed names that are no card
    cards_note: str = ""  # why a bracketed name may be no card (kb.cards.recognise.read)
    meaning_text: str = ""  # what the dense arm reads, when not the question: each card named by what it is
    card_concepts: dict[str, float] = field(default_factory=dict)  # concept key -> weight the cards bring
    card_how: dict[str, str] = field(default_factory=dict)  # concept key -> keyword | type | shape | mention
    card_rules: dict[str, float] = field(default_factory=dict)  # rule number -> weight (keywords with no concept)
    card_sections: dict[str, dict] = field(default_factory=dict)  # section -> {section, title, cards} (.interactions)
    asks_definition: bool = False  # "what is X?", "what does X mean?": the rules defining X first
    asked_in: str | None = None  # the question's language, when the searched text is in another one
    learnt_order: str = "off"  # whether kb.search.rerank ordered the first results ("on"), or why not
    learnt_from: dict[str, int] = field(default_factory=dict)  # document key -> the fusion's rank, when it moved

    @property
    def meaning_leads(self) -> bool:
        """A card-free question in another language than the text's: its words barely match, and
        the fusion weighs the meaning more (kb.search.rank.RRF_CROSS)."""
        return bool(self.asked_in) and not self.cards

    def to_dict(self) -> dict:
        out = {"numbers": self.numbers, "sections": self.sections, "terms": self.terms,
               "concepts": self.concepts, "historical": [f"{a} → {b}" for a, b in self.eras]}
        if self.shorthand:
            out["shorthand"] = [f"{a} → {b}" for a, b in self.shorthand]
        if self.quoted:
            out["quoted"] = [quote for quote, _ in self.quoted]
        if self.cards or self.unknown_cards:
            out["cards"] = [{"name": c["name"], "how": c["how"]} for c in self.cards]
            out["unknown_cards"] = self.unknown_cards
            if self.cards_note:
                out["cards_note"] = self.cards_note
        if self.card_sections:
            out["interactions"] = list(self.card_sections.values())
        quoted = [key for key, how in self.card_how.items() if how == "quoted"]
        if quoted:  # kinds of ability read in card text the question quotes
            out["quoted_kinds"] = quoted
        if self.meaning_text:
            out["meaning_reads"] = self.meaning_text
        if self.asked_in:
            out["asked_in"] = self.asked_in
        return out


def clean(text: str) -> str:
    """Control and invisible characters out, Unicode composed, spaces evened."""
    text = unicodedata.normalize("NFC", _CONTROL.sub(" ", str(text)))
    return " ".join(text.split())


def fold(word: str) -> str:
    return unicodedata.normalize("NFKD", word.lower()).encode("ascii", "ignore").decode("ascii")


# a question that asks what something is wants its definition, not every rule that uses the word
_DEFINITION = {
    "en": re.compile(r"^\s*(?:what(?:'s|’s|\s+is|\s+are)\b|what\s+does\b.*\b(?:mean|do)\W*$|define\b|"
                     r"(?:the\s+)?(?:definition|meaning)\s+of\b|what\s+counts\s+as\b)", re.IGNORECASE),
    "fr": re.compile(r"^\s*(?:qu['’]est[- ]ce\s+qu(?:e\b|['’])|que\s+(?:signifie|veut\s+dire)\b|"
                     r"c['’]est\s+quoi\b|(?:la\s+)?d[ée]finition\s+d)", re.IGNORECASE),
}

_FOLDED_QUESTION = {lang: {fold(w) for w in words} for lang, words in QUESTION_WORDS.items()}


# a phrase quoted in a question: double, curly or French quotes, or single quotes that are no
# apostrophes ("isn't", "player's"); kb.search.card_words reads the kinds of ability in the same quotes
QUOTED = re.compile(r'"([^"]{4,300})"|“([^”]{4,300})”|(?<!\w)\'([^\']{4,300})\'(?!\w)|‘([^’]{4,300})’|'
                    r'«\s*([^»]{4,300}?)\s*»')
QUOTED_MAX = 12  # terms: a longer quote is a card's whole text, matched by its words


def understand(text: str, lang: str, matcher=None, renames: dict | None = None) -> Understood:
    u = Understood(clean(text), lang)
    rest = u.text
    for m in _NUMBER.finditer(u.text):
        prefixed = bool(_PREFIXED.match(m.group(0)))
        if m.group("rule"):
            number = f"{m.group('section')}.{m.group('rule')}{(m.group('letter') or '').lower()}"
            if number not in u.numbers:
                u.numbers.append(number)
        elif prefixed or u.text.strip() == m.group(0):
            if m.group("section") not in u.sections:
                u.sections.append(m.group("section"))
        else:
            continue
        rest = rest.replace(m.group(0), " ", 1)
    u.asks_definition = bool(_DEFINITION[lang].search(u.text)) if lang in _DEFINITION else False
    rest, u.shorthand = shorthand.expand(rest, lang)  # "ETB" searches as "enters the battlefield"
    words = analysis.WORD.findall(rest)
    evidence = [w for w in words if fold(w) not in _FOLDED_QUESTION[lang] and not w.isdigit()]
    u.words = evidence or [w for w in words if not w.isdigit()] or words
    u.terms = list(dict.fromkeys(analysis.terms(" ".join(u.words), lang)))
    ordered = analysis.terms(" ".join(u.words), lang)
    u.phrases = [[a, b] for a, b in zip(ordered, ordered[1:]) if a != b]
    for m in QUOTED.finditer(rest):  # card text quoted: the rules quote their templates ("Activate only as a sorcery")
        quote = next(g for g in m.groups() if g).strip()
        said = analysis.terms(quote, lang)
        if 2 <= len(said) <= QUOTED_MAX and said not in [terms for _, terms in u.quoted]:
            u.quoted.append((quote, said))
    lowered = " " + " ".join(analysis.WORD.findall(rest.lower())) + " "
    for group in ERAS.get(lang, []):
        for phrase in group:
            if f" {' '.join(analysis.WORD.findall(phrase))} " in lowered:
                for other in group:
                    if other != phrase and (phrase, other) not in u.eras:
                        u.eras.append((phrase, other))
                break
    era = []
    for _, other in u.eras:
        era += [t for t in analysis.terms(other, lang) if t not in u.terms and t not in era]
    u.era_terms = era
    if matcher is not None:
        nouns = NOUNS.get(lang, {})
        extra = " ".join(nouns[w.lower()] for i, w in enumerate(words) if w.lower() in nouns
                         and not (i and words[i - 1].lower() in POSSESSIVES.get(lang, ())))
        found = sorted(matcher.mentions(rest) | (matcher.mentions(extra) if extra else frozenset()))
        renames = renames or {}
        back = {new: old for old, new in renames.items()}
        for key in found:
            for k in (key, renames.get(key), back.get(key)):
                if k and k not in u.concepts:
                    u.concepts.append(k)
    return u

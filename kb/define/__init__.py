"""Definitional statements extracted from rule text, English and French.

A rule sentence such as "A spell is a card on the stack." or "Le contrôleur d'un
sort est le joueur qui l'a joué." becomes a :class:`Statement`: the concept it
defines, the aspect (``is-a``, ``kinds``, ``members``, ``owner``, ``controller``,
``not-a``, ``multiple-instances``, and what a keyword means: ``optionality``, ``timing``,
``zone``, see :mod:`kb.define.meanings`), a normalised value or member list, and a qualifier. Statements are
normalised so that they compare across editions and languages:

- concept keys are English :func:`kb.rdf.concepts.concept_key` keys ("card-type");
  French terms reach them through a lexicon built from the ontology's French
  labels plus :data:`_FR_TERMS` (plurals and articles dropped);
- owner/controller values are short English phrases ("player who created it");
  French values map through :data:`_FR_PHRASES`; one that does not map is kept
  as normalised French and the statement gets ``language="fr"`` (``language``
  is the language of the normalised fields, not of the sentence);
- historical terms stay distinguishable: "in play" gives the qualifier
  ``in-play``, "on the battlefield" ``on-the-battlefield``.

Sentence shapes read (anything else gives nothing; precision before recall):

- "A spell is a card on the stack." / "An object is an ability on the stack, a
  card, ..." (is-a, or kinds for a list); "A counter is not a token",
  "An emblem is neither a card nor a permanent", "Outside the game is not a
  zone", "Counters are not objects" (not-a); keyword rules ("Flying is an
  evasion ability"); "Xs are Ys" only when coordinated ("Power and toughness
  are characteristics ...") or sharing their head ("Spell abilities are
  abilities ...");
- "A spell's owner is ...", "The owner of a card in the game is ...",
  "By default, ...", "A token is controlled by ... and owned by ...",
  "The player who creates a token is its owner." (owner, controller);
- "The supertypes are ...", "An object's characteristics are ...",
  "There are normally seven zones: ...", "There are three kinds of X: ..."
  (members, kinds); "The active player is the player whose turn it is." (is-a);
- the French counterparts ("Un sort est une carte sur la pile.", "Le
  propriétaire d'un jeton est ...", "Les types de cartes sont ...", "Il y a
  cinq types de permanent : ...").

Conditional sentences ("If ...", "... is a mana ability if it meets ..."),
anaphoric ones ("In that case, ...", "The emblem is ... by that player"),
quantified subjects ("Any ...", "Every ...") and subjects carrying a relative
clause or a modifier give nothing: the contract has no room for a free-text
condition, and a statement without its condition would be false.

Accepted misses (named by ``rulekb bench definitions``):

- definite generic subjects ("The token is controlled by whomever put it into
  play ...", 1999-2003; "The converted mana cost is a generic mana cost");
- elliptical clauses ('"Legend" is a creature type; "Legendary" is not.');
- lists in other forms ("All cards have one or more types: ...", 1999-2001);
- statements inside relative clauses ("..., each of which is a keyword
  ability"), subjects with an infinitive or "with" modifier ("An additional
  cost ... to play a card isn't an ability", "An ability with a target is not
  a mana ability") and predefined tokens ("A Walker token is a 2/2 black
  Zombie creature token");
- "a type of mana", "a variant of emerge", "part of the permanent's copiable
  values": a predicate "X of Y" other than "copy of a Y" rejects the clause;
- owner/controller values keep their main case: a fallback ("..., or, if it
  had no controller, the player who owned ...") is dropped;
- "The X of a Y is the Z ..." identities other than owner/controller ("The
  source of an ability is the object that generated it").
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from . import exclusions, instances, meanings
from .common import _ontology_keys
from .splitting import sentences
from .french import _lexicon as _french_lexicon
from .english import _English
from .french import _French

ASPECTS = ("is-a", "kinds", "members", "owner", "controller", "not-a", "multiple-instances") + meanings.ASPECTS


@dataclass(frozen=True, slots=True)
class Statement:
    concept: str  # English concept key: "spell", "card-type"
    aspect: str  # one of ASPECTS
    value: str = ""  # is-a / not-a: a concept key; owner / controller: a normalised phrase
    members: tuple[str, ...] = ()  # kinds / members: normalised keys, in the order printed
    qualifier: str = ""  # "on-the-stack", "by-default", "in-play", "unless-token"; several joined by "+"
    negated: bool = False  # True for not-a
    language: str = "en"  # language of the normalised fields: "fr" when a French term did not map
    sentence: str = ""  # the sentence as printed
    sentence_language: str = ""  # the language the sentence is printed in (the edition's): tag it with this


def extract(text: str, language: str) -> list[Statement]:
    """Every statement the sentences of ``text`` (a rule's text) make."""
    out: list[Statement] = []
    for sentence in sentences(text):
        out.extend(_sentence_statements(sentence, language))
    return out + list(_meaning_statements(text, language))


def edition_statements(edition) -> list[tuple[str, Statement]]:
    """(rule number, statement) for every rule of an Edition (rule text only)."""
    return [(rule.number, st) for rule in edition.rules for st in extract(rule.text, edition.language)]


@lru_cache(maxsize=1 << 16)
def _sentence_statements(sentence: str, language: str) -> tuple[Statement, ...]:
    reader = _French if language == "fr" else _English
    found = (reader(sentence).read() + exclusions.read(sentence, language)  # "X don't include A, B, or C"
             + instances.read(sentence, language))  # "Multiple instances of X ... are redundant"
    return tuple(
        Statement(concept, aspect, value, tuple(members), qualifier, aspect == "not-a", lang, sentence, language)
        for concept, aspect, value, members, qualifier, lang in found
    )


@lru_cache(maxsize=1 << 16)
def _meaning_statements(text: str, language: str) -> tuple[Statement, ...]:
    """A keyword's quoted meaning, read whole (its sentences are inside the quotes):
    optionality, timing and zone of effect (kb.define.meanings)."""
    return tuple(Statement(concept, aspect, value, tuple(members), qualifier, False, lang, said, language)
                 for (concept, aspect, value, members, qualifier, lang), said in meanings.read(text, language))


def load_lexicon() -> None:
    """Read the ontology's concept keys and French labels now (once per process)."""
    _ontology_keys()
    _french_lexicon()


def clear_caches() -> None:
    """Forget the sentences already read (rule texts recur across editions)."""
    sentences.cache_clear()
    _sentence_statements.cache_clear()
    _meaning_statements.cache_clear()

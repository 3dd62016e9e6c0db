"""Same meaning, other words: the normalisation that keeps a rewording from counting as a
contradiction.

- **Concept and member keys** go through :data:`RENAMES` (historical term -> current
  term: "in-play" -> "battlefield", "removed-from-the-game" -> "exile", "tribal" ->
  "kindred", "type" -> "card-type"...), per-list renames (:data:`LIST_RENAMES`: a card's
  "type" is its "type line") and splits ("power/toughness" -> power, toughness). The map
  is applied to both editions, so it works whichever edition is older. A member whose
  printed key differs while the normalised key is the same is a *renaming*, reported
  as such (severity "info"), never as a removed plus an added member.
- **Owner/controller values** are rewritten to one normal form (:func:`canonical_value`):
  "in play"/"into play" -> "on/onto the battlefield", "played" -> "cast" (spells) or
  "activated" (abilities), "the controller of X" -> "the player who controlled X",
  "the effect that created it" -> "the spell or ability that created it", "the player
  who put it onto the battlefield" -> "the player under whose control it entered the
  battlefield", "the player who put it on the stack" -> "the player under whose control
  it was put on the stack". What still differs after that differs in meaning (the M10
  token owner, the 2018 token owner).
- **Qualifiers**: only exceptions ("unless-token", "unless-copy") take part in the
  comparison; scope and hedges ("by-default", "normally", "on-the-stack", "in-the-game",
  "face-up") are ignored: they narrow where a sentence applies, not what it says.
- **Order, articles, punctuation, plurals** never reach the comparison: statements are
  compared as sets of normalised keys.
- **Still said?** A statement missing from the new edition is reported as removed only
  when no sentence of the new edition still relates the same words (concept and value
  words, a negation for not-a, "own"/"control" for owner/controller, most of a list's
  members): the extractor reads a closed set of sentence shapes, and a definition
  reworded outside them ("The player who creates a token is its owner. The token enters
  the battlefield under that player's control.") is not a definition that disappeared.
"""

from __future__ import annotations

import re
from functools import lru_cache

# historical key -> current key (both directions are normalised to the current one)
RENAMES = {
    "in-play": "battlefield",
    "removed-from-the-game": "exile",
    "removed-from-the-game-zone": "exile",
    "tribal": "kindred",
    "type": "card-type",  # Lorwyn (2007): an object's "type" became its "card type"
    "totem-armor": "umbra-armor",
    "converted-mana-cost": "mana-value",
    "transforming-double-faced-card": "nonmodal-double-faced-card",
    "state-based-effect": "state-based-action",
    "local-enchantment": "aura",
    "edh": "commander",
    "planar-magic": "planechase",
    "credit": "illustration-credit",
}
# (list concept, member) -> current member: where the same old word meant another thing
LIST_RENAMES = {
    ("part-of-a-card", "type"): "type-line",
}
# one old member now printed as several
SPLITS = {
    "power-toughness": ("power", "toughness"),
}


def canonical_key(key: str) -> str:
    return RENAMES.get(key, key)


def canonical_members(concept: str, members) -> list[tuple[str, str]]:
    """(normalised member, printed member) for each member of a list."""
    out = []
    for member in members:
        if member in SPLITS:
            out += [(part, member) for part in SPLITS[member]]
        elif (concept, member) in LIST_RENAMES:
            out.append((LIST_RENAMES[(concept, member)], member))
        else:
            out.append((canonical_key(member), member))
    return out


# ---------------------------------------------------------------- owner / controller values

_VALUE_REWRITES = [
    (r"\bthe same as (?:the )?", ""),
    (r"\bperson\b", "player"),
    (r"\bwhoever\b", "player who"),
    (r"\bcomes? into play\b", "enters the battlefield"),
    (r"\bput (it|them) into play\b", r"put \1 onto the battlefield"),
    (r"\binto play\b", "onto the battlefield"),
    (r"\bin play\b", "on the battlefield"),
    (r"\bremoved from the game\b", "exiled"),
    (r"^controller of (?:the )?", "player who controlled the "),
    (r"\bthe effect that\b", "the spell or ability that"),
    (r"\bspell or ability that put it onto the battlefield\b", "spell or ability that created it"),
    (r"^player who put it onto the battlefield$", "player under whose control it entered the battlefield"),
    (r"^player who put it on the stack$", "player under whose control it was put on the stack"),
    (r"\bhis or her\b", "their"),
]


_PLAY = {"spell": {"play": "cast", "plays": "casts", "played": "cast", "playing": "casting"},
         "ability": {"play": "activate", "plays": "activates", "played": "activated", "playing": "activating"}}


@lru_cache(maxsize=4096)
def canonical_value(value: str, concept: str = "") -> str:
    """One wording for owner/controller phrases of the same meaning."""
    v = " ".join(value.lower().split())
    for pattern, repl in _VALUE_REWRITES[:8]:  # the "play" zone words first
        v = re.sub(pattern, repl, v)
    table = _PLAY["ability" if "ability" in concept.split("-") else "spell"]
    v = re.sub(r"\b(play|plays|played|playing)\b", lambda m: table[m.group(1)], v)
    for pattern, repl in _VALUE_REWRITES[8:]:
        v = re.sub(pattern, repl, v)
    return " ".join(v.split())


def exceptions(qualifier: str) -> frozenset[str]:
    """The exception parts of a qualifier ("unless-token"); scope and hedges aside."""
    return frozenset(q for q in qualifier.split("+") if q.startswith("unless-"))


# ---------------------------------------------------------------- still said?

_STOP = frozenset("the a an of on in to from by and or with it its is are that this".split())
_NEGATION = re.compile(r"\b(?:not|isn't|aren't|neither|nor|never|no)\b|n't\b")
_WORD = re.compile(r"[a-z]+")


@lru_cache(maxsize=None)  # a few thousand distinct words, called millions of times
def stem(word: str) -> str:
    w = word.lower()
    if w.startswith("own"):  # own, owns, owned, owner, ownership
        return "own"
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")) and len(w) > 3:
        w = w[:-1]
    return w[:6]


def key_words(key: str) -> frozenset[str]:
    """The content words of a concept key, stemmed."""
    return frozenset(stem(w) for w in key.split("-") if w and w not in _STOP)


def _head(key: str) -> str:
    """The first content word of a key, stemmed."""
    return next((stem(w) for w in key.split("-") if w and w not in _STOP), "")


@lru_cache(maxsize=1 << 16)  # a rule text recurs in edition after edition (the build compares 126 pairs)
def _sentence_words(text: str) -> tuple[tuple[frozenset[str], bool], ...]:
    """Each sentence of a rule's text: its stemmed words, and whether it negates."""
    from rulekb.kb.define import sentences

    out = []
    for sentence in sentences(text):
        lowered = sentence.lower().replace("’", "'")
        out.append((frozenset(stem(w) for w in _WORD.findall(lowered)), bool(_NEGATION.search(lowered))))
    return tuple(out)


class SentenceIndex:
    """The sentences of an edition's rules, as sets of stemmed words, for "is it still said?"."""

    def __init__(self, edition):
        self._edition = edition
        self._items: list[tuple[str, frozenset[str], bool]] | None = None

    @property
    def items(self) -> list[tuple[str, frozenset[str], bool]]:
        """Built on first use: most comparisons never ask (nothing was removed)."""
        if self._items is None:
            self._items = [(rule.number, words, negated) for rule in self._edition.rules
                           for words, negated in _sentence_words(rule.text)]
        return self._items

    def find(self, required: frozenset[str], *, negated: bool | None = None,
             any_of: frozenset[str] = frozenset(), at_least: int = 0) -> str | None:
        """The first rule with a sentence holding every ``required`` word (and, when
        given, ``at_least`` of ``any_of``, a negation or none); None when no sentence does."""
        for number, words, has_negation in self.items:
            if not required <= words:
                continue
            if negated is True and not has_negation:
                continue
            if negated is False and has_negation:
                continue
            if at_least and len(any_of & words) < at_least:
                continue
            return number
        return None


def still_said(index: SentenceIndex, statement, concept: str) -> str | None:
    """The rule of the new edition that still relates the statement's words, if any."""
    subject = key_words(concept) or key_words(statement.concept)
    aspect = statement.aspect
    if aspect in ("owner", "controller"):
        role = frozenset({"own"} if aspect == "owner" else {"contro"})
        return index.find(subject | role)
    if aspect in ("is-a", "not-a"):
        value = key_words(canonical_key(statement.value))
        return index.find(subject | value, negated=aspect == "not-a")
    members = frozenset(_head(canonical_key(m)) for m in statement.members) - {""}
    if not members:
        return None
    return index.find(subject, any_of=members, at_least=max(1, (len(members) * 3 + 4) // 5))

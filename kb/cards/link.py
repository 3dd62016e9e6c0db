"""What a card is, in the KB's words: its keywords, types, ability shapes and the
concepts its Oracle text names, each a concept of the KB (and through it, its rules).

- **Keywords**: the rules' own list -- every rule 701.N (keyword actions) and 702.N
  (keyword abilities) whose text is a title ("702.19. Trample", "701.21. Sacrifice";
  "Tap and Untap" is two) in the newest English edition; found in the card's Oracle
  text with its reminder text and its own name taken out, whole words, case folded
  (an action also in its inflected forms: "sacrifices", "exiled"); an action word used
  as a noun ("a +1/+1 counter", "two counters") or naming a kind of ability ("counter target
  activated ability") is not the action. A file that lists a card's keywords (Scryfall,
  MTGJSON) adds them.
- **Types**: each word of the type line that is a KB concept ("Legendary", "Artifact",
  "Creature", "Aura", "Equipment", "Vehicle" ...).
- **Ability shapes**, per paragraph of Oracle text: triggered ("When", "Whenever",
  "At"), activated ("cost: effect"), replacement ("instead", "if ... would", "enters
  tapped", "enters with", "as ... enters", "skip"), continuous ("as long as"), static
  (any other paragraph of a permanent), spell ability (a paragraph of an instant or
  sorcery); each the KB concept of that name. Finer kinds the glossary names, read the same
  way: an intervening "if" clause ("When ..., if ..."), a delayed triggered ability ("...
  at the beginning of the next end step", "at end of turn" after an effect), a reflexive one
  ("When you do"), a leaves-the-battlefield ability ("When ... dies", "... leaves the
  battlefield": 603.6c, and 603.10's look back in time), last known information (an effect
  that exiles, sacrifices or destroys and uses "its power", "the sacrificed creature's power":
  113.7a, and the rules that speak of it, 608.2h), a mana ability ("{T}: Add {G}", no target), a loyalty
  ability (a loyalty cost: "+2: ...", "−5: ..."), a characteristic-defining
  ability (a permanent's static "power is equal to ...", "is every creature type"), a modal
  spell or ability ("Choose one —") and a prevention effect ("prevent ... damage").
  And the rules a card is subject to by what it is, named by the glossary too: a legendary
  permanent card the *Legend Rule* (704.5j: "Legendary ... See also Legend Rule"), a creature
  card with {T} or {Q} in an activation cost the *Summoning Sickness Rule* (302.6: "... its
  abilities that include the tap symbol or the untap symbol"), and a spell or ability with a target
  *Illegal Target* (608.2b: its targets are checked again as it resolves; "can't be the target of"
  and "becomes the target of" are not targets of its own).
- **Kind, by its faces**: a card with two faces is an adventurer or omen card (a face is an
  Adventure, an Omen),
  a split card (every face an instant or sorcery, or a Room), a flip card ("flip" in its text, a
  second face with no mana cost) or a double-faced card -- nonmodal when it transforms
  ("transform", daybound, disturb ..., a battle), modal otherwise; each the KB concept of that name, so the
  rules for that kind of card govern it (the card file names no layout).
- **Mentions**: the concepts the build's label matcher finds in the text (the same
  matcher that found each rule's ``rk:mentions``): "can't lose the game" names
  *Lose the Game*; "prevent that damage" names *Prevent*.

A card's **governing rules** in an edition are the rules that define its keywords
(the keyword's rule, its subrule "a" that says what the keyword is, and its concept's defining
rules -- of the keyword's own sense where the glossary entry has several: "Counter" the action,
701.6, not the marker, 122), its types and its shapes
(``rk:definedBy`` of the concept); what it merely mentions is kept as a link to
the concept, weighed least by search.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rulekb.ingest.cards import Card

KEYWORD_SECTIONS = ("701", "702")
TITLE = re.compile(r"^[A-Za-z][A-Za-z' -]*!?$")
REMINDER = re.compile(r"\([^()]*\)")
_WORDS = re.compile(r"[a-z0-9+/-]+(?:'[a-z]+)?|[+-]?\d+/[+-]?\d+")
_NOUN_BEFORE = re.compile(r"(?:a|an|the|one|two|three|four|five|six|seven|eight|nine|ten|x|each|no|that|those|this|"
                          r"these|any|all|more|of|another|additional|its|their|his|her|your|with|[+-]?\d+/[+-]?\d+|"
                          r"\d+)$")
SHAPES = {  # shape -> the KB concept that names it
    "triggered": "triggered-ability",
    "activated": "activated-ability",
    "static": "static-ability",
    "replacement": "replacement-effect",
    "continuous": "continuous-effect",
    "spell": "spell-ability",
    "intervening-if": "intervening-if-clause",
    "delayed": "delayed-triggered-ability",
    "reflexive": "reflexive-triggered-ability",
    "mana": "mana-ability",
    "loyalty": "loyalty-ability",
    "characteristic-defining": "characteristic-defining-ability",
    "modal": "modal-mode",
    "prevention": "prevention-effect",
    "leaves-the-battlefield": "leaves-the-battlefield",
    "last-known-information": "last-known-information",
    "legend-rule": "legend-rule",
    "summoning-sickness": "summoning-sickness-rule",
    "illegal-target": "illegal-target",
}
SHAPE_WHY = {"replacement": "replacement effect", "continuous": "continuous effect", "prevention": "prevention effect",
             "intervening-if": "intervening 'if' clause", "delayed": "delayed triggered ability",
             "reflexive": "reflexive triggered ability", "modal": "modal spell or ability",
             "loyalty": "loyalty ability (a loyalty cost: once a turn, as a sorcery)",
             "leaves-the-battlefield": "leaves-the-battlefield trigger",
             "last-known-information": "uses what an object it moved was (last known information)",
             "legend-rule": "legendary permanent (the legend rule)",
             "summoning-sickness": "{T} or {Q} in a creature's cost (the summoning sickness rule)",
             "illegal-target": "has targets (checked again as it resolves: illegal target)"}
# the kinds of card with faces, each by the labels the glossary has used for it (newest first)
KINDS = {
    "adventurer": ("Adventurer Card",),
    "omen": ("Omen Card",),
    "split": ("Split Card",),
    "flip": ("Flip Card",),
    "double-faced": ("Double-Faced Card",),
    "modal": ("Modal Double-Faced Card",),
    "nonmodal": ("Nonmodal Double-Faced Card", "Transforming Double-Faced Card"),
}
# "flip Jushi Apprentice", "flip this creature", "return it flipped" (not "flip a coin")
_FLIPS = re.compile(r"\bflip (?:it\b|this\b|[A-Z])|\bflipped\b")
_TRANSFORMS = re.compile(r"\btransform|\b(?:daybound|nightbound|disturb|more than meets the eye)\b", re.IGNORECASE)
_TRIGGER = re.compile(r"^(?:[^.:]*?—\s*)?(?:when|whenever|at the beginning|at the end|at)\b", re.IGNORECASE)
_ACTIVATED = re.compile(r"^(?:[^\"“:—]{1,120}):\s+\S")
_REPLACEMENT = re.compile(r"\binstead\b|\bif\b[^.]*\bwould\b|\benters? (?:the battlefield )?tapped\b|"
                          r"\benters? (?:the battlefield )?with\b|\bas [^.]{1,60}? enters\b|\bskip\b|"
                          r"\bprevent\b[^.]*\bdamage\b", re.IGNORECASE)
_AS_LONG_AS = re.compile(r"\bas long as\b", re.IGNORECASE)
_INTERVENING_IF = re.compile(r"^(?:[^.:]*?—\s*)?(?:when|whenever|at)\b[^,.]*,\s*if\b", re.IGNORECASE)
# a trigger an effect sets up for later (rule 603.7): "at the beginning of the next end step", "at end of turn"
_DELAYED = re.compile(r"\bat the beginning of (?:the |your |its controller's |that player's )?next\b|"
                      r"\S.*\bat (?:the )?end of (?:the )?turn\b|\S.*\bat the beginning of the end step\b",
                      re.IGNORECASE)
_REFLEXIVE = re.compile(r"\bwhen (?:you|they|that player|he or she) do(?:es)?\b", re.IGNORECASE)
_ADDS_MANA = re.compile(r"\badds?\b[^.]*(?:\{[WUBRGCSX0-9/]+\}|\bmana\b)", re.IGNORECASE)
_TAPPED_FOR_MANA = re.compile(r"^whenever\b[^,]*\btap(?:s|ped)?\b[^,]*\bfor mana\b", re.IGNORECASE)
_DEFINES_ITSELF = re.compile(r"\b(?:power|toughness)(?: and toughness)? (?:is|are)(?: each)? equal to\b|"
                             r"\bis (?:every creature type|all colors|every color)\b", re.IGNORECASE)
_MODAL = re.compile(r"\bchoose (?:one|two|three|four|one or both|one or more|any number|up to \w+)\s*(?:—|-|that)",
                    re.IGNORECASE)
_LOYALTY_COST = re.compile(r"^[+−-]?(?:\d+|X)$")
_PREVENTION = re.compile(r"\bprevent\b[^.]*\bdamage\b", re.IGNORECASE)
_LEAVES = re.compile(r"\b(?:dies|die|leaves? the battlefield|(?:is|are) put into [^,]*graveyards? from the battlefield)\b")
_MOVES = re.compile(r"\b(?:exile|sacrifice|destroy)", re.IGNORECASE)
_AS_IT_WAS = re.compile(r"\bequal to (?:its|their|that \w+'s|the (?:sacrificed|exiled|destroyed) \w+'s) "
                        r"(?:power|toughness|mana value)\b", re.IGNORECASE)
_TARGETS = re.compile(r"(?<!\bthe )\btargets?\b(?! of\b)", re.IGNORECASE)  # not "can't be the target of"
_TAP_COST = re.compile(r"^[^\"“:—]*\{[TQ]\}[^\"“:—]*:")  # {T} or {Q} in the cost of the paragraph's own ability
_PERMANENT_TYPES = ("artifact", "battle", "creature", "enchantment", "land", "planeswalker")
_SPELL_TYPES = ("instant", "sorcery")


@dataclass(frozen=True)
class Keyword:
    name: str  # as the rule titles it ("Trample", "Tap")
    kind: str  # ability | action
    rule: str  # its rule ("702.19")
    concept: str | None  # the KB concept of that name, if the glossary has it


@dataclass
class Vocabulary:
    """The KB's words for cards, from one edition and the concepts: built once per build."""

    edition: str
    keywords: dict[str, Keyword]  # lower-case name -> keyword
    concepts: dict[str, set[tuple[str, str]]]  # concept key -> its defining rules (edition id, number)
    keys: object  # kb.rdf.concepts.KeyIndex
    matcher: object  # kb.rdf.concepts.Matcher (English)
    numbers: frozenset = frozenset()  # the edition's rule numbers
    senses: dict = field(default_factory=dict)  # concept key -> (text, rules cited) of each numbered sense of its entry
    _forms: dict | None = None
    _firsts: dict | None = None

    @classmethod
    def of(cls, edition, concepts: dict, matcher) -> "Vocabulary":
        from ..rdf.concepts import KeyIndex

        keys = KeyIndex(concepts)
        found: dict[str, Keyword] = {}
        for rule in edition.rules:
            section, _, rest = rule.number.partition(".")
            if section not in KEYWORD_SECTIONS or not rest.isdigit() or not TITLE.match(rule.text.strip()):
                continue
            kind = "action" if section == "701" else "ability"
            title = rule.text.strip()
            names = [title]
            if kind == "action" and " and " in title:  # "Tap and Untap"
                names = [part.strip() for part in title.split(" and ")]
            for name in names:
                concept = keys.concept_for(_key(name))
                found.setdefault(name.lower(), Keyword(name, kind, rule.number, concept))
        return cls(edition.id, found, {k: c.defined_by for k, c in concepts.items()}, keys, matcher,
                   frozenset(r.number for r in edition.rules), _senses(edition, keys))

    @property
    def forms(self) -> dict[tuple[str, ...], Keyword]:
        """Each keyword's words, and an action's inflected forms ("sacrifices", "exiled", "scries")."""
        if self._forms is None:
            forms: dict[tuple[str, ...], Keyword] = {}
            for name, kw in self.keywords.items():
                words = tuple(_WORDS.findall(name))
                if not words:
                    continue
                forms.setdefault(words, kw)
                if kw.kind == "action":
                    last = words[-1]
                    stems = {last + "s", last + "es", last + "ed", last + "d", last + "ing"}
                    if last.endswith("e"):
                        stems.add(last[:-1] + "ing")
                    if last.endswith("y"):
                        stems |= {last[:-1] + "ies", last[:-1] + "ied"}
                    for form in stems:
                        forms.setdefault(words[:-1] + (form,), kw)
            self._forms = forms
            firsts: dict[str, set[int]] = {}
            for words in forms:
                firsts.setdefault(words[0], set()).add(len(words))
            self._firsts = {w: sorted(n, reverse=True) for w, n in firsts.items()}
        return self._forms

    def rules_of(self, key: str) -> list[str]:
        """The rules of this edition that define the concept ``key``."""
        return sorted(number for edition, number in self.concepts.get(key, ()) if edition == self.edition)

    def keyword_rules(self, kw: Keyword) -> list[str]:
        """The rules of this edition that define a keyword: its rule, the subrule that says what it
        is ("701.6a To counter a spell or ability means ..."), and its concept's defining rules --
        of the sense the glossary gives the keyword when the entry has several ("Counter: 1. To
        cancel a spell ... See rule 701.6. 2. A marker ... See rule 122": not the marker's 122.1)."""
        out = [kw.rule] + [n for n in (kw.rule + "a",) if n in self.numbers]
        if kw.concept:
            sense = next((rules for _, refs, rules in self.senses.get(kw.concept, ()) if _under(kw.rule, refs)), None)
            out += self.rules_of(kw.concept) if sense is None else sense
        return list(dict.fromkeys(out))

    def type_rules(self, key: str) -> list[str]:
        """The rules of this edition that define a word of a type line, of the sense the glossary gives
        it as a type where the entry has several ("Room: 1. A subsection of a dungeon card ... 2. An
        enchantment subtype ...": the split cards' 709, not the dungeons' 309)."""
        sense = next((rules for text, _, rules in self.senses.get(key, ()) if _A_TYPE.search(text)), None)
        return sense or self.rules_of(key)


@dataclass
class Links:
    keywords: list[Keyword] = field(default_factory=list)
    types: list[str] = field(default_factory=list)  # concept keys
    shapes: list[str] = field(default_factory=list)  # shape names (SHAPES)
    kinds: list[str] = field(default_factory=list)  # concept keys: what kind of card its faces make it
    mentions: list[str] = field(default_factory=list)  # concept keys, not already above

    def concepts(self) -> dict[str, str]:
        """concept key -> how the card has it (keyword, type, shape, mention), strongest first."""
        out: dict[str, str] = {}
        for kw in self.keywords:
            if kw.concept:
                out.setdefault(kw.concept, "keyword")
        for key in self.kinds:
            out.setdefault(key, "kind")
        for key in self.types:
            out.setdefault(key, "type")
        for shape in self.shapes:
            out.setdefault(SHAPES[shape], "shape")
        for key in self.mentions:
            out.setdefault(key, "mention")
        return out


_SENSE = re.compile(r"(?:^|\n)\s*\d+\.\s")  # "1. To cancel a spell ... 2. A marker ..."


_A_TYPE = re.compile(r"^\W*(?:an?|the)\s+(?:[\w-]+\s+)?(?:card type|subtype|supertype)\b", re.IGNORECASE)


def _senses(edition, keys) -> dict[str, list[tuple[str, set[str], list[str]]]]:
    """concept key -> (text, rules or sections cited, the rules defining the term among those) of
    each numbered sense of its glossary entry (only entries of two senses or more that cite in more
    than one), the cited sections resolved as the concepts' are (:func:`kb.define.defining.defining_rules`)."""
    from rulekb.ingest.refs import cited_numbers

    from ..define.defining import SectionIndex, defining_rules

    out: dict[str, list] = {}
    index = None
    for entry in edition.glossary:
        parts = [p for p in _SENSE.split(entry.definition or "") if p.strip()]
        cites = [cited_numbers(p) for p in parts]
        if len(parts) < 2 or sum(1 for c in cites if c) < 2:
            continue
        key = keys.concept_for(_key(entry.term))
        if key:
            index = index or SectionIndex(edition)
            out[key] = [(text, set(refs), defining_rules(index, entry.term, refs, text) if refs else [])
                        for text, refs in zip(parts, cites)]
    return out


def _under(number: str, refs) -> bool:
    """Whether rule ``number`` is one of ``refs`` (rules or sections) or under one."""
    return any(number == r or number.startswith(r + ".") or (number.startswith(r) and number[len(r):].isalpha())
               for r in refs)


def _key(name: str) -> str:
    from ..rdf.concept_keys import concept_key

    return concept_key(name)


def plain_text(card: Card, text: str | None = None) -> str:
    """The Oracle text (or ``text``, a face's) without reminder text and without the card's own names."""
    text = REMINDER.sub(" ", card.oracle_text if text is None else text or "")
    names = [card.name, *card.face_names()]
    names += [n.split(",")[0] for n in names if "," in n]
    for name in sorted({n for n in names if n}, key=len, reverse=True):
        text = text.replace(name, "CARDNAME")
    return text


def link(card: Card, vocab: Vocabulary) -> Links:
    links = Links()
    text = plain_text(card)
    seen: set[str] = set()
    forms = vocab.forms
    words = _WORDS.findall(text.lower())
    firsts = vocab._firsts
    for i, word in enumerate(words):
        for n in firsts.get(word, ()):
            kw = forms.get(tuple(words[i:i + n]))
            if kw is None:
                continue
            # an action word after "a", "two", "+1/+1" is the noun ("a +1/+1 counter"); before "ability",
            # the kind of ability ("counter target activated ability" activates nothing)
            noun = kw.kind == "action" and ((i and _NOUN_BEFORE.match(words[i - 1])) or _kind_of_ability(words[i + n:i + n + 3]))
            if kw.name not in seen and not noun:
                seen.add(kw.name)
                links.keywords.append(kw)
            break
    for name in card.keywords:  # the file's own list (Scryfall, MTGJSON)
        kw = vocab.keywords.get(name.lower())
        if kw is not None and kw.name not in seen:
            seen.add(kw.name)
            links.keywords.append(kw)
    type_words = re.findall(r"[A-Za-z][\w'-]*", card.type_line or "")
    for word in dict.fromkeys(type_words):
        key = vocab.keys.concept_for(_key(word))
        if key and key not in links.types:
            links.types.append(key)
    abilities = {kw.name.lower() for kw in links.keywords if kw.kind == "ability"}
    shapes: list[str] = []
    faces = [(f.type_line, plain_text(card, f.oracle_text)) for f in card.faces] or [(card.type_line, text)]
    for type_line, face_text in faces:
        shapes += ability_shapes(type_line, face_text, abilities)
    links.shapes = list(dict.fromkeys(shapes))
    for kind in card_kinds(card):
        key = next(filter(None, (vocab.keys.concept_for(_key(label)) for label in KINDS[kind])), None)
        if key and key not in links.kinds:
            links.kinds.append(key)
    if vocab.matcher is not None:
        have = set(links.concepts())
        links.mentions = sorted(set(vocab.matcher.mentions(text)) - have)
    return links


def _kind_of_ability(after: list[str]) -> bool:
    """Whether the words after an action word make it a kind of ability: "activated abilities",
    "activated or triggered ability"."""
    ability = ("ability", "abilities")
    return bool(after) and (after[0] in ability or (len(after) == 3 and after[0] in ("or", "and") and after[2] in ability))


def card_kinds(card: Card) -> list[str]:
    """What kind of card its faces make it (:data:`KINDS`), most specific last; none for one face.
    The card file has no layout field, so it is read from the faces' type lines, costs and texts."""
    names = [f.name for f in card.faces]
    if len(card.faces) < 2 or len(set(names)) < len(names):  # (one face printed twice: a reversible card)
        return []
    subtypes = [f.type_line.partition("—")[2] for f in card.faces]
    for subtype, kind in (("Adventure", "adventurer"), ("Omen", "omen")):
        if any(re.search(rf"\b{subtype}\b", sub) for sub in subtypes):
            return [kind]
    if any(re.search(r"\bRoom\b", sub) for sub in subtypes) or all(
            _is_spell(f.type_line) for f in card.faces):
        return ["split"]
    text = " ".join(f.oracle_text or "" for f in card.faces)
    if _TRANSFORMS.search(text) or any(re.search(r"\bBattle\b", f.type_line) for f in card.faces):
        return ["double-faced", "nonmodal"]
    if _FLIPS.search(text) and not card.faces[1].mana_cost:
        return ["flip"]
    return ["double-faced", "modal"]


def _is_spell(type_line: str) -> bool:
    """Whether a type line's card types (before the dash) hold an instant or a sorcery."""
    return any(w.lower() in _SPELL_TYPES for w in re.findall(r"[A-Za-z]+", type_line.split("—")[0]))


def ability_shapes(type_line: str, text: str, abilities: set[str]) -> list[str]:
    """The shapes (:data:`SHAPES`) of a card's (or a face's) Oracle text, paragraph by paragraph, and
    the rules it is subject to by what it is; ``abilities``: the keyword names a keyword line holds."""
    spell = _is_spell(type_line)
    card_types = [w.lower() for w in re.findall(r"[A-Za-z]+", (type_line or "").split("—")[0])]
    shapes = ["legend-rule"] if "legendary" in card_types and set(card_types) & set(_PERMANENT_TYPES) else []
    creature = "creature" in card_types
    for paragraph in text.split("\n"):
        line = paragraph.strip()
        if not line or _is_keyword_line(line, abilities):
            continue
        sentences = [s.strip() for s in re.split(r"(?<=[.!])\s+", line) if s.strip()]
        if _TRIGGER.match(line):
            shapes.append("triggered")
        elif _ACTIVATED.match(line):
            shapes.append("activated")
        elif spell:
            shapes.append("spell")
        else:
            shapes.append("static")
        if any(_TRIGGER.match(s) for s in sentences[1:]):
            shapes.append("triggered")
        if _REPLACEMENT.search(line):
            shapes.append("replacement")
        if _AS_LONG_AS.search(line):
            shapes.append("continuous")
        if creature and _TAP_COST.match(line):
            shapes.append("summoning-sickness")
        shapes += _finer(line, sentences, spell)
    return shapes


def _finer(line: str, sentences: list[str], spell: bool) -> list[str]:
    """The finer kinds of a paragraph (the glossary's words for them), beside its shape."""
    out = []
    trigger = bool(_TRIGGER.match(line))
    if trigger and _LEAVES.search(line.split(",")[0]):  # the trigger condition: a leaves-the-battlefield ability
        out.append("leaves-the-battlefield")
    if trigger and _INTERVENING_IF.match(line):
        out.append("intervening-if")
    if any(_DELAYED.search(s) for s in sentences):
        out.append("delayed")
    if _REFLEXIVE.search(line):
        out.append("reflexive")
    cost, colon, effect = line.partition(":")
    loyalty = bool(colon and _LOYALTY_COST.match(cost.strip()))  # "+1: Add {R}{R}{R}" is no mana ability (605.1a)
    if loyalty and not trigger:  # "+2: Create a Food token", "−5: ...": a loyalty ability (606)
        out.append("loyalty")
    if (colon and not trigger and not loyalty and _ACTIVATED.match(line) and _ADDS_MANA.search(effect)
            and "target" not in effect.lower()) or (_TAPPED_FOR_MANA.match(line) and _ADDS_MANA.search(line)):
        out.append("mana")
    if not spell and not trigger and not colon and _DEFINES_ITSELF.search(line):
        out.append("characteristic-defining")
    if _MODAL.search(line):
        out.append("modal")
    if _PREVENTION.search(line):
        out.append("prevention")
    if _TARGETS.search(line):  # a rule it is subject to, by what it does: its targets checked as it resolves
        out.append("illegal-target")
    if _MOVES.search(line) and _AS_IT_WAS.search(line):  # "Exile target creature ... life equal to its power"
        out.append("last-known-information")
    return out


def _is_keyword_line(line: str, keyword_names: set[str]) -> bool:
    """"Flying, vigilance", "Ward {2}", "Equip {1}{W}", "Protection from red": a line of keywords."""
    for part in line.rstrip(".").split(","):
        words = part.strip().lower()
        if not any(words == name or words.startswith(name + " ") for name in keyword_names):
            return False
    return True


def governing(links: Links, vocab: Vocabulary) -> list[tuple[str, str]]:
    """(rule number, why) of the rules that govern a card in ``vocab``'s edition, most specific first:
    its keywords' rules, its kind's (by its faces), its types', its shapes'."""
    out: dict[str, str] = {}
    for kw in links.keywords:
        for number in vocab.keyword_rules(kw):
            out.setdefault(number, f"keyword {kw.kind}: {kw.name}")
    for key in links.kinds:
        for number in vocab.rules_of(key):
            out.setdefault(number, f"kind of card: {key}")
    for key in links.types:
        for number in vocab.type_rules(key):
            out.setdefault(number, f"type: {key}")
    for shape in links.shapes:
        for number in vocab.rules_of(SHAPES[shape]):
            out.setdefault(number, SHAPE_WHY.get(shape, f"{shape} ability"))
    return list(out.items())


def brought_keys(card: dict) -> set[str]:
    """The concepts a card recognised in a question brings (a search result's ``cards`` entry)."""
    brought = card.get("brought", {})
    return ({*brought.get("types", []), *brought.get("mentions", []), *(SHAPES.get(s, s) for s in brought.get("shapes", []))}
            | set(card.get("keyword_concepts", [])))

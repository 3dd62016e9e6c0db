"""What a keyword means, aspect by aspect: optionality, timing, zone of effect.

A keyword rule spells its meaning out: '"Unearth [cost]" means "[Cost]: Return this
card from your graveyard to the battlefield. It gains haste. Exile it at the beginning
of the next end step. ..."'. Read from that quoted meaning (English only; the French
texts are excerpts with too few keyword rules to compare):

- ``optionality``: "optional" when the meaning lets a player choose ("you may", "unless
  you pay"), else "mandatory" -- a "may" that became mandatory is a change of meaning;
- ``timing``: the moments and durations it names, canonical ("until-end-of-turn",
  "for-as-long-as", "at-beginning-of-upkeep:your", "as-a-sorcery", ...);
- ``zone``: the zones it works from or moves things to ("graveyard", "exile",
  "battlefield", ...).

Historical names are one value, so that an era's renaming is no change of meaning:
"in play" and "the battlefield", "remove from the game" and "exile", "at end of turn"
and "at the beginning of the (next) end step" (the end of turn step became the end
step), "play" and "cast" or "activate", "is put into a graveyard from play" and
"dies", "enters the battlefield" and "enters" (2024), a permanent "in play" and one "you
control". Each statement is (concept, aspect, value, (), "", "en"): ``value`` the canonical items,
sorted and joined by "+" (no members: the items are no concepts of the KB).
"""

from __future__ import annotations

import re

from ..rdf.concepts import concept_key
from .common import _clean

ASPECTS = ("optionality", "timing", "zone")

# '"Flanking" means "..."', 'The phrase "Cumulative upkeep [cost]" means "..."'
# '"Echo" in a permanent's rules text means "..."' (1999-2002)
# A meaning may come in parts: '"Fading [X]" means "..." and "..."'.
_MEANS = re.compile(r'"(?P<name>[A-Z][^"]{0,60}?)"(?: in an? [a-z\' ]{1,30}?text)? means "')
# a part ends at its closing quote (or with the text, when that quote is lost)
_PART = re.compile(r'(?P<part>[^"]+)(?:"|$)')
_LOST_CLOSE = re.compile(r"(?<=[,.;!])[?\ufffd](?=\s|$)")
_AND = re.compile(r'\s*,?\s*(?:and\s+)?"')
_NAME_TAIL = re.compile(r"\s*(?:\[[^\]]*\]|\{[^}]*\}|\b[NX]\b|—.*|\d+)\s*")

# a duration or a moment; the first group names it, era spellings share one name
_TIMING = [
    (re.compile(r"\buntil end of turn\b"), "until-end-of-turn"),
    (re.compile(r"\buntil (?:your|that player's|its controller's) next turn\b"), "until-next-turn"),
    # "as long as" is a duration at the head of a clause ("As long as this card is encoded ...",
    # cipher), a condition inside one ("two commanders as long as one of them is ..."); a
    # duration bound to a zone ("as long as that card remains removed from the game") is the
    # zone's, not a moment's
    (re.compile(r"(?:\bfor |(?:^|(?<=\| )|(?<=\. )))as long as\b(?![^,.|]{0,40}\bremains? (?:removed from the game|"
                r"exiled|in exile|on the battlefield|in play|in (?:your|its owner's|a) graveyard))"), "for-as-long-as"),
    (re.compile(r"\bat (?:the )?end of (?:the )?turn\b|\bat the beginning of (?:the )?(?:next )?end(?: of turn)? step\b"),
     "at-end-step"),
    (re.compile(r"\bat (?:the )?end of combat\b|\bat the beginning of (?:the )?end of combat(?: step)?\b"),
     "at-end-of-combat"),
    (re.compile(r"\b(?P<lead>at the beginning of|during) (?P<who>your|each|each player's|that player's|"
                r"each opponent's|the next|the|its controller's) (?:(?:precombat|first|next) )?(?P<when>upkeep|"
                r"draw step|main phase|combat|declare attackers step|declare blockers step|cleanup step)\b"), None),
    (re.compile(r"\b(?:only )?(?:any time (?:you|he or she|they|that player) could (?:cast|play) a sorcery|"
                r"as a sorcery)\b"), "as-a-sorcery"),
    (re.compile(r"\b(?:any time (?:you|he or she|they|that player) could (?:cast|play) an instant|as an instant)\b"),
     "as-an-instant"),
    (re.compile(r"\buntil (?:that player|he or she|you|they|the player) pass(?:es)? next\b"), "until-passes"),
    (re.compile(r"\bthis turn\b"), "this-turn"),
]

# zones, with their historical names
_ZONES = [
    # "enters" alone is "enters the battlefield" (2024); what "you control" that is no spell is a permanent
    # (not the verb: "to play this spell", "from your graveyard to play it" is a zone only
    # when nothing is played); a token "created" is put onto the battlefield (2016)
    (re.compile(r"\b(?:into|in|from|onto|leaves?|left) play\b|\bto play\b(?! (?:it|them|this|that|a|an|the|"
                r"any|[\w\]\[]+ spells?)\b)|\bthe battlefield\b|\bdies\b|\bdie\b|\b(?:enters?|entered|entering)\b"
                r"|\b(?!spells?\b|abilit)[\w\]]+ you control\b|\bcreates?\b|\bcreated\b"), "battlefield"),
    (re.compile(r"\bgraveyards?\b|\bdies\b|\bdie\b"), "graveyard"),
    (re.compile(r"\bexiled?\b|\bexiles\b|\bremoved?\b[^.\"]{0,40}? from the game\b"), "exile"),
    (re.compile(r"\bhands?\b|\bdiscards?\b|\bdiscarded\b|\bdiscarding\b"), "hand"),  # one discards from a hand
    (re.compile(r"\blibrar(?:y|ies)\b"), "library"),
    # a copy of a spell is put onto the stack ("copy it", 2018)
    (re.compile(r"\bthe stack\b|\bcop(?:y|ies) (?:it|this spell|that spell)\b"), "stack"),
    (re.compile(r"\bcommand zone\b"), "command"),
]
# a choice: "you may pay", and "sacrifice it unless you pay" (the same choice, 2007's rewording)
_MAY = re.compile(r"\bmay\b|\bunless (?:you|that player|its controller|he or she|they) \w+")


# the words between a keyword and its parameter: "Champion an [object]", "Affinity for [text]",
# "Splice onto [subtype]", "Clash with an opponent" are champion, affinity, splice, clash
_LINK_TAIL = re.compile(r"\s+(?:an?|for|onto|from|with(?: an?)?(?: opponent)?)$", re.IGNORECASE)


def _concept(name: str) -> str:
    base = _LINK_TAIL.sub("", _NAME_TAIL.sub(" ", name).strip(" —-")).strip()
    return concept_key(base) if base else ""


def _timing(meaning: str) -> list[str]:
    found = set()
    for pattern, label in _TIMING:
        for m in pattern.finditer(meaning):
            if label is None:
                lead = "during" if m.group("lead") == "during" else "at-beginning-of"
                who = {"each player's": "each", "the next": "next", "the": "each"}.get(m.group("who"), m.group("who"))
                found.add(f"{lead}-{m.group('when').replace(' ', '-')}:{who}")
            else:
                found.add(label)
    return sorted(found)


def _zones(meaning: str) -> list[str]:
    return sorted({label for pattern, label in _ZONES if pattern.search(meaning)})


def read(text: str, language: str) -> list[tuple[tuple, str]]:
    """((concept, aspect, value, (), "", "en"), the '"X" means "..."' as printed) for
    each meaning a rule's text spells out."""
    if language != "en":
        return []
    out: list[tuple[tuple, str]] = []
    # a closing quote the archive printed as "?" after a comma or stop ('on it,? "At ...', 2008-05-01)
    text = _LOST_CLOSE.sub('"', _clean(text))
    for m in _MEANS.finditer(text):
        concept = _concept(m.group("name"))
        parts, at = [], m.end()
        while (part := _PART.match(text, at)) is not None:
            parts.append(part.group("part"))
            at = part.end()
            glue = _AND.match(text, at)
            if glue is None:
                break
            at = glue.end()
        if not concept or not parts:
            continue
        meaning, said = " | ".join(parts).lower(), text[m.start():at]
        out.append(((concept, "optionality", "optional" if _MAY.search(meaning) else "mandatory", (), "", "en"), said))
        for aspect, items in (("timing", _timing(meaning)), ("zone", _zones(meaning))):
            out.append(((concept, aspect, "+".join(items), (), "", "en"), said))
    return out

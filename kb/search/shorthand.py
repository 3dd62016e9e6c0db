"""Players' shorthand, read as the rules' words before a question is searched.

Players ask in the words of the table and the chat, not of the rules: "can I respond
to the ETB?", "do SBAs use the stack?", "I blink it", "my spell fizzled", "they
scooped". None of those words is in the rules, so neither the words' ranking nor the
KB's concept labels can match them. Each is read as what it means in the rules'
own words ("ETB" -> "enters the battlefield", "fizzle" -> "doesn't resolve because its
targets are illegal"), the words then search as if the asker had typed them, and the
search's ``understood`` says what was read (``shorthand``), so the reading is never
hidden.

The table holds only shorthand with one meaning in a rules question; words with
several ("burn", "kill", "pump", "board") are left as typed. English only: the
French texts' own words for these differ by edition.
"""

from __future__ import annotations

import re

# shorthand -> what it means, in the rules' words (each form a player writes is listed)
SHORTHAND = {
    "en": {
        ("etb", "etbs", "etbed", "etbing", "etb's"): "enters the battlefield",
        ("ltb", "ltbs"): "leaves the battlefield",
        ("sba", "sbas", "sba's"): "state-based actions",
        ("tba", "tbas"): "turn-based actions",
        ("cmc",): "mana value (converted mana cost)",
        ("mv",): "mana value",
        ("p/t",): "power and toughness",
        ("eot",): "end of turn",
        ("lki",): "last known information",
        ("cda", "cdas"): "characteristic-defining ability",
        ("dfc", "dfcs"): "double-faced card",
        ("mdfc", "mdfcs"): "modal double-faced card",
        ("tdfc", "tdfcs"): "transforming double-faced card",
        ("ap",): "active player",
        ("nap",): "nonactive player",
        ("dmg",): "damage",
        ("opp", "opps", "oppo", "oppos"): "opponent",
        ("pw", "pws"): "planeswalker",
        ("gy", "yard"): "graveyard",
        ("lib",): "library",
        ("trig", "trigs"): "trigger",
        ("cmdr",): "commander",
        ("blink", "blinks", "blinked", "blinking", "flicker", "flickers", "flickered", "flickering"):
            "exile and return to the battlefield",
        ("bounce", "bounces", "bounced", "bouncing"): "return to its owner's hand",
        ("fizzle", "fizzles", "fizzled", "fizzling"): "doesn't resolve because its targets are illegal",
        ("tutor", "tutors", "tutored", "tutoring"): "search the library",
        ("scoop", "scoops", "scooped", "scooping"): "concede",
        ("wrath", "wraths", "boardwipe", "boardwipes", "board wipe", "board wipes", "sweeper", "sweepers"):
            "destroy all creatures",
        ("chump block", "chump blocks", "chump blocked", "chump blocking", "chump", "chumps", "chumped"): "block",
        ("swing", "swings", "swinging", "swung"): "attack",
        ("double block", "double blocks", "double blocked", "double blocking", "double-block", "double-blocks",
         "double-blocked", "double-blocking"): "blocked by two creatures",
        ("triple block", "triple blocks", "triple blocked", "triple blocking", "triple-block", "triple-blocks",
         "triple-blocked", "triple-blocking"): "blocked by three creatures",
        ("gang block", "gang blocks", "gang blocked", "gang blocking", "gang-block", "gang-blocks", "gang-blocked",
         "gang-blocking"): "blocked by multiple creatures",
        ("put lethal", "puts lethal", "putting lethal"): "assign lethal damage",
        ("sac", "sacs", "sacced", "saccing", "sac'd"): "sacrifice",
        ("ping", "pings", "pinged", "pinging"): "deal 1 damage",
        ("lifegain",): "gain life",
        ("2hg",): "Two-Headed Giant",
        ("ffa",): "free-for-all",
        ("decked",): "drawing from an empty library",
        ("dude", "dudes", "guy", "guys"): "creature",
        # ("go face" too, but "it goes face up" is no attack)
        ("hit face", "hits face", "hitting face", "swing face", "swings face", "swinging face", "swung face",
         "attack face", "attacks face", "attacking face", "attacked face"): "attack the player",
    },
}


def _pattern(forms: dict) -> re.Pattern | None:
    said = sorted((form for group in forms for form in group), key=len, reverse=True)  # "chump block" before "chump"
    if not said:
        return None
    return re.compile(r"(?<![\w/])(?:" + "|".join(re.escape(s).replace(r"\ ", r"\s+") for s in said) + r")(?![\w/])",
                      re.IGNORECASE)


def _said(form: str) -> str:
    """A form as it is looked up: lower case, hyphens and runs of spaces as one space."""
    return " ".join(form.lower().replace("-", " ").split())


_MEANING = {lang: {_said(form): meaning for group, meaning in table.items() for form in group}
            for lang, table in SHORTHAND.items()}
_PATTERN = {lang: _pattern(table) for lang, table in SHORTHAND.items()}


def expand(text: str, lang: str) -> tuple[str, list[tuple[str, str]]]:
    """``text`` with each shorthand read as the rules' words, and (as written, read as) for each."""
    pattern = _PATTERN.get(lang)
    if pattern is None:
        return text, []
    read: list[tuple[str, str]] = []
    out, at = [], 0
    for m in pattern.finditer(text):
        if m.start() < at:  # (the word after a reading, dropped below)
            continue
        meaning = _MEANING[lang][_said(m.group(0))]
        if (m.group(0), meaning) not in read:
            read.append((m.group(0), meaning))
        out += [text[at:m.start()], meaning]
        at = m.end()
        # the word the reading ends with, said again after it, once: "put lethal damage on"
        # is "assign lethal damage on", not "... damage damage on"
        repeated = re.match(r"\s+(\w+)(?![\w/-])", text[at:])
        if repeated and repeated.group(1).lower() == meaning.split()[-1].lower():
            at += repeated.end()
    out.append(text[at:])
    return "".join(out), read

"""Rule text -> comparable tokens: terminology, quotes and cited numbers evened out.

Two wordings of one rule should compare equal when the only differences are
ones the rules editors made everywhere at once, not to this rule:

- the 2009 (M10) terminology change: "in play" -> "on the battlefield",
  "comes into play" -> "enters the battlefield", "removed from the game" ->
  "exiled", "play a spell" -> "cast", "play an ability" -> "activate",
  "state-based effects" -> "state-based actions";
- the 2018 gender-neutral pronouns ("his or her" -> "their");
- typography (curly vs straight quotes, dashes, ``_Magic_`` italics markers);
- cited rule numbers, which change whenever the rules they cite are renumbered.

The mapping sends *both* the old and the new term to one canonical token
(``_bf``, ``_etb``, ``_exiled``, ``_play`` ...), so it is applied to both
editions alike and never needs to know which era a text comes from. Cited
numbers become ``§`` (their structure is compared separately, see
:mod:`kb.align.signals`). Tokens are lightly stemmed (a final "s" dropped) so
"he or she loses" and "they lose" meet.

Speed matters (every rule of 128 editions goes through here): multi-word
phrases are one alternation of literals (Python's regex engine scans those
fast; a leading ``\\b`` would defeat that, so the word boundary is checked in the
callback), single words are mapped per token through a memo.
"""

from __future__ import annotations

import re

from rulekb.ingest import numbers

# multi-word phrases -> canonical token; every inflection spelled out (literals scan fast)
_PHRASES: dict[str, str] = {}


def _add(token: str, *phrases: str) -> None:
    for phrase in phrases:
        _PHRASES[phrase] = token


for _verb in ("comes", "come", "came", "coming"):
    _add("_etb", f"{_verb} into play")
for _verb in ("enters", "enter", "entered", "entering"):
    _add("_etb", f"{_verb} the battlefield")
for _verb in ("leaves", "leave", "left", "leaving"):
    _add("_ltb", f"{_verb} play", f"{_verb} the battlefield")
for _verb in ("return", "returns", "returned", "returning"):
    _add("_returnbf", f"{_verb} to play", f"{_verb} to the battlefield")
_add("_ontobf", "into play", "onto the battlefield")
_add("_onbf", "in play", "on the battlefield")
_add("_frombf", "from play", "from the battlefield")
_add("_bf", "the in-play zone", "in-play zone", "the battlefield")
_add("_exilezone", "removed-from-the-game zone", "removed from the game zone", "exile zone")
_add("_exiled", "removed from the game", "remove from the game")
_add("state-based action", "state-based effects", "state-based effect", "state-based actions",
     "state-based action")
_add("their", "his or her")
_add("they", "he or she")
_add("them", "him or her")
_add("themselves", "himself or herself")



def _trie_pattern(phrases) -> str:
    """An alternation factored by common prefixes ("in play|into play" ->
    "in(?: play|to play)"): the regex engine then tries one branch per position,
    which makes it about four times faster than a flat alternation."""
    trie: dict = {}
    for phrase in phrases:
        node = trie
        for ch in phrase:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict) -> str:
        branches = [re.escape(ch) + emit(sub) for ch, sub in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        if "" in node:  # a phrase ends here, a longer one may go on: prefer the longer
            return f"(?:{body})?"
        return body

    return emit(trie)


_PHRASE_RE = re.compile(_trie_pattern(_PHRASES) + r"\b")
# "remove target creature from the game" -> "_exiled target creature"
_REMOVE_RE = re.compile(r"\bremov(?:e|es|ed|ing) ((?:(?!remov)[^.;:()]){1,80}?)from the game\b")

# single words -> canonical token
_WORDS = {w: "_play" for w in (
    "play", "plays", "played", "playing", "cast", "casts", "casting",
    "activate", "activates", "activating")}
_WORDS.update({w: "_exiled" for w in ("exile", "exiles", "exiled", "exiling")})
_WORDS["battlefield"] = "_bf"

_TYPOGRAPHY = (("\u2018", "'"), ("\u2019", "'"), ("\u201c", '"'), ("\u201d", '"'), ("\u2013", "-"),
               ("\u2014", "-"), ("\u2212", "-"), ("\u00a0", " "), ("_", " "), ("\t", " "))
# A cited rule or section number: 601, 601.2, 601.2b (3-digit numbers in rules
# text are almost always citations; counts such as "20 life" have fewer digits).
CITED = re.compile(rf"\b{numbers.CITED_IN_TEXT}\b")
# the same without the leading \b (which would defeat the engine's fast scan);
# the boundary is checked in the callback
_CITED_FAST = re.compile(rf"{numbers.CITED_IN_TEXT}\b")
_TOKEN = re.compile(r"_?[a-z0-9§]+")
_memo: dict[str, str] = {}


def plain(text: str) -> str:
    """Typography evened out, lower case: the form terminology rules apply to."""
    text = text.lower()
    for old, new in _TYPOGRAPHY:
        if old in text:
            text = text.replace(old, new)
    return text


def _cited(match: re.Match) -> str:
    start = match.start()
    if start and match.string[start - 1].isalnum():
        return match.group(0)
    return "§"


def _phrase(match: re.Match) -> str:
    start = match.start()
    text = match.string
    if start and (text[start - 1].isalnum()):
        return match.group(0)  # inside a longer word: not the phrase
    return f" {_PHRASES[match.group(0)]} "


def canonical(text: str) -> str:
    """Typography, terminology (phrases) and cited numbers evened out."""
    text = _CITED_FAST.sub(_cited, plain(text))
    if "from the game" in text:
        text = _REMOVE_RE.sub(r" _exiled \1", text)
    return _PHRASE_RE.sub(_phrase, text)


def _word(token: str) -> str:
    found = _memo.get(token)
    if found is None:
        found = _WORDS.get(token)
        if found is None:
            found = token[:-1] if len(token) > 3 and token.endswith("s") and not token.endswith("ss") else token
        _memo[token] = found
    return found


def tokens(text: str) -> list[str]:
    """The word tokens similarity is computed on."""
    return [_word(t) for t in _TOKEN.findall(canonical(text))]


def tokens_many(texts: list[str]) -> list[list[str]]:
    """:func:`tokens` of many texts at once (one regex pass over them all: faster)."""
    joined = canonical("\n".join(t.replace("\n", " ") for t in texts))
    return [[_word(t) for t in _TOKEN.findall(line)] for line in joined.split("\n")]


def masked(text: str) -> str:
    """The text with only cited numbers masked (no terminology change): two texts
    equal under this differ at most in the numbers they cite."""
    return CITED.sub("§", text)

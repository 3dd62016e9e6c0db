"""English or French? Counted from function words, which both texts use heavily."""

from __future__ import annotations

import re

_EN = frozenset(
    "the of and a to is in that it or be an its this if are with player players card cards "
    "spell ability abilities each which as by can may any you your on".split()
)
_FR = frozenset(
    "le la les de des du et un une est dans que qui ou sur son sa ses ce cette joueur joueurs "
    "carte cartes sort capacité capacités chaque il elle pour au aux peut être par".split()
)
_WORD = re.compile(r"[a-zà-ÿ]+")


def scores(text: str) -> tuple[int, int]:
    en = fr = 0
    for word in _WORD.findall(text.lower()):
        if word in _EN:
            en += 1
        if word in _FR:
            fr += 1
    return en, fr


def detect(text: str, default: str = "en") -> str:
    en, fr = scores(text)
    if en == fr:
        return default
    return "en" if en > fr else "fr"


# Letters only French writes: one word with them ("Célérité") is evidence even
# when a text is too short to hold function words.
_FR_LETTERS = re.compile(r"[éèêëàâùûçôîï]")


def guess(text: str) -> str | None:
    """``en`` or ``fr``, or ``None`` when the text gives no evidence either way
    (a keyword title such as "Vigilance"). For per-rule decisions on bilingual
    pages, where a wrong default would put a rule in the wrong edition."""
    en, fr = scores(text)
    fr += len(_FR_LETTERS.findall(text.lower())) and 1
    if en == fr:
        return None
    return "en" if en > fr else "fr"

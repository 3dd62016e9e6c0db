"""Questions in English or French -> an intent and the terms it is about.

Only the common shapes are understood (DESIGN.md: "what is X", "who owns /
controls X", "is X a Y", "what are the Xs", "which rules mention X", and their
French forms). Anything else is :data:`UNKNOWN`: the caller says it cannot
answer and suggests ``define`` or ``query`` -- it never guesses.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Question:
    text: str
    language: str  # en | fr
    intent: str  # what-is | owner | controller | is-a | members | mentions | unknown
    subject: str = ""  # the term asked about, as written (articles dropped)
    other: str = ""  # is-a: the class asked about


_ART_EN = r"(?:an?|the)\s+"
_ART_FR = r"(?:(?:une|un|les|le|la|des|du|de la)\s+|(?:de l|l|d)['’]\s*)"

# (language, intent, pattern) -- first match wins; patterns see the question
# lower-cased, without the trailing punctuation.
_PATTERNS: list[tuple[str, str, re.Pattern]] = [
    ("en", "mentions", re.compile(rf"^(?:which|what) rules (?:mention|talk about|refer to|are about) (?:{_ART_EN})?(?P<x>.+)$")),
    ("en", "owner", re.compile(rf"^who (?:owns|is the owner of) (?:{_ART_EN})?(?P<x>.+)$")),
    ("en", "owner", re.compile(rf"^who is (?:{_ART_EN})?(?P<x>.+?)(?:'s|’s) owner$")),
    ("en", "controller", re.compile(rf"^who (?:controls|is the controller of) (?:{_ART_EN})?(?P<x>.+)$")),
    ("en", "controller", re.compile(rf"^who is (?:{_ART_EN})?(?P<x>.+?)(?:'s|’s) controller$")),
    ("en", "members", re.compile(r"^(?:what|which) (?:are|kinds of|types of)? ?(?:the )?(?:kinds of |types of )?(?P<x>.+?s) (?:are there|exist)$")),
    ("en", "members", re.compile(r"^(?:what|which) are (?:the|all the|the different) (?P<x>.+)$")),
    ("en", "members", re.compile(r"^(?:list|name) (?:the |all )?(?P<x>.+)$")),
    ("en", "is-a", re.compile(rf"^(?:is|are) (?:{_ART_EN})?(?P<x>.+?) (?:a kind of |a type of |an? )?(?:{_ART_EN})?(?P<y>[^ ]+(?: [^ ]+)?)$")),
    ("en", "what-is", re.compile(rf"^(?:what is|what's|what are|define|definition of) (?:{_ART_EN})?(?P<x>.+)$")),
    ("fr", "mentions", re.compile(rf"^quelles règles (?:mentionnent|parlent d[eu']|concernent) (?:{_ART_FR})?(?P<x>.+)$")),
    ("fr", "owner", re.compile(rf"^(?:qui est le propriétaire (?:de |d['’])|à qui appartient |qui possède )(?:{_ART_FR})?(?P<x>.+)$")),
    ("fr", "controller", re.compile(rf"^(?:qui est le contrôleur (?:de |d['’])|qui contrôle )(?:{_ART_FR})?(?P<x>.+)$")),
    ("fr", "members", re.compile(rf"^quel(?:le)?s sont (?:{_ART_FR})?(?P<x>.+)$")),
    ("fr", "is-a", re.compile(rf"^(?:{_ART_FR})?(?P<x>.+?) (?:est|sont)-(?:il|elle|ils|elles) (?:{_ART_FR})?(?P<y>.+)$")),
    ("fr", "is-a", re.compile(rf"^est-ce qu['’](?:{_ART_FR})?(?P<x>.+?) est (?:{_ART_FR})?(?P<y>.+)$")),
    ("fr", "what-is", re.compile(rf"^(?:qu['’]est-ce (?:qu['’]|que )|c['’]est quoi |définition (?:de |d['’])|définis )(?:{_ART_FR})?(?P<x>.+)$")),
]


def _clean(question: str) -> str:
    text = unicodedata.normalize("NFC", question).strip().lower()
    text = re.sub(r"\s+", " ", text)
    return text.rstrip(" ?!.")


def _strip_articles(term: str, language: str) -> str:
    article = _ART_FR if language == "fr" else _ART_EN
    term = re.sub(rf"^(?:{article})", "", term.strip())
    return term.strip(" \"'«»“”")


def parse(question: str) -> Question:
    text = _clean(question)
    for language, intent, pattern in _PATTERNS:
        m = pattern.match(text)
        if not m:
            continue
        subject = _strip_articles(m.group("x"), language)
        other = _strip_articles(m.groupdict().get("y") or "", language)
        if subject:
            return Question(question, language, intent, subject, other)
    from rulekb.ingest.language import detect

    return Question(question, detect(text), UNKNOWN)

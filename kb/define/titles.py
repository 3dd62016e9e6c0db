"""Titles of an edition's parts, sections and titled rules, and the title a citation quotes.

"See rule 701.63, "Endure."": a citation followed by a quoted title. When the cited number's
title is not the one quoted and another rule of the edition has that title, the citation
names one rule and quotes another (``kb.consistency.citations`` reports it); the definitions
(:func:`kb.define.defining.defining_rules`) read it as the rule whose title it quotes: the
2025-2026 glossary's "Endure ... See rule 702.62, "Endure."" is about 701.63 Endure, not
702.62 Suspend.
"""

from __future__ import annotations

import re

from rulekb.ingest import refs

QUOTED = re.compile(r"\s*,\s*[“\"]([^“”\"]{2,80}?)[,.;:]?[”\"]")
MAX_TITLE = 80  # a rule whose whole text is shorter than this and has no full stop inside is a title


def norm(title: str) -> str:
    """A title to compare: no case, punctuation, typography or leading article."""
    t = title.lower().replace("’", "'").replace("'s", "s")
    t = re.sub(r"[^a-z0-9/ ]+", " ", t)
    return " ".join(w for i, w in enumerate(t.split()) if i or w not in ("the", "a", "an"))


def titles(edition) -> dict[str, str]:
    """Number -> title: parts, sections and the rules whose text is a title."""
    out = {p.number: p.title for p in edition.parts}
    out.update({s.number: s.title for s in edition.sections})
    for rule in edition.rules:
        text = rule.text.strip()
        if text and len(text) < MAX_TITLE and not re.search(r"[.!?:]\s+\S", text) and not text.endswith("."):
            out.setdefault(rule.number, text)
    return out


def by_title(named: dict[str, str]) -> dict[str, list[str]]:
    """Normalised title -> the numbers of :func:`titles` that have it."""
    out: dict[str, list[str]] = {}
    for number, title in named.items():
        out.setdefault(norm(title), []).append(number)
    return out


def quoted(text: str, citation) -> str | None:
    """The title quoted right after ``citation`` (an ``ingest.refs`` citation) in ``text``, if any."""
    m = QUOTED.match(text, citation.end)
    if not m or len(citation.numbers) != 1:
        return None
    title = m.group(1).strip()
    return title if norm(title) else None


def repointed(text: str, named: dict[str, str], titled: dict[str, list[str]]) -> dict[str, str]:
    """Cited number -> the one number whose title the citation quotes instead of its own
    (``named``: :func:`titles`, ``titled``: :func:`by_title` of the same edition)."""
    out: dict[str, str] = {}
    for citation in refs.find(text or ""):
        title = quoted(text, citation)
        if title is None:
            continue
        number = citation.numbers[0]
        own = named.get(number)
        if own is None or norm(own) == norm(title):
            continue  # no title of its own (a sentence), or the right one
        others = [n for n in titled.get(norm(title), []) if n != number]
        if len(others) == 1:
            out[number] = others[0]
    return out

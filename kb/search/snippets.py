"""The snippet of a search hit: the text around the words the question matched, marked
``**word**`` (rules text has no ``**``), and its pieces for a template that escapes each."""

from __future__ import annotations

import re

from . import analysis

SNIPPET = 240  # characters around the marks
TOKEN = re.compile(r"\w+")

_TERMS: dict[str, dict[str, str | None]] = {lang: {} for lang in analysis.LANGS}


def memo(lang: str):
    """word -> its index term, remembered (the words of the rules are a few tens of thousands)."""
    seen = _TERMS.setdefault(lang, {})
    if len(seen) > 200_000:
        seen.clear()

    def term_of(word: str) -> str | None:
        found = seen.get(word, False)
        if found is False:
            found = seen[word] = analysis.word_term(word, lang)
        return found

    return term_of


def snippet(text: str, marks: set[str], lang: str, width: int = SNIPPET, term_of=None) -> str:
    """The text around the first marked words, marked ``**word**`` (rules text has no ``**``)."""
    term_of = term_of or memo(lang)
    marked = {w for w in set(TOKEN.findall(text)) if term_of(w) in marks}
    spans = [(m.start(), m.end()) for m in TOKEN.finditer(text) if m.group(0) in marked] if marked else []
    if len(text) <= width:
        start, end = 0, len(text)
    else:
        best, start = -1, 0
        for i, (s, _) in enumerate(spans):  # the window holding most marks
            n = sum(1 for s2, _ in spans[i:] if s2 < s + width)
            if n > best:
                best, start = n, s
        start = max(0, start - 40)
        if start:
            start = text.find(" ", start) + 1 or start
        end = min(len(text), start + width)
        if end < len(text):
            end = text.rfind(" ", start, end) if text.rfind(" ", start, end) > start else end
    merged: list[list[int]] = []  # "**wind step**", not "**wind** **step**"
    for s, e in spans:
        if merged and not text[merged[-1][1]:s].strip():
            merged[-1][1] = e
        else:
            merged.append([s, e])
    out, pos = [], start
    for s, e in merged:
        if s < start or e > end:
            continue
        out.append(text[pos:s] + "**" + text[s:e] + "**")
        pos = e
    out.append(text[pos:end])
    return ("…" if start > 0 else "") + "".join(out) + ("…" if end < len(text) else "")


def segments(marked: str) -> list[tuple[str, bool]]:
    """A snippet as (text, marked) pieces, for a template that escapes each."""
    parts = marked.split("**")
    return [(part, i % 2 == 1) for i, part in enumerate(parts) if part]

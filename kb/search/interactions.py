"""Two cards whose effects meet: the rules' own section on how those effects interact.

A judge's question naming two cards that each replace an event ("Rest in Peace" and "Leyline of
the Void": which applies?) is settled by the section the rules give to the interaction of
replacement effects, not by either card's own rules; two cards whose static abilities both
change what an object is ("Blood Moon" and "Urborg") by the section on the interaction of
continuous effects (the layers). The rules title those sections themselves ("613. Interaction of
Continuous Effects", "616. Interaction of Replacement and/or Prevention Effects"), so the
sections are read from the index of the edition searched, not listed here: a section whose title
starts "Interaction of" holds a kind of ability shape (:data:`kb.cards.link.SHAPES`) when its
title names the first word of that shape's concept ("Replacement Effect" -> "replacement").

A static ability counts as the continuous effect it creates (rule 604.2: "Static abilities
create continuous effects, some of which are prevention effects or replacement effects"): the
static text of a card that replaces or prevents (and has no "as long as") is read as that
replacement. When two or more of the cards a question names have shapes held by
one such section, the search weighs that section as if the question had cited it
(:data:`kb.search.rank.SECTION`, its first rule :data:`kb.search.rank.SECTION_FIRST`).
"""

from __future__ import annotations

import re

from tantivy import Occur, Query

from . import rank

TITLE = "Interaction of"
CREATES = {"static": "continuous"}  # rule 604.2: a static ability creates a continuous effect
REPLACING = {"replacement", "prevention"}  # "some of which are prevention effects or replacement effects" (604.2)
MIN_CARDS = 2


def sections(searcher, schema, edition: str | None, concepts: dict) -> dict[str, tuple[str, str]]:
    """shape -> (section number, its title) for the edition's "Interaction of ..." sections."""
    from ..cards.link import SHAPES

    if not edition:
        return {}
    query = Query.boolean_query([(Occur.Must, rank.exact(schema, "editions", edition)),
                                 (Occur.Must, rank.exact(schema, "titles_en", "interact"))])
    titles: dict[str, str] = {}
    for _, addr in searcher.search(query, limit=200, count=False).hits:
        doc = searcher.doc(addr).to_dict()
        title = (doc.get("titles_en") or [""])[0]
        section = (doc.get("section") or [""])[0]
        if section and title.startswith(TITLE):
            titles.setdefault(section, title)
    titles = _own_titles(searcher, schema, edition, titles)
    out: dict[str, tuple[str, str]] = {}
    for shape, key in SHAPES.items():
        labels = concepts.get(key, {}).get("labels", {}).get("en") or []
        head = CREATES.get(shape) or (labels[0].split()[0].lower() if labels else "")
        for section, title in sorted(titles.items()):
            if head and re.search(rf"\b{re.escape(head)}\b", title[len(TITLE):], re.IGNORECASE):
                out[shape] = (section, title)
                break
    return out


def _own_titles(searcher, schema, edition: str, titles: dict[str, str]) -> dict[str, str]:
    """Each section's own title: the index's titles field is the section's title then its part's
    ("Interaction of Continuous Effects Spells, Abilities, and Effects"); the part's title is what
    every section of the part ends with."""
    out = {}
    for part in sorted({section[:1] for section in titles}):
        numbers = [f"{part}{n:02d}" for n in range(100)]
        query = Query.boolean_query([(Occur.Must, rank.exact(schema, "editions", edition)),
                                     (Occur.Must, Query.boolean_query([(Occur.Should, rank.exact(schema, "section", n))
                                                                       for n in numbers]))])
        seen: dict[str, str] = {}
        for _, addr in searcher.search(query, limit=5000, count=False).hits:
            doc = searcher.doc(addr).to_dict()
            seen.setdefault((doc.get("section") or [""])[0], (doc.get("titles_en") or [""])[0])
        tails = [t.split() for t in seen.values() if t]
        common = 0
        while tails and all(len(t) > common + 1 for t in tails) and len({tuple(t[len(t) - common - 1:]) for t in tails}) == 1:
            common += 1
        for section, title in titles.items():
            if section[:1] == part:
                words = title.split()
                out[section] = " ".join(words[:len(words) - common]) if len(tails) > 2 else title
    return out


def among(cards: list[dict], held: dict[str, tuple[str, str]], edition: str | None) -> dict[str, dict]:
    """section -> {"section", "title", "edition", "cards"}: the sections of ``edition`` (``held``:
    :func:`sections`) two or more of ``cards`` meet in."""
    met: dict[str, dict] = {}
    for card in cards:
        shapes = list(card.get("brought", {}).get("shapes", []))
        if set(shapes) & REPLACING and "continuous" not in shapes:  # its static text is the replacement it creates
            shapes = [shape for shape in shapes if shape != "static"]
        for shape in shapes:
            if shape in held:
                section, title = held[shape]
                names = met.setdefault(section, {"section": section, "title": title, "edition": edition,
                                                 "cards": []})["cards"]
                if card["name"] not in names:
                    names.append(card["name"])
    return {s: m for s, m in met.items() if len(m["cards"]) >= MIN_CARDS}

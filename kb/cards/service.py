"""Answers about cards, re-exported by the facade (kb.service): a card by name (``rulekb card``)
or by slug (its page), with the rules that govern it as the store holds them (named query
card-rules); the cards a rule governs and how many (cards-governed-by-rule, -count)."""

from __future__ import annotations

from ..errors import NotFound


def _index(store):
    from ..search.engine import searcher_for

    searcher = searcher_for(store)
    if searcher.cards is None or not len(searcher.cards):
        raise NotFound("this KB was built without cards (rulekb fetch --cards, or a card file in the corpus's cards/, "
                       "then rulekb build)")
    return searcher


def card(store, name: str) -> dict:
    """A card by its name, a face's, a legendary's short name, its name's first word(s) when no other
    card's name begins so, or a near spelling: its Oracle text, types, keywords, ability shapes and
    the rules that govern it. Words several cards' names begin with are :class:`NotFound` naming them
    ("Lightning": Lightning Bolt, Lightning Helix ..., not Blightning by its spelling)."""
    from .names import norm

    searcher = _index(store)
    cards = searcher.cards
    text = " ".join(str(name or "").replace("[", " ").replace("]", " ").split())
    if not norm(text):
        raise NotFound("give a card name, e.g. rulekb card \"Platinum Angel\"")
    if len(text) > 200:
        raise NotFound(f"no card is named so ({len(text):,} characters): a card name is at most a few words")
    hit = cards.lookup(text)
    how = hit[1] if hit else None
    if hit is None:  # a name's first word, or a short name several legends share
        options = cards.meanings(text)
        if len(options) == 1:
            how = "short name"
            hit = (options[0], how)
        elif options:
            raise NotFound(_many(text, [cards.details(o)["name"] for o in options]))
    if hit is None:  # the first words of several cards' names ("Lightning"), before a near spelling (Blightning)
        begun = cards.beginning(text)
        if len(begun) == 1:
            hit = (begun[0], "first words")
            how = hit[1]
        elif begun:
            raise NotFound(_many(text, [cards.details(o)["name"] for o in begun]))
    index = hit[0] if hit else cards.near(text)
    if index is None:
        raise NotFound(f"no card named {text[:80]!r} (rulekb search finds cards in questions; names are Oracle's English "
                       "names, and French ones where the card file has them)")
    return _answer(store, searcher, cards.details(index), how or "spelling", text)


def _many(text: str, names: list[str]) -> str:
    shown = "; ".join(names[:6]) + (f"; and {len(names) - 6} more" if len(names) > 6 else "")
    return f"{text[:80]!r} may be any of {len(names)} cards: {shown} (give the whole name)"


def card_by_slug(store, slug: str) -> dict | None:
    """The card of ``{base}card/{slug}``, or None."""
    try:
        searcher = _index(store)
    except NotFound:
        return None
    details = searcher.cards.by_slug(slug)
    return None if details is None else _answer(store, searcher, details, "iri", slug)


def _answer(store, searcher, details: dict, how: str, asked: str) -> dict:
    from ..store.queries import run

    iri = searcher.minter.card(details["slug"])
    why = {number: reason for number, reason in details.get("rules", [])}
    rules = []
    for row in run(store, "card-rules", card=iri):
        if any(r["rule"] == row["number"] for r in rules):
            continue
        rules.append({"rule": row["number"], "edition": row["edition"], "text": row.get("text", ""),
                      "why": why.get(row["number"], row.get("why", "")), "iri": row["rule"]})
    order = {number: i for i, number in enumerate(why)}
    rules.sort(key=lambda r: (order.get(r["rule"], len(order)), r["rule"]))
    return {"name": details["name"], "name_fr": details.get("name_fr", ""), "iri": iri, "asked": asked, "how": how,
            "type_line": details.get("type_line", ""),
            "mana_cost": details.get("mana_cost", ""), "text": details.get("text", ""),
            "power": details.get("power"), "toughness": details.get("toughness"),
            "faces": details.get("faces", []), "edition": details.get("edition"),
            "keywords": details.get("keywords", []), "types": details.get("types", []),
            "shapes": details.get("shapes", []), "mentions": details.get("mentions", []), "rules": rules}


def cards_governed_by_rule(store, edition: str, number: str) -> list[dict]:
    """The cards a rule governs (named query cards-governed-by-rule)."""
    from ..store.queries import run

    return run(store, "cards-governed-by-rule", edition=edition, number=number)


def cards_governed_count(store, edition: str, number: str) -> int:
    """How many cards a rule governs (0 for a KB built without cards)."""
    from ..store.queries import run

    rows = run(store, "cards-governed-count", edition=edition, number=number)
    return int(rows[0].get("cards") or 0) if rows else 0

"""The rows of the rule page's queries kept per rule version (see the package doc): what a
page would otherwise ask the store for the rules that have any.

- :data:`KEYED`: ``rule-references``, ``rule-referenced-by``, ``rule-examples`` and
  ``rule-consistency``, for each (edition, number) page-flags names for them (about 150,000 of
  the full KB's 245,596 keys), by :func:`kb.pages.data.batch_rows` (the named query itself, a
  VALUES block of 200 keys): every other key has no row, as before.
- the rows of ``rule``, ``rule-concepts``, ``rule-siblings`` and ``rule-children`` for the keys
  the rest of the file leaves to the store (a rule not placed, of no single lineage or known
  wording, with a printed number or a mention of its own: about 16,000 keys of the full KB), and
  ``rule-translation-of`` for the French rules, all of them for a rule the file has no row of
  (``page-rules``: a French rule outside any lineage, not placed) (:func:`kb.pages.data.fallback_batches`). Not the
  lineage queries of a key of several lineages: a new edition changes them (``build --add``).
- :data:`CARDS`: ``cards-governed-count`` of every placed rule, counted from the rows of
  ``page-cards-governed`` (each card with each rule governing it; each such rule's lineage and key).
  The named query counts the distinct cards of the rules reached from the asked rule or its
  parent (``rk:parent?``) by itself or a shared lineage (``(rk:lineage/^rk:lineage)?``): so the
  cards of the rule's key and its parent's key, and of every lineage of either. A key carried
  by several nodes (page-flags' twice), on either side, is left to the store (NULL).
"""

from __future__ import annotations

KEYED = {"rule-examples": "examples", "rule-referenced-by": "cited", "rule-consistency": "findings",
         "rule-references": "cites"}
CARDS = "cards-governed-count"
TRANSLATED = "rule-translation-of"  # a French rule's page: answered from the rows kept for the key only
GOVERNED = "page-cards-governed"
EVERY = "page-rules"  # every rule's key: those the file knows nothing else of get the rows of every query


def card_counts(governed: list[dict], lineages: dict[tuple[str, str], set[str]],
                parents: dict[tuple[str, str], str], twice: set) -> dict[tuple[str, str], int | None]:
    """(edition, number) -> how many cards its rule page shows, for every key of ``parents``
    (placed rules: one node, one parent); None where a key several nodes carry is involved."""
    by_key: dict[tuple[str, str], set[str]] = {}
    by_lineage: dict[str, set[str]] = {}
    cards_of: dict[str, set[str]] = {}  # rule -> its cards (the rows of the first kind)
    for row in governed:
        if "card" in row:
            cards_of.setdefault(row["rule"], set()).add(row["card"])
    for row in governed:  # (the rows of the second kind: where each rule is)
        if "lineage" in row:
            by_lineage.setdefault(row["lineage"], set()).update(cards_of.get(row["rule"], ()))
        elif "number" in row:
            by_key.setdefault((row["edition"], row["number"]), set()).update(cards_of.get(row["rule"], ()))
    out: dict[tuple[str, str], int | None] = {}
    for key, parent_number in parents.items():
        parent = (key[0], parent_number)
        if key in twice or parent in twice:
            out[key] = None
            continue
        cards = set(by_key.get(key, ())) | by_key.get(parent, set())
        for lineage in lineages.get(key, set()) | lineages.get(parent, set()):
            cards |= by_lineage.get(lineage, set())
        out[key] = len(cards)
    return out


def card_counts_of_file(db, governed: list[dict]) -> dict[tuple[str, str], int | None]:
    """:func:`card_counts` from what a page data file keeps (``build --add``: every count again,
    since a new newest English edition moves every card's links): each placed key's parent
    (rules.parent) and lineage (rules.lineage, a number of the lineages table); a key, or a
    parent, of several lineages is left to the store (NULL)."""
    iris = dict(db.execute("SELECT id, iri FROM lineages"))
    lineages: dict[tuple[str, str], set[str]] = {}
    several: set[tuple[str, str]] = set()
    parents: dict[tuple[str, str], str] = {}
    for edition, number, lineage, parent in db.execute("SELECT edition, number, lineage, parent FROM rules"):
        key = (edition, number)
        if lineage is not None and lineage < 0:
            several.add(key)
        elif lineage is not None:
            lineages[key] = {iris[lineage]}
        if parent is not None:
            parents[key] = parent
    counts = card_counts(governed, lineages, parents, set())
    return {key: None if key in several or (key[0], parents[key]) in several else count
            for key, count in counts.items()}

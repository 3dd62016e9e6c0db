"""What the named cards bring, ranked by the question's meaning (a list of the fusion:
:data:`kb.search.rank.RRF_BROUGHT`).

The rules that define what the named cards bring (their keywords, kinds and shapes of ability:
:data:`kb.search.rank.BROUGHT`), ranked by how close each is in meaning to the question: of a
card's several abilities, the one the question is about ("can I move my Sword onto ..." and the
equip rule, not protection's).
"""

from __future__ import annotations

from tantivy import Occur, Query

from . import rank


def ranked(searcher, u, arm, vector, edition: str | None, lang: str, unit, docs: dict) -> dict[str, int]:
    """``unit`` -> rank of the nearest :data:`kb.search.rank.BROUGHT_TOP` such rules of ``searcher``'s
    index (a :class:`kb.search.engine.Searcher`); their documents go into ``docs``."""
    keys = [k for k in u.card_concepts if u.card_how.get(k, "keyword") in rank.BROUGHT and k not in u.concepts]
    if not keys or rank.RRF_BROUGHT <= 0:
        return {}
    held_in = edition or searcher.default_edition(lang)  # across editions: the lineages of the newest's rules
    if not held_in:
        return {}
    query = Query.boolean_query([
        (Occur.Must, Query.const_score_query(rank.exact(searcher.schema, "editions", held_in), 0.0)),
        (Occur.Must, Query.boolean_query([(Occur.Should, rank.exact(searcher.schema, "defines", k)) for k in keys])),
        (Occur.MustNot, rank.exact(searcher.schema, "kind", "glossary"))])
    rows = arm.row_of()
    found = []
    for _, addr in searcher.searcher.search(query, limit=rank.BROUGHT_DEPTH, count=False).hits:
        doc = searcher.searcher.doc(addr).to_dict()
        row = rows.get(doc["key"][0])
        if row is not None:
            found.append((-float(arm.vectors[row] @ vector), doc["key"][0], doc))
    found.sort(key=lambda r: r[:2])
    out: dict[str, int] = {}
    for _, _, doc in found:
        k = unit(doc)
        if k not in out and len(out) < rank.BROUGHT_TOP:
            out[k] = len(out) + 1
            docs.setdefault(k, doc)
    return out

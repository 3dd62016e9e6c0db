"""The rules the best results refer to.

A judge's question about two cards is settled by several rules, and the rules cite each other
where their matters meet: the rule on a blocked creature's damage points to the one on removing
it from combat, a keyword's rule to the state-based action it leads to. Once the fused ranking
has put its best results first, the rules those results cite (their "See rule ..." citations,
read as the KB reads them: :func:`rulekb.ingest.refs.cited_numbers`) are a further list of the
fusion (:data:`kb.search.rank.RRF_REFERRED`), ranked by how high the results citing them stand.
Only for questions that name a card: a card-free question is most often settled by one rule,
and on the card-free tuning parts the list cost two questions.
"""

from __future__ import annotations

from tantivy import Occur, Query

from rulekb.ingest.refs import cited_numbers

from . import rank

FROM_BEST = 5  # the first results whose citations make the list


def referred(best: list[tuple[str, str]]) -> list[tuple[str, list[str]]]:
    """(rule number, the numbers of the results citing it) for the rules ``best`` ((number, text)
    of the first results, best first) cite, ranked by the sum over the citing results of one over
    their rank (the first cited first at a tie); sections and a result's citation of itself left out."""
    weight: dict[str, float] = {}
    by: dict[str, list[str]] = {}
    for position, (number, text) in enumerate(best, start=1):
        for cited in cited_numbers(text or ""):
            if "." not in cited or cited == number:
                continue
            weight[cited] = weight.get(cited, 0.0) + 1.0 / position
            if number not in by.setdefault(cited, []):
                by[cited].append(number)
    return [(number, by[number]) for number in sorted(weight, key=lambda n: -weight[n])]


def ranked(searcher, u, ordered: list[str], docs: dict, near: dict, edition: str | None, lang: str,
           unit, grouped: bool) -> dict[str, tuple[int, list[str]]]:
    """``unit`` -> (rank, the first results citing it) for the rules the first results of a question
    naming a card cite, in ``searcher``'s index (a :class:`kb.search.engine.Searcher`; ``ordered``
    the fused ranking's units, ``docs`` and ``near`` what it read); their documents go into ``docs``.
    Across editions, the rules of the newest edition (their lineages)."""
    if not u.cards or rank.RRF_REFERRED <= 0:
        return {}
    best = ordered[:FROM_BEST]
    searcher.fill_docs(best, docs, near, grouped)
    found = referred([(docs[k]["number"][0], (docs[k].get(f"text_{lang}") or [""])[0]) for k in best if k in docs])
    held_in = edition or searcher.default_edition(lang)
    if not found or not held_in:
        return {}
    schema = searcher.schema
    query = Query.boolean_query([
        (Occur.Must, rank.exact(schema, "editions", held_in)),
        (Occur.Must, rank.exact(schema, "kind", "rule")),
        (Occur.Must, Query.boolean_query([(Occur.Should, rank.exact(schema, "number", n)) for n, _ in found]))])
    by_number: dict[str, dict] = {}
    for _, addr in searcher.searcher.search(query, limit=len(found) * 2, count=False).hits:
        doc = searcher.searcher.doc(addr).to_dict()
        by_number.setdefault(doc["number"][0], doc)
    out: dict[str, tuple[int, list[str]]] = {}
    for number, citing in found:
        doc = by_number.get(number)
        if doc is not None and unit(doc) not in out:
            out[unit(doc)] = (len(out) + 1, citing)
            docs.setdefault(unit(doc), doc)
    return out

"""Changes of meaning between consecutive editions, stored in the KB (kb.rdf.meaning_changes)
and asked for with SPARQL: the named queries `contradictions` and `meaning-changes`."""

from __future__ import annotations

from rulekb.kb.store import queries


def _rows(store, name, **params):
    query = queries.get(name)
    return store.select(query.text, query.bindings(params))


def test_the_kb_holds_the_changes_of_meaning(corpus_kb):
    store, report = corpus_kb
    assert report.meaning_changes > 300
    high = _rows(store, "contradictions")
    # The token's owner changed twice: at the 2009 restructure and in July 2018 (110.5a both times).
    owner = [r for r in high if r.get("aspect") == "owner" and (r.get("concept_label") or "").lower() == "token"]
    assert {(r["from"], r["to"]) for r in owner} >= {("en/2009-05-01", "en/2009-07-08"), ("en/2018-06-08", "en/2018-07-13")}
    july = next(r for r in owner if r["to"] == "en/2018-07-13")
    assert (july["old_rule"], july["new_rule"]) == ("110.5a", "110.5a")


def test_a_concepts_definition_through_time(corpus_kb):
    store, _ = corpus_kb
    rows = _rows(store, "meaning-changes", concept="http://localhost:8000/concept/supertype")
    added = {m for r in rows for m in (r.get("added_members") or "").split(", ") if m}
    assert "ongoing" in added  # Archenemy, 2010


def test_every_change_of_meaning_is_well_formed(corpus_kb):
    store, _ = corpus_kb
    bad = store.select(queries.prefixes() + """
        SELECT ?c WHERE { ?c a rk:MeaningChange .
          FILTER NOT EXISTS { ?c rk:meaningChangeKind ?k ; rk:severity ?s ; rk:fromEdition ?f ; rk:toEdition ?t } }""")
    assert bad == []

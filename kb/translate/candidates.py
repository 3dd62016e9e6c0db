"""The candidate English editions ``--base auto`` scores, read from the build's page data.

Why: to say which English edition a French text translates, the report scores about twenty
candidate editions (:mod:`.base`), and reading each one back from the store took a quarter of
a second (5 of the 6 seconds a worklist took with ``--base auto`` on the full KB). Yet
consecutive editions share most of their texts, and the page data the build writes beside the
store (:mod:`kb.pages`) already holds, for every rule version, its lineage and which of the
lineage's wordings it prints (a wording is one number and one text, kept once:
``lineage-versions``' rows), and which rule versions have examples (``page-flags``). So the
twenty editions are read as: one SQLite read of their rule versions, the text of each distinct
wording once (about 5,400 for 33,000 rule versions), and the examples of the versions flagged
as having some, from the store in one query (they may differ within a wording).

Only the sections scoring reads are read (:func:`scored_sections`: each French rule's section
and the two beside it): a forum page quoting two rules is scored against every English edition
(it has no date), two or three sections of each.

The editions read here hold exactly what :func:`kb.rdf.stored_edition.stored_edition` gives with
``rules_only`` for scoring -- each rule's number, text and examples, in the sections asked for
(the corpus test compares them on every English edition of the KB) -- but not the rules'
order, parent or printed number: they are for scoring only; the chosen base is read from the
store as before.

None (read them from the store) when the build has no page data (a remote store, a file of an
older layout) or the page data's rows are not those of today's named queries."""

from __future__ import annotations

from rulekb.ingest.model import Edition, Rule

RULE_BATCH = 500  # keys per VALUES query (the examples, the few texts no wording holds)


def candidate_editions(store, rows: list[dict], sections: set[str] | None = None, data=None) -> list[Edition] | None:
    """The editions of ``rows`` (:func:`english_rows`' rows: ``edition``, ``language``,
    ``effective_date``) with their rules' number, text and examples, from the page data of
    ``store``'s build (or ``data``: a :class:`kb.pages.reading.PageData`); None when it cannot
    answer. ``sections``: only the rules of those sections (:func:`scored_sections`)."""
    from ..pages.data import KIND_BIT, PLACED, SEVERAL
    from ..pages.reading import for_store

    data = for_store(store) if data is None else data
    if data is None or not {"lineage-versions", "rule-examples"} <= data.answers:
        return None
    ids = [row["edition"] for row in rows]
    if data.editions_held(ids) != set(ids):
        return None  # an edition the page data lacks: read them all from the store, as before
    versions = data.rule_versions(ids, sections)
    texts = data.wording_texts(ids, sections)
    examples = data.examples(ids, sections)  # kept by the build (kb.pages.examples)
    if examples is None:  # a file written before they were: from the store
        flagged = [(edition, number) for edition, number, _, flags, _ in versions
                   if (flags or 0) & KIND_BIT["examples"]]
        if len(flagged) <= RULE_BATCH:  # a few sections' examples: those rules' (named query rule-examples)
            examples = {key: [row["text"] for row in found] for key, found in _batched(store, "rule-examples",
                                                                                        flagged).items()}
        else:
            examples = _examples(store, ids)
    by_id = {row["edition"]: Edition(id=row["edition"], language=row.get("language", "en"),
                                     effective_date=row.get("effective_date"), title="") for row in rows}
    shared: dict[tuple, Rule] = {}  # one Rule for a wording printed alike (same examples) by several editions
    unknown: list[tuple[str, str]] = []  # no wording holds the text: asked from the store
    for edition, number, lineage, flags, wording in versions:
        if lineage is None and not (flags or 0) & PLACED:
            continue  # not a rule of the edition (a heading that is cited)
        text = texts.get((lineage, wording)) if lineage is not None and lineage != SEVERAL else None
        if text is None:
            unknown.append((edition, number))
            by_id[edition].rules.append(Rule(number=number, text=""))
            continue
        own = examples.get((edition, number), ()) if (flags or 0) & KIND_BIT["examples"] else ()
        key = (lineage, wording, *own)
        rule = shared.get(key)
        if rule is None:
            rule = shared[key] = Rule(number=number, text=text, examples=list(own))
        by_id[edition].rules.append(rule)
    if unknown:
        rows_of = _batched(store, "rule", unknown)
        for edition in {e for e, _ in unknown}:
            asked = {number for e, number in unknown if e == edition}
            # the store's answer, or no rule at all (the store's edition has no such rule)
            by_id[edition].rules = [rule if rule.number not in asked else
                                    Rule(number=rule.number, text=rows_of[(edition, rule.number)][0].get("text") or "",
                                         examples=list(examples.get((edition, rule.number), ())))
                                    for rule in by_id[edition].rules
                                    if rule.number not in asked or rows_of.get((edition, rule.number))]
    return list(by_id.values())


def english_rows(store) -> list[dict]:
    """The KB's complete, dated English editions, oldest first (``edition``,
    ``effective_date``). Why the named query ``edition-graphs`` and not ``editions``: the
    latter counts every edition's rules, most of a second on the full KB, for nothing here.
    ``store``: a store or a callable giving it."""
    from ..store.queries import run

    rows: dict[str, dict] = {}
    for row in run(store() if callable(store) else store, "edition-graphs"):
        if row["language"] == "en" and row.get("partial") != "true" and row.get("effective_date"):
            rows.setdefault(row["edition"], row)
    return sorted(rows.values(), key=lambda e: (e["effective_date"], e["edition"]))


def scored_sections(numbers) -> set[str]:
    """The English sections scoring French rules of these ``numbers`` reads
    (:func:`kb.translate.base.edition_scores`): each rule's section (its number before the first
    dot: the English rule of the same number) and, for a numeric section, the two beside it (where
    a rule that scores low is looked for, moved)."""
    out: set[str] = set()
    for number in numbers:
        section = number.split(".")[0]
        out.add(section)
        if section.isdigit():
            out.update(str(int(section) + d) for d in (-1, 0, 1))
    return out


def _batched(store, name: str, keys: list[tuple[str, str]]) -> dict[tuple[str, str], list[dict]]:
    from ..pages.data import batch_rows

    out: dict[tuple[str, str], list[dict]] = {}
    for start in range(0, len(keys), RULE_BATCH):
        out.update(batch_rows(store, name, keys[start:start + RULE_BATCH]))
    return out


def _examples(store, editions: list[str]) -> dict[tuple[str, str], list[str]]:
    """(edition, number) -> its examples in order, for every rule of ``editions`` that has some:
    one query, from the examples (named query ``edition-examples-flagged``, a VALUES block of
    the editions): 0.3 s for twenty editions where asking rule by rule took twice as long."""
    import re

    from ..store import queries

    text = queries.get("edition-examples-flagged").text
    block = "VALUES ?edition { " + " ".join(_literal(e) for e in editions) + " }"
    text = re.sub(r"\bWHERE\s*\{", lambda m: f"{m.group(0)}\n  {block}\n", text, count=1)
    out: dict[tuple[str, str], list[str]] = {}
    for row in store.select(text):
        out.setdefault((row["edition"], row["number"]), []).append(row["text"])
    return out


def _literal(value: str) -> str:
    import pyoxigraph as ox

    return str(ox.Literal(value))

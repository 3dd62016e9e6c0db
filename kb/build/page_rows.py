"""The page data's biggest rows, made from what the build holds in memory (kb.pages)."""

from __future__ import annotations

import pyoxigraph as ox

from rulekb.ingest.model import Edition

from ..consistency import store as consistency_store
from ..rdf import concepts as concept_layer
from ..rdf.edition import structure_rows
from ..rdf.iris import Minter
from ..rdf.lineage import lineage_rows
from ..rdf.vocab import RK


def page_rows(editions: list[Edition], chained, mint: Minter, matchers: dict, stated: dict,
               consistent) -> dict[str, list[dict]]:
    """The rows of page-structure, page-lineages and page-flags as the new store answers them,
    from what this build wrote (kb.rdf.edition.structure_rows, kb.rdf.lineage.lineage_rows,
    the rules that state their own mentions, the places the consistency findings involve):
    the page data need not ask the store for 590,000 rows it was just given."""
    structure, flags, numbers = [], [], {}
    for edition in editions:
        rows, numbers[edition.id], stated_flags = structure_rows(edition, mint)
        structure.extend(rows)
        flags.extend(stated_flags)
    edition_of = {node: edition for edition, nodes in numbers.items() for node in nodes}

    def flag(nodes, what: str) -> None:
        found = {(edition_of[node], number) for node in nodes if node in edition_of
                 for number in numbers[edition_of[node]][node]}
        flags.extend({"edition": e, "number": n, "what": what} for e, n in sorted(found))

    flag((mint.rule(edition.id, rule.number) for edition in editions
          for rule, _ in concept_layer.rule_mentions(edition, matchers[edition.language], stated.get(edition.id))),
         "mentions")
    involves = ox.NamedNode(str(RK.involvesRule))
    flag((quad.object.value for quad in consistency_store.quads(consistent, mint) if quad.predicate == involves),
         "findings")
    return {"page-structure": structure, "page-lineages": lineage_rows(chained, mint, numbers), "page-flags": flags}

"""The wordings of every lineage, as the build stores them (graph/lineage)::

    <lineage/en/2003-07-01/200.5a/wording/3> a rk:Wording ;
        dcterms:isVersionOf <lineage/en/2003-07-01/200.5a> ;
        rk:wordingNumber "111.2" ; rk:wordingEditions 4 ;
        rk:firstVersion <edition/en/2009-07-11/rule/111.2> ;
        rk:lastVersion <edition/en/2009-10-01/rule/111.2> ;
        rk:inForceFrom "2009-07-11"^^xsd:date ; rk:inForceUntil "2010-01-01"^^xsd:date ;
        dcterms:replaces <lineage/en/2003-07-01/200.5a/wording/2> ;
        rk:firstEdition <edition/en/2009-07-11> ;
        rk:introducedBy <change/en/2009-07-11/111.2..111.2> .
    # and on the last wording of a lineage that ended: rk:endedBy <change/en/2014-07-18/702.9..>

A wording is a maximal run of consecutive editions (the build's chain order: effective date,
then id) in which the lineage's rule has the same number and exactly the same text. It is in
force from the effective date of its first edition until (exclusive) the effective date of the
edition after its last one -- the edition that reworded, renumbered or removed it; the wording
of the newest edition has no end. Two editions stating the same effective date (en/2009-07-08
and en/2009-07-11 both state 2009-07-11) follow each other in that order, so a wording only
the first has is in force for no day: the later publication of a date is the one in force,
exactly as :mod:`kb.timeline.editions` resolves dates.

Per wording, not per edition: about 10 triples for each of some 20,000 wordings, where a row per
edition and rule would be half a million. The three links (rk:firstEdition, rk:introducedBy,
rk:endedBy) are there for the queries: ``rules-changed-between`` starts from the editions of its
window and reads each wording's own change, ``lineage-versions`` reads how a wording came and
how its lineage ended without joining the changes of the KB. ``introducedBy`` is the change the
alignment made into the wording's first version, leaving out a merged change (the rule another
went into says how it changed itself) and an added change beside a split one (said once, as
split); ``endedBy``, the removed or merged change from its last version (merged where both).
"""

from __future__ import annotations

from collections.abc import Iterator

import pyoxigraph as ox
from rdflib.namespace import DCTERMS, RDF, XSD

from ..rdf.iris import Minter
from ..rdf.vocab import RK

TYPE = ox.NamedNode(str(RDF.type))
XSD_DATE = ox.NamedNode(str(XSD.date))
XSD_INTEGER = ox.NamedNode(str(XSD.integer))
IS_VERSION_OF = ox.NamedNode(str(DCTERMS.isVersionOf))
REPLACES = ox.NamedNode(str(DCTERMS.replaces))
C = {name: ox.NamedNode(str(getattr(RK, name))) for name in (
    "Wording", "wordingNumber", "wordingEditions", "firstVersion", "lastVersion", "inForceFrom", "inForceUntil",
    "firstEdition", "introducedBy", "endedBy",
)}
INTRODUCING = ("renumbered", "modified", "added", "split")
ENDING = ("removed", "merged")


def introducing(pairs, number: str) -> list:
    """The pairs of an alignment that brought rule ``number`` of its newer edition in (the
    wording's rk:introducedBy): not merged; an added one only where no split one is."""
    found = [p for p in pairs if p.new == number and p.kind in INTRODUCING]
    if any(p.kind == "split" for p in found):
        found = [p for p in found if p.kind != "added"]
    return found


def ending(pairs, number: str) -> list:
    """The pairs of an alignment that ended rule ``number`` of its older edition (rk:endedBy):
    the merged ones, else the removed one."""
    found = [p for p in pairs if p.old == number and p.kind in ENDING]
    merged = [p for p in found if p.kind == "merged"]
    return merged or found


def _by_number(pairs, side: str) -> dict[str, list]:
    """The pairs by their number on ``side`` ("old" or "new"), each list in the pairs' order."""
    out: dict[str, list] = {}
    for pair in pairs:
        out.setdefault(getattr(pair, side), []).append(pair)
    return out


def runs(numbers: dict[str, str], text_of) -> list[list[str]]:
    """The editions of a lineage (``{edition: number}``, chain order) cut into runs of the
    same number and text: ``[[edition, ...], ...]``. ``text_of(edition, number)``."""
    out: list[list[str]] = []
    key = None
    for edition, number in numbers.items():
        this = (number, text_of(edition, number))
        if out and this == key:
            out[-1].append(edition)
        else:
            out.append([edition])
            key = this
    return out


def wording_quads(found, texts: dict[str, dict[str, str]], dates: dict[str, str | None], mint: Minter,
                  graph: str) -> Iterator[ox.Quad]:
    """The rk:Wording nodes of every lineage of ``found`` (:class:`kb.align.Lineages`).

    ``texts``: edition id -> {number: text}; ``dates``: edition id -> effective date."""
    g = ox.NamedNode(graph)
    following: dict[str, str] = {a.old: a.new for a in found.alignments}
    # edition -> number -> the pairs that led to it (into) or out of it (out_of), in order: a
    # wording looks up its own, not every pair of the alignment (20,000 wordings x 2,000 pairs)
    into: dict[str, dict[str, list]] = {a.new: _by_number(a.pairs, "new") for a in found.alignments}
    out_of: dict[str, dict[str, list]] = {a.old: _by_number(a.pairs, "old") for a in found.alignments}
    editions: dict[str, ox.NamedNode] = {}

    def edition(edition_id: str) -> ox.NamedNode:
        node = editions.get(edition_id)
        if node is None:
            node = editions[edition_id] = ox.NamedNode(mint.edition(edition_id))
        return node

    def text_of(edition: str, number: str) -> str | None:
        return texts.get(edition, {}).get(number)

    def date(edition: str | None) -> ox.Literal | None:
        value = dates.get(edition) if edition else None
        return ox.Literal(value, datatype=XSD_DATE) if value else None

    for lid, lineage in found.lineages.items():
        work = ox.NamedNode(mint.lineage(lid))
        previous = None
        for index, run in enumerate(runs(lineage.numbers, text_of), start=1):
            node = ox.NamedNode(mint.wording(lid, index))
            number = lineage.numbers[run[0]]
            yield ox.Quad(node, TYPE, C["Wording"], g)
            yield ox.Quad(node, IS_VERSION_OF, work, g)
            yield ox.Quad(node, C["wordingNumber"], ox.Literal(number), g)
            yield ox.Quad(node, C["wordingEditions"], ox.Literal(str(len(run)), datatype=XSD_INTEGER), g)
            yield ox.Quad(node, C["firstVersion"], ox.NamedNode(mint.rule(run[0], number)), g)
            yield ox.Quad(node, C["lastVersion"], ox.NamedNode(mint.rule(run[-1], number)), g)
            start, end = date(run[0]), date(following.get(run[-1]))
            if start is not None:
                yield ox.Quad(node, C["inForceFrom"], start, g)
            if end is not None:
                yield ox.Quad(node, C["inForceUntil"], end, g)
            if previous is not None:
                yield ox.Quad(node, REPLACES, previous, g)
            yield ox.Quad(node, C["firstEdition"], edition(run[0]), g)
            for pair in introducing(into.get(run[0], {}).get(number, ()), number):
                yield ox.Quad(node, C["introducedBy"], ox.NamedNode(mint.change(run[0], pair.old, pair.new)), g)
            previous = node
        last = next(reversed(lineage.numbers))
        if last in following:
            for pair in ending(out_of[last].get(lineage.numbers[last], ()), lineage.numbers[last]):
                yield ox.Quad(previous, C["endedBy"], ox.NamedNode(mint.change(following[last], pair.old, pair.new)), g)


def wording_count(found, texts: dict[str, dict[str, str]]) -> int:
    return sum(len(runs(lineage.numbers, lambda e, n: texts.get(e, {}).get(n)))
               for lineage in found.lineages.values())


def appended(raw: ox.Store, graph: ox.NamedNode, mint: Minter, previous: str, new: str, new_date: str | None,
             continued: dict[str, tuple[str, str]], started: dict[str, str],
             text_of, pairs=None) -> tuple[list[ox.Quad], list[ox.Quad]]:
    """What :func:`wording_quads` would add and change when ``new`` joins the chain after
    ``previous`` (``rulekb build --add``): ``(added, removed)`` quads of graph/lineage.

    ``continued``: lineage IRI -> (its number in ``previous``, in ``new``); ``started``:
    lineage IRI -> number of the lineages ``new`` begins; ``text_of(edition, number)``;
    ``pairs``: the alignment of ``previous`` and ``new`` (its :class:`kb.align.model.Pair` objects),
    for the changes that introduce and end wordings (rk:introducedBy, rk:endedBy).
    A wording that ended in ``previous`` stops being in force on ``new``'s date (reworded,
    renumbered or removed), unless ``new`` keeps its number and text: then it grows."""
    if pairs is None:
        raise TypeError("appended() needs the alignment's pairs (pairs=alignment.pairs)")
    added: list[ox.Quad] = []
    removed: list[ox.Quad] = []
    until = ox.Literal(new_date, datatype=XSD_DATE) if new_date else None
    new_edition = ox.NamedNode(mint.edition(new))
    prefix = mint.lineage("")

    def begin(lineage: str, index: int, number: str, replaces: ox.NamedNode | None) -> None:
        node = ox.NamedNode(mint.wording(lineage[len(prefix):], index))
        version = ox.NamedNode(mint.rule(new, number))
        added.extend(ox.Quad(node, p, o, graph) for p, o in (
            (TYPE, C["Wording"]), (IS_VERSION_OF, ox.NamedNode(lineage)), (C["wordingNumber"], ox.Literal(number)),
            (C["wordingEditions"], ox.Literal("1", datatype=XSD_INTEGER)),
            (C["firstVersion"], version), (C["lastVersion"], version)))
        if until is not None:
            added.append(ox.Quad(node, C["inForceFrom"], until, graph))
        if replaces is not None:
            added.append(ox.Quad(node, REPLACES, replaces, graph))
        added.append(ox.Quad(node, C["firstEdition"], new_edition, graph))
        added.extend(ox.Quad(node, C["introducedBy"], ox.NamedNode(mint.change(new, p.old, p.new)), graph)
                     for p in introducing(pairs, number))

    in_previous = mint.edition(previous) + "/rule/"
    for quad in raw.quads_for_pattern(None, C["lastVersion"], None, graph):
        if not quad.object.value.startswith(in_previous):
            continue
        wording = quad.subject
        lineage = next(raw.quads_for_pattern(wording, IS_VERSION_OF, None, graph)).object.value
        old_number = quad.object.value[len(in_previous):]
        go_on = continued.get(lineage)
        if go_on is not None and go_on[1] == old_number and text_of(previous, old_number) == text_of(new, go_on[1]):
            count = next(raw.quads_for_pattern(wording, C["wordingEditions"], None, graph))
            removed += [quad, count]
            added.append(ox.Quad(wording, C["lastVersion"], ox.NamedNode(mint.rule(new, go_on[1])), graph))
            added.append(ox.Quad(wording, C["wordingEditions"],
                                 ox.Literal(str(int(count.object.value) + 1), datatype=XSD_INTEGER), graph))
            continue
        if until is not None:
            added.append(ox.Quad(wording, C["inForceUntil"], until, graph))
        if go_on is not None:
            begin(lineage, int(wording.value.rsplit("/", 1)[1]) + 1, go_on[1], wording)
        else:  # the lineage ends: removed, or merged into another
            added.extend(ox.Quad(wording, C["endedBy"], ox.NamedNode(mint.change(new, p.old, p.new)), graph)
                         for p in ending(pairs, old_number))
    for lineage, number in started.items():
        begin(lineage, 1, number, None)
    return added, removed

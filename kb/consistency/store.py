"""Consistency findings for the KB: computed once per build, cached by content, stored
as ``rk:ConsistencyFinding`` in the graph ``graph/consistency``::

    <consistency/en/2026-01-16/3> a rk:ConsistencyFinding ;
        rk:consistencyKind "citation-title" ; rk:consistencySeverity "inconsistency" ;
        rk:findingEdition <edition/en/2026-01-16> ;
        rk:involvesRule <edition/en/2026-01-16/rule/702.62> ;     # each rule, section, glossary entry
        rk:findingPlaces "glossary: Endure | 702.62 | 701.63" ;
        rk:findingDetail "..." ; rdfs:comment "... (why)"@en ;
        rk:findingData "{...the JSON item...}" .

The cache (``$RULEKB_CACHE/consistency``) is keyed by a digest of the edition (its
texts, its warnings, the printed numbers) and of the code (kb.consistency, kb.compare,
kb.define): a rebuild from the same texts reads every edition's findings back. It holds
the findings without the reasoner's, so a build computes them while it reasons; the
reasoner's verdict (one finding at most, cheap) is folded in afterwards.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pyoxigraph as ox
from rdflib.namespace import RDF, RDFS

from rulekb.kb.rdf.iris import Minter, slug
from rulekb.kb.json_cache import cache_folder, write_json
from rulekb.kb.rdf.vocab import RK

from . import check, notes, to_json
from .model import Finding
from .reasoner import check as reasoner_findings

GRAPH_NAME = "consistency"
KEEP = 1000  # cached editions kept (a corpus has about 160)
TYPE, COMMENT = ox.NamedNode(str(RDF.type)), ox.NamedNode(str(RDFS.comment))
C = {name: ox.NamedNode(str(getattr(RK, name))) for name in (
    "ConsistencyFinding", "consistencyKind", "consistencySeverity", "findingEdition", "involvesRule",
    "findingPlaces", "findingDetail", "findingData", "consistencyNote",
)}


def for_build(editions, statements: dict, results: dict,
              progress: Callable[[str], None] | None = None, workers: int = 1) -> tuple[list[dict], dict]:
    """The ``rulekb consistency`` JSON of every edition, and a summary (findings, by
    kind, cached, seconds). ``statements``: by edition id, the build's; ``results``: the
    reasoner's kb.reason.infer.Result by edition id (empty without a reasoner).
    :func:`without_reasoner` then :func:`with_reasoner` (a build runs the first while it reasons)."""
    started = time.perf_counter()
    found, cached = without_reasoner(editions, statements, progress, workers)
    return with_reasoner(editions, found, results, cached, started)


def without_reasoner(editions, statements: dict, progress: Callable[[str], None] | None = None,
                     workers: int = 1) -> tuple[list[dict], int]:
    """Every edition's findings but the reasoner's (which need only the verdict, added by
    :func:`with_reasoner`), cached by content; the editions not cached are checked in
    ``workers`` forked processes (kb.parallel). Also how many came from the cache."""
    from rulekb.kb.parallel import fork_map

    code = _code_digest()
    folder = cache_folder(GRAPH_NAME)
    out: list[dict | None] = []
    todo: list[tuple[int, Path]] = []
    for edition in editions:
        path = folder / f"{_digest(edition, None, code)}.json"
        try:
            out.append(json.loads(path.read_text(encoding="utf-8")))
            if progress:  # one step per edition, cached or not: the build's stage counts editions
                progress(f"consistency {edition.id}")
        except (OSError, ValueError):
            todo.append((len(out), path))
            out.append(None)

    def compute(index: int) -> dict:
        edition = editions[todo[index][0]]
        return to_json(edition.id, check(edition, statements.get(edition.id), None), notes(edition))

    for (position, path), data in zip(todo, fork_map(compute, len(todo), workers)):
        write_json(folder, path, data, KEEP)
        out[position] = data
        if progress:
            progress(f"consistency {editions[position].id}")
    return out, len(editions) - len(todo)  # type: ignore[return-value]


def with_reasoner(editions, found: list[dict], results: dict, cached: int = 0,
                  started: float | None = None) -> tuple[list[dict], dict]:
    """:func:`without_reasoner`'s findings with the reasoner's verdict on each edition folded
    in: what :func:`kb.consistency.check` returns given the verdict (the same findings in
    the same order: its sort is stable and the verdict's findings come last)."""
    out = []
    for edition, data in zip(editions, found):
        verdict = reasoner_findings(edition, results.get(edition.id))
        if verdict:
            merged = dict.fromkeys([*(Finding.from_dict(item) for item in data["findings"]), *verdict])
            data = {**data, "findings": [f.to_dict() for f in sorted(merged, key=Finding.sort_key)]}
        out.append(data)
    by_kind: dict[str, int] = {}
    for data in out:
        for item in data["findings"]:
            by_kind[item["kind"]] = by_kind.get(item["kind"], 0) + 1
    summary = {"findings": sum(by_kind.values()), "by_kind": dict(sorted(by_kind.items())), "cached": cached,
               "seconds": round(time.perf_counter() - (started or time.perf_counter()), 2)}
    return out, summary


def quads(found: list[dict], mint: Minter, graph: str | None = None) -> Iterator[ox.Quad]:
    g = ox.NamedNode(graph or mint.graph(GRAPH_NAME))
    for data in found:
        edition = data["edition"]
        for note in data.get("notes", ()):
            yield ox.Quad(ox.NamedNode(mint.edition(edition)), C["consistencyNote"], ox.Literal(note), g)
        for index, item in enumerate(data["findings"], 1):
            node = ox.NamedNode(mint.consistency_finding(edition, index))
            yield ox.Quad(node, TYPE, C["ConsistencyFinding"], g)
            yield ox.Quad(node, C["consistencyKind"], ox.Literal(item["kind"]), g)
            yield ox.Quad(node, C["consistencySeverity"], ox.Literal(item["severity"]), g)
            yield ox.Quad(node, C["findingEdition"], ox.NamedNode(mint.edition(edition)), g)
            for place in dict.fromkeys(item["rules"]):
                target = place_iri(mint, edition, place)
                if target:
                    yield ox.Quad(node, C["involvesRule"], ox.NamedNode(target), g)
            yield ox.Quad(node, C["findingPlaces"], ox.Literal(" | ".join(item["rules"])), g)
            yield ox.Quad(node, C["findingDetail"], ox.Literal(item["detail"]), g)
            yield ox.Quad(node, COMMENT, ox.Literal(item["why"], language="en"), g)
            yield ox.Quad(node, C["findingData"], ox.Literal(json.dumps(item, ensure_ascii=False)), g)


def place_iri(mint: Minter, edition: str, place: str) -> str | None:
    """The IRI of a finding's place: "305.4", "305.4 example 1", "section 212", "part 1",
    "glossary: Endure"; None for a place with none ("line 12")."""
    if place.startswith("glossary: "):
        return mint.glossary(edition, slug(place[len("glossary: "):]))
    head, _, rest = place.partition(" ")
    if head in ("section", "part") and rest.isdigit():
        return mint.numbered(edition, rest)
    if head and head[0].isdigit() and "." in head:
        return mint.rule(edition, head)
    return None


def _digest(edition, result, code: str) -> str:
    from rulekb.kb.lineage.cache import digest

    h = hashlib.sha256((code + digest([edition])).encode())
    h.update("\x1f".join(f"{w.code}\x1e{w.line}\x1e{w.message}" for w in edition.warnings).encode())
    h.update("\x1f".join(f"{r.number}\x1e{r.printed}\x1e{r.line}" for r in edition.rules if r.printed).encode())
    if result is not None:
        h.update(f"{result.reasoner}\x1e{result.consistent}\x1e".encode())
        h.update("\x1f".join(result.explanation_of_inconsistency).encode())
        h.update("\x1f".join(rule for rule, _ in result.clashing).encode())
    return h.hexdigest()[:32]


def _code_digest() -> str:
    from ..json_cache import code_digest

    return code_digest("rulekb.kb.consistency", "rulekb.kb.compare", "rulekb.kb.define")

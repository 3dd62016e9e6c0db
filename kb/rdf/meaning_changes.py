"""Changes of meaning between consecutive editions, for the KB (``rk:MeaningChange``).

:func:`kb.compare.contradictions` is run on every pair of consecutive complete editions
(the order of the lineages) and each finding becomes an ``rk:MeaningChange`` in the
lineage graph: the concept, the aspect, the kind, the severity, both rules, the members
added or removed, the explanation as ``rdfs:comment``. Without a reasoner: the pairwise
reasoner clashes cost seconds each and stay with ``rulekb contradictions --reasoner``.

About 20 s for the 127 English pairs, so results are cached per pair (JSON, keyed by a
digest of both editions and of the kb.compare code) beside the lineages.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pyoxigraph as ox
from rdflib.namespace import RDF, RDFS

from rulekb.ingest.model import Edition

from .iris import Minter, rk_nodes
from ..json_cache import code_digest, write_json
from ..lineage.cache import digest as editions_digest
from ..reason.backends import cache_dir

TYPE, COMMENT = ox.NamedNode(str(RDF.type)), ox.NamedNode(str(RDFS.comment))
T = rk_nodes((
    "MeaningChange", "changedConcept", "definitionAspect", "meaningChangeKind", "severity", "fromEdition",
    "toEdition", "definedIn", "redefinedIn", "addedMember", "removedMember",
))


def consecutive(editions: dict[str, Edition], pairs: list[tuple[str, str]],
                progress: Callable[[str], None] | None = None, workers: int = 1) -> list[tuple[str, str, list[dict]]]:
    """(old id, new id, findings as JSON items) for each pair of consecutive editions
    (``pairs``: the lineages' alignments, oldest first per language). Pairs not in the
    cache are compared in ``workers`` processes (each pair is independent)."""
    code = _code_digest()
    found: dict[tuple[str, str], list[dict]] = {}
    todo = []
    for old_id, new_id in pairs:
        path = _cache() / f"{code}-{editions_digest([editions[old_id], editions[new_id]])}.json"
        try:
            found[(old_id, new_id)] = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            todo.append((old_id, new_id, path))
    if workers > 1 and len(todo) > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(min(workers, len(todo))) as pool:
            jobs = [(editions[o], editions[n]) for o, n, _ in todo]
            for (old_id, new_id, path), items in zip(todo, pool.map(_compare, jobs)):
                if progress:
                    progress(f"compare {old_id} -> {new_id}")
                _write(path, items)
                found[(old_id, new_id)] = items
    else:
        for old_id, new_id, path in todo:
            if progress:
                progress(f"compare {old_id} -> {new_id}")
            items = _compare((editions[old_id], editions[new_id]))
            _write(path, items)
            found[(old_id, new_id)] = items
    return [(old_id, new_id, found[(old_id, new_id)]) for old_id, new_id in pairs]


def _compare(job: tuple[Edition, Edition]) -> list[dict]:
    from ..compare import contradictions, to_json

    old, new = job
    return to_json(contradictions(old, new), old.id, new.id)["items"]


def quads(found: list[tuple[str, str, list[dict]]], mint: Minter,
          concept_iri: Callable[[str], str | None]) -> Iterator[ox.Quad]:
    graph = ox.NamedNode(mint.graph("lineage"))
    for old_id, new_id, items in found:
        for index, item in enumerate(items, 1):
            node = ox.NamedNode(mint.meaning_change(new_id, index))
            yield ox.Quad(node, TYPE, T["MeaningChange"], graph)
            yield ox.Quad(node, T["fromEdition"], ox.NamedNode(mint.edition(old_id)), graph)
            yield ox.Quad(node, T["toEdition"], ox.NamedNode(mint.edition(new_id)), graph)
            if concept := concept_iri(item["concept"]):
                yield ox.Quad(node, T["changedConcept"], ox.NamedNode(concept), graph)
            for key, prop in (("aspect", "definitionAspect"), ("kind", "meaningChangeKind"), ("severity", "severity")):
                if item.get(key):
                    yield ox.Quad(node, T[prop], ox.Literal(item[key]), graph)
            for side, prop, edition in (("old", "definedIn", old_id), ("new", "redefinedIn", new_id)):
                if (found_side := item.get(side)) and found_side.get("rule"):
                    yield ox.Quad(node, T[prop], ox.NamedNode(mint.rule(edition, found_side["rule"])), graph)
            for member in item.get("added") or ():
                yield ox.Quad(node, T["addedMember"], ox.Literal(member), graph)
            for member in item.get("removed") or ():
                yield ox.Quad(node, T["removedMember"], ox.Literal(member), graph)
            if item.get("explanation"):
                yield ox.Quad(node, COMMENT, ox.Literal(item["explanation"], language="en"), graph)


def _code_digest() -> str:
    return code_digest("rulekb.kb.compare", "rulekb.kb.define")[:16]


def _cache() -> Path:
    return cache_dir() / "meaning-changes"


def _write(path: Path, items: list[dict]) -> None:
    """Atomically (a crash leaves no half-written entry); a cache that cannot be written is no error."""
    write_json(path.parent, path, items)

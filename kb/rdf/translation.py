"""French beside English in the KB: each French text's base English edition, its
rules' translation links, and the translation report's findings (graph/translation).

For every French edition with rules, the build detects the English edition it
translates among the complete English editions (:mod:`kb.translate.base`), links
each aligned French rule to the base edition's rule (``rk:translationOf``), and
reports against the newest complete English edition (:mod:`kb.translate.drift`)::

    <edition/fr/2011-02-04> rk:baseEdition <edition/en/2011-02-04> ; rk:baseScore 0.8889 ;
        rk:runnerUpEdition <edition/en/2010-10-01> ; rk:runnerUpScore 0.8836 .
    <edition/fr/2011-02-04/rule/110.1> rk:translationOf <edition/en/2011-02-04/rule/110.1> .
    <translation/fr/2011-02-04/1> a rk:TranslationFinding ; rk:findingKind "stale" ;
        rk:frEdition <edition/fr/2011-02-04> ; rk:usEdition <edition/en/2026-01-16> ;
        rk:frRule <edition/fr/2011-02-04/rule/110.1> ; rk:usRule <edition/en/2026-01-16/rule/110.1> ;
        rk:baseRule <edition/en/2011-02-04/rule/110.1> .

Why the lineages and not a fresh alignment: the build has already chained the
English editions (:mod:`kb.lineage.cache`); following a base rule's lineage to the
newest edition costs nothing, where aligning each base with the newest edition
took seconds, and the KB's own version links then agree with its findings.

Why a cache: detecting the base scores every French rule against 128 English
editions. The result of each French text is kept as JSON in
``$RULEKB_CACHE/translations`` under a digest of the French text, of the English
editions and of the code (:mod:`kb.translate`, :mod:`kb.align`), so a rebuild from
the same texts reads it back.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pyoxigraph as ox
from rdflib.namespace import RDF, XSD

from rulekb.ingest.model import Edition

from .iris import Minter, rk_nodes
from ..json_cache import cache_folder, code_digest, write_json

GRAPH_NAME = "translation"
KEEP = 200  # cached French texts kept (a corpus has about thirty)

TYPE = ox.NamedNode(str(RDF.type))
XSD_DECIMAL = ox.NamedNode(str(XSD.decimal))
C = rk_nodes((
    "TranslationFinding", "translationOf", "baseEdition", "baseScore", "runnerUpEdition", "runnerUpScore",
    "findingKind", "frEdition", "usEdition", "frRule", "usRule", "baseRule", "frValue", "usValue",
))


def translations(editions: list[Edition], chained, progress: Callable[[str], None] | None = None,
                 cache: Path | None = None) -> tuple[list[dict], dict]:
    """The report of every French edition with rules against the newest complete
    English edition (base detected among all complete English editions), and a
    summary: texts, findings, how many came from the cache, seconds."""
    from ..lineage.cache import digest

    started = time.perf_counter()
    english = sorted((e for e in editions if e.language == "en" and not e.partial and e.effective_date),
                     key=lambda e: (e.effective_date, e.id))
    french = [e for e in editions if e.language == "fr" and e.rules]
    summary = {"texts": 0, "cached": 0, "findings": 0, "seconds": 0.0}
    if not english or not french:
        return [], summary
    folder = cache or _cache_dir()
    shared = hashlib.sha256((_code_digest() + digest(english)).encode()).hexdigest()
    feature_cache = None
    results = []
    for fr in french:
        path = folder / f"{hashlib.sha256((shared + digest([fr])).encode()).hexdigest()[:32]}.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            os.utime(path)
            summary["cached"] += 1
        except (OSError, ValueError):
            from ..translate.align import FeatureCache
            from ..translate.drift import drift_report

            if progress:
                progress(f"translation {fr.id}")
            feature_cache = feature_cache or FeatureCache()
            data = drift_report(fr, english[-1], candidates=english, cache=feature_cache,
                                alignment_of=lambda base, target, wanted: lineage_alignment(chained, base, target, wanted))
            data["base"]["seconds"] = None  # timings vary; the cache keeps answers only
            _write(folder, path, data)
        results.append(data)
    summary["texts"] = len(results)
    summary["findings"] = sum(len(d["items"]) for d in results)
    summary["seconds"] = round(time.perf_counter() - started, 2)
    return results, summary


def lineage_alignment(chained, base: Edition, target: Edition, wanted: set[str] | None = None):
    """base -> target through the KB's lineages, as a :class:`kb.align.Alignment`
    (primary pairs only; ``detail`` from the two end texts, as the matcher gives it,
    for the ``wanted`` rules only: the others' say "text", and only their
    successors are read)."""
    numbers = {}
    for rule in base.rules:
        lineage = chained.of(base.id, rule.number)
        if lineage is not None and target.id in lineage.numbers:
            numbers[rule.number] = lineage.numbers[target.id]
    return successor_alignment(numbers, base, target, wanted)


def successor_alignment(numbers: dict[str, str], base: Edition, target: Edition, wanted: set[str] | None = None):
    """:func:`lineage_alignment` from the lineages' answer alone: ``numbers`` maps a base
    rule's number to the number its lineage has in ``target`` (a base rule without one
    was removed on the way). Whoever holds the lineages -- the build's in memory, the
    store's graph/lineage (:func:`kb.translate.from_kb.stored_alignment`) -- gives the
    same alignment."""
    from ..align.model import MODIFIED, REMOVED, RENUMBERED, UNCHANGED, Alignment, Pair
    from ..align.normalise import masked, plain, tokens
    from ..align.profile import content

    new_rules = {r.number: r for r in target.rules}
    pairs = []
    for rule in base.rules:
        new = numbers.get(rule.number)
        if new is None or new not in new_rules:
            pairs.append(Pair(rule.number, None, REMOVED, 0.0))
            continue
        a, b = content(rule), content(new_rules[new])
        if a == b:
            pairs.append(Pair(rule.number, new, UNCHANGED if new == rule.number else RENUMBERED, 1.0, "lineage"))
            continue
        if wanted is not None and rule.number not in wanted:
            detail = "text"
        elif masked(a) == masked(b):
            detail = "references"
        elif " ".join(masked(plain(a)).split()) == " ".join(masked(plain(b)).split()):
            detail = "typography"
        elif tokens(a) == tokens(b):
            detail = "terminology"
        else:
            detail = "text"
        pairs.append(Pair(rule.number, new, MODIFIED, 0.0, "lineage", detail))
    return Alignment(base.id, target.id, pairs)


def translation_quads(results: list[dict], mint: Minter, graph: str | None = None) -> Iterator[ox.Quad]:
    """The base of each French edition, its rules' translationOf links, its findings."""
    g = ox.NamedNode(graph or mint.graph(GRAPH_NAME))

    def rule(edition: str, number: str | None):
        return ox.NamedNode(mint.rule(edition, number)) if edition and number else None

    for data in results:
        fr_id, us_id, base_id = data["fr_edition"], data["us_edition"], data.get("base_detected")
        fr_node = ox.NamedNode(mint.edition(fr_id))
        if base_id:
            yield ox.Quad(fr_node, C["baseEdition"], ox.NamedNode(mint.edition(base_id)), g)
            for number, english in sorted((data.get("pairs") or {}).items()):
                yield ox.Quad(rule(fr_id, number), C["translationOf"], rule(base_id, english), g)
        info = data.get("base") or {}
        if info.get("score") is not None:
            yield ox.Quad(fr_node, C["baseScore"], _decimal(info["score"]), g)
        if info.get("runner_up"):
            yield ox.Quad(fr_node, C["runnerUpEdition"], ox.NamedNode(mint.edition(info["runner_up"])), g)
            yield ox.Quad(fr_node, C["runnerUpScore"], _decimal(info["runner_up_score"]), g)
        us_node = ox.NamedNode(mint.edition(us_id))
        for index, item in enumerate(data["items"], 1):
            node = ox.NamedNode(mint.translation_finding(fr_id, index))
            yield ox.Quad(node, TYPE, C["TranslationFinding"], g)
            yield ox.Quad(node, C["findingKind"], ox.Literal(item["kind"]), g)
            yield ox.Quad(node, C["frEdition"], fr_node, g)
            yield ox.Quad(node, C["usEdition"], us_node, g)
            links = (("frRule", rule(fr_id, item.get("fr"))), ("usRule", rule(us_id, item.get("us"))),
                     ("baseRule", rule(base_id, item.get("base_rule"))))
            for name, target in links:
                if target is not None:
                    yield ox.Quad(node, C[name], target, g)
            if item["kind"] == "stale":
                continue  # the values are the rules' texts, linked above
            for name, key in (("frValue", "fr_value"), ("usValue", "us_value")):
                shown = value_text(item.get(key))
                if shown:
                    yield ox.Quad(node, C[name], ox.Literal(shown), g)


def value_text(value) -> str:
    """A finding's value as one string: a list joined, a terminology map as
    "rendering: rules; rendering: rules"."""
    if value is None:
        return ""
    if isinstance(value, dict):
        return "; ".join(f"{k}: {', '.join(map(str, v))}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(map(str, value))
    return str(value)


def _decimal(value: float) -> ox.Literal:
    return ox.Literal(f"{value:.4f}", datatype=XSD_DECIMAL)


def _code_digest() -> str:
    return code_digest("rulekb.kb.translate", "rulekb.kb.align")


def _cache_dir() -> Path:
    return cache_folder("translations")


def _write(folder: Path, path: Path, raw: dict) -> None:
    write_json(folder, path, raw, KEEP)

"""The concepts a rule mentions -> RDF quads, once per wording instead of once per edition.

A rule's mentions follow from its text alone (:class:`kb.rdf.concepts.Matcher`), and a
wording (:mod:`kb.timeline.wordings`: a run of consecutive editions in which a lineage kept
the same number and text) has one text. So the mentions are stated once, on the wording,
and each version names its wording (both in graph/lineage)::

    <edition/en/2009-07-11/rule/111.2> rk:wording <lineage/en/2003-07-01/200.5a/wording/3> .
    <lineage/en/2003-07-01/200.5a/wording/3> rk:mentions <concept/spell> .

An unchanged rule restated in 100 editions had its ~7 mentions stated 100 times (1.76 M
quads, 28 % of the store); now once, plus one rk:wording link per version.

A rule of no lineage (those of a partial edition: the French texts) keeps its own
``rk:mentions`` in its edition's graph, and so does a mention its wording's text lacks (a
number printed twice in one edition is one IRI with two texts). Queries reach both with one
path: ``?rule rk:wording?/rk:mentions ?concept``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pyoxigraph as ox

from .iris import Minter, rk_nodes

C = rk_nodes(("wording", "mentions"))


def _wordings(found, texts: dict[str, dict[str, str]], matchers: dict):
    """(lineage id, index, editions, number, concept keys) for every wording of ``found``,
    indexed as :func:`kb.timeline.wordings.wording_quads` indexes them."""
    from ..timeline.wordings import runs

    def text_of(edition: str, number: str) -> str | None:
        return texts.get(edition, {}).get(number)

    for lid, lineage in found.lineages.items():
        for index, run in enumerate(runs(lineage.numbers, text_of), start=1):
            number = lineage.numbers[run[0]]
            matcher = matchers.get(run[0].split("/", 1)[0])
            text = text_of(run[0], number)
            keys = matcher.mentions(text) if matcher is not None and text else frozenset()
            yield lid, index, run, number, keys


def coverage(found, texts: dict[str, dict[str, str]], matchers: dict) -> dict[str, dict[str, frozenset[str]]]:
    """Edition id -> {rule number: the concept keys its wording states}: what
    :func:`kb.rdf.concepts.mention_quads` need not restate in the edition's graph."""
    out: dict[str, dict[str, frozenset[str]]] = {}
    for _, _, run, number, keys in _wordings(found, texts, matchers):
        for edition in run:
            numbers = out.setdefault(edition, {})
            numbers[number] = numbers.get(number, frozenset()) | keys
    return out


def wording_mention_quads(found, texts: dict[str, dict[str, str]], matchers: dict, mint: Minter,
                          graph: str) -> Iterator[ox.Quad]:
    """Each version's rk:wording link and each wording's rk:mentions (graph/lineage)."""
    g = ox.NamedNode(graph)
    prefixes: dict[str, str] = {}
    for lid, index, run, number, keys in _wordings(found, texts, matchers):
        node = ox.NamedNode(mint.wording(lid, index))
        for edition in run:
            prefix = prefixes.get(edition)
            if prefix is None:
                prefix = prefixes[edition] = mint.rule(edition, "")
            yield ox.Quad(ox.NamedNode(prefix + number), C["wording"], node, g)
        for key in sorted(keys):
            yield ox.Quad(node, C["mentions"], ox.NamedNode(mint.concept(key)), g)


def appended_mentions(raw: ox.Store, graph: ox.NamedNode, mint: Minter, edition, wording_quads: list[ox.Quad],
                      matcher) -> tuple[list[ox.Quad], dict[str, frozenset[str]]]:
    """What :func:`wording_mention_quads` gives an edition appended to the store
    (``rulekb build --add``): the rk:wording link of each of its versions, the mentions
    of the wordings it begins, and by rule number what its wording states (for
    :func:`kb.rdf.concepts.mention_quads`, which restates only the rest: a concept the
    new glossary brings to a wording that goes on). ``wording_quads``: what
    :func:`kb.timeline.wordings.appended` adds (a wording's first or last version)."""
    from .vocab import RK

    first, last = ox.NamedNode(str(RK.firstVersion)), ox.NamedNode(str(RK.lastVersion))
    prefix, concept = mint.rule(edition.id, ""), mint.concept("")
    texts: dict[str, str] = {}
    for rule in edition.rules:
        texts.setdefault(rule.number, rule.text)
    begun = {(q.subject, q.object) for q in wording_quads if q.predicate == first}
    out: list[ox.Quad] = []
    stated: dict[str, frozenset[str]] = {}
    for quad in wording_quads:
        if quad.predicate not in (first, last) or not quad.object.value.startswith(prefix):
            continue
        wording, version, number = quad.subject, quad.object, quad.object.value[len(prefix):]
        if number in stated:
            continue
        out.append(ox.Quad(version, C["wording"], wording, graph))
        if (wording, version) in begun:
            keys = matcher.mentions(texts.get(number) or "")
            out += [ox.Quad(wording, C["mentions"], ox.NamedNode(mint.concept(key)), graph) for key in sorted(keys)]
        else:  # a wording that goes on: what it states already
            keys = frozenset(q.object.value[len(concept):] for q in raw.quads_for_pattern(wording, C["mentions"], None, graph))
        stated[number] = keys
    return out, stated

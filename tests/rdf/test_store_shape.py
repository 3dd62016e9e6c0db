"""The store's shape since it stopped restating what is implied: what it no longer restates is implied, and every
named query answers as it did when the store restated it.

Not stored any more (kb.rdf.edition, kb.rdf.lineage, kb.rdf.mentions): ``rk:inEdition`` (the
graph a unit sits in says it), ``rk:nextVersion`` (the inverse of ``rk:previousVersion``), and
a rule's ``rk:mentions`` in every edition (stated once on its wording, reached through
``rk:wording``), a citation's ``rdf:type rk:Citation`` (the range of ``rk:hasCitation``) and
its ``rk:citedNumber`` (its targets' numbers and its dangling ones), and ``rk:references`` (a
rule's, with its examples', or a glossary entry's citations' targets), and what a rule's
statement says in every edition that says it (now once, on its ``rk:statementContent`` in
graph/statements) with its ``rdf:type rk:Statement``. The test puts those triples back the way the build wrote them before (and
takes the wording links out) and runs every named query and QC check on both stores, with
the fixture's own parameters."""

from __future__ import annotations

from collections import defaultdict

import pyoxigraph as ox
import pytest

from rulekb.kb.footprint import compare_answers
from rulekb.kb.rdf.iris import Minter
from rulekb.kb.rdf.vocab import RK
from rulekb.kb.store.embedded import EmbeddedStore

ED = "en/2030-05-05"
TYPE = ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
P = {name: ox.NamedNode(str(getattr(RK, name))) for name in (
    "inEdition", "nextVersion", "previousVersion", "mentions", "wording", "hasCitation", "citationTarget",
    "danglingNumber", "citedNumber", "Citation", "references", "statementContent", "Statement")}
UNITS = {ox.NamedNode(str(getattr(RK, name))) for name in (
    "Part", "Section", "Rule", "Example", "GlossaryEntry", "Statement", "InferredStatement")}
# answers that list a graph's own triples: they show where the triples now are, by design
SHAPE_ITSELF = {
    "edition-lineage-links": "lists the new rk:wording links and the wordings' rk:mentions",
    "linked-types": "an edition graph no longer links to the concepts its rules mention",
    "describe": "a rule's description lists its rk:wording",
    "graph-sizes": "counts the quads of each graph",
    "statement-contents": "lists what the statements say, in graph/statements (new with it)",
    # the page data's readings of the shape (kb.pages): what it answers stays the store's on both
    "page-wording-concepts": "lists the wordings' rk:mentions (new with them)",
    "page-flags": "its mentions names the rules stating a mention of their own: every one in the old shape",
}


def _answer_alike(old, new, params) -> None:
    """Every named query (60 at least) answers the same on both stores, but those listing the shape itself."""
    found = compare_answers(old, new, params=params)
    differ = {d["query"]: d for d in found["differences"]}
    assert set(differ) <= set(SHAPE_ITSELF), {k: v for k, v in differ.items() if k not in SHAPE_ITSELF}
    assert found["queries"] >= 60


def old_shape(quads) -> list[ox.Quad]:
    """The quads as the build wrote them before it stopped restating what is implied."""
    out, wording_of, mentioned = [], {}, defaultdict(list)
    quads = list(quads)
    owner = {q.object: q.subject for q in quads if q.predicate == P["hasCitation"]}
    said = defaultdict(list)
    for quad in quads:
        if quad.graph_name.value.endswith("/graph/statements"):
            said[quad.subject].append((quad.predicate, quad.object))
    for quad in quads:
        if quad.graph_name.value.endswith("/graph/statements"):
            continue
        if quad.predicate == P["statementContent"]:  # what it says, and its type, on the statement
            g = quad.graph_name
            out += [ox.Quad(quad.subject, p, o, g) for p, o in said[quad.object]]
            if "/inferred/" not in quad.subject.value:  # (an inferred one keeps its type)
                out += [ox.Quad(quad.subject, TYPE, P["Statement"], g), ox.Quad(quad.subject, P["inEdition"], g, g)]
            continue
        if quad.predicate == P["wording"]:
            wording_of[quad.subject] = quad.object
            continue
        if quad.predicate == P["mentions"] and "/wording/" in quad.subject.value:
            mentioned[quad.subject].append(quad.object)
            continue
        out.append(quad)
        if quad.predicate == TYPE and quad.object in UNITS and "/edition/" in quad.graph_name.value:
            out.append(ox.Quad(quad.subject, P["inEdition"], quad.graph_name, quad.graph_name))
        if quad.predicate == P["previousVersion"]:
            out.append(ox.Quad(quad.object, P["nextVersion"], quad.subject, quad.graph_name))
        if quad.predicate == P["hasCitation"]:
            out.append(ox.Quad(quad.object, TYPE, P["Citation"], quad.graph_name))
        if quad.predicate in (P["citationTarget"], P["danglingNumber"]):  # a target IRI ends in its number
            number = quad.object.value.rsplit("/", 1)[-1] if quad.predicate == P["citationTarget"] else quad.object.value
            out.append(ox.Quad(quad.subject, P["citedNumber"], ox.Literal(number), quad.graph_name))
        if quad.predicate == P["citationTarget"]:  # an example's citation is its rule's reference
            citer = ox.NamedNode(owner[quad.subject].value.split("/example/")[0])
            out.append(ox.Quad(citer, P["references"], quad.object, quad.graph_name))
    for rule, wording in wording_of.items():
        graph = ox.NamedNode(rule.value.split("/rule/")[0])
        out += [ox.Quad(rule, P["mentions"], concept, graph) for concept in mentioned[wording]]
    return out


@pytest.fixture(scope="module")
def two_shapes(fixture_kb, tmp_path_factory):
    new, _ = fixture_kb
    old = EmbeddedStore(tmp_path_factory.mktemp("old-shape") / "store")
    old.replace(old_shape(new.store().quads_for_pattern(None, None, None, None)))
    return old, new


def test_the_store_no_longer_restates_what_the_graphs_and_the_wordings_imply(two_shapes):
    old, new = two_shapes
    raw = new.store()
    assert not list(raw.quads_for_pattern(None, P["inEdition"], None, None))
    assert not list(raw.quads_for_pattern(None, P["nextVersion"], None, None))
    rules = {q.subject for q in raw.quads_for_pattern(None, TYPE, ox.NamedNode(str(RK.Rule)), None)}
    linked = {q.subject for q in raw.quads_for_pattern(None, P["wording"], None, None)}
    assert rules and linked == rules  # one edition: every rule has a lineage, so a wording
    own = [q for q in raw.quads_for_pattern(None, P["mentions"], None, None) if "/rule/" in q.subject.value]
    assert own == []  # all on the wordings
    assert not list(raw.quads_for_pattern(None, TYPE, P["Citation"], None))
    assert not list(raw.quads_for_pattern(None, P["citedNumber"], None, None))
    assert list(raw.quads_for_pattern(None, P["citationTarget"], None, None))
    assert not list(raw.quads_for_pattern(None, P["references"], None, None))
    assert not list(raw.quads_for_pattern(None, TYPE, P["Statement"], None))
    said = {q.object for q in raw.quads_for_pattern(None, P["statementContent"], None, None)}
    assert said and all(q.graph_name.value.endswith("/graph/statements")
                        for s in said for q in raw.quads_for_pattern(s, None, None, None))
    assert len(old.store()) > len(raw)


def test_every_named_query_answers_the_same_on_the_old_and_the_new_shape(two_shapes):
    old, new = two_shapes
    mint = Minter.for_base()
    rule, entry = mint.rule(ED, "101.1"), mint.glossary(ED, "gadget")
    params = {
        "*": {"edition": ED, "number": "101.1", "section": "101", "concept": mint.concept("gadget"),
              "g": mint.edition(ED), "resource": rule, "entry": entry, "text": "gadget", "term": "gadget",
              "statement": mint.inferred(ED, 1)},
        "concept-mentions": {"concept": "gadget"}, "concept-rules": {"concept": "owner"},
        "concept": {"concept": "rusty"}, "describe-edition": {"resource": mint.edition(ED)},
    }
    _answer_alike(old, new, params)


@pytest.mark.parametrize("query, params, expected", [
    ("rule-concepts", {"number": "101.1"}, {"gadget"}),  # "A gadget is a card on the table."
    # "The supertypes are basic, shiny, and rusty." (its statement names the concepts it lists)
    ("rule-concepts", {"number": "101.2"}, {"supertype", "basic", "shiny", "rusty"}),
    ("concept-mentions", {"concept": "gadget"}, {"100.1", "100.2", "101.1"}),  # "Gadgets", "gadget cards"
])
def test_the_mentions_on_the_wordings_answer_the_concept_queries(fixture_kb, query, params, expected):
    from rulekb.kb import service

    store, _ = fixture_kb
    rows = service.run(store, query, edition=ED, **params)
    got = {row.get("label", "").lower() for row in rows} if query == "rule-concepts" else {row["number"] for row in rows}
    assert got == expected, rows


@pytest.fixture(scope="module")
def two_editions_two_shapes(tmp_path_factory):
    """The fixture and a later edition of it (some rules reworded, one renumbered): most
    rules keep their wording across the two, so their mentions are stated once."""
    from rulekb.kb.build import build

    from ..lineage.test_lineage_kb import FIXTURE, _later_edition

    root = tmp_path_factory.mktemp("two-shapes")
    (root / FIXTURE.name).write_text(FIXTURE.read_text(encoding="utf-8"), encoding="utf-8")
    (root / "invented-cr-2030-08-08.txt").write_text(_later_edition(FIXTURE.read_text(encoding="utf-8")),
                                                     encoding="utf-8")
    new = EmbeddedStore(root / "new")
    build([str(root)], new, reasoner="none")
    old = EmbeddedStore(root / "old")
    old.replace(old_shape(new.store().quads_for_pattern(None, None, None, None)))
    return old, new


def test_an_unchanged_rule_states_its_mentions_once_for_both_editions(two_editions_two_shapes):
    old, new = two_editions_two_shapes
    mint, raw = Minter.for_base(), new.store()
    first, later = (ox.NamedNode(mint.rule(e, "101.2")) for e in (ED, "en/2030-08-08"))
    wordings = {next(raw.quads_for_pattern(r, P["wording"], None, None)).object for r in (first, later)}
    assert len(wordings) == 1  # the same text in both: one wording
    stated = list(raw.quads_for_pattern(wordings.pop(), P["mentions"], None, None))
    assert len(stated) == 4  # supertype, basic, shiny, rusty: once, where the old shape had them twice
    before = sum(1 for _ in old.store().quads_for_pattern(None, P["mentions"], None, None))
    after = sum(1 for _ in raw.quads_for_pattern(None, P["mentions"], None, None))
    assert after < before
    reworded = [ox.NamedNode(mint.rule(e, "101.1")) for e in (ED, "en/2030-08-08")]
    assert len({next(raw.quads_for_pattern(r, P["wording"], None, None)).object for r in reworded}) == 2


@pytest.mark.parametrize("edition", [ED, "en/2030-08-08"])
def test_two_editions_answer_every_named_query_the_same_on_both_shapes(two_editions_two_shapes, edition):
    old, new = two_editions_two_shapes
    mint = Minter.for_base()
    params = {
        "*": {"edition": edition, "number": "101.1", "section": "101", "concept": mint.concept("gadget"),
              "g": mint.edition(edition), "resource": mint.rule(edition, "101.1"),
              "entry": mint.glossary(edition, "gadget"), "text": "gadget", "old": ED, "new": "en/2030-08-08"},
        "concept-mentions": {"concept": "gadget"}, "concept-rules": {"concept": "gadget"},
        "concept": {"concept": "rusty"}, "describe-edition": {"resource": mint.edition(edition)},
    }
    _answer_alike(old, new, params)

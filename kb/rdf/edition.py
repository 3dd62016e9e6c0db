"""Edition -> RDF quads in the edition's own named graph.

Quads are written directly as N-Quads text and streamed into the store's bulk loader:
building an rdflib graph first would cost more than the whole load, and pyoxigraph
objects cost more than the text. Every term comes from the closed vocabulary
(:mod:`kb.rdf.vocab`), so a typo in a property name is an error at import, not a silently
different IRI.

What one edition becomes (prefix ``rk:`` = https://w3id.org/rulekb#)::

    <edition/en/2011-09-30> a rk:Edition ; rk:editionId "en/2011-09-30" ;
        dcterms:language "en" ; dcterms:title "..." ; rk:effectiveDate "2011-09-30"^^xsd:date ;
        rk:partial false ; dcterms:source "..." .
    <.../section/111> a rk:Section ; rk:number "111" ; dcterms:title "Spells"@en ;
        rk:parent <.../part/1> ; rk:order 123 .
    <.../rule/111.2> a rk:Rule ; rk:number "111.2" ; rk:text "..."@en ; rk:order 124 ;
        rk:parent <.../section/111> ;
        rk:hasExample <.../rule/111.2/example/1> ; rk:hasCitation <.../rule/111.2/citation/1> .
    <.../rule/111.2/citation/1> rk:citedText "rule 601.2" ; rk:citationTarget <.../rule/601.2> .
    <.../glossary/owner> a rk:GlossaryEntry ; rk:term "Owner"@en ; rk:definition "..."@en ;
        rk:hasCitation <.../glossary/owner/citation/1> ; rk:defines <concept/owner> .

The edition a unit belongs to is the graph it sits in (``GRAPH ?ed { ?rule rk:number ?n }``):
no ``rk:inEdition`` triple restates it for each of the ~400,000 units (a smaller store).
The concepts a rule mentions are on its wording (graph/lineage, :mod:`kb.rdf.mentions`).
A citation's type (``rk:Citation``, the range of ``rk:hasCitation``) and the numbers it cites
(``rk:citedNumber``: each resolved one is its target's ``rk:number``, each other one its
``rk:danglingNumber``) are implied the same way: queries ask for
``rk:citationTarget/rk:number|rk:danglingNumber``. And ``rk:references`` (what a rule, with its
examples, or a glossary entry resolves to, 160,000 quads) is its citations' targets:
``?rule rk:hasCitation/rk:citationTarget ?target`` (a rule's examples cite too:
``?rule rk:hasExample/rk:hasCitation/rk:citationTarget ?target``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from json.encoder import encode_basestring  # (C) a JSON string is an N-Quads string literal

import pyoxigraph as ox
from rdflib.namespace import DCTERMS, RDF, XSD

from rulekb.ingest import numbers as rule_numbers
from rulekb.ingest.model import Edition

from . import links as linking
from .iris import Minter, slug
from .vocab import RK


def _n(term) -> str:
    return f"<{term}>"


TYPE = _n(RDF.type)
XSD_DATE = _n(XSD.date)
XSD_INTEGER = _n(XSD.integer)
XSD_BOOLEAN = _n(XSD.boolean)
TITLE, LANGUAGE, SOURCE = _n(DCTERMS.title), _n(DCTERMS.language), _n(DCTERMS.source)
C = {name: _n(getattr(RK, name)) for name in (
    "Edition", "Part", "Section", "Rule", "Example", "GlossaryEntry", "Citation", "ParseWarning",
    "editionId", "effectiveDate", "partial", "hasWarning", "warningCode", "warning", "number", "text", "term", "definition",
    "order", "parent", "hasExample", "hasCitation", "citedText",
    "citationTarget", "danglingNumber", "printedNumber", "defines",
)}


def _int(value: int) -> str:
    return f'"{value}"^^{XSD_INTEGER}'


def edition_quads(edition: Edition, mint: Minter, concept_of=None, on_link=None) -> Iterator[ox.Quad]:
    """:func:`edition_nquads` as pyoxigraph quads (adding one edition, tests)."""
    return ox.parse(edition_nquads(edition, mint, concept_of, on_link), format=ox.RdfFormat.N_QUADS)


def edition_nquads(edition: Edition, mint: Minter, concept_of: Callable[[str], str | None] | None = None,
                   on_link=None) -> str:
    """All quads of one edition, in its named graph, as N-Quads text.

    Written as text, not as pyoxigraph quads: a build's 2.1 million document quads cost
    6.3 s of CPU to make as objects and 3 more to serialise; the text is what the bulk
    loader reads. Literals are escaped as JSON strings are (``\\"``, ``\\\\``, ``\\n``,
    ``\\uXXXX`` for other control characters), which N-Quads reads alike; every IRI is
    minted from a base checked once (:func:`kb.rdf.iris.base_iri`) and from numbers and slugs
    the parser and :func:`kb.rdf.iris.slug` keep to safe characters.

    ``concept_of(term) -> concept IRI | None`` links glossary entries to the
    version-independent concepts (built by :mod:`kb.rdf.concepts`); ``on_link(link)``
    sees every citation (the build counts them and the dangling ones).
    """
    eid = edition.id
    lang = f"@{edition.language}"
    graph = f"<{mint.edition(eid)}>"
    ed = graph
    lines: list[str] = []
    add = lines.append

    def q(s: str, p: str, o: str) -> None:
        add(f"{s} {p} {o} {graph} .\n")

    def text(value: str) -> str:
        return encode_basestring(value) + lang

    q(ed, TYPE, C["Edition"])
    q(ed, C["editionId"], encode_basestring(eid))
    q(ed, LANGUAGE, encode_basestring(edition.language))
    q(ed, TITLE, encode_basestring(edition.title))
    q(ed, C["partial"], f'"{"true" if edition.partial else "false"}"^^{XSD_BOOLEAN}')
    if edition.effective_date:
        q(ed, C["effectiveDate"], f"{encode_basestring(edition.effective_date)}^^{XSD_DATE}")
    for source in edition.sources:
        q(ed, SOURCE, encode_basestring(source.location))
    for warning in edition.warnings:  # the code as data: read back as it was given
        node = str(ox.BlankNode())  # (unique across editions and builds)
        q(ed, C["hasWarning"], node)
        q(node, TYPE, C["ParseWarning"])
        q(node, C["warningCode"], encode_basestring(warning.code))
        q(node, C["warning"], encode_basestring(str(warning)))

    headings, named = _numbered_nodes(edition, mint)
    for kind, heading, node, parent in headings:
        node = f"<{node}>"
        q(node, TYPE, C[kind])
        q(node, C["number"], encode_basestring(heading.number))
        q(node, TITLE, text(heading.title))
        q(node, C["order"], _int(heading.order))
        if parent is not None:
            q(node, C["parent"], f"<{parent}>")
    numbered = {number: f"<{node}>" for number, node in named.items()}

    for rule in edition.rules:
        node = numbered[rule.number]
        q(node, TYPE, C["Rule"])
        q(node, C["number"], encode_basestring(rule.number))
        if rule.text:
            q(node, C["text"], text(rule.text))
        q(node, C["order"], _int(rule.order))
        parent = _parent(rule.parent, numbered)
        if parent is not None:
            q(node, C["parent"], parent)
        if rule.printed:
            q(node, C["printedNumber"], encode_basestring(rule.printed))
        for i, example in enumerate(rule.examples, 1):
            ex = f"<{mint.example(eid, rule.number, i)}>"
            q(node, C["hasExample"], ex)
            q(ex, TYPE, C["Example"])
            q(ex, C["text"], text(example))
            q(ex, C["order"], _int(i))

    glossary_nodes: dict[str, str] = {}
    slugs: set[str] = set()
    for entry in edition.glossary:
        node = f"<{mint.glossary(eid, _unique_slug(entry.term, slugs))}>"
        glossary_nodes[entry.term] = node
        q(node, TYPE, C["GlossaryEntry"])
        q(node, C["term"], text(entry.term))
        q(node, C["definition"], text(entry.definition))
        q(node, C["order"], _int(entry.order))
        concept = concept_of(entry.term) if concept_of else None
        if concept:
            q(node, C["defines"], f"<{concept}>")

    counters: dict[str, int] = {}
    for link in linking.edition_links(edition, set(numbered)):
        if on_link:
            on_link(link)
        if link.owner == "glossary":
            owner = glossary_nodes[link.term]
        elif link.owner == "example":
            owner = f"<{mint.example(eid, link.rule, link.example)}>"
        else:
            owner = numbered[link.rule]
        counters[owner] = counters.get(owner, 0) + 1
        cite = f"<{mint.citation(owner[1:-1], counters[owner])}>"
        q(owner, C["hasCitation"], cite)  # (its rdf:type rk:Citation: the range says it)
        q(cite, C["citedText"], encode_basestring(link.text))
        for number, resolved in zip(link.numbers, link.resolved):
            if resolved:  # (the number: the target's; rk:citedNumber and the owner's rk:references are not restated)
                q(cite, C["citationTarget"], numbered[number])
            else:  # kept as written, and findable without scanning every citation
                q(cite, C["danglingNumber"], encode_basestring(number))
    return "".join(lines)


def structure_rows(edition: Edition, mint: Minter) -> tuple[list[dict[str, str]], dict[str, set[str]], list[dict[str, str]]]:
    """What :func:`edition_nquads` states of the edition's numbered nodes, as the store would
    answer for them: the rows of ``page-structure`` (one per Rule node x its number x order x
    parent x the parent's number, RDF's sets and all: a number two rules share is one node
    with two orders); each node's numbers (IRI -> its ``rk:number`` values), which
    ``page-lineages`` and the rest of ``page-flags`` join on (:func:`kb.rdf.lineage.lineage_rows`,
    kb.build); and the rows of ``page-flags`` the document states (examples, printed, cites,
    cited, twice: distinct). The build hands them to the page data (kb.pages) instead of
    asking the store again for what it just wrote.

    The same nodes as :func:`edition_nquads` (:func:`_numbered_nodes`) and the same
    nearest-ancestor parents: ``tests/web/test_page_data`` compares the page data written from
    these rows with the one written from the queries'."""
    eid = edition.id
    numbers: dict[str, set[str]] = {}
    orders: dict[str, set[int]] = {}
    parents: dict[str, set[str]] = {}
    headings, numbered = _numbered_nodes(edition, mint)
    for _, heading, node, parent in headings:
        numbers.setdefault(node, set()).add(heading.number)
        orders.setdefault(node, set()).add(heading.order)
        if parent is not None:
            parents.setdefault(node, set()).add(parent)
    rules: dict[str, None] = {}
    for rule in edition.rules:
        node = numbered[rule.number]
        rules[node] = None
        numbers.setdefault(node, set()).add(rule.number)
        orders.setdefault(node, set()).add(rule.order)
        parent = _parent(rule.parent, numbered)
        if parent is not None:
            parents.setdefault(node, set()).add(parent)
    rows = [{"edition": eid, "number": number, "order": str(order), "parent_number": parent_number}
            for node in rules for number in numbers[node] for order in orders[node]
            for parent in parents.get(node, ()) for parent_number in numbers[parent]]
    flagged: dict[str, set[str]] = {"examples": set(), "printed": set(), "cites": set(), "cited": set()}
    for rule in edition.rules:
        if rule.examples:
            flagged["examples"].add(numbered[rule.number])
        if rule.printed:
            flagged["printed"].add(numbered[rule.number])
    for link in linking.edition_links(edition, set(numbered)):
        if link.owner != "glossary":  # (a glossary entry has no number; an example's rule cites through it)
            flagged["cites"].add(numbered[link.rule])
        flagged["cited"].update(numbered[number] for number, resolved in zip(link.numbers, link.resolved) if resolved)
    nodes_of: dict[str, int] = {}
    for found in numbers.values():
        for number in found:
            nodes_of[number] = nodes_of.get(number, 0) + 1
    flags = [{"edition": eid, "number": number, "what": what}
             for what, nodes in flagged.items() for number in sorted({n for node in nodes for n in numbers[node]})]
    flags += [{"edition": eid, "number": number, "what": "twice"} for number, count in nodes_of.items() if count > 1]
    return rows, numbers, flags


def _numbered_nodes(edition: Edition, mint: Minter) -> tuple[list[tuple[str, object, str, str | None]], dict[str, str]]:
    """The edition's numbered nodes, as its graph names them: each heading as (kind, heading,
    its node, its part's node or None), parts first (a section's parent is the part named
    before it); and number -> node once every rule has taken its own (a rule numbered like a
    heading takes the number from it), for the rules' parents and the citations' targets."""
    eid = edition.id
    numbered: dict[str, str] = {}
    headings = []
    for kind, heading in [("Part", h) for h in edition.parts] + [("Section", h) for h in edition.sections]:
        node = numbered[heading.number] = mint.numbered(eid, heading.number)
        parent = numbered.get(heading.number[0]) if kind == "Section" else None
        headings.append((kind, heading, node, parent))
    for rule in edition.rules:
        numbered[rule.number] = mint.rule(eid, rule.number)
    return headings, numbered


def _parent(number: str | None, numbered: dict[str, str]) -> str | None:
    """The nearest existing ancestor (a subrule whose rule is missing hangs on the section)."""
    while number:
        if number in numbered:
            return numbered[number]
        number = rule_numbers.parent(number)
    return None


def _unique_slug(term: str, taken: set[str]) -> str:
    """Two entries whose terms slug alike ("X" in two senses) get -2, -3..."""
    base = candidate = slug(term)
    n = 2
    while candidate in taken:
        candidate, n = f"{base}-{n}", n + 1
    taken.add(candidate)
    return candidate

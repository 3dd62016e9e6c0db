"""The IRIs the KB mints, all under one configurable base.

Shapes (DESIGN.md):

- ``{base}edition/en/2011-09-30``                      an edition (also its named graph)
- ``{base}edition/en/2011-09-30/part/1``               a part
- ``{base}edition/en/2011-09-30/section/111``          a section
- ``{base}edition/en/2011-09-30/rule/111.2``           a rule as worded in that edition
- ``{base}edition/en/2011-09-30/rule/111.2/example/1`` its first example
- ``{base}edition/en/2011-09-30/rule/111.2/citation/1`` its first citation of another rule
- ``{base}edition/en/2011-09-30/rule/111.2/statement/1`` a definitional statement it makes
- ``{base}edition/en/2011-09-30/inferred/3``           a statement a reasoner inferred for it
- ``{base}edition/en/2011-09-30/glossary/owner``       a glossary entry
- ``{base}concept/owner``                              a game concept, bilingual, version-independent
- ``{base}lineage/{id}``                               one rule across editions
- ``{base}lineage/{id}/wording/2``                    its second wording in force (number, text, dates)
- ``{base}change/en/2009-07-08/200.5a..111.2``       what became of a rule in the next edition
  (``..111.2`` an added rule, ``200.5a..`` a removed one)
- ``{base}meaning-change/en/2018-07-13/1``            a change of meaning in an edition's definitions
- ``{base}consistency/en/2026-01-16/3``               a place where an edition disagrees with itself
- ``{base}card/platinum-angel``                       a card, as its Oracle text has it (kb.cards)
- ``{base}card/fire-ice/face/2``                       a face of a card with faces
- ``{base}graph/cards``                                the named graph of cards
- ``{base}graph/concepts``                             the named graph of concepts
- ``{base}graph/lineage``                              the named graph of lineages and changes

Every IRI minted here must dereference on the web endpoint; :func:`parse`
is the inverse the endpoint uses.
"""

from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass

from rulekb.ingest import numbers

from ..errors import KBError

DEFAULT_BASE = "http://localhost:8000/"


def base_iri(base: str | None = None) -> str:
    """``base`` (else RULEKB_BASE_IRI, else the default) ending in "/"; one that is not an
    absolute IRI ("http://bad base/") is refused here, before a build does any work."""
    base = base or os.environ.get("RULEKB_BASE_IRI") or DEFAULT_BASE
    base = base if base.endswith("/") else base + "/"
    try:
        import pyoxigraph

        pyoxigraph.NamedNode(base)
    except ValueError as error:
        raise KBError(f"the base IRI {base!r} is not an absolute IRI ({error})") from None
    return base


def slug(term: str) -> str:
    """A glossary term as a path segment: "Mana Ability" -> "mana-ability",
    "Contrôleur" -> "controleur", "You/Your" -> "you-your"."""
    # an apostrophe, however printed (’ ' or a lost character), joins its word: "City’s" -> "citys"
    text = re.sub(r"(?<=\w)['’?\ufffd](?=\w)", "", term)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^A-Za-z0-9]+", "-", text.lower()).strip("-")
    return text or "term"


@dataclass(frozen=True, slots=True)
class Minter:
    base: str

    @classmethod
    def for_base(cls, base: str | None = None) -> "Minter":
        return cls(base_iri(base))

    def edition(self, edition_id: str) -> str:
        return f"{self.base}edition/{edition_id}"

    def part(self, edition_id: str, number: str) -> str:
        return f"{self.base}edition/{edition_id}/part/{number}"

    def section(self, edition_id: str, number: str) -> str:
        return f"{self.base}edition/{edition_id}/section/{number}"

    def rule(self, edition_id: str, number: str) -> str:
        return f"{self.base}edition/{edition_id}/rule/{number}"

    def numbered(self, edition_id: str, number: str) -> str:
        """The IRI of whatever a number names: part (1), section (111) or rule."""
        if "." in number:
            return self.rule(edition_id, number)
        if len(number) == 3:
            return self.section(edition_id, number)
        return self.part(edition_id, number)

    def example(self, edition_id: str, number: str, index: int) -> str:
        return f"{self.rule(edition_id, number)}/example/{index}"

    def citation(self, owner_iri: str, index: int) -> str:
        return f"{owner_iri}/citation/{index}"

    def statement(self, edition_id: str, number: str, index: int) -> str:
        return f"{self.rule(edition_id, number)}/statement/{index}"

    def statement_content(self, digest: str) -> str:
        """What statements say, shared by every edition that says it (kb.rdf.statements)."""
        return f"{self.base}statement/{digest}"

    def inferred(self, edition_id: str, index: int) -> str:
        return f"{self.edition(edition_id)}/inferred/{index}"

    def glossary(self, edition_id: str, term_slug: str) -> str:
        return f"{self.base}edition/{edition_id}/glossary/{term_slug}"

    def concept(self, concept_slug: str) -> str:
        return f"{self.base}concept/{concept_slug}"

    def lineage(self, lineage_id: str) -> str:
        return f"{self.base}lineage/{lineage_id}"

    def wording(self, lineage_id: str, index: int) -> str:
        """The ``index``-th wording (1 = oldest) of a lineage: a run of editions with the
        same number and text, and the dates it was in force (kb.timeline.wordings)."""
        return f"{self.lineage(lineage_id)}/wording/{index}"

    def meaning_change(self, to_edition: str, index: int) -> str:
        """The ``index``-th change of meaning between an edition and the one before it."""
        return f"{self.base}meaning-change/{to_edition}/{index}"

    def change(self, to_edition: str, old: str | None, new: str | None) -> str:
        """A change between an edition and the one before it: ``old..new``
        (rule numbers; either side empty for an added or removed rule)."""
        return f"{self.base}change/{to_edition}/{old or ''}..{new or ''}"

    def graph(self, name: str) -> str:
        return f"{self.base}graph/{name}"

    def card(self, card_slug: str) -> str:
        """A card by the slug of its name (kb.cards)."""
        return f"{self.base}card/{card_slug}"

    def card_face(self, card_slug: str, index: int) -> str:
        return f"{self.card(card_slug)}/face/{index}"

    def translation_finding(self, fr_edition: str, index: int) -> str:
        """The ``index``-th finding of the translation report of a French edition
        (against the newest English edition of the KB; graph/translation)."""
        return f"{self.base}translation/{fr_edition}/{index}"

    def consistency_finding(self, edition_id: str, index: int) -> str:
        """The ``index``-th place where an edition disagrees with itself (graph/consistency)."""
        return f"{self.base}consistency/{edition_id}/{index}"


# -- the inverse: a path under the base -> (kind, parts) ----------------------

_EDITION = r"(?P<edition>[a-z]{2}/[A-Za-z0-9][A-Za-z0-9._-]*)"
_RULE_NUMBER = rf"(?P<number>{numbers.LAX_RULE})"
_INDEX = r"(?P<index>[1-9]\d{0,8})"
_LINEAGE = rf"[a-z]{{2}}/[A-Za-z0-9][A-Za-z0-9._-]*/(?:{numbers.LAX_RULE}|{numbers.LEADING})"
_SHAPES = [
    ("edition", rf"edition/{_EDITION}"),
    ("part", rf"edition/{_EDITION}/part/(?P<number>\d{{1,2}})"),
    ("section", rf"edition/{_EDITION}/section/(?P<number>{numbers.SECTION})"),
    ("rule", rf"edition/{_EDITION}/rule/{_RULE_NUMBER}"),
    ("example", rf"edition/{_EDITION}/rule/{_RULE_NUMBER}/example/{_INDEX}"),
    ("citation", rf"edition/{_EDITION}/(?P<owner>(?:rule/{numbers.LAX_RULE}(?:/example/[1-9]\d*)?"
                 rf"|glossary/[a-z0-9-]+|section/{numbers.SECTION}|part/\d{{1,2}}))/citation/{_INDEX}"),
    ("statement", rf"edition/{_EDITION}/rule/{_RULE_NUMBER}/statement/{_INDEX}"),
    ("inferred", rf"edition/{_EDITION}/inferred/{_INDEX}"),
    ("statement-content", r"statement/(?P<digest>[0-9a-f]{20})"),
    ("glossary", rf"edition/{_EDITION}/glossary/(?P<slug>[a-z0-9-]+)"),
    ("concepts", r"concept/"),
    ("concept", r"concept/(?P<slug>[a-z0-9-]+)"),
    ("lineage", rf"lineage/(?P<lineage>{_LINEAGE})"),
    ("wording", rf"lineage/(?P<lineage>{_LINEAGE})/wording/(?P<index>[1-9]\d{{0,4}})"),
    ("change", rf"change/{_EDITION}/(?P<old>(?:{numbers.LAX_NUMBER})?)\.\.(?P<new>(?:{numbers.LAX_NUMBER})?)"),
    ("meaning-change", rf"meaning-change/{_EDITION}/{_INDEX}"),
    ("graph", r"graph/(?P<name>[a-z][a-z0-9-]*)"),
    ("card", r"card/(?P<slug>[a-z0-9][a-z0-9-]{0,200})"),
    ("card-face", rf"card/(?P<slug>[a-z0-9][a-z0-9-]{{0,200}})/face/{_INDEX}"),
    ("translation-finding", rf"translation/{_EDITION}/{_INDEX}"),
    ("consistency-finding", rf"consistency/{_EDITION}/{_INDEX}"),
]
_PARSERS = [(kind, re.compile(pattern + r"\Z")) for kind, pattern in _SHAPES]


def parse(path: str) -> tuple[str, dict] | None:
    """The kind and parts of an IRI path relative to the base (what :class:`Minter`
    minted), e.g. ``"edition/en/2011-09-30/rule/111.2"`` ->
    ``("rule", {"edition": "en/2011-09-30", "number": "111.2"})``; None for any
    other path. A full IRI is not accepted: strip the base first.

    Parts by kind: edition {edition}; part, section, rule {edition, number};
    example, statement {edition, number, index}; citation {edition, owner (the
    citing rule, example, glossary entry or heading, as "rule/110.2",
    "glossary/owner", "rule/704.7/example/1"), index}; inferred {edition, index};
    glossary {edition, slug}; statement-content {digest}; concept {slug}; concepts (the scheme, ``concept/``) {};
    lineage {lineage} (an id with slashes: "en/2003-07-01/200.5a"); wording {lineage, index}; change
    {edition, old, new} (None for the empty side of an added or removed rule);
    meaning-change {edition, index}; graph {name}; card {slug}; card-face {slug, index}; translation-finding {edition,
    index}; consistency-finding {edition, index}. Indexes are ints.
    """
    if not isinstance(path, str) or len(path) > 300 or "//" in path:
        return None
    path = path.lstrip("/")
    for kind, pattern in _PARSERS:
        m = pattern.match(path)
        if m is None:
            continue
        parts = m.groupdict()
        if kind == "change":
            if not parts["old"] and not parts["new"]:
                return None
            parts["old"], parts["new"] = parts["old"] or None, parts["new"] or None
        if "index" in parts:
            parts["index"] = int(parts["index"])
        if kind == "edition" and parts["edition"].endswith(".."):
            return None
        return kind, parts
    return None


def rk_nodes(names) -> dict:
    """rk: terms as pyoxigraph nodes by local name, for the modules that write quads (a
    misspelt name is an error of the closed vocabulary, kb.rdf.vocab)."""
    import pyoxigraph as ox

    from .vocab import RK

    return {name: ox.NamedNode(str(getattr(RK, name))) for name in names}

"""What the index holds: one document per distinct *version* of a rule, and per
distinct glossary entry, with the editions that print it.

A rule that keeps its number and wording from one edition to the next is one
version: the 245,000 rules of the 163 editions are about 20,000 versions. A
version's document lists its editions (a search in one edition filters on
them), its lineage (``--all-editions`` returns one hit per lineage), and the
KB's knowledge of it: the concepts it defines (the glossary cites it,
``rk:definedBy``), the concepts its parent defines, and the concepts its text
mentions (``rk:mentions``, the build's own matcher). Plain data, no tantivy:
:mod:`.index` writes it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the reader of an index needs no parser
    from rulekb.ingest.model import Edition

PARENT_TITLE = 80  # a parent rule this short names its subrules' subject ("702.19. Trample")
HEADING = 60  # a rule with subrules, this short and without a full stop, is their heading


@dataclass
class Doc:
    kind: str  # rule | glossary
    lang: str
    number: str  # the rule number; the term for a glossary entry
    text: str  # rule text; glossary definition
    examples: str = ""
    titles: str = ""  # section and part titles (a glossary entry: its term)
    parent: str = ""  # the parent rule's text when it names the subject
    section: str = ""
    lineage: str = ""
    group: str = ""  # one hit per group across editions: the lineage, else lang:number
    editions: list[str] = field(default_factory=list)
    defines: set[str] = field(default_factory=set)
    defines_sub: set[str] = field(default_factory=set)
    mentions: set[str] = field(default_factory=set)
    refs: list[str] = field(default_factory=list)  # a glossary entry's rules
    heading: bool = False  # "702.19. Trample": a title over its subrules, indexed as a title
    key: str = ""  # what makes it one version (a digest): how ``rulekb build --add`` finds it again


def _key(parts: tuple) -> str:
    import hashlib

    return hashlib.sha256("\x1f".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:24]


def documents(editions: list[Edition], concepts: dict, lineages, matchers: dict) -> Iterator[Doc]:
    """Every distinct rule version and glossary entry of ``editions`` (oldest first)."""
    from ..rdf.concepts import concept_key

    ordered = sorted(editions, key=lambda e: (e.effective_date or "9999", e.id))
    defined: dict[tuple[str, str], set[str]] = {}
    for concept in concepts.values():
        for where in concept.defined_by:
            defined.setdefault(where, set()).add(concept.key)
    by_rule = lineages.by_rule if lineages is not None else {}
    docs: dict[tuple, Doc] = {}
    for edition in ordered:  # a glossary entry citing a section ("See rule 607"): its first rule defines
        for entry in edition.glossary:
            for ref in entry.refs:
                if ref.isdigit() and len(ref) == 3:
                    defined.setdefault((edition.id, f"{ref}.1"), set()).add(concept_key(entry.term))
    for edition in ordered:
        lang = edition.language
        matcher = matchers.get(lang)
        sections = {h.number: h.title for h in edition.sections}
        parts = {h.number: h.title for h in edition.parts}
        texts = {r.number: r.text for r in edition.rules}
        children: dict[str, list[str]] = {}
        for r in edition.rules:
            if r.parent:
                children.setdefault(r.parent, []).append(r.number)
        headings = {n for n in children if len(texts.get(n, "")) <= HEADING and not texts.get(n, ".").rstrip().endswith(".")}
        for rule in edition.rules:
            section = rule.number.split(".")[0]
            titles = " ".join(t for t in (sections.get(section, ""), parts.get(section[:1], "")) if t)
            parent = texts.get(rule.parent or "", "")
            parent = parent if len(parent) <= PARENT_TITLE else ""
            lineage = by_rule.get((edition.id, rule.number), "")
            examples = "\n".join(rule.examples)
            key = ("rule", lang, lineage, rule.number, rule.text, examples, parent, titles)
            doc = docs.get(key)
            if doc is None:
                doc = docs[key] = Doc(
                    "rule", lang, rule.number, rule.text, examples, titles, parent, section, lineage,
                    lineage or f"{lang}:{rule.number}",
                    mentions=set(matcher.mentions(rule.text)) if matcher else set(), key=_key(key))
            doc.editions.append(edition.id)
            doc.heading = rule.number in headings
            # a heading's definition is its first subrule ("702.19a Trample is a static ability ...")
            own = defined.get((edition.id, rule.number), set())
            if rule.parent in headings and children[rule.parent][0] == rule.number:
                own = own | defined.get((edition.id, rule.parent), set())
            if doc.heading:
                doc.defines_sub |= own
            else:
                doc.defines |= own
            if rule.parent:
                doc.defines_sub |= defined.get((edition.id, rule.parent), set())
        for entry in edition.glossary:
            ckey = concept_key(entry.term)
            key = ("glossary", lang, entry.term, entry.definition)
            doc = docs.get(key)
            if doc is None:
                doc = docs[key] = Doc("glossary", lang, entry.term, entry.definition, titles=entry.term,
                                      group=f"{lang}:glossary:{ckey}", refs=list(entry.refs),
                                      defines={ckey},
                                      mentions=set(matcher.mentions(entry.definition)) if matcher else set(),
                                      key=_key(key))
            doc.editions.append(edition.id)
    yield from docs.values()


def edition_rows(editions: list[Edition]) -> list[dict]:
    """The editions the index knows, oldest first: what picks the default edition."""
    return [{"edition": e.id, "language": e.language, "effective_date": e.effective_date,
             "partial": e.partial, "rules": len(e.rules)}
            for e in sorted(editions, key=lambda e: (e.effective_date or "9999", e.id))]


def concept_rows(concepts: dict) -> dict[str, dict]:
    """Concept key -> labels by language and whether it is obsolete: what the
    query reader matches questions against (:mod:`.understand`)."""
    return {key: {"labels": {lang: list(labels) for lang, labels in c.labels.items()},
                  "obsolete": bool(c.obsolete)}
            for key, c in concepts.items()}

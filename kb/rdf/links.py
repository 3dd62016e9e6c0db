"""Cross-rule links: every citation in an edition resolved inside that edition.

A citation ("See rule 601", "rules 510.1c-d", "cf. règle 601", "voir section 6")
is found by :mod:`ingest.refs`; each number it names is resolved to the rule,
section or part of the same edition that carries that number. Numbers that name
nothing are kept as dangling -- reported, never dropped.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rulekb.ingest import refs
from rulekb.ingest.model import Edition


@dataclass(frozen=True, slots=True)
class Link:
    owner: str  # "rule" | "example" | "glossary"
    rule: str | None  # the citing rule's number (rules and examples)
    example: int | None  # 1-based example index (examples)
    term: str | None  # the citing glossary term (glossary)
    text: str  # the citation as written
    numbers: tuple[str, ...]  # every number it names
    resolved: tuple[bool, ...]  # per number: does the edition have it?

    @property
    def dangling(self) -> tuple[str, ...]:
        return tuple(n for n, ok in zip(self.numbers, self.resolved) if not ok)


def known_numbers(edition: Edition) -> set[str]:
    return (
        {r.number for r in edition.rules}
        | {s.number for s in edition.sections}
        | {p.number for p in edition.parts}
    )


def edition_links(edition: Edition, known: set[str] | None = None) -> Iterator[Link]:
    known = known if known is not None else known_numbers(edition)

    def links(text: str, **owner) -> Iterator[Link]:
        for citation in refs.find(text):
            yield Link(
                text=citation.text,
                numbers=citation.numbers,
                resolved=tuple(n in known for n in citation.numbers),
                **owner,
            )

    for rule in edition.rules:
        yield from links(rule.text, owner="rule", rule=rule.number, example=None, term=None)
        for i, example in enumerate(rule.examples, 1):
            yield from links(example, owner="example", rule=rule.number, example=i, term=None)
    for entry in edition.glossary:
        yield from links(entry.definition, owner="glossary", rule=None, example=None, term=entry.term)

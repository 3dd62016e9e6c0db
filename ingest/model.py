"""The document model: what ingest produces and every later part reads.

An :class:`Edition` is one published text of the Comprehensive Rules in one
language. It keeps everything the source said, in order, so that it can be
rendered back to the source's text (see :mod:`ingest.render`): numbered items
(parts, sections, rules with their examples), the glossary, and the prose around
them (front matter such as the introduction and table of contents, back matter
such as credits). Text the parser could not place is kept too, as
:class:`Unplaced` blocks with a warning, never dropped.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass(slots=True)
class SourceInfo:
    location: str  # file path or URL
    format: str  # txt | html | pdf | docx
    encoding: str | None = None  # ascii | utf-8 | utf-8-sig | cp1252 | utf-16-le | utf-16-be
    line_endings: str | None = None  # LF | CRLF | CR | a "+"-joined mix
    layout: str | None = None  # which layout parser read it (see ingest.layouts)
    sha256: str | None = None


@dataclass(slots=True)
class Heading:
    """A part (``1``) or section (``111``) heading."""

    number: str
    title: str
    order: int = 0


@dataclass(slots=True)
class Rule:
    """A numbered rule or subrule (``111.2``, ``111.2a``)."""

    number: str
    text: str
    examples: list[str] = field(default_factory=list)
    parent: str | None = None
    order: int = 0
    line: int | None = None  # 1-based line in the source text, for messages
    printed: str | None = None  # the number as printed, only when it was malformed


@dataclass(slots=True)
class GlossaryEntry:
    term: str
    definition: str
    refs: list[str] = field(default_factory=list)
    order: int = 0


@dataclass(slots=True)
class Unplaced:
    """Source text that belongs to no rule, heading or glossary entry."""

    text: str
    order: int
    line: int | None = None
    region: str = "body"  # body | glossary: where it goes back when rendered
    # inside a rule: ``order`` is the rule's, and ``slot`` the number of its
    # examples that came before this text (so rendering keeps the source order)
    slot: int | None = None


@dataclass(slots=True)
class ParseWarning:
    code: str  # truncated | unknown-line | malformed-number | out-of-order | ...
    message: str
    line: int | None = None
    source: str | None = None

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        return f"{where}{self.message}"


@dataclass(slots=True)
class Edition:
    id: str  # LANG/DATE, e.g. en/2011-09-30
    language: str  # en | fr
    effective_date: str | None  # ISO date
    title: str
    sources: list[SourceInfo] = field(default_factory=list)
    parts: list[Heading] = field(default_factory=list)
    sections: list[Heading] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    glossary: list[GlossaryEntry] = field(default_factory=list)
    glossary_heading: str | None = None  # as printed ("Glossary", "GLOSSARY", "Glossaire")
    front_matter: list[str] = field(default_factory=list)
    back_matter: list[str] = field(default_factory=list)
    unplaced: list[Unplaced] = field(default_factory=list)
    warnings: list[ParseWarning] = field(default_factory=list)
    partial: bool = False  # an excerpt, a truncated copy, or pages of a site

    @property
    def source(self) -> SourceInfo | None:
        return self.sources[0] if self.sources else None

    def rule(self, number: str) -> Rule | None:
        for rule in self.rules:
            if rule.number == number:
                return rule
        return None

    def warn(self, code: str, message: str, line: int | None = None) -> None:
        location = self.source.location if self.source else None
        self.warnings.append(ParseWarning(code, message, line, location))

    def to_dict(self) -> dict:
        """The JSON shape of ``rulekb parse`` (see DESIGN.md)."""
        source = asdict(self.source) if self.source else None
        return {
            "edition": self.id,
            "language": self.language,
            "effective_date": self.effective_date,
            "title": self.title,
            "source": source,
            "sources": [asdict(s) for s in self.sources],
            "partial": self.partial,
            "parts": [{"number": p.number, "title": p.title} for p in self.parts],
            "sections": [{"number": s.number, "title": s.title} for s in self.sections],
            "rules": [
                {
                    "number": r.number,
                    "text": r.text,
                    "examples": list(r.examples),
                    "parent": r.parent,
                    "order": r.order,
                }
                for r in self.rules
            ],
            "glossary": [
                {"term": g.term, "definition": g.definition, "refs": list(g.refs)}
                for g in self.glossary
            ],
            "front_matter": list(self.front_matter),
            "back_matter": list(self.back_matter),
            "unplaced": [{"text": u.text, "line": u.line, "region": u.region} for u in self.unplaced],
            "warnings": [
                {"code": w.code, "message": w.message, "line": w.line, "source": w.source}
                for w in self.warnings
            ],
        }

    def summary(self) -> dict:
        """The row ``rulekb editions`` and directory parses print."""
        return {
            "edition": self.id,
            "language": self.language,
            "effective_date": self.effective_date,
            "sections": len(self.sections),
            "rules": len(self.rules),
            "glossary": len(self.glossary),
            "warnings": len(self.warnings),
            "partial": self.partial,
            "source": ", ".join(s.location for s in self.sources),
        }

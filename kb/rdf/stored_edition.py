"""An edition read back from the knowledge base as an ``ingest.model.Edition``.

``stored_edition(store, "en/2009-05-01")`` asks the named queries ``edition-info``,
``edition-sections``, ``edition-rules``, ``edition-examples``, ``edition-glossary`` and
``edition-warnings`` (six SELECTs, about half a second for a whole modern edition on the
embedded store) and puts together what the parser made of the source: parts and
sections, rules (number, text, examples, parent, order, printed number), the glossary
(term, definition, the numbers each entry cites), effective date, language, title,
sources and warnings. It uses nothing but ``store.select``, so a remote SPARQL endpoint
works as well as the embedded store. Every part that reads editions (``rulekb
contradictions``, ``rulekb diff``...) can then work from the KB without the source files.

What the KB does not keep, and how it comes back:

- front and back matter, unplaced text, source lines, encodings: not stored, left empty;
- a rule's parent: the number's parent (``ingest.numbers.parent``), as the parser sets it
  (the KB's ``rk:parent`` is the nearest ancestor that exists);
- a glossary entry's cited numbers: the KB's citations, in the order the definition
  prints them (for texts other than the official layout, whose parser leaves ``refs``
  empty, the KB's citations fill them);
- a source's format: from its file name's extension;
- a warning: stored with its code (``rk:warningCode``: ``truncated`` matters, a truncated
  glossary says nothing past its last term) and its printed line ("line 12: ..."), whose
  prefix gives the line back; a store built before codes were stored gives ``stored``.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import PurePosixPath

from rulekb.ingest import numbers, refs
from rulekb.ingest.model import Edition, GlossaryEntry, Heading, ParseWarning, Rule, SourceInfo

from ..store import queries
from ..store.memo import BuildMemo
from ..errors import NotFound


def _run(store, name: str, **params) -> list[dict[str, str]]:
    query = queries.get(name)
    return store.select(query.text, query.bindings(params))


KEPT = 8  # editions a process keeps read (see stored_edition)
_kept = BuildMemo(KEPT)  # Edition objects are mutable: each caller gets its own copy


def stored_edition(store, edition_id: str, rules_only: bool = False) -> Edition:
    """The edition ``edition_id`` as the KB holds it; :class:`NotFound` when it has none.
    ``rules_only``: its header and rules (with their examples) only, no parts, sections,
    glossary or warnings -- three queries of six, for a reader of rules alone (the
    translation report's candidate bases: twenty editions read to score a French text).

    The last :data:`KEPT` editions read from an embedded store are kept per build
    (:class:`kb.store.memo.BuildMemo`: another build is read afresh), each call getting its
    own copy to change. The translation report of every French text reads the same newest
    English edition each time."""
    return _kept.get(store, (edition_id, rules_only), lambda: _read(store, edition_id, rules_only))


def _read(store, edition_id: str, rules_only: bool) -> Edition:
    info = _run(store, "edition-info", edition=edition_id)
    if not info:
        raise NotFound(f"no edition {edition_id!r} in the knowledge base (rulekb editions lists them)")
    first = info[0]
    edition = Edition(
        id=edition_id,
        language=first["language"],
        effective_date=first.get("effective_date"),
        title=first.get("title", ""),
        sources=[_source(row["source"]) for row in info if row.get("source")],
        partial=first.get("partial") == "true",
    )
    for row in () if rules_only else _run(store, "edition-sections", edition=edition_id):
        heading = Heading(row["number"], row.get("title", ""), int(row.get("order", 0)))
        (edition.parts if row["kind"] == "part" else edition.sections).append(heading)

    examples: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for row in _run(store, "edition-examples", edition=edition_id):
        examples[row["number"]].append((int(row["position"]), row["text"]))
    seen: set[str] = set()
    for row in _run(store, "edition-rules", edition=edition_id):
        number = row["number"]
        if number in seen:  # one IRI at two places (a duplicate number): keep the first
            continue
        seen.add(number)
        edition.rules.append(Rule(
            number=number,
            text=row.get("text", ""),
            examples=[text for _, text in sorted(examples.get(number, ()))],
            parent=numbers.parent(number),
            order=int(row["order"]),
            printed=row.get("printed"),
        ))

    if rules_only:
        return edition
    entries: dict[tuple[int, str], dict] = {}
    for row in _run(store, "edition-glossary", edition=edition_id):
        key = (int(row["order"]), row["term"])
        entry = entries.setdefault(key, {"definition": row["definition"], "cited": []})
        if row.get("cited_number"):
            entry["cited"].append((_position(row.get("citation", "")), numbers.sort_key(row["cited_number"]),
                                   row["cited_number"]))
    for (order, term), entry in sorted(entries.items()):
        edition.glossary.append(GlossaryEntry(term, entry["definition"], _refs(entry), order))

    warnings = [_warning(row, edition) for row in _run(store, "edition-warnings", edition=edition_id)]
    edition.warnings = sorted(warnings, key=lambda w: (w.line or 0, w.message))
    return edition


def _refs(entry: dict) -> list[str]:
    """The numbers an entry cites, each once, in the order its definition prints them.

    The KB keeps each citation's numbers as a set: their printed order ("rules 409.1e and
    310.2") comes back from the definition through ingest.refs, the parser's own reader."""
    cited = list(dict.fromkeys(number for *_, number in sorted(entry["cited"])))
    printed = [n for n in refs.cited_numbers(entry["definition"]) if n in cited]
    return printed + [n for n in cited if n not in printed]


def _position(citation_iri: str) -> int:
    """A citation's place in its entry: its IRI ends in ``/citation/N``."""
    m = re.search(r"/citation/(\d+)$", citation_iri)
    return int(m.group(1)) if m else 0


_FORMATS = {".txt": "txt", ".html": "html", ".htm": "html", ".pdf": "pdf", ".docx": "docx"}


def _source(location: str) -> SourceInfo:
    path = location.split("?", 1)[0].split("#", 1)[0]
    return SourceInfo(location, _FORMATS.get(PurePosixPath(path).suffix.lower(), "unknown"))


_LINE = re.compile(r"^line (\d+): ")


def _warning(row: dict, edition: Edition) -> ParseWarning:
    """A warning as stored: its code as data (``rk:warningCode``), its line back out of the
    printed text ("line 12: ..."). A store built before codes were stored says "stored"."""
    printed = row["warning"]
    m = _LINE.match(printed)
    line, message = (int(m.group(1)), printed[m.end():]) if m else (None, printed)
    return ParseWarning(row.get("code") or "stored", message, line, edition.source.location if edition.source else None)


def load_edition(name: str, store=None, note=None) -> Edition:
    """An edition named as DESIGN.md allows: by id from the KB (``en/2009-05-01``), alias
    (``en/latest``) or date (``en@2010-03-15``, :mod:`kb.timeline.editions`), or by a
    source file, parsed (``../shared/corpus/en/CR-2009-05-01.txt``). ``store``: the store,
    or a callable giving it (opened only when an id needs it); ``note``: called with the
    resolution of the name (to say which edition answered)."""
    from pathlib import Path

    if name.endswith((".txt", ".html", ".htm", ".pdf", ".docx")) or Path(name).is_file():
        from rulekb.ingest.parse import parse_file

        if not Path(name).is_file():
            raise NotFound(f"no file {name!r}")
        found = parse_file(name)
        if len(found) != 1:
            raise NotFound(f"{name} holds {len(found)} editions ({', '.join(e.id for e in found)}): name one by id")
        return found[0]
    opened = store() if callable(store) else store
    from ..timeline.answers import resolve

    resolution = resolve(opened, name)  # an id as is; en/latest, en@2010-03-15: the edition they name
    if note is not None:
        note(resolution)
    return stored_edition(opened, resolution.edition)

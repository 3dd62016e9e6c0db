"""A new edition comes in: ``rulekb update``, and ``build --add`` of an edition that is not the newest.

``rulekb update``: the official rules page is read (:func:`rulekb.ingest.fetch.listed_editions`,
as ``rulekb fetch --check`` does); every English edition it lists that is newer than the KB's
newest is downloaded, each text checked before anything is written (one complete edition, of
the date the page gives it, newer than the KB's: a truncated download or another document is
refused, the KB untouched), kept in the download cache (its source from then on), then added
in date order by :func:`kb.add_edition.add`. What each one changed is read back from the KB
it went into (:func:`kb.timeline.effects.edition_effects`: added, removed, renumbered,
reworded, split, merged, changes of meaning), with the cards whose links reach a changed rule
when the KB has a cards graph, and its entry of the editions feed (:mod:`kb.timeline.feeds`).

``build --add`` of an edition that is not after every edition of its language (a gap of an
archive filled), or of a date the KB has with another text (a re-publication, ``--replace``):
the KB is built again from the sources it records (every edition's ``dcterms:source``) with
that file added, or put in place of the one it replaces (:func:`kb.build.build`). That is a
full build of the same texts by construction -- the same lineages, wordings, changes, feeds,
search index and page data -- swapped in atomically as a build is; it reuses the parse,
lineage and reasoning caches. A source that is gone (a file moved since the KB was built)
makes it refuse, the KB untouched.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from rulekb.ingest.model import Edition

from .errors import BuildError


# ---------------------------------------------------------------- which edition, and how it goes in


def _one_edition(editions: list[Edition], source: str) -> Edition:
    from .build import choose_editions

    chosen, _ = choose_editions(editions)
    if len(chosen) != 1:
        raise BuildError(f"{source} holds {len(chosen) or 'no'} editions: one Comprehensive Rules text is needed")
    return chosen[0]


def fingerprint(edition: Edition) -> str:
    """What two texts of one date must share to be the same edition for the KB: its parts,
    sections, rules, examples, glossary (kb.lineage.cache's digest of them) and the text
    around them; the id, the date and the file it came from left aside."""
    import dataclasses
    import hashlib

    from .lineage.cache import digest

    same = dataclasses.replace(edition, id="-", effective_date=None, sources=[])
    around = "\x1e".join([*edition.front_matter, "\x1d", *edition.back_matter])
    return hashlib.sha256((digest([same]) + around).encode("utf-8", "surrogatepass")).hexdigest()[:32]


def placement(store, new: Edition, replace: bool = False) -> str:
    """How ``new`` goes into the KB: ``"append"`` (after every edition of its language:
    kb.add_edition), ``"insert"`` (before one of them: rebuilt with it), ``"replace"`` (its
    date is in the KB with other text, and ``replace`` says to put it in place). Raises a
    BuildError for the same text again, or a re-publication without ``replace``."""
    from .add_edition import _kb_editions, _predecessor

    rows = _kb_editions(store)
    same = next((row for row in rows if row["edition"] == new.id), None)
    if same is not None:
        stored, _ = _predecessor(store, same)
        if fingerprint(stored) == fingerprint(new):
            raise BuildError(f"{new.id} is already in the KB with this text: nothing to do")
        if not replace:
            raise BuildError(f"{new.id} is already in the KB with other text (a re-publication of the same date?): "
                             f"--replace puts this text in its place")
        return "replace"
    if replace:
        raise BuildError(f"--replace: the KB has no {new.id} to replace (without --replace it is added)")
    later = [r for r in rows if r["language"] == new.language and (r["effective_date"] or "") >= (new.effective_date or "")]
    return "insert" if later else "append"


def recorded_sources(store) -> dict[str, list[str]]:
    """Every edition's sources as the KB records them (``dcterms:source``): edition -> paths or URLs."""
    from .store.queries import run

    found: dict[str, list[str]] = {}
    for row in run(store, "edition-sources"):
        found.setdefault(row["edition"], []).append(row["source"])
    return found


def rebuild_with(store, source: str, new: Edition, how: str, reasoner: str = "auto", reporter=None, into=None):
    """The KB built again from its recorded sources with ``source`` added (``insert``) or in
    place of ``new.id``'s (``replace``): a full build (kb.build), swapped in atomically;
    ``into``: its writing step (kb.build.splice: an inserted edition written by difference)."""
    from .add_edition import _base, _kb_editions
    from .build import build

    base = _base(store)
    sources = recorded_sources(store)
    if how == "replace":
        sources.pop(new.id, None)
    dated = {row["edition"]: (row["language"], row["effective_date"] or "") for row in _kb_editions(store)}
    dated[new.id] = (new.language, new.effective_date or "")
    # in the order a build of the corpus reads them (English, then French; by date): the
    # search index numbers its documents in that order, and ranking ties follow it
    order = sorted(sources, key=lambda e: (*dated.get(e, ("~", "")), e))
    wanted = list(dict.fromkeys(s for e in order for s in sorted(sources[e])))
    gone = [s for s in wanted if not s.startswith(("http://", "https://")) and not Path(s).exists()]
    if gone:
        raise BuildError(f"cannot {how} {new.id} without a full build: the KB's source {gone[0]} is gone"
                         + (f" (and {len(gone) - 1} more)" if len(gone) > 1 else "")
                         + "; rebuild from the corpus with this file (rulekb build ... FILE)")
    mine = str(Path(source).resolve()) if not source.startswith(("http://", "https://")) else source
    if how == "replace" and mine in wanted:
        raise BuildError(f"--replace: {source} is the file the KB already has {new.id} from")
    at = next((i for i, e in enumerate(order) if (*dated.get(e, ("~", "")), e) > (*dated[new.id], new.id)), len(order))
    before = {s for e in order[:at] for s in sources[e]}
    mine_at = sum(1 for s in wanted if s in before)
    return build([*wanted[:mine_at], mine, *wanted[mine_at:]], store, base=base, reasoner=reasoner, reporter=reporter,
                 into=into)


def add_or_insert(source: str, store, replace: bool = False, reasoner: str = "auto", reporter=None):
    """``rulekb build --add SOURCE [--replace]``: appended (kb.add_edition), or inserted /
    put in place of a re-publication by a build from the KB's sources with it
    (:func:`rebuild_with`). Returns kb.add_edition's AddReport (``how`` says which)."""
    from rulekb.ingest.parse import parse_many

    from .add_edition import AddReport, add
    from .progress import cpu_seconds

    if not store.exists():
        raise BuildError(f"no KB at {store.location} to add to: build it first (rulekb build)")
    started, cpu = time.perf_counter(), cpu_seconds()
    parsed = parse_many([source])
    if parsed.failures and not parsed.editions:
        raise BuildError(f"{source}: {parsed.failures[0]}")
    new = _one_edition(parsed.editions, source)
    how = placement(store, new, replace)
    if how == "append":
        return add(source, store, reasoner=reasoner, reporter=reporter)
    from .build.splice import Spliced, writer

    spliced = Spliced()
    built = rebuild_with(store, source, new, how, reasoner=reasoner, reporter=reporter,
                         into=writer(new.id, spliced) if how == "insert" and store.local_root is not None else None)
    chain = [e for e in built.editions if e.startswith(new.language + "/")]
    report = AddReport(edition=new.id, store=built.store, how="inserted" if how == "insert" else "replaced")
    before = [e for e in _chain(store, new.language) if e < (new.effective_date or "", new.id)]
    report.predecessor = before[-1][1] if before else None
    report.predecessor_from = "source" if report.predecessor else ""
    report.quads_added, report.changes, report.meaning_changes = built.quads, built.changes, built.meaning_changes
    report.reasoning, report.search, report.pages = built.reasoning, built.search, built.pages
    report.stages, report.stage_cpu, report.store_bytes = built.stages, built.stage_cpu, built.store_bytes
    if spliced.added:
        report.quads_added, report.quads_removed = spliced.added, spliced.removed
        report.not_redone.append(f"nothing: the build of its {len(built.editions)} editions' sources ({len(chain)} of "
                                 f"{new.language}) with {new.id}, written into the KB by difference (kb.build.splice)")
    else:
        report.not_redone.append(f"nothing: the KB was built again from its {len(built.editions)} editions' sources "
                                 f"({len(chain)} of {new.language}) with {new.id} "
                                 + ("added" if how == "insert" else "in place of the text it had")
                                 + (f" (not by difference: {spliced.why_not})" if spliced.why_not else ""))
    report.seconds = round(time.perf_counter() - started, 2)
    report.cpu_seconds = round(cpu_seconds() - cpu, 2)
    return report


def _chain(store, language: str) -> list[tuple[str, str]]:
    """(date, id) of the complete editions of ``language`` in the KB, in chain order."""
    from .store.queries import editions

    return sorted((row["effective_date"] or "", row["edition"]) for row in editions(store)
                  if row["language"] == language and not row["partial"])


# ---------------------------------------------------------------- rulekb update


@dataclass
class Added:
    """One edition ``rulekb update`` added, and what it changed."""
    edition: str
    url: str
    path: str
    previous: str | None = None
    counts: dict = field(default_factory=dict)  # kind -> count (kb.timeline.effects.KINDS)
    summary: str = ""  # "1 added, 2 reworded" (kb.timeline.effects.summary)
    labels: dict = field(default_factory=dict)  # kind -> how it is said ("modified": "reworded"), in KINDS order
    changes: dict = field(default_factory=dict)  # kind -> [{"old", "new", ...}]
    cards: dict | None = None  # {"touched": n, "cards": [...]} when the KB has a cards graph
    feed_entry: dict = field(default_factory=dict)
    feed_xml: str = ""
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    report: dict = field(default_factory=dict)  # kb.add_edition's


@dataclass
class UpdateReport:
    page: str = ""
    listed_newest: str | None = None
    kb_newest: str | None = None
    dry_run: bool = False
    newer: list[dict] = field(default_factory=list)  # [{"date", "url"}], oldest first
    added: list[Added] = field(default_factory=list)
    seconds: float = 0.0

    def to_dict(self) -> dict:
        out = dict(self.__dict__)
        out["added"] = [dict(a.__dict__) for a in self.added]
        return out


def update(store, page: str | None = None, dry_run: bool = False, cache: str | None = None,
           reasoner: str = "auto", reporter=None, progress=None) -> UpdateReport:
    """Bring the KB in ``store`` (embedded) up to date with the official rules page."""
    from rulekb.ingest.fetch import check_newer, rules_page

    from .store.queries import editions

    started = time.perf_counter()
    dates = kb_dates(editions(store))
    found = check_newer(dates, page)
    report = UpdateReport(page=page or rules_page(), listed_newest=found["listed_newest"]["date"],
                          kb_newest=found["kb_newest"], dry_run=dry_run,
                          newer=sorted(found["newer"], key=lambda item: item["date"]))
    if dry_run or not report.newer:
        report.seconds = round(time.perf_counter() - started, 2)
        return report
    if store.local_root is None:
        raise BuildError("rulekb update adds to an embedded store (a directory), not a SPARQL endpoint")
    # every text downloaded and checked before the first is added: a bad one leaves the KB as it was
    texts = [(item, _download_checked(item["date"], item["url"], report.kb_newest, cache)) for item in report.newer]
    for item, (path, edition) in texts:
        report.added.append(_add_one(store, item, path, edition, reasoner, reporter))
    report.seconds = round(time.perf_counter() - started, 2)
    return report


def kb_dates(rows: list[dict]) -> list[str]:
    """The effective dates of the KB's English editions (an undated page, whose id is no date,
    left out: ``en/undated-...`` sorts after every date and would hide every newer edition)."""
    return sorted({row["effective_date"] for row in rows if row["language"] == "en" and row.get("effective_date")})


def _download_checked(date: str, url: str, kb_newest: str | None, cache: str | None) -> tuple[Path, Edition]:
    """The text at ``url``, parsed and checked (one complete English edition of ``date``, newer
    than the KB's), then kept in the download cache; nothing is kept when it is refused."""
    from rulekb.ingest.download import download
    from rulekb.ingest.errors import IngestError
    from rulekb.ingest.fetch import cache_dir, cached_name, write_whole
    from rulekb.ingest.parse import parse_bytes

    data, _ = download(url)
    try:
        edition = _one_edition(parse_bytes(data, url), url)
    except IngestError as exc:
        raise BuildError(f"{url}: downloaded, but not a rules text: {exc.message}") from None
    if edition.partial:
        why = next((w.message for w in edition.warnings if w.code == "truncated"), "an excerpt, not the whole text")
        raise BuildError(f"{url}: not a whole edition ({why}); nothing added")
    if edition.language != "en":
        raise BuildError(f"{url}: a {edition.language} text, where the rules page lists English ones; nothing added")
    if edition.effective_date != date:
        raise BuildError(f"{url}: the page lists it as {date}, but the text is effective {edition.effective_date or 'on no date'}; "
                         "nothing added")
    if kb_newest is not None and date <= kb_newest:
        raise BuildError(f"{url}: {date} is not newer than the KB's {kb_newest}; nothing added")
    target = cache_dir(cache) / cached_name(url)
    write_whole(target, data)
    return target, edition


def _add_one(store, item: dict, path: Path, edition: Edition, reasoner: str, reporter) -> Added:
    from .add_edition import _base, add
    from .progress import cpu_seconds
    from .rdf.iris import Minter
    from .store.queries import editions
    from .timeline import effects, feeds

    started, cpu = time.perf_counter(), cpu_seconds()
    added = add(str(path), store, reasoner=reasoner, reporter=reporter)
    base = _base(store)
    made = effects.edition_effects(store, added.edition)
    row = next(r for r in editions(store) if r["edition"] == added.edition)
    entry = feeds.edition_entry(row, effects.change_counts(store).get(added.edition, {}),
                                Minter.for_base(base).edition(added.edition), base)
    return Added(edition=added.edition, url=item["url"], path=str(path), previous=made["previous"] or added.predecessor,
                 counts=made["counts"], changes=made["changes"], summary=effects.summary(made["counts"]),
                 labels={kind: effects.LABELS[kind] for kind in effects.KINDS},
                 cards=cards_touched(store, made["changes"], made["previous"] or added.predecessor, added.edition),
                 feed_entry=entry, feed_xml=feeds.entry_xml(entry),
                 seconds=round(time.perf_counter() - started, 2), cpu_seconds=round(cpu_seconds() - cpu, 2),
                 report=added.to_dict())


def cards_touched(store, changes: dict, previous: str | None, edition: str) -> dict | None:
    """The cards of the KB's cards graph (``graph/cards``) that link to a rule ``edition``
    changed (the rule on either side of the change: ``previous``'s old number, ``edition``'s
    new one, or their lineage); None when the KB has no cards graph."""
    import pyoxigraph as ox

    from .add_edition import _base
    from .rdf.iris import Minter
    from .rdf.lineage import C as L

    mint = Minter.for_base(_base(store))
    graph = ox.NamedNode(mint.graph("cards"))
    raw = store.store()
    if next(iter(raw.quads_for_pattern(None, None, None, graph)), None) is None:
        return None
    targets: set = set()
    for kind, items in changes.items():
        if kind == "meaning":
            continue
        for item in items:
            sides = [(previous, item.get("old")), (edition, item.get("new"))]
            for ed, number in sides:
                if ed and number:
                    rule = ox.NamedNode(mint.rule(ed, number))
                    targets.add(rule)
                    targets.update(q.object for q in raw.quads_for_pattern(rule, L["lineage"], None, None))
    cards = sorted({q.subject.value for target in targets for q in raw.quads_for_pattern(None, None, target, graph)})
    return {"touched": len(cards), "cards": cards}

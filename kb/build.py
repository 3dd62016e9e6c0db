"""Sources -> a new knowledge base, swapped in atomically.

1. Parse every source (ingest). Nothing is written if nothing usable is found.
2. Choose one text per edition id: a complete official text wins over a
   partial copy (a site's pages of the same date), plain text over DOCX over
   PDF. The others are reported, not loaded.
3. Build the concepts (all glossaries, labels from the ontology).
4. Extract each edition's definitional statements (kb.define) and reason
   over them (kb.reason.infer: HermiT when Java is there, else owlrl; results cached by
   axiom set, so a rebuild reasons only about what changed). The reasoner runs in a
   thread (its work is in its worker processes and their JVMs) beside steps 5 and the
   consistency check, which need nothing of it but the consistency's verdict on each
   edition, folded in once it is done.
5. Chain the complete editions of each language into rule lineages
   (:func:`kb.align.lineages`): version links and the changes between
   consecutive editions (:mod:`kb.rdf.lineage`, graph/lineage); each French
   text's base English edition, translation links and drift findings
   (:mod:`kb.rdf.translation`, graph/translation).
6. Stream every edition's quads, the concepts, the statements, what the reasoner
   inferred, the lineages and the ontology into a new store, then swap it in
   (:meth:`kb.store.embedded.EmbeddedStore.replace`).
7. The search index of the same editions (:mod:`kb.search`), written by a forked
   process from the end of step 5's alignment on (:class:`_IndexEarly`) and put beside
   the new store before the swap (the pair is swapped at once); a remote store gets
   a local index, swapped in once the remote build has committed.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pyoxigraph as ox

from rulekb.ingest.model import Edition
from rulekb.ingest.parse import parse_many

from .rdf import concepts as concept_layer
from .rdf import meaning_changes
from .consistency import store as consistency_store
from .errors import BuildError, RulekbError
from .rdf.iris import Minter
from .rdf.edition import edition_nquads, structure_rows
from .rdf.lexicon import ontology_labels
from .rdf.lineage import change_count, lineage_quads, lineage_rows
from .rdf.mentions import coverage as mention_coverage, wording_mention_quads
from .progress import Reporter, Stages
from .rdf.statements import inferred_quads, statement_iris, statement_quads
from .timeline.wordings import wording_count, wording_quads
from .rdf.translation import translation_quads, translations
from .rdf.vocab import RK

REASONERS = ("auto", "hermit", "owlrl", "none")

FORMAT_PREFERENCE = {"txt": 0, "html": 1, "docx": 2, "pdf": 3}


@dataclass
class BuildReport:
    editions: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # duplicates not loaded, with the reason
    refused: list[str] = field(default_factory=list)  # documents ingest refused
    quads: int = 0
    concepts: int = 0
    statements: int = 0
    reasoning: dict = field(default_factory=dict)  # reasoner, axiom sets, inferred, inconsistent editions
    citations: int = 0
    dangling: int = 0
    lineages: int = 0  # rules followed across the complete editions of each language
    changes: int = 0  # changes between consecutive editions (every aligned pair but the unchanged)
    lineage_seconds: float = 0.0
    meaning_changes: int = 0  # changes of meaning between consecutive editions (kb.rdf.meaning_changes)
    wordings: int = 0  # runs of unchanged number and text in a lineage, with their dates (kb.timeline.wordings)
    parse_cached: int = 0  # documents read back from $RULEKB_CACHE/documents (same bytes, same ingest code)
    lineage_cached: bool = False  # read back from $RULEKB_CACHE/lineages (same texts, same matcher)
    translations: dict = field(default_factory=dict)  # French texts vs English: texts, cached, findings, seconds
    search: dict = field(default_factory=dict)  # the search index: documents, seconds, bytes (kb.search)
    pages: dict = field(default_factory=dict)  # the rule pages' data beside the store: file, bytes, seconds (kb.pages)
    consistency: dict = field(default_factory=dict)  # each edition against itself: findings, by_kind, cached, seconds
    seconds: float = 0.0
    stages: dict = field(default_factory=dict)  # each stage's wall-clock seconds (kb.progress), in order
    stage_cpu: dict = field(default_factory=dict)  # each stage's CPU seconds, workers' included
    load_average: list = field(default_factory=list)  # the machine's, at the end: what the seconds were measured under
    store: str = ""
    store_bytes: int = 0

    def to_dict(self) -> dict:
        return dict(self.__dict__)


def choose_editions(editions: list[Edition]) -> tuple[list[Edition], list[str]]:
    """One edition per id; say what was left out and why."""
    by_id: dict[str, list[Edition]] = {}
    for edition in editions:
        by_id.setdefault(edition.id, []).append(edition)
    chosen, skipped = [], []
    for eid, group in by_id.items():
        group.sort(key=lambda e: (e.partial, FORMAT_PREFERENCE.get(e.source.format, 9), -len(e.rules)))
        chosen.append(group[0])
        for other in group[1:]:
            skipped.append(f"{eid} from {other.source.location}: the same edition as {group[0].source.location}")
    chosen.sort(key=lambda e: (e.language, e.effective_date or "9999", e.id))
    return chosen, skipped


def ontology_quads(graph: str) -> Iterator[ox.Quad]:
    from rulekb.ontology import turtle

    g = ox.NamedNode(graph)
    for triple in ox.parse(turtle().encode("utf-8"), format=ox.RdfFormat.TURTLE):
        yield ox.Quad(triple.subject, triple.predicate, triple.object, g)


def build(sources: list[str], store, base: str | None = None,
          progress: Callable[[str], None] | None = None, reasoner: str = "auto",
          reporter: Reporter | None = None) -> BuildReport:
    """``progress(message)`` hears every step; ``reporter`` (kb.progress) the stages
    with their counts: parse, definitions, reason, align, meanings, translations, load."""
    from .allocator import fewer_collections

    with fewer_collections():  # its objects live until its end: the collector need not walk them often
        return _build(sources, store, base, progress, reasoner, reporter)


def _build(sources: list[str], store, base: str | None, progress: Callable[[str], None] | None, reasoner: str,
           reporter: Reporter | None) -> BuildReport:
    started = time.perf_counter()
    stages = Stages(reporter, progress)
    mint = Minter.for_base(base)
    _reasoner(reasoner)  # a bad choice fails now, not after the stages that run beside the reasoner
    report = BuildReport(store=store.location)
    with stages.stage("parse", total=_document_count(sources)) as stage:
        parsed = parse_many(sources, progress=lambda path: stage.advance(f"parse {getattr(path, 'name', path)}"),
                            workers=_workers(), cache=_parsed_documents())
    report.parse_cached = parsed.cached
    report.refused = [str(f) for f in parsed.failures]
    editions, report.skipped = choose_editions(parsed.editions)
    if not editions:
        raise BuildError("no editions in the sources: nothing to build (the previous store, if any, is unchanged)")
    report.editions = [e.id for e in editions]

    _EXTRACTED.clear()  # one build's memory (what kb.define reads may differ in the next)
    with stages.stage("definitions", total=len(editions)) as stage:
        extracting = _extract_alongside(editions)
        try:
            concepts = concept_layer.collect(editions)
            concept_layer.add_ontology_labels(concepts, ontology_labels())
            concept_layer.add_sentence_definitions(concepts, editions)  # French texts have no glossary
            keys = concept_layer.KeyIndex(concepts)
            _EXTRACTED.update(extracting.result())
        finally:
            extracting.cancel()
        statements = {}
        for edition in editions:
            statements[edition.id] = _statements(edition, keys)
            stage.advance(f"definitions {edition.id}")
    report.statements = sum(len(found) for found in statements.values())
    terms = {key: concept.denotes[0] for key, concept in concepts.items() if concept.denotes}
    # the reasoner (its worker processes and JVMs) runs while this thread aligns, compares
    # and checks: none of that needs its results but the consistency's verdict, folded in last
    from .parallel import Background

    reasoning = Background(lambda cancelled: _reason_stage(stages, statements, terms, reasoner, cancelled),
                           name="rulekb-reason")
    indexing: _IndexEarly | None = None
    page_rows: Background | None = None
    try:
        report.concepts = len(concepts)
        matchers = {lang: concept_layer.Matcher(concepts, lang) for lang in ("en", "fr")}
        concept_iri = {key: mint.concept(key) for key in concepts}
        started_chain = time.perf_counter()
        complete = [e for e in editions if not e.partial]
        with stages.stage("align", total=len(complete) - len({e.language for e in complete})) as stage:
            chained, report.lineage_cached = chain(editions, stages.callback_for(stage))
        from .search import build as search_build

        write_index = search_build.writer(editions, concepts, chained, matchers, mint.base, progress)
        if store.local_root is not None:  # the index needs nothing after the lineages: written from now on
            indexing = _IndexEarly(store.local_root, write_index, report)
        report.lineages, report.changes = len(chained), change_count(chained)
        report.lineage_seconds = round(time.perf_counter() - started_chain, 2)
        pairs = [(a.old, a.new) for a in chained.alignments]
        with stages.stage("meanings", total=len(pairs)) as stage:
            by_id = {e.id: e for e in editions}
            if report.lineage_cached:  # the same texts: their changes of meaning are cached too, no worker needed
                meanings = meaning_changes.consecutive(by_id, pairs, stages.callback_for(stage))
            else:
                meanings = _meanings(by_id, pairs, stage)
        report.meaning_changes = sum(len(items) for _, _, items in meanings)
        texts = {e.id: _texts(e) for e in editions if not e.partial}
        dates = {e.id: e.effective_date for e in editions}
        report.wordings = wording_count(chained, texts)
        stated = mention_coverage(chained, texts, matchers)  # mentions stated once per wording (kb.rdf.mentions)
        with stages.stage("translations", total=sum(1 for e in editions if e.language == "fr" and e.rules)) as stage:
            translated, report.translations = translations(editions, chained, stages.callback_for(stage))
        with stages.stage("consistency", total=len(editions)) as stage:
            started_checks = time.perf_counter()
            checked, cached = consistency_store.without_reasoner(editions, statements, stages.callback_for(stage),
                                                                 workers=_workers())
            if not reasoning.done():
                stage.advance("waiting for the reasoner", step=0)
            results, report.reasoning = reasoning.result()
            consistent, report.consistency = consistency_store.with_reasoner(editions, checked, results, cached,
                                                                             started_checks)
        parts = _load_parts(editions, concepts, matchers, concept_iri, statements, results, chained, texts, dates,
                            meanings, translated, consistent, mint, stated)
        if indexing is not None:  # embedded: the index beside the new build, one swap for both
            def chunks() -> Iterator[bytes]:  # the load stage ends when the store has every part
                with stages.stage("load", total=len(editions)) as stage:
                    yield from _serialised(parts, stage, report)

            def compacting() -> None:  # the compaction holds one core and no GIL: the page data's rows meanwhile
                nonlocal page_rows
                page_rows = Background(lambda cancelled: _page_rows(editions, chained, mint, matchers, stated, consistent),
                                       name="rulekb-page-rows")

            report.quads = store.replace(nquads=chunks(), beside=indexing.beside, stages=stages, compacting=compacting)
    except BaseException:
        if indexing is not None:
            indexing.cancel()
        raise
    finally:
        reasoning.cancel()  # a failure above stops the reasoner at its next set (and waits for it)

    if indexing is None:  # remote: a local index of what the endpoint now holds
        from .search.home import remote_root, swap_local

        with stages.stage("load", total=len(editions)) as stage:
            report.quads = store.replace(_in_process(parts, stage, report))
        with stages.stage("index", total=1):
            report.search.update(swap_local(remote_root(store.location), write_index))
    from .pages import write as write_pages

    with stages.stage("pages") as stage:  # kb.pages: beside the build now current (embedded stores)
        report.pages = write_pages(store, stages.callback_for(stage), total=stage.set_total,
                                   known=page_rows.result() if page_rows is not None else None)
    report.seconds = time.perf_counter() - started
    report.stages, report.stage_cpu = _in_order(stages.seconds), _in_order(stages.cpu)
    report.load_average = _load_average()
    report.store_bytes = store.size_bytes()
    return report


STAGE_ORDER = ("parse", "definitions", "reason", "align", "meanings", "translations", "consistency", "load", "store",
               "index", "pages")


def _page_rows(editions: list[Edition], chained, mint: Minter, matchers: dict, stated: dict,
               consistent) -> dict[str, list[dict]]:
    """The rows of page-structure, page-lineages and page-flags as the new store answers them,
    from what this build wrote (kb.rdf.edition.structure_rows, kb.rdf.lineage.lineage_rows,
    the rules that state their own mentions, the places the consistency findings involve):
    the page data need not ask the store for 590,000 rows it was just given."""
    structure, flags, numbers = [], [], {}
    for edition in editions:
        rows, numbers[edition.id], stated_flags = structure_rows(edition, mint)
        structure.extend(rows)
        flags.extend(stated_flags)
    edition_of = {node: edition for edition, nodes in numbers.items() for node in nodes}

    def flag(nodes, what: str) -> None:
        found = {(edition_of[node], number) for node in nodes if node in edition_of
                 for number in numbers[edition_of[node]][node]}
        flags.extend({"edition": e, "number": n, "what": what} for e, n in sorted(found))

    flag((mint.rule(edition.id, rule.number) for edition in editions
          for rule, _ in concept_layer.rule_mentions(edition, matchers[edition.language], stated.get(edition.id))),
         "mentions")
    involves = ox.NamedNode(str(RK.involvesRule))
    flag((quad.object.value for quad in consistency_store.quads(consistent, mint) if quad.predicate == involves),
         "findings")
    return {"page-structure": structure, "page-lineages": lineage_rows(chained, mint, numbers), "page-flags": flags}


def _in_order(figures: dict) -> dict:
    """A stage's figures in the order of the stages (the reasoner's overlap others and may end after them)."""
    return {name: figures[name] for name in sorted(figures, key=lambda n: (STAGE_ORDER + (n,)).index(n))}


class _Cancelled(RulekbError):
    """The build failed elsewhere: the reasoner stops at its next set. (Never shown: the
    build's own failure is; a RulekbError as every error class of the code.)"""


def _reason_stage(stages: Stages, statements: dict, terms: dict, reasoner: str, cancelled) -> tuple[dict, dict]:
    """The reason stage (:func:`reason`), stopped between two sets once ``cancelled`` is set."""
    with stages.stage("reason") as stage:
        step = stages.callback_for(stage)

        def progress(message: str) -> None:
            if cancelled.is_set():
                raise _Cancelled(message)
            step(message)

        return reason(statements, terms, reasoner, progress, on_total=stage.set_total)


def _load_average() -> list[float]:
    import os

    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return []


def _meanings(by_id: dict[str, Edition], pairs: list[tuple[str, str]], stage) -> list:
    """:func:`kb.rdf.meaning_changes.consecutive` of ``pairs`` in runs of a few pairs, computed
    by forked workers (kb.parallel), which inherit the editions: handing each pair's two
    editions to a worker by pickle cost more CPU than comparing them (31 s against 19 s for
    the corpus's 126 pairs). Each run is read from the cache or computed and cached as before."""
    from .parallel import fork_map

    size = 6
    runs = [pairs[start:start + size] for start in range(0, len(pairs), size)]
    found: list = []
    for run, items in zip(runs, fork_map(lambda index: meaning_changes.consecutive(by_id, runs[index]),
                                         len(runs), _workers())):
        found += items
        stage.advance(f"compare {run[-1][0]} -> {run[-1][1]}", step=len(run))
    return found


def _load_parts(editions, concepts, matchers, concept_iri, statements, results, chained, texts, dates,
                meanings, translated, consistent, mint: Minter, stated: dict) -> list[tuple[str, Callable]]:
    """What the store holds, as independent parts in a fixed order: ``(name, on_link ->
    N-Quads bytes)``. Each part is computed from what the build holds in memory alone, so the
    parts can run in any process (:func:`_serialised`) and the store is the same."""

    def head(on_link):
        yield from ontology_quads(mint.graph("ontology"))
        yield from concept_layer.concept_quads(concepts, mint, mint.graph("concepts"))

    written: set[str] = set()  # the statement contents a process wrote (each worker its own copy)

    def edition_part(edition):
        def extras():  # what the edition's graph holds beside its document, and graph/statements
            yield from concept_layer.mention_quads(edition, matchers[edition.language], mint, stated.get(edition.id))
            yield from statement_quads(edition.id, statements[edition.id], mint, concept_iri.get, written)
            if edition.id in results:
                yield from _inferred(edition.id, statements[edition.id], results[edition.id], mint, concept_iri, written)

        def nquads(on_link) -> bytes:  # the document, most of the quads, written as text (kb.rdf.edition)
            text = edition_nquads(edition, mint, concept_of=lambda term: concept_iri.get(concept_layer.concept_key(term)),
                                  on_link=on_link)
            return text.encode("utf-8") + _nquads(extras())
        return nquads

    def of_quads(quads: Callable) -> Callable[[Callable], bytes]:
        return lambda on_link: _nquads(quads(on_link))

    return [
        ("ontology and concepts", of_quads(head)),
        *((f"load {edition.id}", edition_part(edition)) for edition in editions),
        ("lineages", of_quads(lambda on_link: lineage_quads(chained, mint))),
        ("wordings", of_quads(lambda on_link: wording_quads(chained, texts, dates, mint, mint.graph("lineage")))),
        ("wording mentions", of_quads(lambda on_link: wording_mention_quads(chained, texts, matchers, mint,
                                                                             mint.graph("lineage")))),
        ("changes of meaning", of_quads(lambda on_link: meaning_changes.quads(meanings, mint, concept_iri.get))),
        ("translations", of_quads(lambda on_link: translation_quads(translated, mint))),
        ("consistency", of_quads(lambda on_link: consistency_store.quads(consistent, mint))),  # each edition against itself
    ]


def _nquads(quads) -> bytes:
    return ox.serialize(quads, format=ox.RdfFormat.N_QUADS) or b""


def _part_nquads(part) -> tuple[bytes, int, int]:
    """One part's N-Quads, with its citations and dangling numbers."""
    counts = [0, 0]

    def count(link) -> None:
        counts[0] += 1
        counts[1] += len(link.dangling)

    return part(count), counts[0], counts[1]


def _serialised(parts, stage, report: BuildReport) -> Iterator[bytes]:
    """The parts' N-Quads, computed by forked workers (kb.parallel), in order."""
    from .parallel import fork_map

    for (name, _), (data, citations, dangling) in zip(
            parts, fork_map(lambda index: _part_nquads(parts[index][1]), len(parts), _workers())):
        report.citations += citations
        report.dangling += dangling
        stage.advance(name, step=int(name.startswith("load ")))  # the count is of editions
        yield data


def _in_process(parts, stage, report: BuildReport) -> Iterator[ox.Quad]:
    """The parts' quads, made here in turn (a remote store: its client writes them graph by graph)."""
    for name, part in parts:
        data, citations, dangling = _part_nquads(part)
        report.citations += citations
        report.dangling += dangling
        yield from ox.parse(data, format=ox.RdfFormat.N_QUADS)
        stage.advance(name, step=int(name.startswith("load ")))


class _IndexEarly:
    """The search index, written by a forked process (kb.parallel.fork_call) from the end of
    the align stage on, into a staging directory under the store's root (kb.search.home).
    The stages between align and load leave one core idle (the main thread and the
    reasoner's thread share one interpreter), and so do the end of the bulk load and the
    compaction: that is where the index's 5 s of CPU go (at a lower priority), instead of
    into the load, when both cores are busy. :meth:`beside` is the store's ``beside``
    step: it waits for the index and renames it to the new build's companion."""

    def __init__(self, root, write_index, report: BuildReport):
        from .parallel import fork_call
        from .search.home import staging

        self._made_root = None if Path(root).exists() else Path(root)  # a failed first build leaves no empty store
        self._staging = staging(root)
        self._report = report
        target = self._staging / "index"
        self._target = target
        self._job = fork_call(lambda: _niced(write_index, target))

    def beside(self, partner):
        def wait() -> None:
            self._report.search.update(self._job.result())
            os.replace(self._target, partner)
            self._staging.rmdir()

        return wait

    def cancel(self) -> None:
        self._job.cancel()
        shutil.rmtree(self._staging, ignore_errors=True)
        if self._made_root is not None:
            try:
                self._made_root.rmdir()  # (only if nothing else is in it)
            except OSError:
                pass


def _niced(task: Callable, *args):
    """``task(*args)`` at a lower priority (this process and the threads it starts): the
    index has until the store is compacted, so it should take the cycles the build's critical
    path leaves (measured once at the same priority: its two writer threads made the stages
    before the load end 1.6 s later, about what it saved the load)."""
    os.nice(10)
    return task(*args)


def _texts(edition: Edition) -> dict[str, str]:
    """Each rule number's text (a duplicate number: the first, as the KB keeps it)."""
    out: dict[str, str] = {}
    for rule in edition.rules:
        out.setdefault(rule.number, rule.text)
    return out


def _parsed_documents():
    """Where the build keeps what it parsed ($RULEKB_CACHE/documents, rulekb.ingest.cache): the
    same bytes parsed by the same ingest code (and the same PDF, Word and HTML readers) are
    read back, not parsed again."""
    from importlib.metadata import version

    from rulekb.ingest.cache import ParsedDocuments

    from .json_cache import cache_folder, code_digest

    readers = ",".join(f"{name} {version(name)}" for name in ("pypdf", "python-docx", "lxml", "beautifulsoup4"))
    code = code_digest("rulekb.ingest", "rulekb.ingest.formats", "rulekb.ingest.layouts")
    return ParsedDocuments.open(cache_folder("documents"), f"{code} {readers}")


def _workers() -> int:
    """Processes for the independent parts of a build (parsing, reasoning, loading): one per CPU,
    or ``RULEKB_BUILD_WORKERS``."""
    from .parallel import workers

    return workers()


def _document_count(sources: list[str]) -> int | None:
    """How many documents the parse stage reads (a URL or a file is one)."""
    from pathlib import Path

    from rulekb.ingest.parse import document_files

    count = 0
    for source in sources:
        path = Path(source)
        count += len(document_files(path)) if not source.startswith(("http://", "https://")) and path.is_dir() else 1
    return count


def chain(editions: list[Edition], progress: Callable[[str], None] | None = None):
    """The lineages of the complete editions of each language (partial ones, a
    site's pages or an excerpt, would break every chain they sit in), and whether
    they came from the cache (:mod:`kb.lineage.cache`)."""
    from .lineage.cache import cached_lineages

    return cached_lineages([e for e in editions if not e.partial], progress=progress)


def reason(statements: dict[str, list], terms: dict[str, str], reasoner: str,
           progress: Callable[[str], None] | None = None,
           on_total: Callable[[int], None] | None = None) -> tuple[dict, dict]:
    """Every edition's statements through the reasoner: the results by edition and a
    summary for the report. "auto" is HermiT when Java runs, else owlrl (said in the
    summary, so a build without Java is never mistaken for a HermiT one)."""
    from .reason import infer

    reasoner, note = _reasoner(reasoner)
    if reasoner == "none":
        return {}, {"reasoner": "none"}
    started = time.perf_counter()
    results = infer.reason_all(statements, terms, reasoner=reasoner, crosscheck=False,
                               progress=(lambda m: progress(m)) if progress else None, on_total=on_total)
    summary = {
        "reasoner": reasoner,
        "axiom_sets": len({r.digest for r in results.values()}),
        "reasoned": sum(1 for r in results.values() if not r.cached),
        "inferred": sum(len(r.inferred) for r in results.values()),
        "inconsistent": {eid: r.explanation_of_inconsistency for eid, r in sorted(results.items()) if not r.consistent},
        "ontology_conflicts": sum(len(r.ontology_conflicts) for r in results.values()),
        "seconds": round(time.perf_counter() - started, 2),
    }
    if note:
        summary["note"] = note
    return results, summary


def _reasoner(reasoner: str) -> tuple[str, str]:
    """The reasoner a build uses ("auto" decided), and a note when it is not the one asked for;
    a bad choice raises (before any work)."""
    from .reason import backends as reasoning

    if reasoner not in REASONERS:
        raise BuildError(f"unknown reasoner {reasoner!r} (choose from {', '.join(REASONERS)})")
    if reasoner == "auto":
        reasoner = "hermit" if reasoning.java_available() else "owlrl"
        return reasoner, "" if reasoner == "hermit" else "no usable Java: OWL 2 RL (owlrl) instead of HermiT"
    if reasoner == "hermit" and not reasoning.java_available():
        raise BuildError(reasoning.HERMIT_NEEDS_JAVA)
    return reasoner, ""


def _inferred(edition_id: str, statements: list, result, mint: Minter, concept_iri: dict,
              written: set[str] | None = None) -> Iterator[ox.Quad]:
    from .reason import infer

    iris = dict(zip(((n, s) for n, s in statements), statement_iris(edition_id, statements, mint)))
    yield from inferred_quads(edition_id, result.inferred, mint, concept_iri.get,
                              lambda number, statement: iris.get((number, statement)), infer.explain, written)


_EXTRACTED: dict[tuple[str, str], list] = {}  # (rule text, language) -> its statements, for one process


def _extract_alongside(editions: list[Edition]):
    """:func:`kb.define.extract` of each distinct rule text (with its language), in a forked
    process (kb.parallel.fork_call) while this one collects the concepts, which it does not
    need: 3.7 and 2.2 s of CPU that ran one after the other. ``.result()``: the texts' statements."""
    from .define import extract
    from .parallel import fork_call

    texts = list(dict.fromkeys((rule.text, edition.language) for edition in editions for rule in edition.rules))
    return fork_call(lambda: {key: extract(*key) for key in texts})


def _edition_statements(edition: Edition) -> list[tuple[str, object]]:
    """:func:`kb.define.edition_statements`, each distinct rule text read once: a text recurs
    in many editions (245,000 rules, about 20,000 distinct texts), and its statements
    depend on the text and the language alone."""
    from .define import extract

    out = []
    for rule in edition.rules:
        key = (rule.text, edition.language)
        found = _EXTRACTED.get(key)
        if found is None:
            found = _EXTRACTED[key] = extract(rule.text, edition.language)
        out.extend((rule.number, statement) for statement in found)
    return out


def _statements(edition: Edition, keys: concept_layer.KeyIndex) -> list[tuple[str, object]]:
    """The definitional statements of an edition, their concept keys (and the
    members' and values') resolved to the KB's concepts, new ones created."""
    from dataclasses import replace

    out = []
    for number, statement in _edition_statements(edition):
        statement = replace(
            statement,
            concept=keys.concept_for(statement.concept, create=True),
            value=(keys.concept_for(statement.value, create=True)
                   if statement.aspect in ("is-a", "not-a") and statement.value else statement.value),
            members=tuple(keys.concept_for(m, create=True) for m in statement.members),
        )
        out.append((number, statement))
    return out


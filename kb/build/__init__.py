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

import time
from collections.abc import Callable, Iterator

from rulekb.ingest.parse import parse_many

from ..consistency import store as consistency_store
from ..errors import BuildError
from ..progress import Reporter, Stages
from ..rdf import concepts as concept_layer
from ..rdf import meaning_changes
from ..rdf.iris import Minter
from ..rdf.lexicon import ontology_labels
from ..rdf.lineage import change_count
from ..rdf.mentions import coverage as mention_coverage
from ..rdf.translation import translations
from ..timeline.wordings import wording_count
from . import definitions
from .definitions import extract_alongside, statements_of
from .index import IndexEarly
from .lineages import chain, meanings as forked_meanings, texts as rule_texts
from .load import in_process, load_parts, ontology_quads, serialised
from .page_rows import page_rows as rows_for_pages
from .reasoning import REASONERS, check_reasoner, inferred, reason, reason_stage
from .report import BuildReport, in_order, load_average
from .sources import choose_editions, document_count, parsed_documents, workers

__all__ = ["BuildReport", "REASONERS", "build", "chain", "choose_editions", "inferred", "ontology_quads", "reason",
           "statements_of"]


def build(sources: list[str], store, base: str | None = None,
          progress: Callable[[str], None] | None = None, reasoner: str = "auto",
          reporter: Reporter | None = None, cards: str | None = None, into: Callable | None = None) -> BuildReport:
    """``progress(message)`` hears every step; ``reporter`` (kb.progress) the stages
    with their counts: parse, definitions, reason, align, meanings, translations, load.
    ``into``: the writing step for an edition inserted into the KB in ``store``
    (:func:`kb.build.splice.writer`) instead of a new store's bulk load."""
    from ..allocator import fewer_collections

    with fewer_collections():  # its objects live until its end: the collector need not walk them often
        return _build(sources, store, base, progress, reasoner, reporter, cards, into)


def _build(sources: list[str], store, base: str | None, progress: Callable[[str], None] | None, reasoner: str,
           reporter: Reporter | None, cards: str | None = None, into: Callable | None = None) -> BuildReport:
    started = time.perf_counter()
    stages = Stages(reporter, progress)
    mint = Minter.for_base(base)
    check_reasoner(reasoner)  # a bad choice fails now, not after the stages that run beside the reasoner
    from ..cards import build as card_stage

    card_file = card_stage.read(card_stage.card_file(cards))  # a bad one fails now; linked once the concepts exist
    report = BuildReport(store=store.location)
    with stages.stage("parse", total=document_count(sources)) as stage:
        parsed = parse_many(sources, progress=lambda path: stage.advance(f"parse {getattr(path, 'name', path)}"),
                            workers=workers(), cache=parsed_documents())
    report.parse_cached = parsed.cached
    report.refused = [str(f) for f in parsed.failures]
    editions, report.skipped = choose_editions(parsed.editions)
    if not editions:
        raise BuildError("no editions in the sources: nothing to build (the previous store, if any, is unchanged)")
    report.editions = [e.id for e in editions]

    definitions.EXTRACTED.clear()  # one build's memory (what kb.define reads may differ in the next)
    with stages.stage("definitions", total=len(editions)) as stage:
        extracting = extract_alongside(editions)
        try:
            concepts = concept_layer.collect(editions)
            concept_layer.add_ontology_labels(concepts, ontology_labels())
            concept_layer.add_sentence_definitions(concepts, editions)  # French texts have no glossary
            keys = concept_layer.KeyIndex(concepts)
            definitions.EXTRACTED.update(extracting.result())
        finally:
            extracting.cancel()
        statements = {}
        for edition in editions:
            statements[edition.id] = statements_of(edition, keys)
            stage.advance(f"definitions {edition.id}")
    report.statements = sum(len(found) for found in statements.values())
    terms = {key: concept.denotes[0] for key, concept in concepts.items() if concept.denotes}
    # the reasoner (its worker processes and JVMs) runs while this thread aligns, compares
    # and checks: none of that needs its results but the consistency's verdict, folded in last
    from ..parallel import Background

    reasoning = Background(lambda cancelled: reason_stage(stages, statements, terms, reasoner, cancelled),
                           name="rulekb-reason")
    indexing: IndexEarly | None = None
    page_rows: Background | None = None
    try:
        report.concepts = len(concepts)
        matchers = {lang: concept_layer.Matcher(concepts, lang) for lang in ("en", "fr")}
        card_rows = card_stage.linking(card_file, editions, concepts, matchers["en"])
        concept_iri = {key: mint.concept(key) for key in concepts}
        started_chain = time.perf_counter()
        complete = [e for e in editions if not e.partial]
        with stages.stage("align", total=len(complete) - len({e.language for e in complete})) as stage:
            chained, report.lineage_cached = chain(editions, stages.callback_for(stage))
        from ..search import build as search_build

        card_data, report.cards = card_rows.result()
        write_index = search_build.writer(editions, concepts, chained, matchers, mint.base, progress, cards=card_data)
        if store.local_root is not None:  # the index needs nothing after the lineages: written from now on
            indexing = IndexEarly(store.local_root, write_index, report)
        report.lineages, report.changes = len(chained), change_count(chained)
        report.lineage_seconds = round(time.perf_counter() - started_chain, 2)
        pairs = [(a.old, a.new) for a in chained.alignments]
        with stages.stage("meanings", total=len(pairs)) as stage:
            by_id = {e.id: e for e in editions}
            if report.lineage_cached:  # the same texts: their changes of meaning are cached too, no worker needed
                meanings = meaning_changes.consecutive(by_id, pairs, stages.callback_for(stage))
            else:
                meanings = forked_meanings(by_id, pairs, stage)
        report.meaning_changes = sum(len(items) for _, _, items in meanings)
        texts = {e.id: rule_texts(e) for e in editions if not e.partial}
        dates = {e.id: e.effective_date for e in editions}
        report.wordings = wording_count(chained, texts)
        stated = mention_coverage(chained, texts, matchers)  # mentions stated once per wording (kb.rdf.mentions)
        with stages.stage("translations", total=sum(1 for e in editions if e.language == "fr" and e.rules)) as stage:
            translated, report.translations = translations(editions, chained, stages.callback_for(stage))
        with stages.stage("consistency", total=len(editions)) as stage:
            started_checks = time.perf_counter()
            checked, cached = consistency_store.without_reasoner(editions, statements, stages.callback_for(stage),
                                                                 workers=workers())
            if not reasoning.done():
                stage.advance("waiting for the reasoner", step=0)
            results, report.reasoning = reasoning.result()
            consistent, report.consistency = consistency_store.with_reasoner(editions, checked, results, cached,
                                                                             started_checks)
        parts = load_parts(editions, concepts, matchers, concept_iri, statements, results, chained, texts, dates,
                            meanings, translated, consistent, mint, stated)
        parts.append(card_stage.load_part(card_data, concepts, mint))  # graph/cards (kb.cards)
        spliced = None
        if indexing is not None and into is not None:  # an edition inserted by difference (kb.build.splice)
            page_rows = Background(lambda cancelled: rows_for_pages(editions, chained, mint, matchers, stated, consistent),
                                   name="rulekb-page-rows")
            spliced = into(store, parts, editions, concepts, indexing, stages)
            if spliced is None:
                page_rows.cancel()
                page_rows = None
            else:
                report.quads = spliced
        from ..pages.reuse import Inputs

        inputs = Inputs()  # what the page data is computed from: a rebuild of the same KB takes the file (kb.pages.reuse)
        if indexing is not None and spliced is None:  # embedded: the index beside the new build, one swap for both
            def chunks() -> Iterator[bytes]:  # the load stage ends when the store has every part
                with stages.stage("load", total=len(editions)) as stage:
                    yield from map(inputs.fed, serialised(parts, stage, report))  # hashed as they pass

            def compacting() -> None:  # the compaction holds one core and no GIL: the page data's rows meanwhile
                nonlocal page_rows
                page_rows = Background(lambda cancelled: rows_for_pages(editions, chained, mint, matchers, stated, consistent),
                                       name="rulekb-page-rows")

            report.quads = store.replace(nquads=chunks(), beside=indexing.beside, stages=stages, compacting=compacting)
    except BaseException:
        if indexing is not None:
            indexing.cancel()
        if "card_rows" in locals():
            card_rows.cancel()
        raise
    finally:
        reasoning.cancel()  # a failure above stops the reasoner at its next set (and waits for it)

    if indexing is None:  # remote: a local index of what the endpoint now holds
        from ..search.home import remote_root, swap_local

        with stages.stage("load", total=len(editions)) as stage:
            report.quads = store.replace(in_process(parts, stage, report),
                                         progress=lambda note: stage.advance(note, step=0))
        with stages.stage("index", total=1):
            report.search.update(swap_local(remote_root(store.location), write_index))
    from ..pages import write as write_pages
    from ..pages.remote import write_beside
    from ..translate.kept import keep as keep_evidence

    with stages.stage("pages") as stage:  # kb.pages: beside the build now current; a remote store's, locally
        if indexing is None:
            report.pages = write_beside(store, parts, stages.callback_for(stage), total=stage.set_total,
                                        extra=keep_evidence)
        else:
            report.pages = write_pages(store, stages.callback_for(stage), total=stage.set_total,
                                       known=page_rows.result() if page_rows is not None else None,
                                       extra=keep_evidence, inputs=inputs.digest())
    report.seconds = time.perf_counter() - started
    report.stages, report.stage_cpu = in_order(stages.seconds), in_order(stages.cpu)
    report.load_average = load_average()
    report.store_bytes = store.size_bytes()
    return report

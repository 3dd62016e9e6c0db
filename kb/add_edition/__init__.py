"""One new edition added to a built KB, without rebuilding the others (``rulekb build --add``).

The new edition must be newer than every edition of its language in the KB (the
usual case: Wizards published a new text; an older one, or a re-publication of a date
the KB has, goes in through :mod:`kb.update`). What a full build would write for it
is computed the same way, with the same functions:

- its graph (kb.rdf), its concept mentions, definitional statements and what the
  reasoner infers from them (kb.rdf.statements, kb.reason.infer: one axiom set, cached);
- the concept graph, recomputed: the KB's concepts read back from it, then the new
  glossary applied as :func:`kb.rdf.concepts.collect` does (the newest wording wins);
- its alignment with its predecessor (kb.align), which extends the lineages (new
  version links, new lineages, lineage labels rewritten where a number changed) and
  adds the changes between the two (kb.rdf.lineage's shapes);
- the changes of meaning between the two (kb.rdf.meaning_changes).

The predecessor is parsed again from its recorded source when that file is still
there (the same text a full build aligns), else read back from the KB
(:mod:`kb.rdf.stored_edition`). The store is copied (Oxigraph's backup: hard links),
the copy updated, and swapped in: the old KB answers until the swap
(:meth:`kb.store.embedded.EmbeddedStore.update`).

The rule pages' data is brought up to date from the previous build's
(:mod:`kb.pages.incremental`: the new edition's rules and the lineages it continues or begins).

Not redone (a full build does them): the older editions' mentions of a concept
that only the new glossary introduces, and the French texts' drift findings
(still against the English edition they were computed with).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import pyoxigraph as ox
from rdflib.namespace import RDF, RDFS, SKOS

from rulekb.ingest.model import Edition

from ..rdf import concepts as concept_layer
from ..rdf import meaning_changes
from ..errors import BuildError
from ..rdf.iris import Minter
from ..rdf.lexicon import ontology_labels
from ..rdf.lineage import C as L, decimal, label as lineage_label
from ..rdf.mentions import appended_mentions
from ..rdf.edition import edition_quads
from ..rdf.statements import statement_quads
from ..rdf.vocab import RK


@dataclass
class AddReport:
    edition: str = ""
    predecessor: str | None = None
    predecessor_from: str = ""  # "source" (parsed again) | "kb" (read back from the store)
    quads_added: int = 0
    quads_removed: int = 0
    new_concepts: int = 0
    changes: int = 0
    meaning_changes: int = 0
    reasoning: dict = field(default_factory=dict)
    seconds: float = 0.0
    store: str = ""
    store_bytes: int = 0
    not_redone: list[str] = field(default_factory=list)
    search: dict = field(default_factory=dict)  # the search index: documents added, versions extended
    pages: dict = field(default_factory=dict)  # the page data brought up to date (kb.pages.incremental)
    stages: dict = field(default_factory=dict)  # each stage's wall-clock seconds (kb.progress)
    stage_cpu: dict = field(default_factory=dict)  # and CPU seconds
    cpu_seconds: float = 0.0  # the whole --add's, its JVMs' included
    how: str = "appended"  # appended | inserted | replaced (the last two: rebuilt from the KB's sources, kb.update)

    def to_dict(self) -> dict:
        return dict(self.__dict__)


def _kb_editions(store) -> list[dict]:
    from ..store.queries import editions  # the store's named queries, not the front-ends' facade (kb.service imports this module)

    return editions(store)


def _base(store) -> str:
    from ..store.queries import run

    rows = run(store, "kb-base")
    if not rows:
        raise BuildError("the KB has no editions: build it first (rulekb build)")
    return rows[0]["edition"][: -len("edition/" + rows[0]["id"])]


def _predecessor(store, row: dict) -> tuple[Edition, str]:
    from rulekb.ingest.errors import IngestError
    from rulekb.ingest.parse import parse_file

    from ..rdf.stored_edition import stored_edition

    source = row.get("source")
    if source and Path(source).is_file():
        try:
            found = [e for e in parse_file(source) if e.id == row["edition"]]
            if found:
                return found[0], "source"
        except IngestError:
            pass
    return stored_edition(store, row["edition"]), "kb"


def _stored_concepts(store, mint: Minter, quads: set | None = None) -> dict[str, concept_layer.Concept]:
    """The concept graph read back as kb.rdf.concepts.Concept objects (labels, definitions,
    denotes, definedBy: what :func:`kb.rdf.concepts.concept_quads` writes); ``quads``, when
    given, receives the graph's quads (for the update to write only what changes).

    Two scans, not a lookup per glossary entry: the concept graph once, in its index order (the
    order a label list is built in), and every rk:defines once; the position (rk:order) is looked
    up only for the entries of each concept's first edition -- about one per concept, where
    asking it of all 62,000 glossary entries of the KB was most of --add's reading."""
    graph = ox.NamedNode(mint.graph("concepts"))
    prefix = mint.concept("")
    raw = store.store()
    found: dict[str, concept_layer.Concept] = {}
    rule_prefix = mint.base + "edition/"
    pref, alt_p, definition, denotes, defined_by = (ox.NamedNode(str(p)) for p in (
        SKOS.prefLabel, SKOS.altLabel, SKOS.definition, RK.denotes, RK.definedBy))

    alt: list[tuple] = []
    for quad in raw.quads_for_pattern(None, None, None, graph):
        if quads is not None:
            quads.add(quad)
        node = quad.subject
        if not isinstance(node, ox.NamedNode):
            continue
        iri = node.value
        if not iri.startswith(prefix) or iri == prefix:
            continue
        key = iri[len(prefix):]
        c = found.get(key)
        if c is None:
            c = found[key] = concept_layer.Concept(key)
        p, o = quad.predicate, quad.object
        if p == pref:
            c.add_label(o.language, o.value, preferred=True)
        elif p == alt_p:
            alt.append((c, o))
        elif p == definition:
            c.definition[o.language] = o.value
        elif p == denotes:
            c.denotes.append(o.value)
        elif p == defined_by:
            edition, _, number = o.value[len(rule_prefix):].rpartition("/rule/")
            c.defined_by.add((edition, number))
    for c, o in alt:
        c.add_label(o.language, o.value)
    # a full build meets the concepts in the order of their first glossary entry
    # (kb.rdf.concepts.collect: editions by date, English first), and the matcher lets
    # the first concept with a label have it: the same order here -- the least
    # (date, French, edition IRI, the entry's rk:order) over a concept's glossary entries
    defines, order = ox.NamedNode(str(RK.defines)), ox.NamedNode(str(RK.order))
    date_p, lang_p = ox.NamedNode(str(RK.effectiveDate)), ox.NamedNode("http://purl.org/dc/terms/language")
    editions: dict[str, tuple] = {}
    earliest: dict[str, tuple] = {}  # concept key -> (its edition's rank, that edition's entries of it)
    for quad in raw.quads_for_pattern(None, defines, None, None):
        ed = quad.graph_name
        if not isinstance(ed, ox.NamedNode) or not quad.object.value.startswith(prefix):
            continue
        rank = editions.get(ed.value)
        if rank is None:
            date = next((q.object.value for q in raw.quads_for_pattern(ed, date_p, None, ed)), "9999")
            lang = next((q.object.value for q in raw.quads_for_pattern(ed, lang_p, None, ed)), "")
            rank = editions[ed.value] = (date, lang == "fr", ed.value)
        key = quad.object.value[len(prefix):]
        best = earliest.get(key)
        if best is None or rank < best[0]:
            earliest[key] = (rank, [(quad.subject, ed)])
        elif rank == best[0]:
            best[1].append((quad.subject, ed))
    first: dict[str, tuple] = {}
    for key, (rank, entries) in earliest.items():
        first[key] = (*rank, min(next((int(q.object.value) for q in raw.quads_for_pattern(entry, order, None, ed)), 0)
                                 for entry, ed in entries))
    late = ("~",)
    return dict(sorted(found.items(), key=lambda item: first.get(item[0], late)))


def _apply_glossary(concepts: dict[str, concept_layer.Concept], edition: Edition) -> int:
    """What :func:`kb.rdf.concepts.collect` does for the newest edition of a language."""
    before = set(concepts)
    collected = concept_layer.collect([edition])
    for key, new in collected.items():
        old = concepts.setdefault(key, concept_layer.Concept(key))
        for lang, labels in new.labels.items():
            for label in reversed(labels[:1]):
                old.add_label(lang, label, preferred=True)
            for label in labels[1:]:
                old.add_label(lang, label)
        old.definition.update(new.definition)
        old.defined_by |= new.defined_by
    return len(set(concepts) - before)


def add(source: str, store, reasoner: str = "auto", progress=None, reporter=None) -> AddReport:
    """Add the one edition in ``source`` to the KB in ``store`` (an embedded store)."""
    from ..allocator import fewer_collections

    with fewer_collections():  # it reads the whole KB's concepts and texts back, as a build makes them
        return _add(source, store, reasoner, progress, reporter)


def _add(source: str, store, reasoner: str, progress, reporter) -> AddReport:
    from rulekb.ingest.parse import parse_many

    from ..align import align_profiles
    from ..align.profile import build as profile
    from ..build import choose_editions, inferred, reason, statements_of
    from ..progress import Stages

    from ..progress import cpu_seconds

    started, cpu_started = time.perf_counter(), cpu_seconds()
    stages = Stages(reporter, progress)
    if not store.exists():
        raise BuildError(f"no KB at {store.location} to add to: build it first (rulekb build)")
    report = AddReport(store=store.location)
    with stages.stage("parse", total=1) as stage:
        parsed = parse_many([source])
        stage.advance(f"parse {source}")
    editions, _ = choose_editions(parsed.editions)
    if len(editions) != 1:
        raise BuildError(f"--add takes one edition; {source} holds {len(editions) or 'no'} editions")
    new = editions[0]
    report.edition = new.id
    kb_rows = _kb_editions(store)
    if any(row["edition"] == new.id for row in kb_rows):
        raise BuildError(f"{new.id} is already in the KB (rebuild to replace it)")
    same_language = [r for r in kb_rows if r["language"] == new.language]
    later = [r["edition"] for r in same_language if (r["effective_date"] or "") >= (new.effective_date or "")]
    if later:
        raise BuildError(f"appending only adds the newest edition of a language: the KB already has "
                         f"{', '.join(later[:3])} (kb.update inserts {new.id} before it)")
    mint = Minter.for_base(_base(store))
    complete = [r for r in same_language if not r["partial"]]
    complete.sort(key=lambda r: (r["effective_date"] or "9999", r["edition"]))
    previous, report.predecessor_from = (None, "")
    by_rule: dict[tuple[str, str], str] = {}  # (edition, number) -> lineage id: the search index's
    if complete and not new.partial:
        previous, report.predecessor_from = _predecessor(store, complete[-1])
        report.predecessor = previous.id

    with stages.stage("definitions", total=1) as stage:
        stored_concepts: set[ox.Quad] = set()
        concepts = _stored_concepts(store, mint, stored_concepts)
        known = set(concepts)
        report.new_concepts = _apply_glossary(concepts, new)
        # the ontology's labels go to the glossary's concepts (as in a full build, where
        # they come before the concepts statements create): here, the new ones
        fresh = {key: c for key, c in concepts.items() if key not in known}
        concept_layer.add_ontology_labels(fresh, ontology_labels())
        keys = concept_layer.KeyIndex(concepts)
        statements = statements_of(new, keys)
        stage.advance(f"definitions {new.id}")
    terms = {key: c.denotes[0] for key, c in concepts.items() if c.denotes}
    with stages.stage("reason") as stage:
        results, report.reasoning = reason({new.id: statements}, terms, reasoner, stages.callback_for(stage),
                                           on_total=stage.set_total)
    concept_iri = {key: mint.concept(key) for key in concepts}
    lineage_graph = ox.NamedNode(mint.graph("lineage"))
    added: list[ox.Quad] = []
    removed: list[ox.Quad] = []
    added += edition_quads(new, mint, concept_of=lambda term: concept_iri.get(concept_layer.concept_key(term)))
    matcher = concept_layer.Matcher(concepts, new.language)
    stated: dict = {}  # rule number -> the concepts its wording states (kb.rdf.mentions)
    added += statement_quads(new.id, statements, mint, concept_iri.get)
    if new.id in results:
        added += inferred(new.id, statements, results[new.id], mint, concept_iri)

    if previous is not None:
        with stages.stage("align", total=1) as stage:
            alignment = align_profiles(profile(previous), profile(new))
            stage.advance(f"align {previous.id} -> {new.id}")
            links, dropped, report.changes = _lineage_update(store, mint, alignment, previous, new, lineage_graph,
                                                             by_rule)
            added += links
            removed += dropped
            wording_links, stated = appended_mentions(store.store(), lineage_graph, mint, new, links, matcher)
            added += wording_links
        with stages.stage("meanings", total=1) as stage:
            meanings = meaning_changes.consecutive({previous.id: previous, new.id: new}, [(previous.id, new.id)],
                                                   stages.callback_for(stage))
            report.meaning_changes = sum(len(items) for _, _, items in meanings)
            added += meaning_changes.quads(meanings, mint, concept_iri.get)
    added += concept_layer.mention_quads(new, matcher, mint, stated)
    from ..consistency import store as consistency_store

    with stages.stage("consistency", total=1) as stage:  # the new edition against itself
        consistent, _ = consistency_store.for_build([new], {new.id: statements}, results, stages.callback_for(stage))
        added += consistency_store.quads(consistent, mint)
    if new.language == "en":
        report.not_redone.append("French drift findings stay against the English edition they were computed with")
    report.not_redone.append("older editions' mentions of concepts only the new glossary introduces")

    concepts_graph = ox.NamedNode(mint.graph("concepts"))

    def change(raw: ox.Store) -> None:
        # the concept graph as a full build would write it, by difference: a new glossary
        # touches a few hundred of its 66,000 quads, where clearing and rewriting it cost
        # seconds (what was read is the build the copy is made of, as every other read of --add)
        fresh = set(concept_layer.concept_quads(concepts, mint, concepts_graph.value))
        for quad in stored_concepts - fresh:
            raw.remove(quad)
        raw.extend(fresh - stored_concepts)
        for quad in removed:
            raw.remove(quad)
        raw.extend(added)

    from ..search.build import updater

    matchers = {new.language: concept_layer.Matcher(concepts, new.language)}
    update_index = updater(previous, new, concepts, by_rule, matchers, mint.base)

    def index(old: Path, fresh: Path) -> None:
        with stages.stage("index", total=1) as stage:
            found = update_index(old, fresh)
            stage.advance(f"index {new.id}")
        if found is None:
            report.not_redone.append("the search index predates document keys: it keeps the editions it had "
                                     "until the next full build")
        else:
            report.search.update(found)

    from ..pages import incremental as pages
    from ..translate.kept import keep as keep_evidence

    kept = pages.keep(store)  # the rule pages' data of the build being copied, brought up to date below
    try:
        with stages.stage("load", total=1) as stage:
            store.update(change, index=index)
            stage.advance(f"load {new.id}")
    except BaseException:
        if kept is not None:
            kept.unlink(missing_ok=True)
        raise
    with stages.stage("pages") as stage:  # only the new edition's rules and the lineages it continues or begins
        report.pages = pages.update(store, kept, new.id, stages.callback_for(stage), total=stage.set_total,
                                    extra=keep_evidence)
    report.quads_added, report.quads_removed = len(added), len(removed)
    report.seconds = round(time.perf_counter() - started, 2)
    report.stages, report.stage_cpu = dict(stages.seconds), dict(stages.cpu)
    from ..progress import cpu_seconds

    report.cpu_seconds = round(cpu_seconds() - cpu_started, 2)
    report.store_bytes = store.size_bytes()
    return report


def _lineage_update(store, mint: Minter, alignment, previous: Edition, new: Edition, graph: ox.NamedNode,
                    by_rule: dict | None = None):
    """The lineage graph's new quads (and the labels they replace) for the alignment of
    the newest edition with its predecessor: what kb.align.lineages and
    kb.rdf.lineage.lineage_quads add for one more edition at the end of a chain.
    ``by_rule`` hears (edition, number) -> lineage id for the rules of both."""
    from ..align.model import MERGED, SPLIT, UNCHANGED

    raw = store.store()
    lineage_p = L["lineage"]

    def rule(edition: str, number: str) -> ox.NamedNode:
        return ox.NamedNode(mint.rule(edition, number))

    def lineage_of(edition: str, number: str) -> ox.NamedNode | None:
        for quad in raw.quads_for_pattern(rule(edition, number), lineage_p, None, graph):
            return quad.object
        return None

    added: list[ox.Quad] = []
    removed: list[ox.Quad] = []
    extended: set[str] = set()
    new_lineages: dict[str, ox.NamedNode] = {}
    continued: dict[str, tuple[str, str]] = {}  # lineage -> (number in previous, in new): for the wordings
    started: dict[str, str] = {}  # lineage -> number: the lineages the new edition begins
    by_new_rule: dict[str, ox.NamedNode] = {}
    for number, old in alignment.predecessors().items():
        node = lineage_of(previous.id, old) if old is not None else None
        version = rule(new.id, number)
        if node is None or node.value in extended:
            node = ox.NamedNode(mint.lineage(f"{new.id}/{number}"))
            new_lineages[node.value] = node
            added.append(ox.Quad(node, TYPE, L["Lineage"], graph))
            added.append(ox.Quad(node, LABEL, ox.Literal(lineage_label({new.id: number})), graph))
            started[node.value] = number
        else:
            extended.add(node.value)
            continued[node.value] = (old, number)
            added.append(ox.Quad(version, L["previousVersion"], rule(previous.id, old), graph))
            for quad in raw.quads_for_pattern(node, LABEL, None, graph):
                numbers = {str(i): n for i, n in enumerate(quad.object.value.split(" → "))}
                numbers["new"] = number
                relabelled = lineage_label(numbers)
                if relabelled != quad.object.value:
                    removed.append(quad)
                    added.append(ox.Quad(node, LABEL, ox.Literal(relabelled), graph))
        added.append(ox.Quad(version, lineage_p, node, graph))
        by_new_rule[number] = node
    if by_rule is not None:
        prefix = mint.lineage("")
        for number, node in by_new_rule.items():
            by_rule[(new.id, number)] = node.value[len(prefix):]
        for r in previous.rules:
            if (node := lineage_of(previous.id, r.number)) is not None:
                by_rule[(previous.id, r.number)] = node.value[len(prefix):]
    for pair in alignment.secondary():
        old_node = lineage_of(previous.id, pair.old)
        new_node = by_new_rule.get(pair.new)
        if old_node is None or new_node is None:
            continue
        if pair.kind == SPLIT:
            added.append(ox.Quad(new_node, L["splitFrom"], old_node, graph))
        elif pair.kind == MERGED:
            added.append(ox.Quad(old_node, L["mergedInto"], new_node, graph))
    changes = 0
    old_ed, new_ed = ox.NamedNode(mint.edition(previous.id)), ox.NamedNode(mint.edition(new.id))
    for pair in alignment.pairs:
        if pair.kind == UNCHANGED:
            continue
        changes += 1
        node = ox.NamedNode(mint.change(new.id, pair.old, pair.new))
        added.append(ox.Quad(node, TYPE, L["Change"], graph))
        added.append(ox.Quad(node, L["changeKind"], ox.Literal(pair.kind), graph))
        if pair.detail:
            added.append(ox.Quad(node, L["changeDetail"], ox.Literal(pair.detail), graph))
        added.append(ox.Quad(node, L["similarity"], decimal(pair.similarity), graph))
        added.append(ox.Quad(node, L["fromEdition"], old_ed, graph))
        added.append(ox.Quad(node, L["toEdition"], new_ed, graph))
        if pair.old is not None:
            added.append(ox.Quad(node, L["fromRule"], rule(previous.id, pair.old), graph))
        if pair.new is not None:
            added.append(ox.Quad(node, L["toRule"], rule(new.id, pair.new), graph))
    from ..timeline.wordings import appended

    texts = {e.id: {} for e in (previous, new)}
    for edition in (previous, new):
        for r in edition.rules:
            texts[edition.id].setdefault(r.number, r.text)  # a duplicate number: the first, as the build keeps it
    more, fewer = appended(raw, graph, mint, previous.id, new.id, new.effective_date, continued, started,
                           lambda edition, number: texts[edition].get(number), pairs=alignment.pairs)
    return added + more, removed + fewer, changes


TYPE = ox.NamedNode(str(RDF.type))
LABEL = ox.NamedNode(str(RDFS.label))

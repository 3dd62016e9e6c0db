"""Reasoning over one edition's definitional statements: consistency, classification,
inferred facts, and the axioms that justify each one.

    result = reason("en/2026-01-16", statements, concepts_to_terms)       # HermiT
    result = reason(..., reasoner="owlrl")                                # pure Python
    for fact in result.inferred:
        print("\\n".join(explain(fact)))

- **Consistent** means the axioms (kb.axioms) have a model in which every concept a
  statement is about has an instance: the rules presuppose that tokens and spells can
  exist, so a concept made impossible is an inconsistency, not an empty class.
- **The ontology is background, the edition has the last word.** The ontology models the
  *current* rules; where an edition's statements contradict one of its axioms (2026:
  "a spell is a card" + "a copy of a spell is a spell" against "no copy of a spell is
  a card"), that axiom is set aside for the edition and the conflict reported
  (``Result.ontology_conflicts``). Only a clash among the edition's own statements
  makes the edition inconsistent.
- **HermiT** (owlready2, Java) classifies; disjointness comes from probe classes
  ``A ⊓ B`` over the concepts the ontology names, and elsewhere from the asserted
  disjointness inherited down HermiT's hierarchy. **owlrl** is the pure-Python path:
  the subclass closure OWL 2 RL materialises, with the same inheritance of disjointness.
- **Inferred facts** are the entailed is-a and not-a between the edition's concepts
  that no single statement states: every is-a, every not-a between two concepts the
  ontology names, and elsewhere the most general not-a only (flying ⊥ cycling follows
  from static ability ⊥ activated ability). ``Result.check`` answers any other.
- **Justifications** are computed here from the asserted axioms: the shortest chain of
  SubClassOf / EquivalentClasses / DisjointClasses steps (plus functional-role clashes:
  on the stack vs. on the battlefield). With Java, Pellet justifies the same facts in
  one JVM; each fact records whether Pellet used the same axioms, and a fact no chain
  explains takes Pellet's justification.
- **Cache**: results are keyed by a digest of the axiom set, not of the edition, in
  memory and on disk (``$RULEKB_CACHE/reasoning``, else ``~/.cache/rulekb/reasoning``):
  editions that say the same thing are reasoned about once.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from collections import deque
from dataclasses import dataclass, field, replace
from pathlib import Path

from rdflib import BNode, Graph, URIRef
from rdflib.collection import Collection
from rdflib.namespace import OWL, RDF, RDFS

from . import reasoning
from .axioms import ISA, NOTA, RK, Axiom, AxiomSet, Source, axiom_set, describe_statement, render

ENGINE = "infer-4"  # bump when what is cached changes meaning
REASONERS = ("hermit", "owlrl")
PROBE = "https://w3id.org/rulekb/probe#"
MAX_ROUNDS = 8  # each round sets aside the ontology axioms of at least one conflict
_REASONER_NAMES = {"hermit": "HermiT", "owlrl": "OWL 2 RL"}


# ---------------------------------------------------------------- results


@dataclass(frozen=True)
class Step:
    """One step of a justification: a relation and the axioms that give it."""

    relation: str  # "spell ⊑ object", "card ⊥ token"
    axioms: tuple[str, ...]  # the axioms used, rendered
    sources: tuple[Source, ...]  # the statements behind them
    ontology: tuple[str, ...] = ()  # those of the axioms only the ontology gives, rendered


@dataclass(frozen=True)
class Inferred:
    """A fact no single statement states, entailed by an edition's axioms."""

    concept: str  # concept key
    aspect: str  # "is-a" | "not-a"
    value: str  # concept key
    derived_from: tuple[tuple[str, object], ...]  # (rule number, Statement) the justification uses
    ontology_axioms: tuple[str, ...] = ()  # ontology axioms it uses, rendered
    steps: tuple[Step, ...] = ()
    edition: str = ""
    reasoner: str = "hermit"
    pellet: tuple[str, ...] | None = None  # Pellet's justification (rendered axioms), when asked
    pellet_agrees: bool | None = None  # Pellet used exactly the axioms of our chain
    stated: bool = False  # (Result.check only) one statement says it
    # Statement-shaped, so kb.statements can store an inference like a statement:
    members: tuple[str, ...] = ()
    qualifier: str = ""
    negated: bool = False


@dataclass
class Result:
    edition: str
    consistent: bool
    inferred: list[Inferred]
    unsatisfiable: list[str]  # concept keys that can have no instance
    explanation_of_inconsistency: list[str]  # readable lines; empty when consistent
    seconds: float
    reasoner: str
    digest: str = ""  # of the axiom set: editions with equal digests have equal results
    cached: bool = False
    clashing: list[tuple[str, object]] = field(default_factory=list)  # statements of the clash
    ontology_conflicts: list[list[str]] = field(default_factory=list)  # readable, one list per conflict
    set_aside: list[str] = field(default_factory=list)  # ontology axioms set aside, rendered
    skipped: list[tuple[str, object, str]] = field(default_factory=list)  # statements with no OWL form
    axioms: AxiomSet | None = None  # the axioms reasoned with (without those set aside)
    raw: dict = field(default_factory=dict, repr=False)  # the reasoner's output, IRIs

    def check(self, concept: str, aspect: str, value: str) -> Inferred | None:
        """Is ``concept`` a ``value`` ("is-a"), or not one ("not-a")? The entailed fact with
        its justification (``stated=True`` when one statement says it), or None."""
        naming = self.axioms.naming
        a, b = naming.iri(concept), naming.iri(value)
        justifier = Justifier(self.axioms)
        if aspect == ISA and [a, b] in self.raw.get("sub", []):
            chain, stated = justifier.subclass(a, b), justifier.stated_subclass(a, b)
        elif aspect == NOTA and sorted((a, b)) in self.raw.get("disjoint", []):
            chain, stated = justifier.disjoint(a, b), justifier.stated_disjoint(a, b)
        else:
            return None
        fact = _fact(self.edition, self.axioms, a, aspect, b, chain, None, "", self.reasoner)
        return replace(fact, stated=stated)


# ---------------------------------------------------------------- entry points


def reason(edition_id: str, statements: list[tuple[str, object]], concepts_to_terms: dict[str, str],
           *, reasoner: str = "hermit", crosscheck: bool = True, cache: bool = True) -> Result:
    """Reason over one edition's ``(rule number, Statement)`` pairs.

    ``reasoner``: "hermit" (Java) or "owlrl" (pure Python). ``crosscheck``: ask Pellet
    (HermiT path) to justify the same facts. Raises reasoning.JavaMissingError when
    HermiT has no Java."""
    if reasoner not in REASONERS:
        raise ValueError(f"unknown reasoner {reasoner!r} (choose from {', '.join(REASONERS)})")
    started = time.perf_counter()
    axioms = axiom_set(statements, concepts_to_terms, edition=edition_id)
    key = _cache_key(axioms.digest, reasoner, crosscheck)
    raw = _cache_get(key) if cache else None
    cached = raw is not None
    if raw is None:
        raw = _compute(axioms, reasoner, crosscheck)
        if cache:
            _cache_put(key, raw)
    result = _assemble(edition_id, axioms, raw, reasoner)
    result.cached = cached
    result.seconds = time.perf_counter() - started
    return result


def reason_all(statements_by_edition: dict[str, list[tuple[str, object]]], concepts_to_terms: dict[str, str],
               *, reasoner: str = "hermit", crosscheck: bool = True, cache: bool = True,
               workers: int | None = None, progress=None, on_total=None) -> dict[str, Result]:
    """:func:`reason` for every edition. Editions with equal axiom sets are reasoned
    about once; the distinct sets not in the cache run in ``workers`` processes (default:
    one per CPU; each keeps one HermiT JVM for all its sets, :mod:`kb.hermit`).
    ``on_total(n)`` hears how many sets are to be reasoned about, ``progress(message)``
    each one done, in the order they finish."""
    if reasoner not in REASONERS:
        raise ValueError(f"unknown reasoner {reasoner!r} (choose from {', '.join(REASONERS)})")
    started = time.perf_counter()
    sets = {eid: axiom_set(st, concepts_to_terms, edition=eid) for eid, st in statements_by_edition.items()}
    keys = {eid: _cache_key(a.digest, reasoner, crosscheck) for eid, a in sets.items()}
    raws = {key: raw for key in set(keys.values()) if cache and (raw := _cache_get(key)) is not None}
    todo = {key: eid for eid, key in keys.items() if key not in raws}  # one edition per missing set
    if on_total:
        on_total(len(todo))
    if todo:
        from concurrent.futures import ProcessPoolExecutor, as_completed

        # the biggest sets first, so that two workers finish together
        order = sorted(todo.items(), key=lambda item: -len(statements_by_edition[item[1]]))
        jobs = [(statements_by_edition[eid], concepts_to_terms, reasoner, crosscheck) for _, eid in order]
        workers = max(1, min(workers or os.cpu_count() or 1, len(jobs)))
        if reasoner == "hermit" and reasoning.java_available():
            from . import hermit

            hermit.prepare(reasoning.java_executable())  # compiled once, not by every worker
        pool = ProcessPoolExecutor(workers) if workers > 1 else None
        try:
            if pool is None:
                computed = ((item, _compute_job(job)) for item, job in zip(order, jobs))
            else:
                futures = {pool.submit(_compute_job, job): item for item, job in zip(order, jobs)}
                computed = ((futures[done], done.result()) for done in as_completed(futures))
            for finished, ((key, eid), raw) in enumerate(computed, 1):
                if progress:
                    progress(f"reasoned about {eid} ({finished}/{len(todo)} axiom sets)")
                raws[key] = raw
                if cache:
                    _cache_put(key, raw)
        finally:
            if pool is not None:
                pool.shutdown(cancel_futures=True)
    results = {}
    for eid, axioms in sets.items():
        result = _assemble(eid, axioms, raws[keys[eid]], reasoner)
        result.cached = keys[eid] not in todo or todo[keys[eid]] != eid
        results[eid] = result
    elapsed = time.perf_counter() - started
    for result in results.values():
        result.seconds = elapsed / max(1, len(results))  # a share of the whole run
    return results


def _compute_job(job) -> dict:
    statements, concepts_to_terms, reasoner, crosscheck = job
    return _compute(axiom_set(statements, concepts_to_terms), reasoner, crosscheck)


def explain(inferred: Inferred) -> list[str]:
    """Readable lines: the fact, then each step with the rule (and edition) behind it."""
    symbol = "⊑" if inferred.aspect == ISA else "⊥"
    how = "stated" if inferred.stated else f"inferred by {_REASONER_NAMES.get(inferred.reasoner, inferred.reasoner)}"
    lines = [f"{inferred.concept} {symbol} {inferred.value} ({how}"
             + (f", {inferred.edition}" if inferred.edition else "") + "), because:"]
    lines += ["  " + step.relation + " " + _cite(step, inferred.edition) for step in inferred.steps]
    if not inferred.steps:
        lines.append("  (the reasoner entails it; no justification was found)")
    if inferred.pellet is not None:
        if inferred.pellet_agrees:
            lines.append("  Pellet gives the same justification.")
        elif inferred.pellet:
            lines.append("  Pellet justifies it with: " + "; ".join(inferred.pellet))
    return lines


@dataclass
class Clash:
    """Axioms of two editions that cannot hold together."""

    concept: str | None  # the concept that can have no instance; None: the individuals clash
    lines: list[str]  # readable explanation
    statements: list[tuple[str, str, object]]  # (edition, rule, Statement) in the clash


def clashes(old: tuple[str, list], new: tuple[str, list], concepts_to_terms: dict[str, str],
            *, max_clashes: int = 10, reasoner: str = "hermit") -> list[Clash]:
    """The axioms that clash when two editions' definitions meet (for contradictions
    between versions). ``old``/``new`` are (edition id, [(rule, Statement)]). Only clashes
    that need a statement of each edition are returned. ``reasoner``: "hermit" (HermiT
    and Pellet: needs Java) or "owlrl" (pure Python: the clashes our chains justify)."""
    if reasoner not in REASONERS:
        raise ValueError(f"unknown reasoner {reasoner!r} (choose from {', '.join(REASONERS)})")
    (old_id, old_statements), (new_id, new_statements) = old, new
    merged = [(old_id, r, s) for r, s in old_statements] + [(new_id, r, s) for r, s in new_statements]
    axioms = axiom_set(merged, concepts_to_terms)
    found: list[Clash] = []
    removed: list[str] = []  # each clash found is removed to find the next one
    for _ in range(max_clashes):
        raw = _compute(axioms.without(removed), reasoner, crosscheck=False)
        current = axioms.without(removed + raw["dropped"])
        chains = list(_clashes(current, raw, reasoner))
        if not chains:
            break
        progressed = False
        for concept, chain in chains:
            steps = _steps(chain, current)
            sources = [s for step in steps for s in step.sources]
            editions = {s.edition for s in sources}
            by_id = current.by_id()
            newest = [i for step in chain for i in step[2]
                      if i in by_id and any(s.edition == new_id for s in current.axioms[by_id[i]])]
            if {old_id, new_id} <= editions:
                what = current.naming.name(concept) if concept else "their lists"
                lines = [f"{old_id} and {new_id} disagree about {what}:"]
                lines += ["  " + step.relation + " " + _cite(step, "") for step in steps]
                found.append(Clash(current.naming.name(concept) if concept else None, lines,
                                   list(dict.fromkeys((s.edition, s.rule, s.statement) for s in sources))))
            if newest:
                removed += newest
                progressed = True
        if not progressed:
            break
    return found


def _cite(step: Step, edition: str) -> str:
    parts = []
    for source in step.sources:
        where = source.edition or edition
        parts.append(f"rule {source.rule}" + (f", {where}" if where else "")
                     + f": {describe_statement(source.statement)}")
    parts += [f"ontology: {axiom}" for axiom in step.ontology]
    return "(" + " | ".join(dict.fromkeys(parts)) + ")" if parts else ""


# ---------------------------------------------------------------- the cache

_MEMORY: dict[str, dict] = {}


def cache_path(key: str) -> Path:
    return reasoning.cache_dir() / "reasoning" / f"{key}.json"


def _cache_key(digest: str, reasoner: str, crosscheck: bool) -> str:
    text = f"{ENGINE}|{digest}|{reasoner}|{crosscheck and reasoner == 'hermit'}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


def _cache_get(key: str) -> dict | None:
    if key in _MEMORY:
        return _MEMORY[key]
    try:
        raw = json.loads(cache_path(key).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    _MEMORY[key] = raw
    return raw


def _cache_put(key: str, raw: dict) -> None:
    _MEMORY[key] = raw
    path = cache_path(key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=".tmp", encoding="utf-8") as f:
            json.dump(raw, f)
        os.replace(f.name, path)  # readers see the whole file or none
    except OSError:
        pass  # an unwritable cache costs time, not correctness


def clear_memory_cache() -> None:
    _MEMORY.clear()


# ---------------------------------------------------------------- reasoning until only the edition clashes


def _compute(axioms: AxiomSet, reasoner: str, crosscheck: bool) -> dict:
    """Run the reasoner; set aside the ontology axioms of each clash and run again,
    until what still clashes (if anything) is the edition's own statements."""
    started = time.perf_counter()
    run_once = _hermit_run if reasoner == "hermit" else _owlrl_run
    dropped, conflicts = _chain_conflicts(axioms)  # most conflicts, found without a reasoner
    for _ in range(MAX_ROUNDS):
        current = axioms.without(dropped)
        run = run_once(current)
        by_id = current.by_id()
        given_up: list[str] = []
        for concept, chain in _clashes(current, run, reasoner):
            ids = {i for step in chain for i in step[2]}
            background = sorted(i for i in ids if i in by_id and current.background_only(by_id[i]))
            background = [i for i in background if i not in given_up]
            if background:
                given_up += background
                conflicts.append({"concept": concept, "chain": chain, "dropped": background})
        if not given_up:
            break
        dropped += given_up
    current = axioms.without(dropped)
    run.update(dropped=dropped, conflicts=conflicts, pellet=None)
    clash = not run["consistent"] or any(c in current.witnesses for c in run["unsat"])
    if reasoner == "hermit" and (crosscheck or clash):  # a clash is always explained
        run["pellet"] = _pellet(current, run)
    run["seconds"] = time.perf_counter() - started
    return run


def _chain_conflicts(axioms: AxiomSet) -> tuple[list[str], list[dict]]:
    """The conflicts with the ontology our own chains already show (a witnessed concept
    below two disjoint classes): set aside before the first reasoner run, which saves a
    run per conflict. The reasoner finds whatever else there is."""
    dropped: list[str] = []
    conflicts: list[dict] = []
    for _ in range(len(axioms.axioms)):
        current = axioms.without(dropped)
        justifier = Justifier(current)
        found = False
        for concept in sorted(current.witnesses):
            chain = justifier.unsatisfiable(concept)
            background = sorted({ax.id for step in chain or () for ax in step[2] if current.background_only(ax)})
            if background:
                dropped += background
                conflicts.append({"concept": concept, "chain": [[a, b, [x.id for x in used], symbol]
                                                                for a, b, used, symbol in chain],
                                  "dropped": background})
                found = True
                break  # chains change once axioms are set aside
        if not found:
            break
    return dropped, conflicts


def _clashes(axioms: AxiomSet, run: dict, reasoner: str):
    """(concept or None, chain) per clash: a witnessed concept that can have no instance,
    or (None) a clash among individuals. A chain is a list of [class, class, [axiom ids],
    symbol] steps, JSON-ready."""
    if not run["consistent"]:
        yield None, _pellet_chain(axioms, "inconsistent") if reasoner == "hermit" else []
        return
    justifier = Justifier(axioms)
    for concept in run["unsat"]:
        if concept not in axioms.witnesses:
            continue
        chain = justifier.unsatisfiable(concept)
        if chain:
            yield concept, [[a, b, [ax.id for ax in used], symbol] for a, b, used, symbol in chain]
        elif reasoner == "hermit":
            yield concept, _pellet_chain(axioms, f"unsat {concept}")


def _pellet_chain(axioms: AxiomSet, query: str) -> list:
    """Pellet's justification as chain steps (one per axiom), when Java can run it."""
    try:
        answer = reasoning.pellet_explanations(axioms.graph(witnesses=query == "inconsistent"), [query])
    except reasoning.ReasonerError:
        return []
    return [["", "", [x.id], "·"] for x in answer.get(query) or () if x.id and not x.id.startswith("witness:")]


def _hermit_run(axioms: AxiomSet) -> dict:
    """One HermiT run on the axioms *without* witnesses, so that classification survives
    a concept that can have no instance (a fresh instance of C is consistent exactly
    when C is satisfiable: the witnesses' verdict follows from the unsatisfiable classes)."""
    concepts = sorted(axioms.concepts)
    core = [c for c in concepts if c.startswith(str(RK))]  # a few dozen: probes are quadratic
    graph = axioms.graph(witnesses=False, annotate=False)
    probes = _add_probes(graph, core)
    hermit = reasoning.check_consistency(graph, explain=False)  # Pellet explains clashes later, by id
    run = {"consistent": hermit.consistent, "unsat": [], "sub": [], "disjoint": []}
    if not hermit.consistent:
        return run
    unsat = {c for c in hermit.unsatisfiable if not c.startswith(PROBE)}
    supers = {c: {c} for c in concepts}
    for a, b in hermit.subsumptions:
        if a in supers:
            supers[a].add(b)
    disjoint = _inherited_disjointness(concepts, supers, Justifier(axioms).base)
    disjoint |= {frozenset(pair) for probe, pair in probes.items() if probe in hermit.unsatisfiable}
    return _run(concepts, supers, disjoint, unsat)


def _add_probes(graph: Graph, concepts: list[str]) -> dict[str, tuple[str, str]]:
    """One class ``A ⊓ B`` per pair of concepts: HermiT finds it unsatisfiable exactly
    when A and B are disjoint (classification reports no disjointness by itself)."""
    probes = {}
    for i, a in enumerate(concepts):
        for b in concepts[i + 1:]:
            probe = f"{PROBE}{len(probes)}"
            probes[probe] = (a, b)
            node, head = BNode(), BNode()
            Collection(graph, head, [URIRef(a), URIRef(b)])
            graph.add((URIRef(probe), RDF.type, OWL.Class))
            graph.add((node, RDF.type, OWL.Class))
            graph.add((node, OWL.intersectionOf, head))
            graph.add((URIRef(probe), OWL.equivalentClass, node))
    return probes


def _owlrl_run(axioms: AxiomSet) -> dict:
    """OWL 2 RL: the subclass closure owlrl materialises; disjointness inherited down it
    (RL has no schema rule for that); a clash among individuals is one RL reports that
    no unsatisfiable concept accounts for."""
    closure = reasoning.materialise_rl(axioms.graph(annotate=False))
    concepts = sorted(axioms.concepts)
    supers: dict[str, set[str]] = {c: {c} for c in concepts}
    for s, o in closure.graph.subject_objects(RDFS.subClassOf):
        if str(s) in supers and isinstance(o, URIRef):
            supers[str(s)].add(str(o))
    base = Justifier(axioms).base
    unsat = {c for c in concepts if str(OWL.Nothing) in supers[c]
             or any(frozenset((x, y)) in base for x in supers[c] for y in supers[c] if x < y)}
    run = _run(concepts, supers, _inherited_disjointness(concepts, supers, base), unsat)
    run["consistent"] = not (closure.errors and not unsat)
    return run


def _inherited_disjointness(concepts, supers: dict[str, set[str]], base) -> set[frozenset]:
    """Pairs of concepts below two classes asserted (or shown) disjoint."""
    below: dict[str, set[str]] = {}
    for c in concepts:
        for s in supers[c]:
            below.setdefault(s, set()).add(c)
    found = set()
    for pair in base:
        x, y = tuple(pair)
        for a in below.get(x, ()):
            for b in below.get(y, ()):
                if a != b:
                    found.add(frozenset((a, b)))
    return found


def _run(concepts, supers, disjoint: set[frozenset], unsat: set[str]) -> dict:
    wanted = set(concepts)
    return {
        "consistent": True,
        "unsat": sorted(unsat & wanted),
        "sub": sorted([a, b] for a in concepts if a not in unsat for b in supers[a] if b in wanted and b != a),
        "disjoint": sorted(sorted(p) for p in disjoint if len(p) == 2 and not p & unsat),
    }


def _pellet(axioms: AxiomSet, run: dict) -> dict | None:
    """Pellet's justification of each reported fact, unsatisfiable concept or
    inconsistency, keyed by query: lists of [axiom id, Pellet's rendering]. None when
    Pellet could not run."""
    if not run["consistent"]:
        queries = ["inconsistent"]
    else:
        is_a, not_a = _facts(axioms, run)
        queries = [f"sub {a} {b}" for a, b in is_a] + [f"disjoint {a} {b}" for a, b in not_a]
        queries += [f"unsat {c}" for c in run["unsat"]]
    if not queries:
        return {}
    try:
        answers = reasoning.pellet_explanations(axioms.graph(witnesses=False), queries)
    except reasoning.ReasonerError:
        return None
    return {q: None if a is None else [[x.id, x.text] for x in a] for q, a in answers.items()}


def _facts(axioms: AxiomSet, run: dict) -> tuple[list, list]:
    """The inferred facts to report: (is-a pairs, not-a pairs) no single statement
    states. Every is-a; a not-a between two concepts the ontology names (token, card,
    spell, emblem...); elsewhere only the most general not-a (flying ⊥ cycling follows
    from static ability ⊥ activated ability and is left out: there are thousands)."""
    justifier = Justifier(axioms)
    is_a = [(a, b) for a, b in run["sub"] if not justifier.stated_subclass(a, b)]
    above: dict[str, set[str]] = {}
    for a, b in run["sub"]:
        above.setdefault(a, {a}).add(b)
    disjoint = {frozenset(p) for p in run["disjoint"]}

    def general(a, b) -> bool:
        return any(frozenset((x, y)) in disjoint for x in above.get(a, {a}) for y in above.get(b, {b})
                   if {x, y} != {a, b})

    core = str(RK)
    not_a = [(a, b) for a, b in run["disjoint"] if not justifier.stated_disjoint(a, b)
             and ((a.startswith(core) and b.startswith(core)) or not general(a, b))]
    return is_a, not_a


# ---------------------------------------------------------------- justifications (our own)


class Justifier:
    """Shortest chains of asserted axioms behind a subsumption or a disjointness."""

    def __init__(self, axioms: AxiomSet):
        self.axioms = axioms
        self.up: dict[str, list[tuple[str, tuple[Axiom, ...]]]] = {}  # a -> [(b, axioms giving a ⊑ b)]
        self.base: dict[frozenset, tuple[Axiom, ...]] = {}  # disjoint pair -> axioms
        domains: dict[str, list[tuple[str, Axiom]]] = {}
        functional = {a.form[1]: a for a in axioms.axioms if a.kind == "functional"}
        different = [a for a in axioms.axioms if a.kind == "different"]
        values: dict[str, list[tuple[str, str, Axiom]]] = {}  # class -> [(role, individual, axiom)]
        roles: dict[str, list[tuple[str, str, Axiom]]] = {}  # class -> [(role, "some"|"none", axiom)]
        for a in axioms.axioms:
            if a.kind == "domain" and a.form[2][0] == "C":
                domains.setdefault(a.form[1], []).append((a.form[2][1], a))
        for a in axioms.axioms:
            form = a.form
            if form[0] == "sub" and form[1][0] == "C":
                self._necessary(form[1][1], form[2], a, values, roles)
            elif form[0] == "eq":
                for x, y in ((form[1], form[2]), (form[2], form[1])):
                    if x[0] == "C":
                        self._necessary(x[1], y, a, values, roles)
                        for member in (y[1] if y[0] == "or" else ()):
                            if member[0] == "C":
                                self._edge(member[1], x[1], (a,))
            elif form[0] == "disjoint":
                names = [ce[1] for ce in form[1] if ce[0] == "C"]
                for i, x in enumerate(names):
                    for y in names[i + 1:]:
                        self._base(x, y, (a,))
        # a role restriction puts a class in the role's domain
        for table in (roles, values):
            for cls, items in table.items():
                for role, _, a in items:
                    for domain, d in domains.get(role, ()):
                        self._edge(cls, domain, (a, d))
        # a functional role with two different values: on the stack vs. on the battlefield
        for c1, items1 in values.items():
            for c2, items2 in values.items():
                for role1, v1, a1 in items1 if c1 < c2 else ():
                    for role2, v2, a2 in items2:
                        if role1 == role2 and v1 != v2 and role1 in functional:
                            diff = next((d for d in different if v1 in d.form[1] and v2 in d.form[1]), None)
                            if diff is not None:
                                self._base(c1, c2, (a1, a2, functional[role1], diff))
        # "has no controller" against "has a controller"
        for c1, items1 in roles.items():
            for c2, items2 in roles.items():
                for role1, kind1, a1 in items1 if c1 != c2 else ():
                    for role2, kind2, a2 in items2:
                        if role1 == role2 and kind1 == "none" and kind2 == "some":
                            self._base(c1, c2, (a1, a2))

    def _necessary(self, cls: str, ce: tuple, axiom: Axiom, values: dict, roles: dict) -> None:
        """Record what ``cls ⊑ ce`` says about cls's superclasses and roles."""
        for part in ce[1] if ce[0] == "and" else (ce,):
            if part[0] == "C":
                self._edge(cls, part[1], (axiom,))
            elif part[0] == "value":
                values.setdefault(cls, []).append((part[1], part[2], axiom))
            elif part[0] == "some":
                roles.setdefault(cls, []).append((part[1], "some", axiom))
            elif part[0] == "only" and part[2][0] == "nothing":
                roles.setdefault(cls, []).append((part[1], "none", axiom))
            elif part[0] == "not" and part[1][0] == "C":
                self._base(cls, part[1][1], (axiom,))

    def _edge(self, a: str, b: str, axioms: tuple) -> None:
        if a != b:
            self.up.setdefault(a, []).append((b, axioms))

    def _base(self, a: str, b: str, axioms: tuple) -> None:
        key = frozenset((a, b))
        if key not in self.base or len(axioms) < len(self.base[key]):
            self.base[key] = axioms

    def paths(self, start: str) -> dict[str, list[tuple]]:
        """Shortest chains from ``start`` to each of its asserted superclasses."""
        found = {start: []}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there, axioms in self.up.get(here, ()):
                if there not in found:
                    found[there] = found[here] + [(here, there, axioms, "⊑")]
                    queue.append(there)
        return found

    def subclass(self, a: str, b: str) -> list[tuple] | None:
        return self.paths(a).get(b)

    def disjoint(self, a: str, b: str) -> list[tuple] | None:
        """Chains a ⊑ x, b ⊑ y and the axioms making x and y disjoint (shortest overall)."""
        return self._best(self.paths(a), self.paths(b))

    def unsatisfiable(self, c: str) -> list[tuple] | None:
        """Chains from c to two disjoint superclasses."""
        paths = self.paths(c)
        return self._best(paths, paths)

    def _best(self, left: dict, right: dict) -> list[tuple] | None:
        best = None
        for x, chain_x in left.items():
            for y, chain_y in right.items():
                axioms = self.base.get(frozenset((x, y))) if x != y else None
                if axioms is None:
                    continue
                chain = chain_x + [s for s in chain_y if s not in chain_x] + [(x, y, axioms, "⊥")]
                if best is None or (len(chain), _size(chain)) < (len(best), _size(best)):
                    best = chain
        return best

    def stated_subclass(self, a: str, b: str) -> bool:
        """Does one statement say a ⊑ b?"""
        return any(there == b and len(axioms) == 1 and self.axioms.stated(axioms[0])
                   for there, axioms in self.up.get(a, ()))

    def stated_disjoint(self, a: str, b: str) -> bool:
        axioms = self.base.get(frozenset((a, b)))
        return bool(axioms) and len(axioms) == 1 and self.axioms.stated(axioms[0])


def _size(chain) -> int:
    return sum(len(step[2]) for step in chain)


# ---------------------------------------------------------------- results from the reasoner's output


def _assemble(edition: str, full: AxiomSet, raw: dict, reasoner: str) -> Result:
    axioms = full.without(raw["dropped"])  # what the edition was finally reasoned with
    naming = axioms.naming
    justifier = Justifier(axioms)
    pellet = raw.get("pellet")
    inferred = []
    if raw["consistent"]:
        is_a, not_a = _facts(axioms, raw)
        for a, b in is_a:
            inferred.append(_fact(edition, axioms, a, ISA, b, justifier.subclass(a, b), pellet, f"sub {a} {b}",
                                  reasoner))
        for a, b in not_a:
            query = f"disjoint {a} {b}"
            # name first the concept a statement is about: "token ⊥ card", not "card ⊥ token"
            a, b = sorted((a, b), key=lambda iri: (iri not in axioms.witnesses, naming.name(iri)))
            inferred.append(_fact(edition, axioms, a, NOTA, b, justifier.disjoint(a, b), pellet, query, reasoner))
    witnessed_unsat = [c for c in raw["unsat"] if c in axioms.witnesses]
    consistent = raw["consistent"] and not witnessed_unsat
    lines, clashing = [], []
    if not consistent:
        lines, clashing = _explain_inconsistency(edition, axioms, justifier, raw, witnessed_unsat)
    dropped = set(raw["dropped"])
    return Result(
        edition=edition,
        consistent=consistent,
        inferred=sorted(inferred, key=lambda f: (f.aspect, f.concept, f.value)),
        unsatisfiable=sorted(naming.name(c) for c in raw["unsat"]),
        explanation_of_inconsistency=lines,
        seconds=0.0,
        reasoner=reasoner,
        digest=full.digest,
        clashing=clashing,
        ontology_conflicts=[_conflict_lines(edition, full, c) for c in raw["conflicts"]],
        set_aside=[render(a, naming) for a in full.axioms if a.id in dropped],
        skipped=list(full.skipped),
        axioms=axioms,
        raw=raw,
    )


def _fact(edition, axioms: AxiomSet, a, aspect, b, chain, pellet, query, reasoner) -> Inferred:
    naming = axioms.naming
    by_id = axioms.by_id()
    justification = pellet.get(query) if pellet else None
    steps = _steps(chain, axioms) if chain else _id_steps([i for i, _ in justification or ()], axioms)
    agrees = None
    if justification is not None and chain:
        agrees = {i for i, _ in justification} == {ax.id for step in chain for ax in step[2]}
    return Inferred(
        concept=naming.name(a),
        aspect=aspect,
        value=naming.name(b),
        derived_from=tuple(dict.fromkeys((s.rule, s.statement) for step in steps for s in step.sources)),
        ontology_axioms=tuple(dict.fromkeys(ax for step in steps for ax in step.ontology)),
        steps=tuple(steps),
        edition=edition,
        reasoner=reasoner,
        pellet=None if justification is None else tuple(
            render(by_id[i], naming) if i in by_id else text for i, text in justification),
        pellet_agrees=agrees,
    )


def _steps(chain, axioms: AxiomSet) -> list[Step]:
    """Steps from a chain of (class, class, axioms, symbol); axioms as Axiom objects or ids."""
    naming, by_id = axioms.naming, axioms.by_id()
    steps = []
    for a, b, used, symbol in chain:
        used = [by_id.get(u) if isinstance(u, str) else u for u in used]
        used = [u for u in used if u is not None]
        if symbol == "·":  # a step of Pellet's: one axiom, no relation of its own
            steps += _id_steps([ax.id for ax in used], axioms)
        else:
            steps.append(_step(f"{naming.name(a)} {symbol} {naming.name(b)}", used, axioms))
    return steps


def _step(relation: str, used, axioms: AxiomSet) -> Step:
    """A step citing each axiom's statements, or the ontology when no statement gives it."""
    naming = axioms.naming
    stated = {ax: [s for s in axioms.axioms.get(ax, []) if not s.from_ontology] for ax in used}
    return Step(
        relation,
        tuple(render(ax, naming) for ax in used),
        tuple(dict.fromkeys(s for ax in used for s in stated[ax])),
        tuple(render(ax, naming) for ax in used if not stated[ax]),
    )


def _id_steps(ids, axioms: AxiomSet) -> list[Step]:
    by_id = axioms.by_id()
    return [_step(render(by_id[i], axioms.naming), (by_id[i],), axioms) for i in ids if i in by_id]


def _conflict_lines(edition: str, axioms: AxiomSet, conflict: dict) -> list[str]:
    """A clash between the edition and the ontology, and the ontology axioms set aside."""
    naming = axioms.naming
    what = naming.name(conflict["concept"]) if conflict["concept"] else "its individuals"
    lines = [f"{edition} disagrees with the ontology about {what}:"]
    lines += ["  " + step.relation + " " + _cite(step, edition) for step in _steps(conflict["chain"], axioms)]
    by_id = axioms.by_id()
    aside = "; ".join(render(by_id[i], naming) for i in conflict["dropped"] if i in by_id)
    lines.append(f"  set aside for this edition (ontology): {aside}")
    return lines


def _explain_inconsistency(edition, axioms: AxiomSet, justifier: Justifier, raw: dict, witnessed_unsat: list[str]):
    """Readable lines naming the clashing axioms, and the statements they come from."""
    naming = axioms.naming
    pellet = raw.get("pellet") or {}
    if not raw["consistent"]:
        lines = [f"{edition}: the statements contradict each other (no model at all):"]
        steps = _id_steps([i for i, _ in pellet.get("inconsistent") or ()], axioms)
        if not steps:
            lines.append("  (no explanation: Pellet, which needs Java, explains these)")
    else:
        concept = witnessed_unsat[0]
        lines = [f"{edition}: {naming.name(concept)} can have no instance, yet the rules define it:"]
        chain = justifier.unsatisfiable(concept)
        steps = _steps(chain, axioms) if chain else _id_steps(
            [i for i, _ in pellet.get(f"unsat {concept}") or ()], axioms)
        if len(witnessed_unsat) > 1:
            lines.append("  (nor can " + ", ".join(naming.name(c) for c in witnessed_unsat[1:]) + ")")
    lines += ["  " + step.relation + " " + _cite(step, edition) for step in steps]
    clashing = list(dict.fromkeys((s.rule, s.statement) for step in steps for s in step.sources))
    return lines, clashing

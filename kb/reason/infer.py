"""Reasoning over one edition's definitional statements: consistency, classification,
inferred facts, and the axioms that justify each one.

    result = reason("en/2026-01-16", statements, concepts_to_terms)       # HermiT
    result = reason(..., reasoner="owlrl")                                # pure Python
    for fact in result.inferred:
        print("\\n".join(explain(fact)))

- **Consistent** means the axioms (kb.reason.axioms) have a model in which every concept a
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
import time
from dataclasses import dataclass
from pathlib import Path

from rdflib import BNode, Graph, URIRef
from rdflib.namespace import OWL, RDF, RDFS

from . import backends as reasoning
from ..json_cache import write_json
from .axioms import ISA, RK, AxiomSet, axiom_set, rdf_list

from .inference import Inferred, Justifier, Result, _assemble, _cite, _explain_inconsistency, _facts, _steps

ENGINE = "infer-4"  # bump when what is cached changes meaning
HERMIT_READING = "canonical-1"  # how HermiT's printed taxonomy is read (kb.hermit.canonical)
REASONERS = ("hermit", "owlrl")
PROBE = "https://w3id.org/rulekb/probe#"
MAX_ROUNDS = 8  # each round sets aside the ontology axioms of at least one conflict
_REASONER_NAMES = {"hermit": "HermiT", "owlrl": "OWL 2 RL"}


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
            from .. import hermit

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


# ---------------------------------------------------------------- the cache

_MEMORY: dict[str, dict] = {}


def cache_path(key: str) -> Path:
    return reasoning.cache_dir() / "reasoning" / f"{key}.json"


def _cache_key(digest: str, reasoner: str, crosscheck: bool) -> str:
    text = f"{ENGINE}|{digest}|{reasoner}|{crosscheck and reasoner == 'hermit'}"
    if reasoner == "hermit":  # HermiT's taxonomy read canonically (kb.hermit.canonical): other answers than before
        text += f"|{HERMIT_READING}"
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
    write_json(path.parent, path, raw)  # atomic; an unwritable cache costs time, not correctness


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
            rdf_list(graph, head, [URIRef(a), URIRef(b)])
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



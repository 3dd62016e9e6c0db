"""The reason stage: every edition's statements through HermiT or owlrl, in a thread beside the others."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pyoxigraph as ox

from ..errors import BuildError, RulekbError
from ..progress import Stages
from ..rdf.iris import Minter
from ..rdf.statements import inferred_quads, statement_iris


REASONERS = ("auto", "hermit", "owlrl", "none")


class Cancelled(RulekbError):
    """The build failed elsewhere: the reasoner stops at its next set. (Never shown: the
    build's own failure is; a RulekbError as every error class of the code.)"""


def reason_stage(stages: Stages, statements: dict, terms: dict, reasoner: str, cancelled) -> tuple[dict, dict]:
    """The reason stage (:func:`reason`), stopped between two sets once ``cancelled`` is set."""
    with stages.stage("reason") as stage:
        step = stages.callback_for(stage)

        def progress(message: str) -> None:
            if cancelled.is_set():
                raise Cancelled(message)
            step(message)

        return reason(statements, terms, reasoner, progress, on_total=stage.set_total)


def reason(statements: dict[str, list], terms: dict[str, str], reasoner: str,
           progress: Callable[[str], None] | None = None,
           on_total: Callable[[int], None] | None = None) -> tuple[dict, dict]:
    """Every edition's statements through the reasoner: the results by edition and a
    summary for the report. "auto" is HermiT when Java runs, else owlrl (said in the
    summary, so a build without Java is never mistaken for a HermiT one)."""
    from ..reason import infer

    reasoner, note = check_reasoner(reasoner)
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


def check_reasoner(reasoner: str) -> tuple[str, str]:
    """The reasoner a build uses ("auto" decided), and a note when it is not the one asked for;
    a bad choice raises (before any work)."""
    from ..reason import backends as reasoning

    if reasoner not in REASONERS:
        raise BuildError(f"unknown reasoner {reasoner!r} (choose from {', '.join(REASONERS)})")
    if reasoner == "auto":
        reasoner = "hermit" if reasoning.java_available() else "owlrl"
        return reasoner, "" if reasoner == "hermit" else "no usable Java: OWL 2 RL (owlrl) instead of HermiT"
    if reasoner == "hermit" and not reasoning.java_available():
        raise BuildError(reasoning.HERMIT_NEEDS_JAVA)
    return reasoner, ""


def inferred(edition_id: str, statements: list, result, mint: Minter, concept_iri: dict,
              written: set[str] | None = None) -> Iterator[ox.Quad]:
    from ..reason import infer

    iris = dict(zip(((n, s) for n, s in statements), statement_iris(edition_id, statements, mint)))
    yield from inferred_quads(edition_id, result.inferred, mint, concept_iri.get,
                              lambda number, statement: iris.get((number, statement)), infer.explain, written)

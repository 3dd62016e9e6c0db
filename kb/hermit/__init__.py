"""HermiT in one long-lived JVM per process, for many axiom sets in turn.

owlready2's ``sync_reasoner_hermit`` starts a JVM for every call: on the corpus,
123 axiom sets, each paying a JVM start and a cold JIT, which is most of a first
build. :func:`classify` does what that function does -- save the world as
N-Triples, run HermiT's own command line (``org.semanticweb.HermiT.cli.CommandLine
-c -O -D -I file``), read its taxonomy back into the world the way owlready2 does
-- but the command line runs inside :class:`Batch`, a JVM started once per
process with the small driver shipped beside this module
(``RulekbHermitBatch.java``, compiled once into ``$RULEKB_CACHE/java``, else run
by the JDK's source launcher). Same jar, same code path, same arguments, same
parsing: the same answers, without the JVM starts.

The default since HermiT's output is read through :func:`canonical`. A reused JVM
names a node of HermiT's taxonomy (a set of equivalent classes) by another member
than a fresh JVM may (``HierarchyNode.getRepresentative()`` depends on the JVM's
identity hash codes), and owlready2 reads a different hierarchy from the two
printings; :func:`canonical` names every node by its smallest IRI before the
reading, for both drivers, so the answers no longer depend on the JVM. The batch
JVM needs about half the CPU of a JVM per set. ``RULEKB_HERMIT_BATCH=0`` starts a
JVM per set instead (owlready2's way, through the same reading).
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import tempfile
import threading
from importlib import resources
from pathlib import Path

from . import launch
from ..errors import ReasonerError  # the batch JVM failing is a reasoner failing

DRIVER = "RulekbHermitBatch"
# the batch JVM runs many short classifications: the C1 compiler alone and the serial collector
# cost it about a third less CPU than the default tiers and G1 (16.3 s against 23.8 s for 43 of
# the corpus's sets, the same answers): C2's faster code does not repay its compiling on runs this short
# (a JVM that lacks them ignores them rather than failing to start)
JVM_OPTIONS = ("-XX:+IgnoreUnrecognizedVMOptions", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")


class BatchError(ReasonerError):
    """The batch JVM could not start or stopped answering."""


def enabled() -> bool:
    """The one-JVM driver is the default; ``RULEKB_HERMIT_BATCH=0`` starts a JVM per axiom set instead
    (the same answers: both read HermiT's output through :func:`canonical`)."""
    return os.environ.get("RULEKB_HERMIT_BATCH", "1") not in ("0", "false", "no", "off")


def driver_source() -> str:
    return (resources.files(__package__) / f"{DRIVER}.java").read_text(encoding="utf-8")


def _classpath() -> list[str]:
    import owlready2

    hermit = Path(owlready2.__file__).parent / "hermit"
    return [str(hermit), str(hermit / "HermiT.jar")]


def prepare(java: str) -> None:
    """Compile the driver now (once, before worker processes each would)."""
    if enabled():
        launch.compiled(java, DRIVER, driver_source(), _classpath())


class Batch:
    """One JVM running the driver: :meth:`run` sends HermiT command-line arguments and
    returns (ok, what the command line printed)."""

    def __init__(self, java: str, memory_mb: int):
        self._source_dir = tempfile.mkdtemp(prefix="rulekb-hermit-driver-")  # used when javac is missing
        command = launch.command(java, DRIVER, driver_source(), _classpath(), [f"-Xmx{memory_mb}M", *JVM_OPTIONS],
                                 self._source_dir)
        self.pid = os.getpid()
        self.lock = threading.Lock()
        try:
            self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.DEVNULL, close_fds=True)
        except OSError as error:
            shutil.rmtree(self._source_dir, ignore_errors=True)
            raise BatchError(f"cannot start {java}: {error}") from error

    def run(self, args: list[str]) -> tuple[bool, str]:
        if any("\t" in a or "\n" in a for a in args):
            raise BatchError("arguments with tabs or newlines cannot be sent to the batch JVM")
        with self.lock:
            try:
                self.process.stdin.write(("\t".join(args) + "\n").encode("utf-8"))
                self.process.stdin.flush()
                header = self.process.stdout.readline().decode("ascii", "replace").split()
                if len(header) != 3 or header[0] != "RULEKB":
                    raise BatchError("the batch JVM stopped answering"
                                     + (f" (exit {self.process.poll()})" if self.process.poll() is not None else ""))
                size = int(header[2])
                data = self.process.stdout.read(size)
                if len(data) != size:
                    raise BatchError("the batch JVM's answer was cut short")
            except (OSError, ValueError) as error:
                raise BatchError(f"the batch JVM failed: {error}") from error
        from owlready2.reasoning import _decode

        return header[1] == "OK", _decode(data).replace("\r", "")

    def close(self) -> None:
        if os.getpid() != self.pid:
            return  # a forked child's copy: the JVM belongs to the parent
        try:
            self.process.stdin.close()
            self.process.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
        shutil.rmtree(self._source_dir, ignore_errors=True)


_BATCH: Batch | None = None
_BATCH_LOCK = threading.Lock()


def batch(java: str, memory_mb: int) -> Batch:
    """This process's batch JVM (a forked worker starts its own)."""
    global _BATCH
    with _BATCH_LOCK:
        if _BATCH is None or _BATCH.pid != os.getpid() or _BATCH.process.poll() is not None:
            _BATCH = Batch(java, memory_mb)
        return _BATCH


def shutdown() -> None:
    global _BATCH
    with _BATCH_LOCK:
        if _BATCH is not None:
            _BATCH.close()
            _BATCH = None


atexit.register(shutdown)


def classify(world, *, java: str, memory_mb: int, ignore_unsupported_datatypes: bool = False,
             classes_only: bool = False) -> None:
    """``owlready2.sync_reasoner_hermit(world, infer_property_values=False, debug=0,
    ignore_unsupported_datatypes=...)``: HermiT's command line with owlready2's arguments
    (``classes_only``: the class hierarchy alone, ``-c`` without ``-O -D -I``: no property
    hierarchies and no individuals' types, for a caller that reads only the classes; the same
    consistency verdict and class lines for the corpus's 123 axiom sets, 13 % less JVM CPU),
    in this process's batch JVM (or, with ``RULEKB_HERMIT_BATCH=0``, a JVM of its own),
    its output made :func:`canonical` and read back into the world the way owlready2 does.
    Raises owlready2's OwlReadyInconsistentOntologyError and OwlReadyJavaError as that
    function does."""
    import owlready2
    from owlready2 import reasoning as owl

    locked = world.graph.has_write_lock()
    if locked:
        world.graph.release_write_lock()  # not needed during reasoning (as owlready2 does)
    try:
        namespaces = owl.CURRENT_NAMESPACES.get()
        ontology = namespaces[-1].ontology if namespaces else world.get_ontology(owl._INFERRENCES_ONTOLOGY)
        tmp = tempfile.NamedTemporaryFile("wb", delete=False, suffix=".nt")
        try:
            world.save(tmp, format="ntriples", filter=lambda graph, s, p, o, d: p != owl.owl_imports)
            tmp.close()
            args = ["-c"] if classes_only else ["-c", "-O", "-D", "-I"]
            args.append("file:///%s" % tmp.name.replace("\\", "/"))
            if ignore_unsupported_datatypes:
                args.append("--ignoreUnsupportedDatatypes")
            if enabled():
                try:
                    ok, output = batch(java, memory_mb).run(args)
                except BatchError as error:
                    shutdown()
                    raise owlready2.OwlReadyJavaError(f"HermiT (batch JVM): {error}") from error
            else:
                ok, output = _run_alone(java, memory_mb, args)
        finally:
            tmp.close()
            os.unlink(tmp.name)
        if not ok:
            if "Inconsistent ontology" in output:
                raise owlready2.OwlReadyInconsistentOntologyError()
            raise owlready2.OwlReadyJavaError("Java error message is:\n%s" % output)
        new_parents, new_equivs, entity_2_type = _taxonomy(ontology, canonical(output))
    finally:
        if locked:
            world.graph.acquire_write_lock()
    owl._apply_reasoning_results(world, ontology, 0, new_parents, new_equivs, entity_2_type)


def _run_alone(java: str, memory_mb: int, args: list[str]) -> tuple[bool, str]:
    """HermiT's command line in a JVM of its own (what owlready2 runs): (ok, what it printed)."""
    from owlready2.reasoning import _decode

    command = [java, f"-Xmx{memory_mb}M", "-cp", os.pathsep.join(_classpath()),
               "org.semanticweb.HermiT.cli.CommandLine", *args]
    try:
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    except OSError as error:
        raise BatchError(f"cannot start {java}: {error}") from error
    return done.returncode == 0, _decode(done.stdout).replace("\r", "")


def canonical(output: str) -> str:
    """HermiT's printed taxonomy with every node named by one fixed member.

    HermiT prints each node of its class hierarchy (a set of equivalent classes) under a
    representative (``HierarchyNode.getRepresentative()``) that depends on the JVM's
    identity hash codes: two JVMs may name the same node by different members, and
    owlready2 reads a different hierarchy from the two printings (the members'
    ``is_a`` go to whichever was printed first). Here each node is named by its
    smallest IRI (``owl:Thing`` and ``owl:Nothing`` first, as HermiT keeps them), its
    ``EquivalentClasses`` line (or properties') lists that member first and the others
    sorted, and every ``SubClassOf`` (``Sub*PropertyOf``, ``Type``) line names nodes that
    way; the lines are sorted. The hierarchy is
    HermiT's; only its printing no longer depends on the JVM."""
    from owlready2 import reasoning as owl

    found = owl._HERMIT_RESULT_REGEXP.findall(output)
    members: dict[str, tuple[str, ...]] = {}
    for relation, iris in found:
        if relation in owl._EQUIV_RELATIONS:
            group = iris[1:-1].split("> <")
            node = tuple(sorted(group, key=_member_order))
            for iri in group:
                members[iri] = tuple(sorted(set(members.get(iri, ())) | set(node), key=_member_order))
    name = {iri: group[0] for iri, group in members.items()}
    lines = set()
    for relation, iris in found:
        group = iris[1:-1].split("> <")
        if relation in owl._EQUIV_RELATIONS:
            group = members[group[0]]
        elif relation in owl._IS_A_RELATIONS:  # SubClassOf, Sub*PropertyOf, Type: nodes by their names
            group = [name.get(iri, iri) for iri in group]
        lines.add(f"{relation}( " + " ".join(f"<{iri}>" for iri in group) + " )")
    return "\n".join(sorted(lines)) + "\n"


def _member_order(iri: str) -> tuple[int, str]:
    return (0 if iri.startswith("http://www.w3.org/2002/07/owl#") else 1, iri)


def _taxonomy(ontology, output: str):
    """HermiT's printed taxonomy as owlready2 reads it (owlready2.reasoning.sync_reasoner_hermit)."""
    from collections import defaultdict

    from owlready2 import reasoning as owl

    new_parents, new_equivs, entity_2_type = defaultdict(list), defaultdict(list), {}
    for relation, concept_iris in owl._HERMIT_RESULT_REGEXP.findall(output):
        concept_storids = [ontology._abbreviate(x) for x in concept_iris[1:-1].split("> <")]
        owl_relation = owl._HERMIT_2_OWL[relation]
        if relation in owl._IS_A_RELATIONS:
            if concept_iris[0].startswith("http://www.w3.org/2002/07/owl"):
                continue
            new_parents[concept_storids[0]].append(concept_storids[1])
            entity_2_type[concept_storids[0]] = owl._OWL_2_TYPE[owl_relation]
        elif relation in owl._EQUIV_RELATIONS:
            if "http://www.w3.org/2002/07/owl#Nothing" in concept_iris:
                for concept_iri, concept_storid in zip(concept_iris, concept_storids):
                    if concept_iri.startswith("http://www.w3.org/2002/07/owl") or concept_storid == owl.owl_nothing:
                        continue
                    new_equivs[concept_storid].append(owl.owl_nothing)
                    entity_2_type[concept_storid] = owl._OWL_2_TYPE[owl_relation]
            else:
                for concept_iri1, concept_storid1 in zip(concept_iris, concept_storids):
                    if concept_iri1.startswith("http://www.w3.org/2002/07/owl"):
                        continue
                    for concept_iri2, concept_storid2 in zip(concept_iris, concept_storids):
                        if concept_iri1 == concept_iri2:
                            continue
                        new_equivs[concept_storid1].append(concept_storid2)
                        entity_2_type[concept_storid1] = owl._OWL_2_TYPE[owl_relation]
    return new_parents, new_equivs, entity_2_type

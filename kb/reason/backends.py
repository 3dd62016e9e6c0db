"""Reasoning and validation over the ontology and knowledge-base graphs.

- ``check_consistency``: HermiT (through owlready2, in a fresh World each time) says
  whether a graph is consistent and which named classes subsume which; on an
  inconsistency, Pellet's explanation names the clashing axioms. Both need Java.
- ``dl_profile_violations``: the OWL 2 DL profile check of the OWL API bundled in
  HermiT's jar (what Protégé would complain about). Needs a JDK 11+.
- ``pellet_explanations``: Pellet's justifications (subsumption, disjointness,
  unsatisfiability, inconsistency) for many questions in one JVM, each axiom named by
  the identifier annotation it carries (kb.reason.axioms annotates every axiom).
- ``materialise_rl``: OWL 2 RL materialisation with owlrl, pure Python.
- ``check_shapes``: SHACL validation (pyshacl) against ``ontology/shapes.ttl``.
"""

from __future__ import annotations

from importlib import resources
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from rdflib import RDF, Graph, Literal, Namespace, URIRef

from ..errors import KBError, ReasonerError  # noqa: F401  (ReasonerError's old home)
from ..hermit import JVM_OPTIONS, launch
from ..json_cache import cache_dir  # noqa: F401  (its old home)

HERMIT_NEEDS_JAVA = "HermiT needs Java (install a JRE 11+)"
MIN_JAVA = 11
JAVA_MEMORY_MB = 2000
_OWL_THING = "http://www.w3.org/2002/07/owl#Thing"
_OWL_NOTHING = "http://www.w3.org/2002/07/owl#Nothing"
# owlrl writes the inconsistencies it finds as triples in this namespace.
_OWLRL_ERRORS = Namespace("http://www.daml.org/2002/03/agents/agent-ont#")




class JavaMissingError(ReasonerError):
    def __init__(self, detail: str = "") -> None:
        super().__init__(HERMIT_NEEDS_JAVA + (f": {detail}" if detail else ""))


# ---------------------------------------------------------------- Java


def java_executable() -> str | None:
    """The ``java`` to run: ``RULEKB_JAVA``, else a path given to owlready2
    (``owlready2.JAVA_EXE = "/opt/jdk/bin/java"``), else ``$JAVA_HOME/bin/java`` if it
    exists, else the one on PATH. An explicit choice is used as given, even if it does
    not run: a wrong setting must not silently fall back to another Java."""
    if explicit := os.environ.get("RULEKB_JAVA"):
        return explicit
    owlready2 = sys.modules.get("owlready2")
    configured = getattr(owlready2, "JAVA_EXE", "java") if owlready2 else "java"
    if configured and os.sep in str(configured):
        return str(configured)
    home = os.environ.get("JAVA_HOME")
    if home and (candidate := Path(home) / "bin" / "java").is_file():
        return str(candidate)
    return shutil.which("java")


def java_version(java: str) -> int | None:
    """The major version of ``java`` (8 for "1.8.0_x", 17 for "17.0.15"), or None if it does not run.

    Known once per process for the same file (its path, inode, size and time): every HermiT
    and Pellet run asks, and each ``java -version`` is a JVM start (about 0.1 s of CPU, 12 s
    over a first build's 123 axiom sets)."""
    try:
        found = Path(shutil.which(java) or java).resolve().stat()
    except (OSError, ValueError):
        return _java_version(java)  # not a file here: ask, and let it fail (never remembered)
    key = (str(java), found.st_ino, found.st_size, found.st_mtime_ns)
    if key not in _JAVA_VERSIONS:
        _JAVA_VERSIONS[key] = _java_version(java)
    return _JAVA_VERSIONS[key]


_JAVA_VERSIONS: dict[tuple, int | None] = {}


def _java_version(java: str) -> int | None:
    try:
        done = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.search(r'version "(\d+)(?:\.(\d+))?', done.stderr + done.stdout)
    if done.returncode != 0 or not found:
        return None
    major = int(found.group(1))
    return int(found.group(2) or 0) if major == 1 else major


def java_available() -> bool:
    """True when a Java 11+ runtime is there for HermiT."""
    java = java_executable()
    return java is not None and (java_version(java) or 0) >= MIN_JAVA


def _require_java() -> str:
    java = java_executable()
    if java is None:
        raise JavaMissingError("no java on PATH or in JAVA_HOME")
    version = java_version(java)
    if version is None:
        raise JavaMissingError(f"{java} does not run")
    if version < MIN_JAVA:
        raise JavaMissingError(f"{java} is version {version}")
    return java


# ---------------------------------------------------------------- graphs in, files out


def _as_graph(source: Graph | str) -> Graph:
    """A plain Graph from a Graph, a Dataset (all its graphs merged) or Turtle text."""
    if isinstance(source, str):
        return Graph().parse(data=source, format="turtle")
    if source.context_aware:  # a Dataset or ConjunctiveGraph: merge its named graphs
        merged = Graph()
        for s, p, o, _ in source.quads((None, None, None, None)):
            merged.add((s, p, o))
        return merged
    return source


def _write(graph: Graph, path: Path, rdf_format: str) -> Path:
    graph.serialize(path, format=rdf_format, encoding="utf-8")
    return path


# ---------------------------------------------------------------- HermiT


@dataclass(frozen=True)
class ConsistencyResult:
    consistent: bool
    # Entailed subsumptions between named classes, as (subclass IRI, superclass IRI);
    # owl:Thing and reflexive pairs left out. Empty when inconsistent.
    subsumptions: frozenset[tuple[str, str]] = frozenset()
    # Named classes that can have no instance (equivalent to owl:Nothing).
    unsatisfiable: tuple[str, ...] = ()
    error: str | None = None  # why it is inconsistent (Pellet's explanation when it can give one)
    seconds: float = 0.0  # time HermiT took (JVM start included)

    def entails_subclass(self, sub: str, sup: str) -> bool:
        return (str(sub), str(sup)) in self.subsumptions

    def superclasses(self, iri: str) -> set[str]:
        return {sup for sub, sup in self.subsumptions if sub == str(iri)}


def check_consistency(source: Graph | str, *, ignore_unsupported_datatypes: bool = False,
                      explain: bool = True) -> ConsistencyResult:
    """Run HermiT on a graph (or Turtle text): consistent or not, and the class hierarchy it entails.

    owlready2 cannot read Turtle, so the graph goes through an N-Triples file; a fresh
    owlready2 World per call keeps runs independent. Raises JavaMissingError without
    Java and ReasonerError when HermiT fails for another reason. HermiT knows only the
    OWL 2 datatypes: KB data with xsd:date values (rk:effectiveDate) needs
    ``ignore_unsupported_datatypes=True``, which makes HermiT skip those literals.
    ``explain=False`` skips Pellet's explanation of an inconsistency (a JVM start).
    """
    import owlready2

    java = _require_java()
    graph = _as_graph(source)
    with tempfile.TemporaryDirectory(prefix="rulekb-hermit-") as tmp:
        triples = _write(graph, Path(tmp) / "input.nt", "nt")
        world = owlready2.World()
        previous_java = owlready2.JAVA_EXE  # restored: a path set here is not the user's setting
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                world.get_ontology(triples.as_uri()).load(format="ntriples")
            owlready2.JAVA_EXE = java
            owlready2.reasoning.JAVA_MEMORY = JAVA_MEMORY_MB
            started = time.perf_counter()
            try:
                with _temporary_files_in(tmp):
                    from ..hermit import classify  # owlready2's HermiT run, in one JVM per process

                    # the result is the classes' hierarchy and the unsatisfiable classes: nothing
                    # of the properties' hierarchies or the individuals' types (-O -D -I) is read
                    classify(world, java=java, memory_mb=JAVA_MEMORY_MB,
                             ignore_unsupported_datatypes=ignore_unsupported_datatypes, classes_only=True)
            except owlready2.OwlReadyInconsistentOntologyError:
                seconds = time.perf_counter() - started
                error = _explain_inconsistency(java, triples) if explain else "HermiT: the ontology is inconsistent"
                return ConsistencyResult(False, error=error, seconds=seconds)
            except owlready2.OwlReadyJavaError as error:
                raise ReasonerError(f"HermiT failed: {error}") from error
            seconds = time.perf_counter() - started
            return ConsistencyResult(
                True,
                subsumptions=frozenset(_named_subsumptions(world)),
                unsatisfiable=tuple(sorted(c.iri for c in world.inconsistent_classes() if c.iri != _OWL_NOTHING)),
                seconds=seconds,
            )
        finally:
            owlready2.JAVA_EXE = previous_java
            world.close()


@contextmanager
def _temporary_files_in(directory: str) -> Iterator[None]:
    """Point ``tempfile`` at our directory: owlready2 leaves its input file behind when
    HermiT fails or finds an inconsistency, and this way it goes with the directory."""
    previous = tempfile.tempdir
    tempfile.tempdir = directory
    try:
        yield
    finally:
        tempfile.tempdir = previous


def _named_subsumptions(world) -> set[tuple[str, str]]:
    pairs = set()
    for cls in world.classes():
        for ancestor in cls.ancestors(include_self=False):
            if hasattr(ancestor, "iri") and ancestor.iri != _OWL_THING:
                pairs.add((cls.iri, ancestor.iri))
    return pairs


def _explain_inconsistency(java: str, triples: Path) -> str:
    """Pellet's explanation of an inconsistency: the axioms that clash, one per line."""
    import owlready2

    pellet = Path(owlready2.__file__).parent / "pellet"
    classpath = os.pathsep.join([str(pellet), *(str(jar) for jar in sorted(pellet.glob("*.jar")))])
    command = [java, f"-Xmx{JAVA_MEMORY_MB}M", "-cp", classpath, "pellet.Pellet"]
    command += ["explain", "--inconsistent", triples.as_uri()]
    headline = "HermiT: the ontology is inconsistent"
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.SubprocessError) as error:
        return f"{headline} (no explanation: {error})"
    explanation = done.stdout.partition("Explanation(s):")[2].strip()
    if done.returncode != 0 or not explanation:
        return f"{headline} (Pellet gave no explanation)"
    return f"{headline}. Axioms that clash (Pellet):\n{explanation}"


# ---------------------------------------------------------------- OWL 2 DL profile


def _java(name: str) -> str:
    """A Java program of ours, package data (``java/NAME``) beside this module."""
    return resources.files(__package__).joinpath("java", name).read_text(encoding="utf-8")


_DL_CHECK = _java("DLProfileCheck.java")


def dl_profile_violations(source: Graph | str) -> list[str]:
    """The OWL 2 DL profile violations of a graph (empty: it is OWL 2 DL), per the OWL API in HermiT's jar.

    Runs a small Java source file (Java 11+ source launch, so it needs a JDK's compiler).
    """
    import owlready2

    java = _require_java()
    jar = Path(owlready2.__file__).parent / "hermit" / "HermiT.jar"
    graph = _as_graph(source)
    with tempfile.TemporaryDirectory(prefix="rulekb-dl-") as tmp:
        rdfxml = _write(graph, Path(tmp) / "input.owl", "xml")
        program = Path(tmp) / "DLProfileCheck.java"
        program.write_text(_DL_CHECK, encoding="utf-8")
        done = subprocess.run(
            [java, "-cp", str(jar), str(program), str(rdfxml)], capture_output=True, text=True, timeout=300
        )
    lines = done.stdout.splitlines()
    if done.returncode != 0 or "DONE" not in lines:
        raise ReasonerError(
            "the OWL 2 DL profile check could not run (it needs a JDK 11+ to launch a .java file): "
            + (done.stderr.strip() or done.stdout.strip())[:2000]
        )
    return sorted(line.removeprefix("VIOLATION ") for line in lines if line.startswith("VIOLATION "))


# ---------------------------------------------------------------- Pellet explanations

# One JVM answers every question about one graph: why C is a subclass of D, why C and
# D are disjoint (C and D unsatisfiable), why C is unsatisfiable, why the whole is
# inconsistent. Each axiom of an explanation is printed with the dcterms:identifier
# annotation it carries in the input (kb.reason.axioms gives every axiom one), so callers map
# Pellet's answer back to the statements the axioms came from.
_EXPLAIN = _java("RulekbExplain.java")


@dataclass(frozen=True)
class ExplainedAxiom:
    id: str | None  # the axiom's dcterms:identifier in the input, None if it has none
    text: str  # Pellet's rendering (Manchester syntax)


def pellet_explanations(source: Graph | str, queries: list[str]) -> dict[str, list[ExplainedAxiom] | None]:
    """Pellet's explanation of each query, in one JVM: ``"sub C D"``, ``"disjoint C D"``,
    ``"unsat C"`` (C, D class IRIs) or ``"inconsistent"``. A query maps to the axioms
    that justify it (empty: not entailed), or None when Pellet failed on it."""
    import owlready2

    java = _require_java()
    pellet = Path(owlready2.__file__).parent / "pellet"
    classpath = [str(pellet), *(str(jar) for jar in sorted(pellet.glob("*.jar")))]
    with tempfile.TemporaryDirectory(prefix="rulekb-pellet-") as tmp:
        rdfxml = _write(_as_graph(source), Path(tmp) / "input.owl", "xml")
        questions = Path(tmp) / "queries.txt"
        questions.write_text("\n".join(queries) + "\n", encoding="utf-8")
        # a Pellet run is one short explanation in a fresh JVM: HermiT's batch JVM options (C1
        # alone, the serial collector) cost it less CPU than C2's compiling and G1
        command = launch.command(java, "RulekbExplain", _EXPLAIN, classpath, [f"-Xmx{JAVA_MEMORY_MB}M", *JVM_OPTIONS], tmp)
        done = subprocess.run(command + [str(rdfxml), str(questions)], capture_output=True, text=True, timeout=600)
    answers: dict[str, list[ExplainedAxiom] | None] = {}
    current = None
    for line in done.stdout.splitlines():
        if line.startswith("QUERY "):
            current = line[6:]
            answers[current] = []
        elif line.startswith("AXIOM ") and current is not None and answers[current] is not None:
            name, _, text = line[6:].partition(" ")
            answers[current].append(ExplainedAxiom(None if name == "-" else name, text))
        elif line.startswith("ERROR ") and current is not None:
            answers[current] = None
    if not answers and queries:
        raise ReasonerError("Pellet explanations could not run: " + (done.stderr.strip() or done.stdout.strip())[-2000:])
    return answers


# ---------------------------------------------------------------- OWL 2 RL

_REFLEXIVE = {
    URIRef("http://www.w3.org/2002/07/owl#sameAs"),
    URIRef("http://www.w3.org/2002/07/owl#equivalentClass"),
    URIRef("http://www.w3.org/2002/07/owl#equivalentProperty"),
    URIRef("http://www.w3.org/2000/01/rdf-schema#subClassOf"),
    URIRef("http://www.w3.org/2000/01/rdf-schema#subPropertyOf"),
}


@dataclass
class RLResult:
    graph: Graph  # the input triples plus everything OWL 2 RL entails
    inferred: int  # how many triples were added
    errors: list[str] = field(default_factory=list)  # inconsistencies found (e.g. an individual in disjoint classes)

    @property
    def consistent(self) -> bool:
        return not self.errors


def materialise_rl(source: Graph | str) -> RLResult:
    """The OWL 2 RL closure of a graph (owlrl), leaving the input untouched.

    Merge the ontology in first (``ontology.graph() + data``) to apply its axioms to
    data. owlrl's trivial "x sameAs x" / "C subClassOf C" triples are dropped, and the
    inconsistencies it records as triples are returned as ``errors`` instead.
    """
    import owlrl

    closure = Graph()
    for triple in _as_graph(source):
        closure.add(triple)
    before = set(closure)
    owlrl.DeductiveClosure(owlrl.OWLRL_Semantics, axiomatic_triples=False, datatype_axioms=False).expand(closure)
    errors = []
    for report in list(closure.subjects(RDF.type, _OWLRL_ERRORS.ErrorMessage)):
        errors += [str(message) for message in closure.objects(report, _OWLRL_ERRORS.error)]
        closure.remove((report, None, None))
    for s, p, o in list(closure):
        if s == o and p in _REFLEXIVE and (s, p, o) not in before:
            closure.remove((s, p, o))
    return RLResult(closure, len(closure) - len(before), sorted(errors))


# ---------------------------------------------------------------- SHACL

_SH = Namespace("http://www.w3.org/ns/shacl#")


@dataclass(frozen=True)
class Violation:
    focus: str  # the node that breaks the shape
    path: str | None  # the property concerned, when there is one
    message: str
    severity: str  # Violation | Warning | Info
    value: str | None = None  # the offending value, when there is one


@dataclass(frozen=True)
class ShapesResult:
    conforms: bool
    violations: tuple[Violation, ...]
    text: str  # pyshacl's own report, for people


def check_shapes(source: Graph | str, shapes: Graph | None = None) -> ShapesResult:
    """Validate a knowledge-base graph against the SHACL shapes (default: ontology/shapes.ttl)."""
    import pyshacl

    from rulekb import ontology

    conforms, report, text = pyshacl.validate(
        _as_graph(source), shacl_graph=shapes if shapes is not None else ontology.shapes_graph(), inference="none"
    )
    violations = []
    for result in report.subjects(RDF.type, _SH.ValidationResult):
        value = report.value(result, _SH.value)
        path = report.value(result, _SH.resultPath)
        violations.append(
            Violation(
                focus=str(report.value(result, _SH.focusNode)),
                path=str(path) if isinstance(path, URIRef) else None,
                message=str(report.value(result, _SH.resultMessage) or ""),
                severity=str(report.value(result, _SH.resultSeverity)).rpartition("#")[2],
                value=str(value) if isinstance(value, (URIRef, Literal)) else None,
            )
        )
    violations.sort(key=lambda v: (v.focus, v.path or "", v.message))
    return ShapesResult(bool(conforms), tuple(violations), text)

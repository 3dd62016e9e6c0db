"""Generate ``kb/rdf/vocab.py``, the closed Python vocabulary of the rk: namespace, from the ontology.

    python -m rulekb.kb.rdf.vocabgen            # (re)write kb/rdf/vocab.py from ontology/rulekb.ttl
    python -m rulekb.kb.rdf.vocabgen --check    # exit 1, with a diff, when kb/rdf/vocab.py is stale

The ontology Turtle is the one place terms are edited; ``kb/rdf/vocab.py`` is never
edited by hand. Every rk: IRI the ontology uses must be declared there as exactly
one kind (class, object / datatype / annotation property, named individual):
anything else is an error here, so a typo cannot reach the vocabulary.
"""

from __future__ import annotations

import argparse
import difflib
import keyword
import sys
from dataclasses import dataclass
from pathlib import Path

from rdflib import OWL, RDF, RDFS, SKOS, Graph, Literal, URIRef
from rdflib.namespace import DefinedNamespaceMeta

from rulekb import ontology

from ..errors import KBError

NAMESPACE = "https://w3id.org/rulekb#"
VOCAB_FILE = Path(__file__).with_name("vocab.py")

# Section order in the generated file, and the heading of each (plural, singular).
KINDS: dict[URIRef, tuple[str, str]] = {
    OWL.Class: ("Classes", "class"),
    OWL.ObjectProperty: ("Object properties", "object property"),
    OWL.DatatypeProperty: ("Datatype properties", "datatype property"),
    OWL.AnnotationProperty: ("Annotation properties", "annotation property"),
    OWL.NamedIndividual: ("Individuals", "individual"),
}


class VocabularyError(KBError, ValueError):
    """The ontology cannot give a clean vocabulary (undeclared or ambiguous rk: term)."""


@dataclass(frozen=True)
class Term:
    name: str
    kind: URIRef
    comment: str


def _english(graph: Graph, subject: URIRef, predicate: URIRef) -> str | None:
    for value in graph.objects(subject, predicate):
        if isinstance(value, Literal) and value.language == "en":
            return " ".join(str(value).split())
    return None


def _comment(graph: Graph, iri: URIRef, kind: URIRef) -> str:
    comment = _english(graph, iri, RDFS.comment)
    if kind != OWL.NamedIndividual:
        if comment is None:
            raise VocabularyError(f"{iri} has no English rdfs:comment")
        return comment
    # An individual reads best as "zone: exile", then its comment if it has one.
    label = _english(graph, iri, SKOS.prefLabel) or _english(graph, iri, RDFS.label) or ""
    classes = sorted(c for c in graph.objects(iri, RDF.type) if c != OWL.NamedIndividual)
    kind_label = next((x for x in (_english(graph, c, RDFS.label) for c in classes) if x), "individual")
    return f"{kind_label}: {label}" + (f". {comment}" if comment else "")


def terms(graph: Graph) -> list[Term]:
    """Every rk: term the ontology declares, in generated-file order."""
    declared: dict[URIRef, set[URIRef]] = {}
    used: set[URIRef] = set()
    for s, p, o in graph:
        for node in (s, p, o):
            if isinstance(node, URIRef) and node.startswith(NAMESPACE):
                used.add(node)
        if p == RDF.type and o in KINDS and isinstance(s, URIRef) and s.startswith(NAMESPACE):
            declared.setdefault(s, set()).add(o)
    if undeclared := sorted(used - declared.keys()):
        raise VocabularyError("rk: terms used but not declared: " + ", ".join(undeclared))
    result = []
    for iri, kinds in declared.items():
        if len(kinds) != 1:
            raise VocabularyError(f"{iri} is declared as several kinds: {sorted(kinds)}")
        name = iri[len(NAMESPACE):]
        # A name the metaclass already has (e.g. "mro") would shadow the term.
        shadowed = hasattr(DefinedNamespaceMeta, name)
        if not name.isidentifier() or keyword.iskeyword(name) or name.startswith("_") or shadowed:
            raise VocabularyError(f"{iri}: {name!r} cannot be a Python attribute")
        (kind,) = kinds
        result.append(Term(name, kind, _comment(graph, iri, kind)))
    order = list(KINDS)
    return sorted(result, key=lambda t: (order.index(t.kind), t.name.lower(), t.name))


def render(graph: Graph) -> str:
    """The text of kb/rdf/vocab.py for this ontology graph."""
    ontology_iri = next(iter(graph.subjects(RDF.type, OWL.Ontology)))
    version = str(graph.value(ontology_iri, OWL.versionInfo))
    version_iri = str(graph.value(ontology_iri, OWL.versionIRI))
    all_terms = terms(graph)
    counted = ((sum(t.kind == kind for t in all_terms), names) for kind, names in KINDS.items())
    counts = ", ".join(f"{n} {plural.lower() if n != 1 else singular}" for n, (plural, singular) in counted)
    lines = [
        '"""The rk: vocabulary (https://w3id.org/rulekb#) as a closed rdflib namespace.',
        "",
        "GENERATED from ontology/rulekb.ttl by `python -m rulekb.kb.rdf.vocabgen`: do not edit by hand;",
        "edit the Turtle and regenerate (a test fails while this file is stale).",
        '"""',
        "",
        "from rdflib.namespace import DefinedNamespace, Namespace",
        "from rdflib.term import URIRef",
        "",
        f'NAMESPACE = "{NAMESPACE}"',
        f'ONTOLOGY_IRI = "{ontology_iri}"',
        f'VERSION_IRI = "{version_iri}"',
        f'VERSION = "{version}"',
        "",
        "",
        "class RK(DefinedNamespace):",
        f'    """rulekb ontology {version}: {counts}.',
        "",
        "    Closed: an attribute that is not a term of the ontology raises AttributeError.",
        '    """',
        "",
        "    _fail = True",
        "    _NS = Namespace(NAMESPACE)",
    ]
    for kind, (heading, _) in KINDS.items():
        lines += ["", f"    # {heading}"]
        lines += [f"    {t.name}: URIRef  # {t.comment}" for t in all_terms if t.kind == kind]
    return "\n".join(lines) + "\n"


def _diff(old: str, new: str, path: Path) -> str:
    lines = difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True), f"{path} (current)", f"{path} (from the ontology)"
    )
    return "".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rulekb.kb.rdf.vocabgen", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="do not write; exit 1 with a diff when the file is stale")
    parser.add_argument("--ontology", type=Path, help="Turtle to read (default: the packaged ontology/rulekb.ttl)")
    parser.add_argument("--output", type=Path, default=VOCAB_FILE, help="file to write or check (default: kb/rdf/vocab.py)")
    args = parser.parse_args(argv)

    text = args.ontology.read_text(encoding="utf-8") if args.ontology else ontology.turtle()
    try:
        generated = render(Graph().parse(data=text, format="turtle"))
    except VocabularyError as error:
        print(f"vocabgen: {error}", file=sys.stderr)
        return 2
    current = args.output.read_text(encoding="utf-8") if args.output.exists() else ""
    if args.check:
        if current == generated:
            return 0
        print(_diff(current, generated, args.output), end="")
        print(f"{args.output} is stale: run `python -m rulekb.kb.rdf.vocabgen`", file=sys.stderr)
        return 1
    if current != generated:
        args.output.write_text(generated, encoding="utf-8")
        print(f"wrote {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

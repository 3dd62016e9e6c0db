"""kb.store.shacl_fast: the shapes' ``sh:or`` over bare ``sh:class`` members, answered in one
lookup, reports what pyshacl's own ``sh:or`` reports -- each such constraint of
ontology/shapes.ttl violated once here, beside values that conform (a subclass's instance
among them) and ``sh:or`` constraints of other kinds, which pyshacl's own code still checks."""

from __future__ import annotations

import pytest
import rdflib

from rulekb.ontology import shapes

SH = rdflib.Namespace("http://www.w3.org/ns/shacl#")

DATA = """
@prefix rk: <https://w3id.org/rulekb#> . @prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> . @prefix ex: <http://x/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .

ex:part a rk:Part ; rk:number "1" .
ex:section a rk:Section ; rk:number "111" ; rk:parent ex:part .
ex:example a rk:Example ; rk:text "Example: a token."@en .
ex:entry a rk:GlossaryEntry ; rk:term "Token"@en ; rk:definition "A marker."@en .
ex:KindOfRule rdfs:subClassOf rk:Rule .

ex:fine a rk:Rule ; rk:number "111.1" ; rk:order 1 ; rk:parent ex:section ; rk:hasCitation ex:c1 .
ex:c1 rk:citedText "rule 111" ; rk:citationTarget ex:section , ex:part .
ex:sub a ex:KindOfRule ; rk:number "111.2" ; rk:order 2 ; rk:parent ex:fine .
ex:underSub a rk:Rule ; rk:number "111.2a" ; rk:order 3 ; rk:parent ex:sub .

# a rule whose parent is a glossary entry; its citation's target an example
ex:badParent a rk:Rule ; rk:number "111.3" ; rk:order 4 ; rk:parent ex:entry ; rk:hasCitation ex:c2 .
ex:c2 rk:citedText "rule 111.9" ; rk:citationTarget ex:example .
# a glossary entry citing a target of no type, and a citation whose target is a literal
ex:citing a rk:GlossaryEntry ; rk:term "Gadget"@en ; rk:definition "See rule 111.9."@en ;
    rk:hasCitation ex:c3 , ex:c4 .
ex:c3 rk:citedText "rule 111.9" ; rk:citationTarget ex:nothing .
ex:c4 rk:citedText "rule 111.8" ; rk:citationTarget "111.8" .

ex:token a skos:Concept ; skos:prefLabel "token"@en ; rk:definedBy ex:entry , ex:fine , ex:sub .
ex:card a skos:Concept ; skos:prefLabel "card"@en ; rk:definedBy ex:section .

# an sh:or of another kind (a member with a path): a statement that names no rule
ex:said rk:aspect "owner" ; rk:negated false ; rk:aboutConcept ex:token .
ex:statement a rk:Statement ; rk:statementContent ex:said .
"""

# (focus, path, the shape's message) of every sh:or result the data above must give
EXPECTED = {
    ("http://x/badParent", "https://w3id.org/rulekb#parent",
     "A rule has exactly one rk:parent: a rule, a section or a part."),
    ("http://x/badParent", "path",
     "A citation resolves to a rule, a section or a part (rk:citationTarget; rk:references, implied by it, is not stored)."),
    ("http://x/citing", "path",
     "A citation resolves to a rule, a section or a part (rk:citationTarget; rk:references, implied by it, is not stored)."),
    ("http://x/c2", "https://w3id.org/rulekb#citationTarget",
     "A citation's targets (one per resolved number: 'rules 510.1c-d' names two) are rules, sections or parts."),
    ("http://x/c3", "https://w3id.org/rulekb#citationTarget",
     "A citation's targets (one per resolved number: 'rules 510.1c-d' names two) are rules, sections or parts."),
    ("http://x/c4", "https://w3id.org/rulekb#citationTarget",
     "A citation's targets (one per resolved number: 'rules 510.1c-d' names two) are rules, sections or parts."),
    ("http://x/card", "https://w3id.org/rulekb#definedBy",
     "rk:definedBy links a concept to a rule or a glossary entry."),
    ("http://x/statement", None,
     "A statement a rule makes names that rule (rk:statedIn); only an inferred statement has none."),
}


def _results(report) -> list[tuple]:
    """Every validation result as comparable strings (a sequence path as "path")."""
    out = []
    for result in report.subjects(rdflib.RDF.type, SH.ValidationResult):
        path = report.value(result, SH.resultPath)
        out.append((str(report.value(result, SH.focusNode)),
                    None if path is None else ("path" if isinstance(path, rdflib.BNode) else str(path)),
                    str(report.value(result, SH.resultMessage)), str(report.value(result, SH.value)),
                    str(report.value(result, SH.sourceConstraintComponent))))
    return sorted(out)


def _as_it_comes(patch) -> None:
    """pyshacl's own sh:or component and list of parameters, for the length of ``patch``."""
    import pyshacl.shape
    from pyshacl.constraints import ALL_CONSTRAINT_PARAMETERS, CONSTRAINT_PARAMETERS_MAP
    from pyshacl.constraints.core.logical_constraints import SH_or, OrConstraintComponent

    patch.setitem(CONSTRAINT_PARAMETERS_MAP, SH_or, OrConstraintComponent)
    patch.setattr(pyshacl.shape, "CONSTRAINT_PARAMS", (ALL_CONSTRAINT_PARAMETERS, CONSTRAINT_PARAMETERS_MAP))


def test_the_parameters_are_pyshacls_list_with_a_sets_in():
    import pyshacl.shape
    from pyshacl.constraints import ALL_CONSTRAINT_PARAMETERS

    from rulekb.kb.store import shacl_fast

    shacl_fast.install()
    found, _ = pyshacl.shape.CONSTRAINT_PARAMS
    assert found == ALL_CONSTRAINT_PARAMETERS and type(found.copy()) is list
    assert all(p in found for p in ALL_CONSTRAINT_PARAMETERS)
    assert rdflib.URIRef("http://www.w3.org/ns/shacl#class") in found
    assert rdflib.URIRef("http://x/p") not in found and rdflib.Literal(str(SH["class"])) not in found


def _validate(data):
    from rulekb.kb.store.validate import _validate_own

    shape_graph = rdflib.Graph().parse(data=shapes(), format="turtle")
    return _validate_own(data, shape_graph, set(data.subjects()))


def test_each_sh_or_of_classes_reports_what_pyshacl_reports(monkeypatch):
    from pyshacl.constraints import CONSTRAINT_PARAMETERS_MAP
    from pyshacl.constraints.core.logical_constraints import SH_or

    from rulekb.kb.store import shacl_fast as shacl_or

    data = rdflib.Graph().parse(data=DATA, format="turtle")
    conforms, report, _ = _validate(data)
    assert CONSTRAINT_PARAMETERS_MAP[SH_or] is shacl_or.ClassDisjunction
    ours = _results(report)
    ors = {(focus, path, message) for focus, path, message, _, component in ours
           if component == str(SH.OrConstraintComponent)}
    assert not conforms and ors == EXPECTED

    with monkeypatch.context() as patch:  # pyshacl's own sh:or and parameter list, as they come
        _as_it_comes(patch)
        patch.setattr(shacl_or, "install", lambda: None)
        _, theirs, _ = _validate(data)
    assert ours == _results(theirs)


@pytest.mark.parametrize("member", [
    "[ sh:class ex:A ]",  # a bare class: answered in one lookup
    "[ sh:class ex:A , ex:C ]",  # two classes: an instance of both
    "[ sh:class ex:A ; sh:nodeKind sh:IRI ]",  # another constraint beside the class: pyshacl's
    "[ sh:path ex:q ; sh:minCount 1 ]",  # a property shape: pyshacl's
    "[ sh:class ex:A ; sh:deactivated true ]",  # passes every value: pyshacl's
])
def test_any_sh_or_gives_the_results_pyshacl_gives(member, monkeypatch):
    from pyshacl import validate
    from pyshacl.constraints.core.logical_constraints import OrConstraintComponent

    from rulekb.kb.store import shacl_fast as shacl_or

    shape_graph = rdflib.Graph().parse(data=f"""
        @prefix sh: <http://www.w3.org/ns/shacl#> . @prefix ex: <http://x/> .
        ex:S a sh:NodeShape ; sh:targetClass ex:T ;
            sh:property [ sh:path ex:link ; sh:or ( {member} [ sh:class ex:B ] ) ; sh:message "a or b" ] .""",
                                       format="turtle")
    data = rdflib.Graph().parse(data="""
        @prefix ex: <http://x/> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
        ex:t a ex:T ; ex:link ex:a , ex:b , ex:c , ex:ac , ex:subA , ex:none , "text" .
        ex:a a ex:A . ex:b a ex:B . ex:c a ex:C . ex:ac a ex:A , ex:C ; ex:q 1 . ex:subA a ex:SubA .
        ex:SubA rdfs:subClassOf ex:A .""", format="turtle")

    def failing() -> list[tuple]:
        _, report, _ = validate(data, shacl_graph=shape_graph, inference="none")
        return _results(report)

    shacl_or.install()
    left = []  # the sh:or lists left to pyshacl's own code
    real = OrConstraintComponent._evaluate_or_constraint
    with monkeypatch.context() as patch:
        patch.setattr(OrConstraintComponent, "_evaluate_or_constraint", lambda *a: left.append(1) or real(*a))
        ours = failing()
    assert bool(left) == ("sh:class ex:A ]" not in member and "ex:C ]" not in member)
    with monkeypatch.context() as patch:
        _as_it_comes(patch)
        assert ours == failing()
    if "deactivated" in member:
        assert ours == []  # a deactivated member passes every value
    else:
        assert ("http://x/t", "http://x/link", "a or b", "http://x/none", str(SH.OrConstraintComponent)) in ours
        assert all(message == "a or b" for _, _, message, _, _ in ours)

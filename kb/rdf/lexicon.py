"""Labels of the ontology's game-concept layer, keyed by English concept key:
how glossary concepts get French labels and ``rk:denotes`` links, and how the
French statement reader maps French terms to English keys."""

from __future__ import annotations

from functools import cache

from . import concepts as concept_layer
from .vocab import RK


@cache
def ontology_labels() -> dict[str, dict[str, list[str]]]:
    """French labels of the ontology's game-concept layer, keyed by the concept
    key of the term's *preferred* English label: how French labels reach the
    glossary concepts. (English alternative labels such as "in play" stay out:
    they name older concepts of their own.)"""
    import rdflib
    from rdflib.namespace import OWL, RDF, RDFS, SKOS

    from rulekb.ontology import turtle

    graph = rdflib.Graph().parse(data=turtle(), format="turtle")
    out: dict[str, dict[str, list[str]]] = {}

    def labels(subject, props, lang):
        return [str(v) for p in props for v in graph.objects(subject, p)
                if isinstance(v, rdflib.Literal) and v.language == lang]

    preferred = (SKOS.prefLabel, RDFS.label)
    schema = {OWL.Class, OWL.ObjectProperty, OWL.DatatypeProperty}

    def rank(subject):  # a class or property names a concept before an individual does
        return (0 if set(graph.objects(subject, RDF.type)) & schema else 1, str(subject))

    subjects = set(graph.subjects(SKOS.prefLabel, None)) | set(graph.subjects(RDFS.label, None))
    for subject in sorted(subjects, key=rank):
        if not str(subject).startswith(str(RK)):
            continue
        french = list(dict.fromkeys(labels(subject, (*preferred, SKOS.altLabel, SKOS.hiddenLabel), "fr")))
        for english in labels(subject, preferred, "en"):
            out.setdefault(concept_layer.concept_key(english), {"fr": french, "denotes": [str(subject)]})
    return out

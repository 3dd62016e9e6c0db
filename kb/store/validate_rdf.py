"""N-Triples into an rdflib graph, parsed by pyoxigraph (for ``kb.store.validate``'s SHACL).

rdflib's N-Triples parser reads an edition (65,000 triples, 10 MB) in about ten
seconds; pyoxigraph parses it in a fraction of one, and the terms are then made
into rdflib's once each (IRIs repeat: a dictionary keeps them). The graph holds
the same terms the rdflib parser makes: plain literals without a datatype,
language-tagged ones with their tag, typed ones with theirs, a new blank node per label.
"""

from __future__ import annotations

import pyoxigraph as ox

XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"


def add_ntriples(graph, data: bytes) -> None:
    """Add the triples of ``data`` (N-Triples bytes) to the rdflib ``graph``."""
    from rdflib import BNode, Literal, URIRef

    made: dict = {}

    def term(t):
        found = made.get(t)
        if found is not None:
            return found
        if isinstance(t, ox.NamedNode):
            found = URIRef(t.value)
        elif isinstance(t, ox.BlankNode):
            found = BNode()  # a new node per label and call, as rdflib's parser makes
        elif t.language:
            found = Literal(t.value, lang=t.language)
        elif t.datatype.value == XSD_STRING:
            found = Literal(t.value)
        else:
            found = Literal(t.value, datatype=URIRef(t.datatype.value))
        made[t] = found
        return found

    graph.addN((term(t.subject), term(t.predicate), term(t.object), graph)
               for t in ox.parse(data, format=ox.RdfFormat.N_TRIPLES))

"""The answers of ``/sparql`` serialised: SPARQL results as JSON, XML, CSV or TSV;
graphs as Turtle, N-Triples, JSON-LD or RDF/XML (by pyoxigraph). Used in the
query workers (:mod:`kb.web.query_pool`) and for a remote store's answers."""

from __future__ import annotations

import csv
import io
import json
from xml.sax.saxutils import escape, quoteattr

import pyoxigraph as ox

from ..store.kind import RDF_FORMATS as STORE_RDF_FORMATS

# The graph formats served, by media type, taken from kb.store's table (one list of formats)
_SERVED_RDF = ("turtle", "nt", "jsonld", "xml")
RDF_FORMATS = {STORE_RDF_FORMATS[name].media_type: STORE_RDF_FORMATS[name] for name in _SERVED_RDF}


def _json_term(term) -> dict:
    if isinstance(term, ox.NamedNode):
        return {"type": "uri", "value": term.value}
    if isinstance(term, ox.BlankNode):
        return {"type": "bnode", "value": term.value}
    if isinstance(term, ox.Literal):
        out = {"type": "literal", "value": term.value}
        if term.language:
            out["xml:lang"] = term.language
        elif term.datatype.value != "http://www.w3.org/2001/XMLSchema#string":
            out["datatype"] = term.datatype.value
        return out
    # a quoted triple (RDF-star)
    return {"type": "triple", "value": {
        "subject": _json_term(term.subject), "predicate": _json_term(term.predicate), "object": _json_term(term.object)}}


def _xml_term(term) -> str:
    if isinstance(term, ox.NamedNode):
        return f"<uri>{escape(term.value)}</uri>"
    if isinstance(term, ox.BlankNode):
        return f"<bnode>{escape(term.value)}</bnode>"
    if isinstance(term, ox.Literal):
        if term.language:
            return f"<literal xml:lang={quoteattr(term.language)}>{escape(term.value)}</literal>"
        if term.datatype.value != "http://www.w3.org/2001/XMLSchema#string":
            return f"<literal datatype={quoteattr(term.datatype.value)}>{escape(term.value)}</literal>"
        return f"<literal>{escape(term.value)}</literal>"
    return (f"<triple><subject>{_xml_term(term.subject)}</subject><predicate>{_xml_term(term.predicate)}</predicate>"
            f"<object>{_xml_term(term.object)}</object></triple>")


def _csv_term(term) -> str:
    if term is None:
        return ""
    if isinstance(term, ox.BlankNode):
        return f"_:{term.value}"
    if isinstance(term, (ox.NamedNode, ox.Literal)):
        return term.value
    return str(term)


def serialize(result, media: str) -> bytes:
    """An evaluated query (:class:`kb.web.sparql.Evaluated`) in the media type chosen."""
    if result.kind == "boolean":
        word = "true" if result.boolean else "false"
        if media == "application/sparql-results+json":
            return json.dumps({"head": {}, "boolean": result.boolean}).encode()
        if media == "application/sparql-results+xml":
            return ('<?xml version="1.0"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#">\n'
                    f"<head/>\n<boolean>{word}</boolean>\n</sparql>\n").encode()
        return f"{word}\n".encode()  # CSV / TSV have no standard form for ASK
    if result.kind == "graph":
        return ox.serialize(result.rows, format=RDF_FORMATS[media]) or b""
    names, rows = result.variables, result.rows
    if media == "application/sparql-results+json":
        bindings = [{n: _json_term(t) for n, t in zip(names, row) if t is not None} for row in rows]
        return json.dumps({"head": {"vars": names}, "results": {"bindings": bindings}}, ensure_ascii=False).encode()
    if media == "application/sparql-results+xml":
        out = ['<?xml version="1.0"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#">\n<head>']
        out += [f"<variable name={quoteattr(n)}/>" for n in names]
        out.append("</head>\n<results>")
        for row in rows:
            cells = "".join(f"<binding name={quoteattr(n)}>{_xml_term(t)}</binding>" for n, t in zip(names, row) if t is not None)
            out.append(f"<result>{cells}</result>")
        out.append("</results>\n</sparql>\n")
        return "\n".join(out).encode()
    if media == "text/csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\r\n")
        writer.writerow(names)
        writer.writerows([_csv_term(t) for t in row] for row in rows)
        return buffer.getvalue().encode()
    # TSV: terms in their SPARQL / N-Triples syntax
    lines = ["\t".join(f"?{n}" for n in names)]
    lines += ["\t".join("" if t is None else str(t).replace("\t", "\\t") for t in row) for row in rows]
    return ("\n".join(lines) + "\n").encode()

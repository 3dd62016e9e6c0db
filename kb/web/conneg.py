"""Content negotiation, in one place: Accept headers with q-values, or a ``format=`` parameter.

:func:`negotiate` picks, among the media types a resource offers (in order of
preference), the one the client prefers; ``None`` means 406 Not Acceptable.
"""

from __future__ import annotations

# SPARQL results (SELECT / ASK) and RDF (CONSTRUCT / DESCRIBE), preferred first.
RESULT_TYPES = [
    "application/sparql-results+json",
    "application/sparql-results+xml",
    "text/csv",
    "text/tab-separated-values",
]
RDF_TYPES = [
    "text/turtle",
    "application/n-triples",
    "application/ld+json",
    "application/rdf+xml",
]
# Other names clients use for the same formats.
ALIASES = {
    "application/json": "application/sparql-results+json",
    "text/javascript": "application/sparql-results+json",
    "application/javascript": "application/sparql-results+json",
    "application/xml": "application/sparql-results+xml",
    "text/xml": "application/sparql-results+xml",
    "application/turtle": "text/turtle",
    "application/x-turtle": "text/turtle",
    "text/n3": "text/turtle",  # Turtle is N3's RDF subset
    "text/plain": "application/n-triples",
    "application/n3": "text/turtle",
}
# Values of ``format=`` (and SPARQLWrapper's ``output=``): a short name, per kind of answer.
FORMAT_NAMES = {
    "json": ("application/sparql-results+json", "application/ld+json"),
    "xml": ("application/sparql-results+xml", "application/rdf+xml"),
    "csv": ("text/csv", None),
    "tsv": ("text/tab-separated-values", None),
    "turtle": (None, "text/turtle"),
    "ttl": (None, "text/turtle"),
    "n3": (None, "text/turtle"),
    "nt": (None, "application/n-triples"),
    "ntriples": (None, "application/n-triples"),
    "n-triples": (None, "application/n-triples"),
    "jsonld": (None, "application/ld+json"),
    "json-ld": (None, "application/ld+json"),
    "rdf": (None, "application/rdf+xml"),
    "rdf+xml": (None, "application/rdf+xml"),
    "rdfxml": (None, "application/rdf+xml"),
}


def parse_accept(header: str | None) -> list[tuple[str, float]]:
    """``text/turtle;q=0.9, */*;q=0.1`` -> [(type, q)], best first (stable among equals)."""
    if not header or not header.strip():
        return [("*/*", 1.0)]
    items = []
    for position, part in enumerate(header.split(",")):
        fields = [f.strip() for f in part.split(";")]
        media = fields[0].lower()
        if not media:
            continue
        q = 1.0
        for param in fields[1:]:
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    q = min(max(float(value.strip()), 0.0), 1.0)
                except ValueError:
                    q = 0.0
        items.append((media, q, position))
    items.sort(key=lambda item: (-item[1], item[2]))
    return [(media, q) for media, q, _ in items] or [("*/*", 1.0)]


def _quality(media: str, accepted: list[tuple[str, float]]) -> float:
    """The q of ``media``: the most specific matching range wins (RFC 9110 12.5.1)."""
    best, specificity = 0.0, -1
    major = media.split("/")[0]
    for candidate, q in accepted:
        # an offered type is matched as named first ("application/json" for an API error),
        # then through the aliases clients use for the formats we serve
        if candidate != media:
            candidate = ALIASES.get(candidate, candidate)
        if candidate == media:
            level = 2
        elif candidate == f"{major}/*":
            level = 1
        elif candidate == "*/*":
            level = 0
        else:
            continue
        if level > specificity or (level == specificity and q > best):
            best, specificity = q, level
    return best


def negotiate(offered: list[str], accept: str | None) -> str | None:
    """The offered media type the client prefers; ties go to the server's order."""
    accepted = parse_accept(accept)
    best, best_q = None, 0.0
    for media in offered:
        q = _quality(media, accepted)
        if q > best_q:
            best, best_q = media, q
    return best


def from_format(name: str, kind: str) -> str | None:
    """The media type of a ``format=`` value for ``kind`` ("results" | "graph"), else None.

    A full media type is accepted too (``format=text/turtle``).
    """
    name = name.strip().lower()
    offered = RESULT_TYPES if kind == "results" else RDF_TYPES
    if "/" in name:
        name = ALIASES.get(name, name)
        return name if name in offered else None
    pair = FORMAT_NAMES.get(name)
    if pair is None:
        return None
    return pair[0] if kind == "results" else pair[1]


def known_format(name: str) -> bool:
    """Whether a ``format=`` value means something for some kind of answer."""
    return from_format(name, "results") is not None or from_format(name, "graph") is not None

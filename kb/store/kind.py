"""The kind of store: what every store does, and the pieces both implementations share.

:class:`Store` is the interface (a :class:`typing.Protocol`) that the embedded
Oxigraph store (:mod:`kb.store`) and the remote SPARQL endpoint
(:mod:`kb.store.remote`) both satisfy; callers use its members and never test which
implementation they hold. :func:`kb.store.opening.open_store` picks one for a
location. Parameters are bound with :func:`bind_values`; answers come back as
:class:`Answer`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

import pyoxigraph as ox

from ..errors import QueryError

RESULT_FORMATS = {
    "json": ox.QueryResultsFormat.JSON,
    "xml": ox.QueryResultsFormat.XML,
    "csv": ox.QueryResultsFormat.CSV,
    "tsv": ox.QueryResultsFormat.TSV,
}
RDF_FORMATS = {
    "turtle": ox.RdfFormat.TURTLE,
    "nt": ox.RdfFormat.N_TRIPLES,
    "nq": ox.RdfFormat.N_QUADS,
    "trig": ox.RdfFormat.TRIG,
    "jsonld": ox.RdfFormat.JSON_LD,
    "xml": ox.RdfFormat.RDF_XML,
}


def default_location() -> str:
    env = os.environ.get("RULEKB_STORE")
    if env:
        return env
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return str(Path(base) / "rulekb" / "store")


@dataclass
class Answer:
    """A query's answer: SPARQL results (SELECT/ASK) or RDF (CONSTRUCT/DESCRIBE)."""

    kind: str  # "results" | "graph"
    data: bytes
    media_type: str


# A WHERE clause to open with the VALUES block -- not one whose group is a bare
# sub-SELECT ("WHERE { SELECT ... }"): that subquery's own WHERE gets it.
_WHERE = re.compile(r"\bWHERE\s*\{(?!\s*SELECT\b)", re.IGNORECASE)
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def bind_values(sparql: str, bindings: dict | None) -> str:
    """Bind parameters with a VALUES block opening each WHERE clause.

    Terms are serialised by pyoxigraph (IRIs checked, literals escaped), never
    pasted as text. At the top of the WHERE clause the values drive the join:
    Oxigraph evaluates ``GRAPH ?ed { ?rule rk:number ?number }`` from them in
    microseconds, where a trailing VALUES (or a substitution of a projected
    variable) is joined only after everything else has been computed.
    """
    if not bindings:
        return sparql
    terms = []
    for name, value in bindings.items():
        if not _NAME.match(str(name)):
            raise QueryError(f"invalid parameter name {name!r} (letters, digits and _)")
        try:
            term = _term(value)
        except ValueError as exc:
            raise QueryError(f"parameter {name}: {exc} in {value!r}") from None
        if isinstance(term, ox.BlankNode):
            raise QueryError(f"parameter {name}: a blank node cannot be bound")
        terms.append(str(term))
    names = " ".join(f"?{name}" for name in bindings)
    values = " ".join(terms)
    block = f"VALUES ({names}) {{ ({values}) }}"
    if not _WHERE.search(sparql):
        return f"{sparql}\n{block}"
    # every WHERE clause, subqueries included: parameters are constants of the
    # whole query, and a subquery is evaluated before the outer VALUES reaches it
    return _WHERE.sub(lambda m: f"{m.group(0)}\n  {block}\n", sparql)


def _term(value) -> ox.NamedNode | ox.Literal:
    """A parameter value: an IRI when it looks like one, else a plain literal."""
    if isinstance(value, (ox.NamedNode, ox.Literal, ox.BlankNode)):
        return value
    text = str(value)
    if text.startswith(("http://", "https://", "urn:")) and " " not in text:
        return ox.NamedNode(text)  # ValueError on a bad IRI: bind_values says which parameter
    return ox.Literal(text)


@runtime_checkable
class Store(Protocol):
    """What a store does. Queries see the default graph as the union of all named graphs."""

    @property
    def location(self) -> str:
        """The directory or URL it was opened on (``--store``)."""

    @property
    def local_root(self) -> Path | None:
        """The directory of an embedded store (query worker processes open it
        read-only); None for a remote endpoint, which does its own evaluation."""

    def exists(self) -> bool:
        """Whether there is a KB to read."""

    def data_dir(self) -> Path | None:
        """The data directory the reads see (it changes when a build swaps it in);
        None for a remote endpoint or an empty store."""

    def build_id(self) -> str | None:
        """Which build the reads see, so what is computed from the KB can be kept
        per build: an embedded store's data directory, a remote endpoint's manifest graph
        (which another writer may replace under the same name: kb.store.memo keeps nothing
        for it); None where that cannot be told (in memory, an endpoint down or not built)."""

    def check(self) -> None:
        """Raise a one-line StoreError now when the store cannot be read (a
        remote endpoint is asked at its first query)."""

    def close(self) -> None:
        """Release what the store holds open (a no-op where nothing is)."""

    def query(self, sparql: str, bindings: dict | None = None, results_format: str = "json",
              rdf_format: str = "turtle") -> Answer:
        """Any query: SPARQL results (SELECT/ASK) in ``results_format``, RDF
        (CONSTRUCT/DESCRIBE) in ``rdf_format`` (keys of RESULT_FORMATS / RDF_FORMATS)."""

    def select(self, sparql: str, bindings: dict | None = None) -> list[dict[str, str]]:
        """A SELECT's rows as dicts of strings (bound variables only)."""

    def graphs(self) -> list[str]:
        """The named graphs' IRIs, sorted."""

    def export(self, graph: str | None, rdf_format: str) -> bytes:
        """One graph (or all of them) serialised."""

    def size_bytes(self) -> int:
        """Its size on disk (0 where that is not known)."""

    def replace(self, quads: Iterable[ox.Quad]) -> int:
        """Replace the whole content with ``quads``, atomically for readers; the quad count."""

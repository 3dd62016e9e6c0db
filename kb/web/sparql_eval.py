"""Evaluating one SPARQL query for the protocol: the errors it answers with, the evaluation under a row cap and a deadline, the dataset of a request, and the media type of the answer.

Shared by the endpoint (:mod:`.sparql`) and its query worker processes (:mod:`.query_pool`), which import it without the endpoint.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import pyoxigraph as ox

from ..errors import KBError
from . import conneg
from .context import Limits


class ProtocolError(KBError):
    """A SPARQL protocol request refused or failed, with its HTTP status."""

    def __init__(self, status: int, message: str):
        super().__init__(message, status=status)


class QueryTimeout(ProtocolError):
    def __init__(self, seconds: float):
        super().__init__(503, f"query timed out after {seconds:g} s (the endpoint's limit)")


@dataclass
class Evaluated:
    kind: str  # "results" | "boolean" | "graph"
    variables: list[str] = field(default_factory=list)
    rows: list = field(default_factory=list)  # of lists of terms (None = unbound); of triples for "graph"
    boolean: bool | None = None  # the answer of an ASK
    truncated: bool = False

# -- evaluation ---------------------------------------------------------------

def evaluate(store: ox.Store, text: str, dataset: dict, base_iri: str | None, limits: Limits) -> Evaluated:
    """Run a query, reading at most ``max_rows`` rows, before the deadline (see the module doc).

    pyoxigraph's result objects are bound to the thread that made them: they are
    read and dropped here, in the worker thread; only plain terms leave it.
    """
    deadline = time.monotonic() + limits.timeout
    result = _query(store, text, dataset, base_iri)
    try:
        return _read(result, deadline, limits)
    except ProtocolError as exc:  # its traceback holds the result: leave both here
        error = ProtocolError(exc.status, exc.message)
    finally:
        del result
    raise error


def _read(result, deadline: float, limits: Limits) -> Evaluated:
    if isinstance(result, ox.QueryBoolean):
        return Evaluated("boolean", boolean=bool(result))
    if isinstance(result, ox.QuerySolutions):
        out = Evaluated("results", variables=[v.value for v in result.variables])
        names = out.variables
        convert = lambda row: [row[name] for name in names]  # noqa: E731
    else:
        out = Evaluated("graph")
        convert = lambda triple: triple  # noqa: E731
    try:
        for item in result:
            if time.monotonic() > deadline:
                raise QueryTimeout(limits.timeout)
            if len(out.rows) >= limits.max_rows:
                out.truncated = True
                break
            out.rows.append(convert(item))
    except (ValueError, RuntimeError) as exc:
        raise ProtocolError(400, f"query failed: {exc}") from None
    except OSError as exc:
        raise ProtocolError(503, f"the store could not be read: {exc}") from None
    if time.monotonic() > deadline:
        raise QueryTimeout(limits.timeout)
    return out


UNION = {"use_default_graph_as_union": True}


def query_dataset(requested: dict, own: bool) -> dict:
    """pyoxigraph's dataset arguments: the request's dataset (what it does not name is
    empty, SPARQL 1.1 Protocol §2.1.4), else the query's own (``own``: it has FROM or
    FROM NAMED), else the union of every graph as the default graph."""
    if requested:
        return {"default_graph": requested.get("default_graph", []),
                "named_graphs": requested.get("named_graphs", [])}
    return {} if own else dict(UNION)


def _query(store: ox.Store, text: str, dataset: dict, base_iri: str | None):
    try:
        return store.query(text, base_iri=base_iri, **dataset)
    except SyntaxError as exc:
        raise ProtocolError(400, f"SPARQL syntax error: {exc}") from None
    except (ValueError, RuntimeError) as exc:
        raise ProtocolError(400, f"query failed: {exc}") from None
    except OSError as exc:
        raise ProtocolError(503, f"the store could not be read: {exc}") from None


def dataset_of(params: dict[str, list[str]]) -> dict:
    """``default-graph-uri`` / ``named-graph-uri`` as pyoxigraph's query arguments."""
    out = {}
    try:
        if params.get("default-graph-uri"):
            out["default_graph"] = [ox.NamedNode(u) for u in params["default-graph-uri"]]
        if params.get("named-graph-uri"):
            out["named_graphs"] = [ox.NamedNode(u) for u in params["named-graph-uri"]]
    except ValueError as exc:
        raise ProtocolError(400, f"bad graph IRI: {exc}") from None
    return out

def choose_media(kind: str, params: dict[str, list[str]], accept: str | None) -> str:
    offered = conneg.RESULT_TYPES if kind in ("results", "boolean") else conneg.RDF_TYPES
    named = (params.get("format") or params.get("output") or [None])[0]
    if named:
        media = conneg.from_format(named, "results" if kind != "graph" else "graph")
        if media is None:
            raise ProtocolError(406, f"format {named!r} is not available for this answer; offered: {', '.join(offered)}")
        return media
    media = conneg.negotiate(offered, accept)
    if media is None:
        raise ProtocolError(406, f"none of the accepted types ({accept}) is available; offered: {', '.join(offered)}")
    return media

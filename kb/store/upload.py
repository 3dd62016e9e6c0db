"""One graph into a SPARQL server in bounded batches, for a server that cannot take a large
graph in one request (Virtuoso: a whole-graph Graph Store PUT of the cards graph, 61 MB, was
received whole and never answered under load, its log saying "Locks are held for a long time").

- Each batch is a Graph Store Protocol POST (add) of at most ``RULEKB_UPLOAD_BATCH_BYTES`` of
  N-Triples (default 4 MB: about 50,000 triples, a few seconds on a loaded machine). Triples
  with a blank node go together in the first batch: a blank node keeps its identity only
  within one document.
- Each request has its own timeout (``RULEKB_UPLOAD_TIMEOUT`` seconds, default 300): a server
  that does not answer in time is an error naming the endpoint, the graph and the batch.
- ``staged``: the batches go to a staging graph (``urn:rulekb:staging:TOKEN``), which no query of
  rulekb names (queries name the graphs of the build's manifest), then one ``MOVE`` puts it in
  the graph's place: readers see the old graph or the new one, never part of it. Without it
  (a first build, which has no reader to protect) the batches go straight to the graph.
- On failure the graph being written (the staging graph, or the graph itself) is dropped, best
  effort, and the error raised.
"""

from __future__ import annotations

import hashlib
import os
import socket
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterable

import pyoxigraph as ox

from .endpoint import EndpointDown

STAGING = "urn:rulekb:staging:"  # + a token: one per graph loaded
DEFAULT_BATCH_BYTES = 4_000_000
DEFAULT_TIMEOUT = 300.0
NT_MEDIA = ox.RdfFormat.N_TRIPLES.media_type


def batch_bytes() -> int:
    return int(os.environ.get("RULEKB_UPLOAD_BATCH_BYTES") or DEFAULT_BATCH_BYTES)


def request_timeout() -> float:
    return float(os.environ.get("RULEKB_UPLOAD_TIMEOUT") or DEFAULT_TIMEOUT)


def batches(lines: Iterable[str], limit: int) -> list[bytes]:
    """N-Triples documents of at most ``limit`` bytes each (a single longer line: a batch
    of its own), in the order of ``lines``; every line with a blank node in the first."""
    blank, plain = [], []
    for line in lines:
        (blank if "_:" in line and _has_blank_node(line) else plain).append(line)
    out: list[bytes] = []
    current: list[bytes] = [f"{line} .\n".encode("utf-8") for line in blank]
    size = sum(map(len, current))
    for line in plain:
        data = f"{line} .\n".encode("utf-8")
        if current and size + len(data) > limit:
            out.append(b"".join(current))
            current, size = [], 0
        current.append(data)
        size += len(data)
    if current:
        out.append(b"".join(current))
    return out


def _has_blank_node(line: str) -> bool:
    """Whether an N-Triples line has a blank node as subject or object (not ``_:`` in a literal)."""
    triple = next(iter(ox.parse(f"{line} .\n", format=ox.RdfFormat.N_TRIPLES)))
    return isinstance(triple.subject, ox.BlankNode) or isinstance(triple.object, ox.BlankNode)


class Uploader:
    """Loads graphs through ``store``'s Graph Store Protocol and update endpoints (its
    credentials, its error handling): see the module's docstring."""

    def __init__(self, store, progress: Callable[[str], None] | None = None):
        self.store, self.progress = store, progress
        self.timeout, self.limit = request_timeout(), batch_bytes()

    def load(self, graph: str, lines: Iterable[str], staged: bool) -> int:
        """Make ``lines`` (N-Triples without the final dot) the content of ``graph``; the batches' count."""
        parts = batches(sorted(lines), self.limit)
        target = f"{STAGING}{time.strftime('%Y%m%dT%H%M%S')}-{uuid.uuid4().hex[:12]}" if staged else graph
        try:
            if staged:
                self._update(f"DROP SILENT GRAPH <{target}>", graph, "clearing its staging graph")
            else:  # a graph with leftovers (an earlier build that failed and could not drop it)
                self._update(f"DROP SILENT GRAPH {ox.NamedNode(graph)}", graph, "clearing it")
            for number, body in enumerate(parts, 1):
                self._post(target, body, graph, f"batch {number}/{len(parts)} ({len(body):,} bytes)")
                if self.progress is not None:
                    self.progress(f"uploaded {_short(graph)}: batch {number}/{len(parts)}")
            if staged:
                self._update(f"MOVE SILENT GRAPH <{target}> TO GRAPH {ox.NamedNode(graph)}", graph,
                             "moving its staging graph in place")
        except BaseException:
            self.drop(target)
            raise
        return len(parts)

    def drop(self, graph: str) -> None:
        """Best effort: a failure here must not hide the error that got us here."""
        try:
            self._update(f"DROP SILENT GRAPH {ox.NamedNode(graph)}", graph, "dropping it")
        except Exception:  # noqa: BLE001
            pass

    def _post(self, target: str, body: bytes, graph: str, what: str) -> None:
        request = urllib.request.Request(self.store._gsp(target), data=body, method="POST",
                                         headers={"Content-Type": NT_MEDIA})
        self._send(self.store.gsp_url, request, graph, what)

    def _update(self, sparql: str, graph: str, what: str) -> None:
        request = urllib.request.Request(self.store.update_url, data=sparql.encode("utf-8"), method="POST",
                                         headers={"Content-Type": "application/sparql-update"})
        self._send(self.store.update_url, request, graph, what)

    def _send(self, url: str, request: urllib.request.Request, graph: str, what: str) -> None:
        try:
            with self._timed(url, graph, what), self.store._errors(url, query=False):
                self.store._writer.send(request, self.timeout).close()
        except EndpointDown as exc:
            if "SR325" not in str(exc):  # Virtuoso: a transaction larger than its limit
                raise
            raise EndpointDown(f"{exc} (while loading <{graph}>, {what}: raise TransactionAfterImageLimit"
                               " in [Parameters] of virtuoso.ini, see docs/deploy.md)") from None

    def _timed(self, url: str, graph: str, what: str):
        return _Timeout(url, graph, what, self.timeout)


class _Timeout:
    """A request that timed out as one line naming the endpoint, the graph and the step."""

    def __init__(self, url: str, graph: str, what: str, seconds: float):
        self.message = (f"the SPARQL endpoint at {url} did not answer within {seconds:g} s while loading"
                        f" <{graph}>, {what} (RULEKB_UPLOAD_TIMEOUT)")

    def __enter__(self):
        return self

    def __exit__(self, kind, value, traceback):
        timed_out = isinstance(value, (TimeoutError, socket.timeout)) or (
            isinstance(value, urllib.error.URLError) and isinstance(value.reason, (TimeoutError, socket.timeout)))
        if timed_out or (isinstance(value, EndpointDown) and str(value).endswith("timed out")):
            raise EndpointDown(self.message) from None
        return False


class GraphLines:
    """One graph's triples as a set of N-Triples lines (what the server keeps),
    with the digest of the lines as they came and whether a blank node occurs."""

    def __init__(self, quads: Iterable[ox.Quad]):
        self.digest, self.lines, self.blank = hashlib.sha256(), set(), False
        for q in quads:
            self.blank = self.blank or isinstance(q.subject, ox.BlankNode) or isinstance(q.object, ox.BlankNode)
            line = str(ox.Triple(q.subject, q.predicate, q.object))
            self.digest.update(line.encode("utf-8") + b"\n")
            self.lines.add(line)


def _short(graph: str) -> str:
    """The graph's name without the KB's base (``edition/en/2026-01-16``, ``graph/cards``)."""
    head, sep, rest = graph.partition("://")
    return rest.split("/", 1)[1] if sep and "/" in rest else graph

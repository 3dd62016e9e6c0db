"""The KB on a remote SPARQL 1.1 endpoint, with the interface of :class:`kb.store.embedded.EmbeddedStore`.

The URL given is the endpoint's SPARQL *query* URL; the update and Graph Store
Protocol (GSP) URLs are derived from it (:func:`.endpoint.endpoints`) or set
explicitly (constructor arguments, or ``RULEKB_UPDATE_URL`` / ``RULEKB_GSP_URL``).

Writes authenticate with credentials from the environment, and the answers of
Virtuoso (recognised by its ``Server`` header) are made standard: see
:mod:`.endpoint`. On Virtuoso, too, an answer cut at its ``ResultSetMaxRows`` is an
error (never served as whole), and every query without a dataset of its own names
the KB's graphs (its default graph holds Virtuoso's system graphs).

The KB's queries read the default graph as the union of the named graphs, so the server must be
configured that way (``oxigraph serve --union-default-graph``; Virtuoso does it by default); the
first query checks it and says so if not. Queries go through SPARQLWrapper, bound by a VALUES
block as in the embedded store.

``replace`` is atomic, and costs what changed rather than what exists:

- Every build records its graphs, each with a digest of its triples, in a
  manifest graph ``urn:rulekb:manifest:TOKEN``.
- A later build compares each new graph with the previous one: an unchanged
  graph costs nothing, a changed one becomes DELETE DATA / INSERT DATA of the
  differing triples (or DROP + INSERT DATA when it has blank nodes, or is new).
- All of it goes to the server as ONE SPARQL Update, which a transactional
  server (oxigraph) applies all or nothing. (Virtuoso 7.2 is not atomic, and limits an update's
  text, and does not answer a large GSP PUT under load: there each changed graph goes in bounded
  batches to a staging graph moved in its place as the build makes it, the manifest last:
  :mod:`.upload`.) Nothing is written before it, so an interrupted or failed build leaves the
  previous content answering. The update drops the previous manifest without SILENT: if another
  build committed meanwhile, it fails and changes nothing. The manifest is the build's id.
- A first build (no manifest) has nothing to protect: it sends each graph straight to its
  name with the Graph Store Protocol (one PUT per graph; on Virtuoso, bounded batches), and
  drops what it wrote if it fails.

Memory: one graph at a time (the largest edition is 56,000 quads, ~10 MB).

Why not upload the whole KB to staging graphs and MOVE them in place in one update: under the union
default graph, staging graphs are visible to raw readers during the build; and one transaction
moving the full KB (4.5 million quads) took oxigraph 10 minutes and 13 GB of memory (replacing
it: more than 18 GB, abandoned). (Virtuoso, not atomic anyway, moves one graph at a time.) A commit larger than ``RULEKB_MAX_CHANGE`` quads (default 1,000,000, about 2.5 GB on
an oxigraph server) is refused before anything is sent.
"""

from __future__ import annotations

import http.client
import itertools
import json
import os
import re
import time
import urllib.error
import urllib.request
import uuid
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from urllib.parse import quote

import pyoxigraph as ox
from SPARQLWrapper import CONSTRUCT, DESCRIBE, POST, SPARQLWrapper
from SPARQLWrapper.SPARQLExceptions import SPARQLWrapperException

from ..errors import NotFound, QueryError, StoreError
from .endpoint import (EndpointBroken, EndpointDown, Writer, credentials, endpoints, no_comments,  # noqa: F401
                       no_userinfo, one_line, server_message, standard_json, unescaped)
from .kind import RDF_FORMATS, Answer, bind_values
from .upload import GraphLines, Uploader

MANIFEST = "urn:rulekb:manifest:"  # + a token: each build writes a new one
HAS_GRAPH = "urn:rulekb:graph"
BUILT_AT = "urn:rulekb:builtAt"
RESULT_TYPES = {
    "json": "application/sparql-results+json",
    "xml": "application/sparql-results+xml",
    "csv": "text/csv",
    "tsv": "text/tab-separated-values",
}
DEFAULT_MAX_CHANGE = 1_000_000
NT = ox.RdfFormat.N_TRIPLES


def with_values(sparql: str, bindings: dict | None) -> str:
    """The query with its parameters bound exactly as the embedded store binds
    them: it is :func:`kb.store.kind.bind_values` (a checked VALUES block of
    serialised RDF terms; a bad name or IRI is a QueryError, never query text)."""
    return bind_values(sparql, bindings)


_FROM = re.compile(r"\bFROM\s+(NAMED\s+)?<", re.IGNORECASE)  # a query that says its own dataset
GRAPHS_TTL = 30.0  # seconds the KB's graph list (for a server that must be told them) is reused

GATHERED = "/graph/statements"  # graphs every edition's part adds to: gathered by replace()


class RemoteStore:
    def __init__(self, url: str, update_url: str | None = None, gsp_url: str | None = None,
                 timeout: float | None = None, upload_timeout: float = 3600.0, max_change: int | None = None):
        self.url = no_userinfo(url)
        guessed_update, guessed_gsp = endpoints(url)
        self.update_url = no_userinfo(update_url or os.environ.get("RULEKB_UPDATE_URL") or guessed_update)
        self.gsp_url = no_userinfo(gsp_url or os.environ.get("RULEKB_GSP_URL") or guessed_gsp)
        self._credentials = credentials()
        # seconds a query may take on the endpoint (RULEKB_REMOTE_TIMEOUT, default 60)
        self.timeout = timeout or float(os.environ.get("RULEKB_REMOTE_TIMEOUT") or 60)
        self._writer = Writer(self._credentials, [self.update_url, self.gsp_url], self.timeout)
        self._name_graphs: bool | None = None  # Virtuoso: set by the first answer's Server header
        self._kb_graphs: tuple[float, str | None, list[str]] | None = None
        self._row_limit: int | None | bool = False  # False: not probed yet
        self.upload_timeout = upload_timeout  # a large commit takes minutes
        # the largest commit a build may send: the server holds it in memory, in one transaction
        self.max_change = max_change or int(os.environ.get("RULEKB_MAX_CHANGE") or DEFAULT_MAX_CHANGE)
        self._union_checked = False

    @property
    def location(self) -> str:
        return self.url

    @property
    def local_root(self) -> None:
        """None: the endpoint evaluates queries itself (no local worker processes)."""
        return None

    def data_dir(self) -> None:
        """None: the endpoint's content can change under us (no directory to watch)."""
        return None

    def build_id(self) -> str | None:
        """The build's manifest graph (None before one, or while the endpoint is down): what caches are checked against."""
        try:
            return self._current()[0]
        except EndpointDown:
            return None

    def _current(self) -> tuple[str | None, list[str]]:
        if self._kb_graphs is None or time.monotonic() - self._kb_graphs[0] > GRAPHS_TTL:
            manifest = self._manifest()
            self._kb_graphs = (time.monotonic(), *((manifest[0], sorted(manifest[1])) if manifest else (None, [])))
        return self._kb_graphs[1:]

    def check(self) -> None:
        """Nothing to check before the first query (the server says what is wrong then)."""

    def close(self) -> None:
        """Nothing to release: every request has its own connection."""

    def size_bytes(self) -> int:
        """Always 0: a SPARQL endpoint does not tell its size on disk."""
        return 0

    # -- HTTP ---------------------------------------------------------------

    @contextmanager
    def _errors(self, url: str, query: bool):
        """Server and network failures as one-line KB errors, never a traceback."""
        try:
            yield
        except SPARQLWrapperException as exc:
            status = getattr(exc.__context__, "code", None)
            self._fail(url, query, status, server_message(exc))
        except urllib.error.HTTPError as exc:
            self._fail(url, query, exc.code, one_line(exc.read() or exc.reason))
        except (OSError, http.client.HTTPException) as exc:
            reason = getattr(exc, "reason", None) or exc
            raise EndpointDown(f"cannot reach the SPARQL endpoint at {url}: {reason}") from None

    @staticmethod
    def _fail(url: str, query: bool, status: int | None, message: str):
        if query and status == 400:
            raise QueryError(f"the SPARQL endpoint rejected the query: {message}") from None
        if query and status == 406:  # e.g. select() of a CONSTRUCT
            raise QueryError(f"the SPARQL endpoint cannot answer in the format asked: {message}") from None
        if query and status == 500:
            raise QueryError(f"the query failed on the SPARQL endpoint: {message}") from None
        if status == 404:
            raise StoreError(f"no SPARQL endpoint at {url} (HTTP 404): {message}") from None
        if status in (401, 403):
            raise EndpointBroken(f"the SPARQL endpoint at {url} refused access (HTTP {status}): set RULEKB_STORE_USER and"
                             " RULEKB_STORE_PASSWORD (or RULEKB_STORE_PASSWORD_FILE) to an account allowed to write")
        raise EndpointDown(f"the SPARQL endpoint at {url} answered HTTP {status}: {message}") from None

    def _wrapper(self, timeout: float) -> SPARQLWrapper:
        wrapper = SPARQLWrapper(self.url, updateEndpoint=self.update_url)
        wrapper.setMethod(POST)  # no URL length limit
        wrapper.setOnlyConneg(True)  # content negotiation only, no ?format=
        wrapper.setTimeout(int(timeout))
        return wrapper

    def _ask_server(self, sparql: str, results: str, rdf: str, default_graphs: Sequence[str] = (),
                    named_graphs: Sequence[str] = ()) -> tuple[bytes, str]:
        """Run a query; ask for ``rdf`` if it is a CONSTRUCT or DESCRIBE, else for ``results``."""
        wrapper = self._wrapper(self.timeout)
        for graph in default_graphs:  # the protocol's default-graph-uri / named-graph-uri
            wrapper.addDefaultGraph(graph)
        for graph in named_graphs:
            wrapper.addNamedGraph(graph)
        with warnings.catch_warnings():  # SPARQLWrapper warns about queries it cannot classify
            warnings.simplefilter("ignore")
            wrapper.setQuery(sparql)
            # the form as SPARQLWrapper reads it: Virtuoso answers a CONSTRUCT with
            # SPARQL JSON when an Accept header offers both
            graph = wrapper.queryType in (CONSTRUCT, DESCRIBE)
            wrapper.addCustomHttpHeader("Accept", rdf if graph else results)
            with self._errors(self.url, query=True):
                response = wrapper.query().response
                body = response.read()
        headers = response.headers
        if self._name_graphs is None:
            self._name_graphs = "virtuoso" in (headers.get("Server") or "").lower()
        cut = headers.get("X-SPARQL-MaxRows")
        if cut:
            self._cut(cut)
        media = headers.get_content_type()
        if media not in RESULT_TYPES.values() and ox.RdfFormat.from_media_type(media) is None:
            raise EndpointBroken(f"the SPARQL endpoint at {self.url} answered {media}, not SPARQL results or RDF:"
                                 f" {one_line(body, 120)}")
        if media == NT.media_type:
            body = no_comments(body)
        if self._name_graphs or b"\\u" in body or b"\\U" in body:  # (Virtuoso's RDF: tabs, escapes)
            body = unescaped(body, media, self.url)
        if media == RESULT_TYPES["json"]:
            try:
                body = standard_json(body)
            except ValueError:
                raise EndpointBroken(f"{self.url} sent truncated or malformed SPARQL JSON results:"
                                 f" {one_line(body, 200)}") from None
        return body, media

    def _cut(self, limit) -> None:
        raise EndpointBroken(f"the SPARQL endpoint at {self.url} cut its answer at {limit} rows (its result limit;"
                         " Virtuoso: [SPARQL] ResultSetMaxRows in virtuoso.ini): raise it; a partial answer"
                         " is not served as whole")

    def _check_whole_graph(self, body: bytes, media: str) -> None:
        """Virtuoso cuts a CONSTRUCT or DESCRIBE at its row limit without a word (no header):
        a graph answer as large as that limit is refused as possibly cut. The limit is learnt
        once, from the header of a SELECT that reaches it (empty rows, one byte each)."""
        if self._row_limit is False:
            wrapper = self._wrapper(self.timeout)
            wrapper.setQuery("SELECT ?nothing WHERE { ?s ?p ?o }")
            wrapper.addCustomHttpHeader("Accept", RESULT_TYPES["tsv"])
            with self._errors(self.url, query=True):
                response = wrapper.query().response
                response.read()
            limit = response.headers.get("X-SPARQL-MaxRows")
            self._row_limit = int(limit) if limit and limit.isdigit() else None
        fmt = ox.RdfFormat.from_media_type(media)
        if self._row_limit is None or fmt is None:
            return
        triples = sum(1 for _ in ox.parse(body, format=fmt))
        if triples >= self._row_limit:
            self._cut(self._row_limit)

    def _update(self, sparql: str) -> None:
        # the update as the body: no URL-encoding of megabytes
        request = urllib.request.Request(self.update_url, data=sparql.encode("utf-8"), method="POST",
                                         headers={"Content-Type": "application/sparql-update"})
        with self._errors(self.update_url, query=False):
            self._writer.send(request, self.upload_timeout).close()

    def _rows(self, sparql: str, dataset: tuple[Sequence[str], Sequence[str]] = ((), ())) -> list[dict[str, str]]:
        body, _ = self._ask_server(sparql, RESULT_TYPES["json"], RESULT_TYPES["json"], *dataset)
        try:
            results = json.loads(body)
            return [{k: v["value"] for k, v in row.items()} for row in results["results"]["bindings"]]
        except (ValueError, KeyError, TypeError):
            raise EndpointBroken(f"{self.url} did not answer with SPARQL JSON results: {one_line(body, 200)}") from None

    def _gsp(self, graph: str) -> str:
        if not self.gsp_url:
            raise StoreError(f"no Graph Store Protocol endpoint known for {self.url}: set RULEKB_GSP_URL")
        separator = "&" if "?" in self.gsp_url else "?"
        return f"{self.gsp_url}{separator}graph={quote(graph, safe='')}"

    # -- reading ------------------------------------------------------------

    def _check_union(self) -> None:
        """The KB's queries need the default graph to be the union of the named graphs."""
        if self._union_checked:
            return
        rows = self._rows("SELECT ?union WHERE { { SELECT ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o } } LIMIT 1 }"
                          " BIND(EXISTS { ?s ?p ?o } AS ?union) }")
        if rows and rows[0].get("union") not in ("true", "1"):
            raise StoreError(
                f"the SPARQL endpoint at {self.url} does not query the union of its named graphs"
                " as its default graph: start oxigraph with `oxigraph serve --union-default-graph`"
                " (Fuseki: tdb2:unionDefaultGraph true)")
        self._union_checked = bool(rows)  # an empty store is checked again once it has data

    def _dataset(self, sparql: str, default_graphs: Sequence[str] = (),
                 named_graphs: Sequence[str] = ()) -> tuple[Sequence[str], Sequence[str]]:
        """The dataset to ask for: the one given; else, on a server whose default graph holds more
        than the KB (Virtuoso's system graphs), the KB's graphs by name, unless the query has FROM."""
        if default_graphs or named_graphs or not self._name_graphs or _FROM.search(sparql):
            return default_graphs, named_graphs
        graphs = self._current()[1]
        # Virtuoso echoes each graph of the dataset as a response header (X-SPARQL-default-graph):
        # http.client refuses more than _MAXHEADERS (100) headers, so the limit follows the dataset
        http.client._MAXHEADERS = max(http.client._MAXHEADERS, 2 * len(graphs) + 100)
        return graphs, graphs

    def exists(self) -> bool:
        self._check_union()
        return self._manifest() is not None or bool(self.graphs())

    def query(self, sparql: str, bindings: dict | None = None, results_format: str = "json",
              rdf_format: str = "turtle", default_graphs: Sequence[str] = (), named_graphs: Sequence[str] = ()) -> Answer:
        """``default_graphs`` / ``named_graphs``: the dataset, as the SPARQL protocol's
        ``default-graph-uri`` / ``named-graph-uri`` (default: the union of every graph)."""
        self._check_union()
        body, media = self._ask_server(with_values(sparql, bindings), RESULT_TYPES[results_format],
                                       RDF_FORMATS[rdf_format].media_type,
                                       *self._dataset(sparql, default_graphs, named_graphs))
        kind = "results" if media in RESULT_TYPES.values() else "graph"
        if kind == "graph" and self._name_graphs:  # Virtuoso
            self._check_whole_graph(body, media)
        return Answer(kind, body, media)

    def select(self, sparql: str, bindings: dict | None = None) -> list[dict[str, str]]:
        """Rows of a SELECT as plain dicts of strings (values of bound variables)."""
        self._check_union()
        return self._rows(with_values(sparql, bindings), self._dataset(sparql))

    def graphs(self) -> list[str]:
        """The KB's named graphs: those of its manifest, else (data loaded by other
        means) every named graph but rulekb's own."""
        manifest = self._manifest()
        if manifest is not None:
            return sorted(manifest[1])
        rows = self._rows("SELECT DISTINCT ?g WHERE { GRAPH ?g {} FILTER(!STRSTARTS(STR(?g), 'urn:rulekb:')) }")
        return sorted(r["g"] for r in rows)

    def _graph_quads(self, graph: str) -> Iterator[ox.Quad]:
        request = urllib.request.Request(self._gsp(graph), headers={"Accept": NT.media_type})
        name = ox.NamedNode(graph)
        with self._errors(self.gsp_url, query=False):
            try:
                response = self._writer.send(request, self.timeout)
            except urllib.error.HTTPError as exc:
                if exc.code != 404:
                    raise
                raise NotFound(f"no graph <{graph}> at {self.gsp_url}: {one_line(exc.read())}") from None
            with response:
                try:
                    for triple in ox.parse(response, format=NT):
                        yield ox.Quad(triple.subject, triple.predicate, triple.object, name)
                except SyntaxError as exc:
                    raise EndpointBroken(f"{self.gsp_url} sent bad N-Triples for <{graph}>: {exc}") from None

    def export(self, graph: str | None, rdf_format: str) -> bytes:
        fmt = RDF_FORMATS[rdf_format]
        quads = itertools.chain.from_iterable(
            self._graph_quads(g) for g in ([graph] if graph is not None else self.graphs()))
        if fmt.supports_datasets:
            return ox.serialize(quads, format=fmt)
        return ox.serialize((ox.Triple(q.subject, q.predicate, q.object) for q in quads), format=fmt)

    # -- writing ------------------------------------------------------------

    def _manifest(self) -> tuple[str, dict[str, str]] | None:
        """The KB's manifest graph and its {graph: digest}; None if rulekb never built here."""
        rows = self._rows(
            f"SELECT ?m ?t ?entry WHERE {{ GRAPH ?m {{ ?m <{BUILT_AT}> ?t OPTIONAL {{ ?m <{HAS_GRAPH}> ?entry }} }}"
            f" FILTER(STRSTARTS(STR(?m), '{MANIFEST}')) }}")
        if not rows:
            return None
        latest = max(rows, key=lambda r: r["t"])["m"]  # only one, unless two first builds raced
        entries = [r["entry"].split(" ") for r in rows if r["m"] == latest and "entry" in r]
        return latest, {graph: digest for graph, digest in entries}

    def _put_graph(self, graph: str, lines: Iterable[str]) -> None:
        """One graph in one Graph Store Protocol PUT: blank nodes keep their
        identity within the document. (Not chunked: Virtuoso drops chunked bodies.)"""
        body = "".join(f"{line} .\n" for line in lines).encode("utf-8")
        request = urllib.request.Request(self._gsp(graph), data=body, method="PUT",
                                         headers={"Content-Type": NT.media_type})
        with self._errors(self.gsp_url, query=False):
            self._writer.send(request, self.upload_timeout).close()

    def _changes(self, graph: str, lines: set[str], blank: bool, known: bool) -> tuple[list, int]:
        """The update operations that turn the graph on the server into ``lines``, and their size.

        On Virtuoso (not atomic anyway; it refuses an update text past about 10 MB, or one
        that compiles to more than 10,000 lines of SQL: a few thousand triples) a changed
        graph goes whole, now, as one GSP PUT: nothing is kept for the commit."""
        g = str(ox.NamedNode(graph))
        if self._name_graphs:
            self._uploader.load(graph, lines, staged=True)
            return [], 0
        if blank or not known:  # blank nodes cannot be deleted by value; a new graph may hold leftovers
            insert = _data("INSERT", g, lines)
            if blank:  # Virtuoso refuses blank nodes in INSERT DATA, not in an INSERT template
                insert = insert.replace("INSERT DATA", "INSERT", 1) + " WHERE {}"
            return [f"DROP SILENT GRAPH {g}", insert], len(lines)
        try:
            old = {str(ox.Triple(q.subject, q.predicate, q.object)) for q in self._graph_quads(graph)}
        except NotFound:
            old = set()
        gone, added = sorted(old - lines), sorted(lines - old)
        return [_data(verb, g, part) for verb, part in (("DELETE", gone), ("INSERT", added)) if part], len(gone) + len(added)

    def replace(self, quads: Iterable[ox.Quad], progress: Callable[[str], None] | None = None) -> int:
        """Make ``quads`` the whole content of the KB, atomically; return the quad count.
        ``progress(note)``: told of each batch a large graph is uploaded in (Virtuoso).

        Quads must come grouped by graph (each graph's quads together), as a build yields them;
        but for graph/statements, which every edition's part adds to (kb.rdf.statements, the same
        content from many editions): its quads are gathered, each once, and written last."""
        previous = self._manifest()
        self._uploader = Uploader(self, progress)
        gathered: dict[ox.NamedNode, dict[ox.Quad, None]] = {}

        def apart(stream):  # the gathered graphs out of the stream, the rest grouped as they came
            for quad in stream:
                if isinstance(quad.graph_name, ox.NamedNode) and quad.graph_name.value.endswith(GATHERED):
                    gathered.setdefault(quad.graph_name, {})[quad] = None
                else:
                    yield quad

        def last():  # (read once the stream is done)
            for graph in gathered.values():
                yield from graph

        quads = itertools.chain(apart(quads), last())  # (a generator: it runs once apart() is done)
        digests: dict[str, str] = {}
        written: list[str] = []  # graphs a first build wrote directly: dropped if it fails
        ops: list[str] = []  # the commit, for a store that has a previous build
        count = changed = 0
        try:
            for name, run in itertools.groupby(quads, key=lambda q: q.graph_name):
                if not isinstance(name, ox.NamedNode):
                    raise StoreError("the remote store keeps every triple in a named graph (got one in the default graph)")
                if name.value in digests:
                    raise StoreError(f"the quads of graph <{name.value}> do not come together")
                graph = GraphLines(run)  # one graph in memory at a time
                if previous is None:  # a first build: nothing to protect, straight in
                    written.append(name.value)
                    if self._name_graphs:  # Virtuoso: in bounded batches
                        self._uploader.load(name.value, graph.lines, staged=False)
                    else:
                        self._put_graph(name.value, graph.lines)
                count += len(graph.lines)
                digests[name.value] = graph.digest.hexdigest()
                if previous is not None and previous[1].get(name.value) != digests[name.value]:
                    more, size = self._changes(name.value, graph.lines, graph.blank, name.value in previous[1])
                    ops += more
                    changed += size
                    if changed > self.max_change:
                        raise StoreError(
                            f"this build changes more than {self.max_change} quads of the KB at {self.url}: too many"
                            " for one atomic update (set RULEKB_MAX_CHANGE, or build into an empty endpoint)")
            self._commit(previous, digests, ops)
            self._kb_graphs = None  # the next query reads the new manifest
        except BaseException:
            self._drop(written)
            raise
        return count

    def _commit(self, previous: tuple[str, dict[str, str]] | None, digests: dict[str, str], ops: list) -> None:
        """One SPARQL Update: the changes, the removed graphs, the new manifest.

        It drops the previous manifest without SILENT: if another build has
        committed meanwhile, that fails and the server rolls all of it back."""
        iri = lambda value: str(ox.NamedNode(value))  # noqa: E731 - checked IRI syntax
        if previous is not None:
            ops += [f"DROP SILENT GRAPH {iri(g)}" for g in sorted(set(previous[1]) - set(digests))]
            ops.append(f"DROP GRAPH {iri(previous[0])}")
        manifest = iri(f"{MANIFEST}{time.strftime('%Y%m%dT%H%M%S')}-{uuid.uuid4().hex[:8]}")
        stamp = ox.Literal(time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                           datatype=ox.NamedNode("http://www.w3.org/2001/XMLSchema#dateTime"))
        entries = [f"{manifest} <{BUILT_AT}> {stamp}"]
        entries += [f"{manifest} <{HAS_GRAPH}> {ox.Literal(f'{g} {d}')}" for g, d in digests.items()]
        ops.append(f"CREATE SILENT GRAPH {manifest}")  # Virtuoso drops (above) only created graphs
        ops.append(_data("INSERT", manifest, entries))
        if not self._name_graphs:
            self._update(" ;\n".join(ops))
            return
        for op in ops:  # Virtuoso: one operation at a time, as it would apply them anyway
            self._update(op)

    def _drop(self, graphs: Iterable[str]) -> None:
        """Best effort: a failure here must not hide the error that got us here."""
        graphs = list(graphs)
        if graphs:
            try:
                self._update(" ;\n".join(f"DROP SILENT GRAPH {ox.NamedNode(g)}" for g in graphs))
            except Exception:
                pass


def _data(verb: str, graph: str, lines: Iterable[str]) -> str:
    body = " .\n".join(lines)
    return f"{verb} DATA {{ GRAPH {graph} {{\n{body} .\n}} }}"

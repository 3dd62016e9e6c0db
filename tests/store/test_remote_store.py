"""The remote store against a real SPARQL server: ``oxigraph serve`` started here on loopback.

The server comes from the ``oxigraph`` package (test extra). Every test talks
to it over real HTTP; nothing is mocked.
"""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pyoxigraph as ox
import pytest

import rulekb.kb.store.remote
from rulekb.kb.errors import NotFound, QueryError, StoreError
from rulekb.kb.store.remote import RemoteStore, endpoints, with_values
from rulekb.kb.store.kind import RDF_FORMATS
from rulekb.kb.store.opening import open_store

from ..helpers import free_port

EX = "http://example.org/"
FIXTURE = Path(__file__).parents[1] / "fixtures" / "invented-cr-2030-05-05.txt"
HOSTILE = [
    'he said "hi"',
    "it's",
    "two\nlines\r\n",
    "} } DROP ALL ; {",
    "> <http://evil/> .",
    "back\\slash \\u0022 \\\" end",
    "# not a comment",
    "\t\x01\x7f control",
    "ünïcødé « règle » 🂡",
    "",
]



def _oxigraph_binary() -> str:
    found = shutil.which("oxigraph", path=str(Path(sys.executable).parent)) or shutil.which("oxigraph")
    if not found:
        pytest.fail("the `oxigraph` server is missing: pip install -e '.[test]' installs it")
    return found


def _serve(tmp: Path, *extra: str):
    """Start ``oxigraph serve`` on a free loopback port; return (process, query URL)."""
    port = free_port()
    with open(tmp / "oxigraph.log", "wb") as log:
        process = subprocess.Popen(
            [_oxigraph_binary(), "serve", "--location", str(tmp / "data"), "--bind", f"127.0.0.1:{port}", *extra],
            stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/query"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"oxigraph serve exited: {(tmp / 'oxigraph.log').read_text()}")
        try:
            urllib.request.urlopen(url + "?query=ASK%7B%7D", timeout=1).read()
            return process, url
        except OSError:
            time.sleep(0.05)
    process.kill()
    pytest.fail("oxigraph serve did not answer within 30 s")


def _stop(process) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    process, url = _serve(tmp_path_factory.mktemp("oxigraph"), "--union-default-graph")
    yield url
    _stop(process)


def _raw_update(url: str, update: str) -> None:
    """Straight to the server, bypassing RemoteStore: to set up a situation."""
    data = urllib.parse.urlencode({"update": update}).encode()
    urllib.request.urlopen(url.replace("/query", "/update"), data=data, timeout=10).read()


def _raw_graphs(url: str) -> set[str]:
    query = urllib.parse.urlencode({"query": "SELECT ?g WHERE { GRAPH ?g {} }"})
    request = urllib.request.Request(f"{url}?{query}", headers={"Accept": "text/tab-separated-values"})
    lines = urllib.request.urlopen(request, timeout=10).read().decode().splitlines()[1:]
    return {line.strip("<>") for line in lines}


@pytest.fixture
def store(server):
    _raw_update(server, "DROP ALL")
    return RemoteStore(server)


def q(s: str, p: str, o, g: str) -> ox.Quad:
    o = o if isinstance(o, (ox.Literal, ox.NamedNode, ox.BlankNode)) else ox.Literal(o)
    return ox.Quad(ox.NamedNode(EX + s), ox.NamedNode(EX + p), o, ox.NamedNode(EX + g))


def sample(version: str = "v1") -> list[ox.Quad]:
    """Three named graphs; one holds a blank node shared by two triples."""
    bnode = ox.BlankNode()
    return [
        q("ed1", "title", f"Edition one {version}", "graph/ed1"),
        q("r1", "text", "A rule's text.", "graph/ed1"),
        q("r1", "number", ox.Literal("1", datatype=ox.NamedNode("http://www.w3.org/2001/XMLSchema#integer")), "graph/ed1"),
        q("ed2", "title", ox.Literal(f"Édition deux {version}", language="fr"), "graph/ed2"),
        q("r2", "refersTo", ox.NamedNode(EX + "r1"), "graph/ed2"),
        q("c", "has", bnode, "graph/concepts"),
        ox.Quad(bnode, ox.NamedNode(EX + "label"), ox.Literal("anonymous"), ox.NamedNode(EX + "graph/concepts")),
    ]


def triples_of(data: bytes, fmt: str) -> set[tuple[str, str, str]]:
    """A comparable set of triples; blank nodes reduced to a marker."""
    out = set()
    for item in ox.parse(data, format=RDF_FORMATS[fmt]):
        out.add(tuple("_:b" if isinstance(t, ox.BlankNode) else str(t) for t in (item.subject, item.predicate, item.object)))
    return out


def answer_set(answer) -> list:
    """A store's answer, comparable across stores: sorted rows, or a set of triples."""
    if answer.kind == "graph":
        return sorted(triples_of(answer.data, "nt"))
    results = json.loads(answer.data)
    if "boolean" in results:
        return [results["boolean"]]
    return sorted(sorted((k, v["value"]) for k, v in row.items()) for row in results["results"]["bindings"])


def plain(quads) -> set[tuple[str, str, str]]:
    return {tuple("_:b" if isinstance(t, ox.BlankNode) else str(t) for t in (x.subject, x.predicate, x.object)) for x in quads}


# -- endpoints ----------------------------------------------------------------


def test_endpoint_conventions(monkeypatch):
    assert endpoints("http://h:7878/query") == ("http://h:7878/update", "http://h:7878/store")
    assert endpoints("http://h:3030/ds/sparql") == ("http://h:3030/ds/update", "http://h:3030/ds/data")
    assert endpoints("http://h:3030/ds/query") == ("http://h:3030/ds/update", "http://h:3030/ds/data")
    assert endpoints("http://h:8890/sparql") == ("http://h:8890/sparql-auth", "http://h:8890/sparql-graph-crud-auth")
    assert endpoints("https://h/rdf4j-server/repositories/kb") == (
        "https://h/rdf4j-server/repositories/kb/statements", "https://h/rdf4j-server/repositories/kb/rdf-graphs/service")
    assert endpoints("http://h/blazegraph/namespace/kb/other") == ("http://h/blazegraph/namespace/kb/other", None)
    explicit = RemoteStore("http://h/q", update_url="http://h/u", gsp_url="http://h/g")
    assert (explicit.update_url, explicit.gsp_url) == ("http://h/u", "http://h/g")
    monkeypatch.setenv("RULEKB_UPDATE_URL", "http://h/u2")
    monkeypatch.setenv("RULEKB_GSP_URL", "http://h/g2")
    from_env = RemoteStore("http://h:7878/query")
    assert (from_env.update_url, from_env.gsp_url) == ("http://h/u2", "http://h/g2")


def test_open_store_gives_a_remote_store_for_urls(server):
    store = open_store(server)
    assert isinstance(store, RemoteStore) and store.location == server
    assert store.size_bytes() == 0  # documented: a SPARQL endpoint does not tell its size


# -- writing and reading ---------------------------------------------------


def test_replace_then_read(store, server):
    assert not store.exists()
    assert store.replace(iter(sample())) == 7
    assert store.exists()
    assert store.graphs() == [EX + "graph/concepts", EX + "graph/ed1", EX + "graph/ed2"]
    rows = store.select(f"SELECT ?t WHERE {{ <{EX}ed1> <{EX}title> ?t }}")
    assert rows == [{"t": "Edition one v1"}]
    # the blank node kept its identity across the two triples of its graph
    assert store.select(f"SELECT ?l WHERE {{ <{EX}c> <{EX}has> ?b . ?b <{EX}label> ?l }}") == [{"l": "anonymous"}]
    # on the server: the graphs, and one manifest
    manifests = [g for g in _raw_graphs(server) if g.startswith(rulekb.kb.store.remote.MANIFEST)]
    assert len(manifests) == 1 and _raw_graphs(server) == set(store.graphs()) | set(manifests)


def test_replace_swaps_graphs_and_keeps_foreign_ones(store, server):
    _raw_update(server, f"INSERT DATA {{ GRAPH <{EX}foreign> {{ <{EX}x> <{EX}y> 'not ours' }} }}")
    store.replace(sample("v1"))
    second = [x for x in sample("v2") if x.graph_name.value != EX + "graph/ed2"]
    assert store.replace(second) == 5
    assert store.graphs() == [EX + "graph/concepts", EX + "graph/ed1"]
    assert store.select(f"SELECT ?t WHERE {{ <{EX}ed1> <{EX}title> ?t }}") == [{"t": "Edition one v2"}]
    assert store.select(f"SELECT ?t WHERE {{ <{EX}ed2> ?p ?t }}") == []
    assert EX + "foreign" in _raw_graphs(server)  # a build drops the KB's graphs, nothing else


def test_counts_quads_as_the_embedded_store_does(store, tmp_path):
    from rulekb.kb.store.embedded import EmbeddedStore

    many = [q(f"s{i}", "n", str(i), f"graph/g{i % 3}") for i in range(3000)]
    many.sort(key=lambda x: x.graph_name.value)
    many.insert(1, many[0])  # a duplicate is stored once
    embedded = EmbeddedStore(tmp_path / "kb")
    assert store.replace(many) == embedded.replace(many) == 3000
    embedded.close()
    assert store.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o FILTER(?p != <urn:rulekb:graph>"
                        " && ?p != <urn:rulekb:builtAt>) }") == [{"n": "3000"}]


def test_bindings_with_hostile_values(store):
    store.replace([q(f"s{i}", "value", text, "graph/h") for i, text in enumerate(HOSTILE)])
    query = f"SELECT ?s WHERE {{ ?s <{EX}value> ?v }}  # a query may end in a comment"
    for i, text in enumerate(HOSTILE):
        assert store.select(query, {"v": text}) == [{"s": f"{EX}s{i}"}], text
        answer = store.query(query, {"v": text}, results_format="csv")
        assert answer.kind == "results" and f"{EX}s{i}".encode() in answer.data
    # IRIs are bound as IRIs, checked: a hostile one is refused, never pasted
    assert store.select(f"SELECT ?v WHERE {{ ?s <{EX}value> ?v }}", {"s": f"{EX}s0"}) == [{"v": HOSTILE[0]}]
    with pytest.raises(QueryError, match="parameter s"):
        store.select("SELECT ?v WHERE { ?s ?p ?v }", {"s": "http://x/>}<http://y/"})
    # with a space it is no IRI at all but a literal, harmless
    assert store.select("SELECT ?v WHERE { ?s ?p ?v }", {"s": "http://x/> } ; DROP ALL #"}) == []
    with pytest.raises(QueryError, match="invalid parameter name"):
        store.select("SELECT * WHERE { ?s ?p ?o }", {"s) { (1) } #": "x"})
    assert len(store.select(f"SELECT ?s WHERE {{ ?s <{EX}value> ?v }}")) == len(HOSTILE)  # nothing dropped


def test_parameters_are_bound_as_in_the_embedded_store():
    from rulekb.kb.store.kind import bind_values

    query = "SELECT * WHERE { ?s ?p ?o } # end"
    bound = {"o": 'a"b\n}', "s": "urn:x:1"}
    assert with_values(query, bound) == bind_values(query, bound)
    assert '"a\\"b\\n}"' in with_values(query, bound) and "<urn:x:1>" in with_values(query, bound)


def test_bound_values_reach_filters_and_aggregates(store):
    """A FILTER of the WHERE group and a GROUP BY see the bound value (a
    trailing VALUES would join only after them)."""
    store.replace(sample())
    by_filter = f"SELECT ?s WHERE {{ ?s <{EX}title> ?t FILTER(LCASE(STR(?t)) = LCASE(?wanted)) }}"
    assert store.select(by_filter, {"wanted": "EDITION ONE v1"}) == [{"s": EX + "ed1"}]
    count = "SELECT (COUNT(?p) AS ?n) WHERE { ?s ?p ?o } GROUP BY ?x"
    assert store.select(count, {"s": EX + "r1"}) == [{"n": "2"}]


def test_query_answers_in_every_format(store):
    store.replace(sample())
    select = f"SELECT ?s ?t WHERE {{ ?s <{EX}title> ?t }} ORDER BY ?s"
    for fmt, media in rulekb.kb.store.remote.RESULT_TYPES.items():
        answer = store.query(select, results_format=fmt)
        assert (answer.kind, answer.media_type) == ("results", media)
        assert b"Edition one" in answer.data
    ask = store.query(f"ASK {{ <{EX}r2> <{EX}refersTo> ?x }}")
    assert ask.kind == "results" and b"true" in ask.data
    construct = f"CONSTRUCT {{ ?s <{EX}title> ?t }} WHERE {{ ?s <{EX}title> ?t }}"
    expected = {(f"<{EX}ed1>", f"<{EX}title>", '"Edition one v1"'), (f"<{EX}ed2>", f"<{EX}title>", '"Édition deux v1"@fr')}
    for fmt in ("turtle", "nt", "jsonld", "xml"):
        answer = store.query(construct, rdf_format=fmt)
        assert (answer.kind, answer.media_type) == ("graph", RDF_FORMATS[fmt].media_type)
        assert triples_of(answer.data, fmt) == expected, fmt


def test_export_in_several_formats(store):
    quads = sample()
    store.replace(quads)
    ed1 = [x for x in quads if x.graph_name.value == EX + "graph/ed1"]
    for fmt in ("turtle", "nt", "jsonld", "xml", "trig", "nq"):
        assert triples_of(store.export(EX + "graph/ed1", fmt), fmt) == plain(ed1), fmt
        assert triples_of(store.export(None, fmt), fmt) == plain(quads), fmt  # no manifest, no staging
    whole = list(ox.parse(store.export(None, "nq"), format=ox.RdfFormat.N_QUADS))
    assert {x.graph_name.value for x in whole} == {x.graph_name.value for x in quads}
    with pytest.raises(NotFound):
        store.export(EX + "graph/none", "nt")


# -- errors ----------------------------------------------------------------


def test_bad_query_is_a_query_error_with_the_servers_message(store, server):
    bad = "SELECT ?x WHERE { ?x ?y }"
    request = urllib.request.Request(server, data=urllib.parse.urlencode({"query": bad}).encode())
    with pytest.raises(urllib.error.HTTPError) as raw:
        urllib.request.urlopen(request, timeout=10)
    message = " ".join(raw.value.read().decode().split())
    assert message
    with pytest.raises(QueryError) as error:
        store.select(bad)
    assert message in str(error.value) and "\n" not in str(error.value)
    with pytest.raises(QueryError):
        store.query("this is not SPARQL")
    with pytest.raises(QueryError):  # select() wants SPARQL results, a CONSTRUCT gives a graph
        store.select("CONSTRUCT WHERE { ?s ?p ?o }")


def test_unreachable_endpoint_is_a_store_error():
    dead = RemoteStore(f"http://127.0.0.1:{free_port()}/query")
    for call in (dead.exists, dead.graphs, lambda: dead.select("SELECT * WHERE { ?s ?p ?o }"),
                 lambda: dead.query("ASK {}"), lambda: dead.export(None, "nt"), lambda: dead.replace(sample())):
        with pytest.raises(StoreError, match="cannot reach the SPARQL endpoint at http://127.0.0.1"):
            call()


def test_a_silent_endpoint_times_out_as_a_store_error():
    with socket.socket() as silent:  # accepts connections, never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        store = RemoteStore(f"http://127.0.0.1:{silent.getsockname()[1]}/query", timeout=1)
        started = time.monotonic()
        with pytest.raises(StoreError, match="cannot reach the SPARQL endpoint.*timed out"):
            store.select("SELECT * WHERE { ?s ?p ?o }")
        assert time.monotonic() - started < 10


def test_a_server_without_union_default_graph_is_refused(tmp_path):
    process, url = _serve(tmp_path)  # no --union-default-graph
    try:
        store = RemoteStore(url)
        store.replace(sample())
        with pytest.raises(StoreError, match="--union-default-graph"):
            store.select("SELECT * WHERE { ?s ?p ?o }")
        with pytest.raises(StoreError, match="--union-default-graph"):
            store.exists()
    finally:
        _stop(process)


# -- atomic builds ---------------------------------------------------------


def _kb_graphs(url: str) -> set[str]:
    """Every graph on the server but the manifest."""
    return {g for g in _raw_graphs(url) if not g.startswith(rulekb.kb.store.remote.MANIFEST)}


def _interrupted(quads, after: int, error: BaseException):
    for i, quad in enumerate(quads):
        if i == after:
            raise error
        yield quad


def edited(version: str = "v2") -> list[ox.Quad]:
    """sample() rebuilt with every kind of change: a literal edited, a triple
    added and one removed, a graph gone (ed2), a new graph (ed3), and the graph
    with a blank node rewritten."""
    quads = [x for x in sample(version) if x.graph_name.value != EX + "graph/ed2"]
    quads = [x for x in quads if str(x.predicate) != f"<{EX}number>"]
    quads.insert(2, q("r1", "note", "added", "graph/ed1"))
    return quads + [q("ed3", "title", "Edition three", "graph/ed3")]


def test_a_rebuild_applies_exactly_the_changes(store, server):
    store.replace(sample("v1"))
    new = edited()
    assert store.replace(new) == len(new)
    assert triples_of(store.export(None, "nq"), "nq") == plain(new)
    assert store.graphs() == [EX + "graph/concepts", EX + "graph/ed1", EX + "graph/ed3"]
    assert _kb_graphs(server) == set(store.graphs())
    assert len([g for g in _raw_graphs(server) if g.startswith(rulekb.kb.store.remote.MANIFEST)]) == 1
    # an identical rebuild changes nothing
    before = store.export(EX + "graph/ed1", "nt")
    store.replace(edited())
    assert store.export(EX + "graph/ed1", "nt") == before
    assert triples_of(store.export(None, "nq"), "nq") == plain(new)


@pytest.mark.parametrize("first", [True, False], ids=["first-build", "rebuild"])
@pytest.mark.parametrize("error", [RuntimeError("the build broke"), KeyboardInterrupt()], ids=["error", "ctrl-c"])
def test_interrupted_replace_leaves_the_previous_store(store, server, error, first):
    if not first:
        store.replace(sample("v1"))
    before, graphs_before = store.export(None, "nq"), _raw_graphs(server)
    new = edited() + [q(f"x{i}", "n", str(i), "graph/ed4") for i in range(10)]
    with pytest.raises(type(error)) as raised:
        store.replace(_interrupted(new, len(new) - 5, error))  # a first build has sent 3 graphs
    assert raised.value is error  # the caller's own exception, unchanged
    assert store.export(None, "nq") == before
    assert _raw_graphs(server) == graphs_before  # nothing left behind
    assert store.exists() is not first


def test_bad_input_mid_build_leaves_the_previous_store(store, server):
    store.replace(sample("v1"))
    before = store.export(None, "nq")
    default_graph = ox.Quad(ox.NamedNode(EX + "a"), ox.NamedNode(EX + "b"), ox.Literal("c"), ox.DefaultGraph())
    with pytest.raises(StoreError, match="named graph"):
        store.replace(edited() + [default_graph])
    scattered = sample("v2") + [q("again", "p", "o", "graph/ed1")]
    with pytest.raises(StoreError, match="do not come together"):
        store.replace(scattered)
    assert store.export(None, "nq") == before


def test_a_too_large_change_is_refused(store, server):
    store.replace(sample("v1"))
    before = store.export(None, "nq")
    with pytest.raises(StoreError, match="changes more than 3 quads"):
        RemoteStore(server, max_change=3).replace([q(f"s{i}", "p", str(i), "graph/ed1") for i in range(10)])
    assert store.export(None, "nq") == before


class _Overtaken(RemoteStore):
    """A build that another build overtakes: it commits between our reading
    of the previous manifest and our own commit."""

    def _commit(self, previous, digests, ops):
        RemoteStore(self.url).replace(edited("other"))
        super()._commit(previous, digests, ops)


def test_an_overtaken_commit_is_all_or_nothing_on_the_server(store, server):
    store.replace(sample("v1"))
    # our commit carries its changes first and fails on its last operation
    # (the previous manifest is gone): the server must roll all of it back
    with pytest.raises(StoreError, match="does not exist"):
        _Overtaken(server).replace(sample("mine"))
    assert triples_of(store.export(None, "nq"), "nq") == plain(edited("other"))
    assert len([g for g in _raw_graphs(server) if g.startswith(rulekb.kb.store.remote.MANIFEST)]) == 1


def test_leftovers_in_a_new_graph_are_replaced(store, server):
    store.replace(sample("v1"))
    # say a killed first build, or someone else, left triples in a graph the next build adds
    _raw_update(server, f"INSERT DATA {{ GRAPH <{EX}graph/ed3> {{ <{EX}ghost> <{EX}title> 'ghost' }} }}")
    store.replace(edited())
    assert triples_of(store.export(EX + "graph/ed3", "nt"), "nt") == {
        (f"<{EX}ed3>", f"<{EX}title>", '"Edition three"')}


# -- end to end: a real build ---------------------------------------------


def test_build_an_edition_into_the_remote_store(store, tmp_path, monkeypatch):
    from rulekb.kb.build import build
    from rulekb.kb.service import editions, rule, search
    from rulekb.kb.store.embedded import EmbeddedStore

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data-home"))
    report = build([str(FIXTURE)], store)
    # a remote store keeps a local search index of what it holds
    assert report.search["documents"] > 0 and list((tmp_path / "data-home" / "rulekb" / "search-remote").glob("*/current"))
    assert "101.1" in [hit.get("rule") for hit in search(store, "a card on the table")["results"][:2]]
    assert report.editions == ["en/2030-05-05"] and report.quads > 0
    found = rule(store, "en/2030-05-05", "101.1")
    assert found["text"].startswith("A gadget is a card on the table.")
    assert len(found["examples"]) == 2
    assert editions(store)[0]["edition"] == "en/2030-05-05"
    with pytest.raises(NotFound):
        rule(store, "en/2030-05-05", "999.9")

    # the remote and the embedded store give the same answers to every named query
    from rulekb.kb.store import queries

    embedded = EmbeddedStore(tmp_path / "kb")
    build([str(FIXTURE)], embedded)
    answered = set()
    for number in ("100.1", "101.1"):
        params = {"edition": "en/2030-05-05", "number": number, "section": "101", "term": "gadget",
                  "concept": "gadget", "text": "gadget", "g": "http://localhost:8000/edition/en/2030-05-05"}
        for name, named in {**queries.registry(), **queries.checks()}.items():
            # a parameter this test does not know: the value of the query's own example
            example = dict(re.findall(r"--param (\w+)=(\S+)", named.example))
            given = {p: params.get(p, example.get(p, "gadget")) for p in named.params}
            remote = answer_set(store.query(named.text, given, rdf_format="nt"))
            assert remote == answer_set(embedded.query(named.text, given, rdf_format="nt")), name
            answered |= {name} if remote else set()
    assert {"rule", "rule-examples", "rule-references", "rule-referenced-by", "concept-mentions",
            "section-rules", "editions"} <= answered
    assert sorted(store.graphs()) == sorted(embedded.graphs())
    embedded.close()

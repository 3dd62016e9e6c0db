"""Large graphs into Virtuoso in bounded batches (kb.store.upload), and a server that stops
answering mid-load: Virtuoso 7.2 (Debian) started here, and, in front of it, a real HTTP proxy
on loopback that passes every request on but, when told, keeps the answer to one Graph Store
POST (the batch is received and stored by Virtuoso, its answer never comes back: the way a
whole-graph PUT hung under load). The build then fails in one line naming the endpoint, and
leaves no partial graph: a first build drops what it wrote, a rebuild leaves the previous
build answering and no staging graph behind.
"""

from __future__ import annotations

import http.client
import json
import os
import threading
import time
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pyoxigraph as ox
import pytest

from rulekb.kb.store.remote import RemoteStore
from rulekb.kb.store.upload import batches

from .. import virtuoso as vt
from ..helpers import run_cli

FIXTURE = Path(__file__).parents[1] / "fixtures" / "invented-cr-2030-05-05.txt"
EX = "http://example.org/"
SMALL = "20000"  # bytes a batch: the fixture KB's edition graph goes in several


def test_batches_are_bounded_and_keep_blank_nodes_together():
    lines = [f'<{EX}s{i}> <{EX}p> "{"x" * 50} _:not-a-node {i}"' for i in range(100)]
    lines += ['_:list <http://www.w3.org/1999/02/22-rdf-syntax-ns#first> "1"', f"<{EX}s> <{EX}q> _:list"]
    parts = batches(lines, 1000)
    assert len(parts) > 5 and all(len(p) <= 1000 for p in parts[1:])
    first = parts[0].decode()
    assert "_:list <http" in first and f"<{EX}q> _:list" in first  # one document: one blank node
    assert b"".join(parts).decode().count(" .\n") == len(lines)
    assert len(parts[0]) <= 1000  # "_:" inside a literal is no blank node: those lines are spread


class _Proxy:
    """Passes each request to Virtuoso; the ``stall``-th Graph Store POST (counting from 1, 0:
    none) is passed on too, but its answer is held until the client gives up."""

    def __init__(self, target: str):
        self.target = urllib.parse.urlsplit(target)
        self.stall, self.posts = 0, 0
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _pass(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                stalled = False
                if self.command == "POST" and self.path.startswith("/sparql-graph-crud"):
                    if self.headers.get("Authorization"):
                        proxy.posts += 1
                        stalled = proxy.posts == proxy.stall
                connection = http.client.HTTPConnection(proxy.target.hostname, proxy.target.port, timeout=60)
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
                connection.request(self.command, self.path, body=body, headers=headers)
                response = connection.getresponse()
                data = response.read()
                if stalled:  # stored, never answered
                    time.sleep(8)
                    self.close_connection = True
                    return
                self.send_response_only(response.status)  # (Virtuoso's Server header, not the proxy's)
                for key, value in response.getheaders():
                    if key.lower() not in ("transfer-encoding", "connection", "content-length"):
                        self.send_header(key, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(data)

            do_GET = do_POST = do_HEAD = do_PUT = do_DELETE = _pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/sparql"


@pytest.fixture(scope="module")
def virtuoso(tmp_path_factory):
    server = vt.start(tmp_path_factory.mktemp("virtuoso"))
    yield server
    server.stop()


def _graphs(url: str) -> set[str]:
    """Every graph the server holds (its own included), asked directly, as a raw reader would."""
    data = urllib.parse.urlencode({"query": "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }"}).encode()
    request = urllib.request.Request(url, data=data, headers={"Accept": "application/sparql-results+json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return {row["g"]["value"] for row in json.loads(response.read())["results"]["bindings"]}


def _env(virtuoso, tmp_path, **extra) -> dict:
    return {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data-home"),  # (the run's caches, as other builds')
            "RULEKB_UPLOAD_BATCH_BYTES": SMALL, "RULEKB_UPLOAD_TIMEOUT": "3", **virtuoso.env, **extra}


def _one_error(result) -> str:
    errors = [line for line in result.stderr.splitlines() if line.startswith("rulekb: error")]
    assert result.returncode == 2 and len(errors) == 1 and "Traceback" not in result.stderr, result.stderr
    return errors[0]


def test_a_build_in_batches_and_a_server_that_stops_answering(virtuoso, tmp_path):
    proxy = _Proxy(virtuoso.url)
    env = _env(virtuoso, tmp_path)
    system = _graphs(virtuoso.url)

    # a first build whose third batch is never answered: one line naming the endpoint, nothing left
    proxy.stall = 3
    error = _one_error(run_cli("build", str(FIXTURE), "--store", proxy.url, env=env))
    assert "/sparql-graph-crud-auth did not answer within 3 s while loading <" in error and "batch " in error
    assert virtuoso.password not in error
    assert _graphs(virtuoso.url) == system

    # the same build answered: every named query as over an embedded build
    proxy.stall = 0
    built = run_cli("build", str(FIXTURE), "--store", proxy.url, env=env)
    assert built.returncode == 0, built.stderr
    assert proxy.posts > 8  # (the edition graph alone is more than 20 KB of N-Triples)
    embedded = run_cli("build", str(FIXTURE), "--store", str(tmp_path / "embedded"), env=env)
    assert embedded.returncode == 0, embedded.stderr
    compared = run_cli("bench", "answers", str(tmp_path / "embedded"), virtuoso.url, "--format", "json", env=env)
    assert compared.json["differences"] == [] and len(compared.json["same"]) >= 75, compared.json["differences"]
    built_graphs = _graphs(virtuoso.url)
    before = RemoteStore(virtuoso.url).build_id()

    # a rebuild with a changed rule whose second batch is never answered: the previous build
    # still answers, whole, and no staging graph is left
    changed = tmp_path / "changed" / FIXTURE.name
    changed.parent.mkdir()
    changed.write_text(FIXTURE.read_text(encoding="utf-8").replace(
        "100.1. A widget duel is played by two or more duelists.",
        "100.1. A widget duel is played by two or more duelists, seated.", 1), encoding="utf-8")
    rule = ("rule", "en/2030-05-05", "100.1", "--store", virtuoso.url, "--format", "json")
    old_rule = run_cli(*rule, env=env).json
    proxy.stall, proxy.posts = 2, 0
    error = _one_error(run_cli("build", str(changed), "--store", proxy.url, env=env))
    assert "did not answer within 3 s" in error and "batch " in error
    assert _graphs(virtuoso.url) == built_graphs and RemoteStore(virtuoso.url).build_id() == before
    assert run_cli(*rule, env=env).json == old_rule

    # and answered: the new text, no staging graph
    proxy.stall = 0
    rebuilt = run_cli("build", str(changed), "--store", proxy.url, env=env)
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert "seated" in json.dumps(run_cli(*rule, env=env).json) and "seated" not in json.dumps(old_rule)
    assert not any(g.startswith("urn:rulekb:staging:") for g in _graphs(virtuoso.url))


def test_progress_tells_each_batch_and_blank_nodes_keep_their_identity(virtuoso, monkeypatch):
    for key, value in {**virtuoso.env, "RULEKB_UPLOAD_BATCH_BYTES": "2000"}.items():
        monkeypatch.setenv(key, value)
    graph = ox.NamedNode(EX + "graph/batched")
    quads = [ox.Quad(ox.NamedNode(EX + f"s{i}"), ox.NamedNode(EX + "p"), ox.Literal(f"value {i}"), graph)
             for i in range(200)]
    node = ox.BlankNode()
    quads += [ox.Quad(node, ox.NamedNode(EX + "first"), ox.Literal("one"), graph),
              ox.Quad(ox.NamedNode(EX + "s0"), ox.NamedNode(EX + "list"), node, graph)]
    notes: list[str] = []
    store = RemoteStore(virtuoso.url)
    assert store.replace(quads, progress=notes.append) == 202
    assert len(notes) > 3 and notes[-1].endswith(f"batch {len(notes)}/{len(notes)}") and "graph/batched" in notes[0]
    rows = store.select(f"SELECT ?v WHERE {{ <{EX}s0> <{EX}list> ?b . ?b <{EX}first> ?v }}")
    assert rows == [{"v": "one"}]
    assert store.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }") == [{"n": "202"}]


def test_a_move_past_the_transaction_limit_names_the_setting_and_changes_nothing(tmp_path, monkeypatch):
    """A rebuild moves a changed graph in place in one transaction: past Virtuoso's
    TransactionAfterImageLimit it is refused (SR325); the error says which setting to raise,
    the graph keeps its previous content and no staging graph is left."""
    small = vt.start(tmp_path / "small", after_image_limit=200_000)
    try:
        for key, value in {**small.env, "RULEKB_UPLOAD_BATCH_BYTES": "20000"}.items():  # (a batch within the limit)
            monkeypatch.setenv(key, value)
        graph = ox.NamedNode(EX + "graph/large")

        def content(word: str) -> list[ox.Quad]:
            return [ox.Quad(ox.NamedNode(EX + f"s{i}"), ox.NamedNode(EX + "p"), ox.Literal(f"{word} {i}"), graph)
                    for i in range(5000)]

        store = RemoteStore(small.url)
        store.replace(content("old"))  # a first build: batches straight to the graph
        build = store.build_id()
        with pytest.raises(Exception, match="TransactionAfterImageLimit") as failed:
            store.replace(content("new"))
        assert "SR325" in str(failed.value) and small.password not in str(failed.value)
        assert RemoteStore(small.url).build_id() == build
        assert store.select(f"SELECT (COUNT(*) AS ?n) WHERE {{ ?s ?p ?o FILTER(STRSTARTS(?o, 'old')) }}") == [{"n": "5000"}]
        assert not any(g.startswith("urn:rulekb:staging:") for g in _graphs(small.url))
    finally:
        small.stop()

"""``rulekb serve``'s protocol (kb.web.protocol) and the scanned lookups (kb.web.sparql_fast.scan):
a lookup written from the protocol is the answer the ASGI way gives, on kept-alive, pipelined
and HTTP/1.0 connections; every other response still arrives whole (head with its body, HEAD,
100 Continue); a scanned answer is Oxigraph's, byte for byte."""

from __future__ import annotations

import json
import socket
import urllib.parse

import pyoxigraph as ox
import pytest

from rulekb.kb.web.app import create_app
from rulekb.kb.web.cache import with_response_cache
from rulekb.kb.web.protocol import ServerProtocol
from rulekb.kb.web.sparql_fast import scan
from rulekb.kb.web.sparql_lookup import lookup_of

from ..helpers import WebServer, http
from .test_sparql_fast import EDITION, JSON, POINT, RK, RULE, _pool

SCANNED = [  # {s}: a subject, {g}: its graph
    "SELECT ?p ?o WHERE {{ GRAPH <{g}> {{ <{s}> ?p ?o }} }}",
    "SELECT ?o ?missing ?p {{ GRAPH <{g}> {{ <{s}> ?p ?o }} }}",
    "SELECT DISTINCT ?p WHERE {{ GRAPH <{g}> {{ <{s}> ?p ?o }} }}",
    "SELECT ?missing {{ GRAPH <{g}> {{ <{s}> ?p ?o }} }}",  # a row with no binding per quad
    "SELECT DISTINCT ?missing {{ GRAPH <{g}> {{ <{s}> ?p ?o }} }}",
    "SELECT $o {{ GRAPH <{g}> {{ <{s}> ?p ?o }} }}",
    "SELECT ?o {{ GRAPH <{g}> {{ <{s}> a ?o }} }}",
    "SELECT ?p {{ GRAPH <{g}> {{ <{s}> ?p rk:Rule }} }}",
    "ASK {{ GRAPH <{g}> {{ <{s}> a rk:Rule }} }}",
    "ASK {{ GRAPH <{g}> {{ <{s}> ?p ?o }} }}",
    "ASK {{ GRAPH <http://localhost:8000/nothing> {{ <{s}> ?p ?o }} }}",
]
NOT_SCANNED = [  # lookups Oxigraph's evaluator answers
    RK + f"SELECT ?p ?o {{ GRAPH ?g {{ {RULE} ?p ?o }} }}",  # a graph variable
    RK + f"SELECT ?p ?o {{ {RULE} ?p ?o }}",  # the union of the graphs
    RK + f"SELECT * {{ GRAPH <{EDITION}> {{ {RULE} ?p ?o }} }}",
    RK + f'SELECT ?p {{ GRAPH <{EDITION}> {{ {RULE} ?p "100.1" }} }}',  # a literal to match
    RK + f"SELECT ?p {{ GRAPH <{EDITION}> {{ {RULE} ?p ?p }} }}",
    RK + f"SELECT ?o {{ GRAPH <{EDITION}> {{ {RULE} rk:text ?o }} }} LIMIT 1",
    RK + f"SELECT REDUCED ?p {{ GRAPH <{EDITION}> {{ {RULE} ?p ?o }} }}",
    RK + f"SELECT ?t ?n {{ GRAPH <{EDITION}> {{ {RULE} rk:text ?t ; rk:number ?n }} }}",  # two patterns
]


def test_a_scanned_lookup_is_oxigraphs_answer(fixture_kb):
    store, _ = fixture_kb
    ox_store = store.store()
    subjects = ox_store.query("SELECT DISTINCT ?g ?s { GRAPH ?g { ?s ?p ?o } FILTER(isIRI(?s)) } LIMIT 400")
    checked = 0
    for row in subjects:
        for shape in SCANNED:
            text = RK + shape.format(g=row["g"].value, s=row["s"].value)
            lookup = lookup_of(text)
            assert lookup is not None and lookup.scanned is not None, text
            expected = ox_store.query(text).serialize(format=ox.QueryResultsFormat.JSON)
            assert scan(ox_store, lookup) == expected, text
            checked += 1
    assert checked >= 100
    for text in NOT_SCANNED:
        lookup = lookup_of(text)
        assert lookup is not None and lookup.scanned is None, text


@pytest.fixture(scope="module")
def served(fixture_kb):
    """The app under rulekb serve's protocol, and under uvicorn's own (for the expected answers)."""
    store, _ = fixture_kb
    app, plain = create_app(store), create_app(store)
    with WebServer(app, http=ServerProtocol) as root, WebServer(plain) as plain_root:
        yield root, app, plain_root


def _request(path: str, version: str = "1.1", method: str = "GET", accept: str = JSON) -> bytes:
    return f"{method} {path} HTTP/{version}\r\nHost: 127.0.0.1\r\nAccept: {accept}\r\n\r\n".encode()


def _responses(sock: socket.socket, count: int) -> list[tuple[bytes, dict, bytes]]:
    """``count`` responses (status line, headers, body) read from a kept-alive connection."""
    data, out = b"", []
    while len(out) < count:
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            assert chunk, f"the server closed after {len(out)} responses"
            data += chunk
        head, _, data = data.partition(b"\r\n\r\n")
        status, *lines = head.split(b"\r\n")
        headers = {name.lower(): value for name, value in (line.decode().split(": ", 1) for line in lines)}
        length = int(headers.get("content-length", 0))
        while len(data) < length:
            chunk = sock.recv(65536)
            assert chunk
            data += chunk
        out.append((status, headers, data[:length]))
        data = data[length:]
    return out


def _path(text: str) -> str:
    return "/sparql?" + urllib.parse.urlencode({"query": text})


def test_lookups_are_written_from_the_protocol_as_the_app_answers_them(served):
    root, app, plain_root = served
    port = int(root.rsplit(":", 1)[1].strip("/"))
    pool = _pool(app)
    pool.close()
    texts = [POINT, RK + f"ASK {{ {RULE} a rk:Rule }}", RK + f"SELECT * {{ {RULE} rk:text ?t ; rk:number ?n }}"]
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        # pipelined in one send: each answered, in order, on the kept-alive connection
        sock.sendall(b"".join(_request(_path(text)) for text in texts))
        answers = _responses(sock, len(texts))
        assert pool.pids() == []  # no query worker: the lookups never reached the route
        for text, (status, headers, body) in zip(texts, answers):
            expected = http(plain_root + _path(text)[1:], headers={"Accept": JSON})
            assert status == b"HTTP/1.1 200 OK" and expected[0] == 200
            assert json.loads(body) == json.loads(expected[2]), text
            assert headers["content-type"] == expected[1]["Content-Type"]
            for name in ("access-control-allow-origin", "content-security-policy", "x-content-type-options",
                         "referrer-policy", "x-frame-options"):
                assert headers[name] == expected[1][name], name
            assert "date" in headers and "connection" not in headers
        sock.sendall(_request("/void", accept="text/turtle"))  # the ASGI way, on the same connection
        (status, headers, body), = _responses(sock, 1)
        assert status == b"HTTP/1.1 200 OK" and headers["content-type"].startswith("text/turtle") and body
        sock.sendall(_request(_path(POINT)))  # still open
        assert json.loads(_responses(sock, 1)[0][2]) == json.loads(answers[0][2])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:  # HTTP/1.0: answered, then closed
        sock.sendall(_request(_path(POINT), version="1.0"))
        (status, headers, body), = _responses(sock, 1)
        assert status.endswith(b"200 OK") and headers["connection"] == "close" and b"A widget duel" in body
        assert sock.recv(1) == b""


def test_other_responses_arrive_whole(served):
    root, _, _ = served
    port = int(root.rsplit(":", 1)[1].strip("/"))
    status, headers, body = http(f"{root}sparql?" + urllib.parse.urlencode({"query": POINT}), method="HEAD",
                                 headers={"Accept": JSON})
    assert status == 200 and body == b"" and headers["Content-Security-Policy"]
    status, _, body = http(f"{root}rule/100.1")  # a page: its head held, then sent with the body
    assert status in (200, 303, 404)
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        data = urllib.parse.urlencode({"query": POINT}).encode()
        sock.sendall(b"POST /sparql HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: " + JSON.encode()
                     + b"\r\nContent-Type: application/x-www-form-urlencoded\r\nExpect: 100-continue\r\n"
                     + b"Content-Length: %d\r\n\r\n" % len(data))
        assert sock.recv(65536).startswith(b"HTTP/1.1 100 Continue")  # not held back
        sock.sendall(data)
        (status, headers, body), = _responses(sock, 1)
        assert status == b"HTTP/1.1 200 OK" and b"A widget duel" in body


def test_a_response_cache_in_front_keeps_its_lookups(fixture_kb):
    """Behind rulekb serve's response cache, a lookup is the cache's (ETag, Cache-Control), unless
    the cache leaves /sparql alone (--no-cache-sparql)."""
    store, _ = fixture_kb
    assert create_app(store).answer_now is not None
    assert with_response_cache(create_app(store), store).answer_now is None
    assert with_response_cache(create_app(store), store, sparql=False).answer_now is not None
    with WebServer(with_response_cache(create_app(store), store), http=ServerProtocol) as root:
        status, headers, _ = http(f"{root}sparql?" + urllib.parse.urlencode({"query": POINT}), headers={"Accept": JSON})
        assert status == 200 and headers["ETag"] and headers["Cache-Control"].startswith("public")

"""A remote store that misbehaves: down, slow, HTML, truncated, refusing access.

The misbehaving endpoints are real HTTP servers on loopback (``http.server`` in a
thread), each answering one way. The CLI says one line naming the endpoint and what
happened, exit 2; the web says 502 or 503 with ``Retry-After``; never a traceback,
never a partial answer, never a credential.
"""

from __future__ import annotations

import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from rulekb.kb.store.remote import RemoteStore

from ..helpers import WebServer, http, run_cli

JSON_START = b'{"head": {"vars": ["id"]}, "results": {"bindings": [{"id": {"type": "literal", "value": "en/20'


def _handler(kind: str):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def _answer(self):
            length = int(self.headers.get("Content-Length") or 0)
            if length:
                self.rfile.read(length)
            if kind == "slow":
                time.sleep(4)
            if kind == "html":
                body = b"<html><body><h1>Welcome to nginx!</h1></body></html>"
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            elif kind == "truncated":  # says more than it sends, then closes
                self.send_response(200)
                self.send_header("Content-Type", "application/sparql-results+json")
                self.send_header("Content-Length", str(len(JSON_START) + 500))
                self.end_headers()
                self.wfile.write(JSON_START)
                self.wfile.flush()
                self.close_connection = True
            elif kind == "cut-json":  # whole as HTTP, but the JSON stops mid-way
                self.send_response(200)
                self.send_header("Content-Type", "application/sparql-results+json")
                self.send_header("Content-Length", str(len(JSON_START)))
                self.end_headers()
                self.wfile.write(JSON_START)
            elif kind == "refused":
                self.send_response(401)
                self.send_header("WWW-Authenticate", 'Basic realm="kb"')
                self.send_header("Content-Length", "0")
                self.end_headers()
            else:  # slow: answers, too late
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

        do_GET = do_POST = do_HEAD = _answer

    return Handler


@pytest.fixture(scope="module")
def endpoints():
    servers, urls = [], {}
    for kind in ("html", "truncated", "cut-json", "refused", "slow"):
        server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(kind))
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        urls[kind] = f"http://127.0.0.1:{server.server_address[1]}/sparql"
    from ..helpers import free_port

    urls["down"] = f"http://127.0.0.1:{free_port()}/sparql"  # nothing listens there
    yield urls
    for server in servers:
        server.shutdown()


EXPECTED = {
    "html": "answered text/html, not SPARQL results",
    "truncated": "cannot reach the SPARQL endpoint",
    "cut-json": "truncated or malformed SPARQL JSON",
    "refused": "refused access (HTTP 401)",
    "down": "cannot reach the SPARQL endpoint",
    "slow": "timed out",
}


@pytest.mark.parametrize("kind", sorted(EXPECTED))
def test_the_cli_says_one_line_and_exits_2(endpoints, kind, tmp_path):
    env = {**os.environ, "RULEKB_CACHE": str(tmp_path), "RULEKB_STORE_USER": "reader",
           "RULEKB_STORE_PASSWORD": "s3cret-never-shown", "RULEKB_REMOTE_TIMEOUT": "1"}
    result = run_cli("editions", "--store", endpoints[kind], env=env, timeout=120)
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert EXPECTED[kind] in lines[0] and endpoints[kind].rsplit("/", 1)[0] in lines[0], lines[0]
    assert "s3cret" not in result.stderr and result.stdout == ""


@pytest.mark.parametrize("kind", sorted(EXPECTED))
def test_the_web_says_502_or_503_with_retry_after(endpoints, kind):
    from rulekb.kb.web.app import create_app

    store = RemoteStore(endpoints[kind], timeout=1)
    with WebServer(create_app(store, timeout=1)) as root:
        for path, accept in (("edition/en/2030-05-05/rule/100.1", "text/html"),
                             ("sparql?query=SELECT%20*%20WHERE%20%7B%3Fs%20%3Fp%20%3Fo%7D%20LIMIT%201",
                              "application/sparql-results+json")):
            status, headers, body = http(root + path, headers={"Accept": accept})
            assert status in (502, 503), (path, status, body[:300])
            assert headers.get("Retry-After"), (path, dict(headers))
            assert b"Traceback" not in body
            assert "sparql-results" not in headers.get("Content-Type", "")  # an error, no partial answer

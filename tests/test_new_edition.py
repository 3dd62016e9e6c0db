"""A new edition arrives: ``rulekb fetch --check`` against a local HTTP server
standing in for the official rules page, and ``rulekb build --add``."""

from __future__ import annotations

import functools
import http.server
import json
import socket
import threading

import pytest

from kb.build import build
from kb.store import EmbeddedStore

from .helpers import run_cli

ED = "en/2030-05-05"  # the invented fixture edition


class _Page(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 -- http.server's name
        body = self.server.pages.get(self.path)
        if body is None:
            self.send_error(404)
            return
        data = body.encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def site():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    server.pages = {
        "/rules-current": '<p><a href="https://media.example.org/2030/downloads/MagicCompRules%2020300505.txt">TXT</a>'
                          '<a href="/downloads/MagicCompRules 20300505.pdf">PDF</a>'
                          '<a href="/2029/MagicCompRules_20291101.txt">older</a></p>',
        "/rules-newer": '<a href="/downloads/MagicCompRules%2020300505.txt">old</a>'
                        '<a href="/downloads/MagicCompRules%2020300801.docx">DOCX</a>'
                        '<a href="/downloads/MagicCompRules%2020300801.txt">TXT</a>',
        "/no-rules": "<html><body>Maintenance</body></html>",
    }
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def kb_dir(tmp_path_factory, fixtures):
    root = tmp_path_factory.mktemp("kb") / "store"
    build([str(fixtures / "invented-cr-2030-05-05.txt")], EmbeddedStore(root), reasoner="none")
    return root


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_fetch_check_says_up_to_date(site, kb_dir):
    result = run_cli("fetch", "--check", "--site", f"{site}/rules-current", "--store", str(kb_dir), "--format", "json")
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    assert found["up_to_date"] and found["newer"] == []
    assert found["listed_newest"]["date"] == "2030-05-05" and found["kb_newest"] == "2030-05-05"
    text = run_cli("fetch", "--check", "--site", f"{site}/rules-current", "--store", str(kb_dir))
    assert text.returncode == 0 and text.stdout.startswith("up to date")


def test_fetch_check_names_the_newer_edition_and_its_text(site, kb_dir):
    result = run_cli("fetch", "--check", "--site", f"{site}/rules-newer", "--store", str(kb_dir), "--format", "json")
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    assert not found["up_to_date"]
    assert found["newer"] == [{"date": "2030-08-01", "url": f"{site}/downloads/MagicCompRules%2020300801.txt"}]
    text = run_cli("fetch", "--check", "--site", f"{site}/rules-newer", "--store", str(kb_dir))
    assert "newer edition listed: 2030-08-01" in text.stdout and "build --add" in text.stdout


@pytest.mark.parametrize("path", ["/no-rules", "/missing"])
def test_fetch_check_on_a_page_without_rules_is_one_line_exit_2(site, kb_dir, path):
    result = run_cli("fetch", "--check", "--site", site + path, "--store", str(kb_dir))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("rulekb: error:")
    assert "Traceback" not in result.stderr


def test_fetch_check_offline_is_one_line_exit_2(kb_dir):
    result = run_cli("fetch", "--check", "--site", f"http://127.0.0.1:{_closed_port()}/rules", "--store", str(kb_dir))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "offline" in result.stderr

"""``rulekb fetch`` and URL parsing against a real HTTP server on loopback."""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
from pathlib import Path

import pytest

from rulekb.ingest import fetch
from rulekb.ingest.errors import FetchError
from rulekb.ingest.parse import parse_source

from ..helpers import free_port, run_cli


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep test output clean
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory, fixtures):
    """A directory served over HTTP: an invented edition, laid out like Wizards'
    download folders, plus an HTML error page saved under a rules file name."""
    root = tmp_path_factory.mktemp("site")
    downloads = root / "2030" / "downloads"
    downloads.mkdir(parents=True)
    shutil.copy(fixtures / "invented-cr-2030-05-05.txt", downloads / "MagicCompRules 20300505.txt")
    (downloads / "MagicCompRules 20300606.txt").write_text(
        "<html><body><h1>Service unavailable</h1><p>Try again later.</p></body></html>", encoding="utf-8")
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()



def test_fetch_downloads_into_the_cache_and_then_reuses_it(site, tmp_path):
    url = f"{site}/2030/downloads/MagicCompRules%2020300505.txt"
    path, downloaded = fetch.fetch_to_cache(url, cache=tmp_path)
    assert downloaded and path.name == "MagicCompRules 20300505.txt"
    assert path.read_bytes().startswith(b"Widget Duel Comprehensive Rules")
    again, downloaded = fetch.fetch_to_cache(url, cache=tmp_path)
    assert again == path and not downloaded
    assert not list(tmp_path.glob(".part-*"))


def test_a_url_parses_like_a_file(site):
    result = parse_source(f"{site}/2030/downloads/MagicCompRules%2020300505.txt")
    [edition] = result.editions
    assert edition.id == "en/2030-05-05" and len(edition.rules) == 10
    assert edition.source.location.startswith("http://127.0.0.1")


def test_an_error_page_is_not_cached_as_rules(site, tmp_path):
    with pytest.raises(FetchError, match="not a rules text"):
        fetch.fetch_to_cache(f"{site}/2030/downloads/MagicCompRules%2020300606.txt", cache=tmp_path)
    assert not any(tmp_path.iterdir())


def test_http_errors_and_unreachable_hosts_say_so(site):
    with pytest.raises(FetchError, match="HTTP 404"):
        fetch.download(f"{site}/nothing-here.txt")
    with pytest.raises(FetchError, match="offline or unreachable"):
        fetch.download(f"http://127.0.0.1:{free_port()}/x.txt", timeout=5)


def test_known_editions_resolve_to_wizards_urls_or_a_mirror():
    known = fetch.known_editions()
    assert len(known) > 50
    assert all(k.url.startswith("http") and k.date[:2] == "20" for k in known)
    url = fetch.resolve("2026-01-16")
    assert url == "https://media.wizards.com/2026/downloads/MagicCompRules%2020260116.txt"
    mirrored = fetch.resolve("2026-01-16", mirror="http://127.0.0.1:9/mirror/")
    assert mirrored == "http://127.0.0.1:9/mirror/2026/downloads/MagicCompRules%2020260116.txt"
    with pytest.raises(FetchError, match="no known download URL"):
        fetch.resolve("1998-01-01")


def test_cli_fetch_and_parse_over_http(site, tmp_path):
    url = f"{site}/2030/downloads/MagicCompRules%2020300505.txt"
    result = run_cli("fetch", url, "--cache", str(tmp_path), "--format", "json")
    assert result.returncode == 0, result.stderr
    assert result.json[0]["downloaded"] is True
    assert Path(result.json[0]["path"]).exists()
    parsed = run_cli("parse", url, "--format", "json")
    assert parsed.returncode == 0 and parsed.json["edition"] == "en/2030-05-05"


def test_cli_fetch_offline_is_one_line_and_exit_2(tmp_path):
    result = run_cli("fetch", f"http://127.0.0.1:{free_port()}/x.txt", "--cache", str(tmp_path))
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0
    assert "offline or unreachable" in result.stderr
    assert "Traceback" not in result.stderr

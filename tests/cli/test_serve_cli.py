"""``rulekb serve`` as a user starts it: a subprocess over a KB built with another base."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ..helpers import free_port, http

FIXTURE = Path(__file__).parents[1] / "fixtures" / "invented-cr-2030-05-05.txt"
BASE = "https://rules.example.org/cr/"


@pytest.fixture(scope="module")
def kb_with_its_own_base(tmp_path_factory):
    from rulekb.kb.build import build
    from rulekb.kb.store.embedded import EmbeddedStore

    store = EmbeddedStore(tmp_path_factory.mktemp("based") / "store")
    build([str(FIXTURE)], store, base=BASE, reasoner="none")
    store.close()
    return store.location


def _one_cpu() -> None:
    """(In the server's process, before it starts.) One CPU of the test's: ``rulekb serve`` starts
    a server process per CPU it may use, each warmed before the port opens; what these tests check
    is the base each answers with, the same in any of them (several processes sharing the port:
    tests/web/test_serve_tail.py, tests/bench/test_serve_bench.py)."""
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def _serve(location: str, *extra: str):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "RULEKB_BASE_IRI"}
    process = subprocess.Popen([sys.executable, "-m", "rulekb.kb.cli", "serve", "--store", location, "--port", str(port), *extra],
                               stderr=subprocess.PIPE, text=True, env=env, preexec_fn=_one_cpu)
    root = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return process, root
        except OSError:
            assert process.poll() is None, process.stderr.read()
            time.sleep(0.2)
    process.kill()
    raise AssertionError("rulekb serve did not start")


def _stop(process) -> str:
    process.terminate()
    try:
        return process.communicate(timeout=20)[1]
    except subprocess.TimeoutExpired:
        process.kill()
        return process.communicate()[1]


def test_serve_answers_for_the_base_the_kb_was_built_with(kb_with_its_own_base):
    process, root = _serve(kb_with_its_own_base)
    try:
        status, headers, body = http(root + "edition/en/2030-05-05/rule/100.1", headers={"Accept": "application/n-triples"})
        assert status == 200
        assert f"<{BASE}edition/en/2030-05-05/rule/100.1>" in body.decode()
        status, _, page = http(root + "edition/en/2030-05-05/rule/100.1", headers={"Accept": "text/html"})
        assert status == 200 and 'href="/cr/edition/en/2030-05-05/rule/' in page.decode()
    finally:
        _stop(process)


def test_serve_says_when_the_base_asked_for_is_not_the_kbs(kb_with_its_own_base):
    process, root = _serve(kb_with_its_own_base, "--base-iri", "http://elsewhere.example/")
    try:
        status, _, _ = http(root + "edition/en/2030-05-05/rule/100.1", headers={"Accept": "text/turtle"})
        assert status == 404
    finally:
        err = _stop(process)
    assert f"the KB was built with the base {BASE}" in err

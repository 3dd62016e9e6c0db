"""What a rule page's tail under load is made of, besides the collector (test_gc_pauses.py):
the server processes of ``rulekb serve`` listening together, so a load that starts at once
spreads over all of them; and the word diffs of the longest histories computed before the
port opens, not while a reader (and every request of the process behind it) waits."""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import socket
import subprocess
import sys
import time

from rulekb.kb.web import readiness, rule_page

from ..helpers import free_port


def _bound_socket() -> socket.socket:
    """A socket bound but not listening, as the supervisor of ``rulekb serve`` makes each process's."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


def test_a_warm_process_waits_until_the_supervisor_makes_its_socket_listen(tmp_path, monkeypatch):
    sock = _bound_socket()
    monkeypatch.setenv("RULEKB_SERVE_FD", str(sock.fileno()))

    async def supervisor_listens_later():
        await asyncio.sleep(0.3)
        assert os.listdir(tmp_path) == [str(os.getpid())]  # it said it is warm, and waits
        sock.listen(8)

    async def scenario():
        late = asyncio.create_task(supervisor_listens_later())
        waited = await readiness.listen_together(str(tmp_path), 2)
        await late
        return waited

    try:
        assert 0.25 <= asyncio.run(scenario()) < 5
        # a process started again later, its socket made to listen when it said it is warm: at once
        assert asyncio.run(readiness.listen_together(str(tmp_path), 2)) < 0.1
    finally:
        sock.close()


def test_a_supervisor_that_never_opens_does_not_keep_the_port_closed(tmp_path, monkeypatch):
    sock = _bound_socket()
    monkeypatch.setenv("RULEKB_SERVE_FD", str(sock.fileno()))
    try:
        assert 0.2 <= asyncio.run(readiness.listen_together(str(tmp_path), 2, wait=0.2)) < 2
    finally:
        sock.close()
    monkeypatch.delenv("RULEKB_SERVE_FD")  # no socket of a supervisor's: nothing to wait for
    assert asyncio.run(readiness.listen_together(str(tmp_path), 2)) < 0.1


def test_a_load_that_starts_at_once_reaches_every_server_process(fixture_kb):
    """wrk opens its connections when the port opens and keeps them: were the port open when
    the first process is warm, every connection would stay on it (measured on the full KB:
    all 16 of wrk's on one process of two, the other idle)."""
    store, _ = fixture_kb
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "rulekb.kb.cli", "serve", "--store", store.location, "--port",
                               str(port), "--workers", "2", "--query-workers", "1"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while True:  # the moment the port opens, as a load generator sees it
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None, "rulekb serve did not open its port"
                time.sleep(0.02)
        connections = [http.client.HTTPConnection("127.0.0.1", port, timeout=30) for _ in range(16)]
        for connection in connections:
            connection.connect()
        pids = set()
        for connection in connections:  # kept alive: the process each connection landed on
            connection.request("GET", "/healthz")
            answer = connection.getresponse()
            assert answer.status == 200
            pids.add(json.loads(answer.read())["pid"])
            connection.close()
        # (the kernel spreads connections over listening processes by a hash: 16 connections all
        # on one of two processes that both listen is a chance of 1 in 32,768)
        assert len(pids) == 2
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_the_longest_histories_diffs_are_kept_before_the_port_opens(numbers_kb, monkeypatch):
    from rulekb.kb.service import longest_histories, page_store

    store, _ = numbers_kb
    monkeypatch.setattr(rule_page, "_costly", {})
    rule_page._diff_kept.cache_clear()
    edition, number = longest_histories(store, 1)[0]
    assert edition == "en/2021-04-01"  # the newest version of the lineage
    kept = rule_page.keep_longest_diffs(store, 1)
    assert kept >= 1
    rule_page._diff_kept.cache_clear()  # the LRU turned over since

    def no_computation(*_):
        raise AssertionError("a kept diff was computed again")

    monkeypatch.setattr(rule_page.history, "word_diff", no_computation)
    view = rule_page.history_view(page_store(store, edition, number), edition, number)
    assert [p for p in view["periods"] if p.get("diff")]  # the page shows the diff, from what was kept
    rule_page._diff_kept.cache_clear()


def test_a_history_slow_to_diff_as_a_whole_is_kept_whole(numbers_kb, monkeypatch):
    """A history of many wordings, each diff too quick to be costly alone, all of them slow
    together: kept whole the first time a page computes it (not again after the LRU turns over)."""
    from rulekb.kb.service import longest_histories, page_store

    store, _ = numbers_kb
    monkeypatch.setattr(rule_page, "_costly", {})
    rule_page._diff_kept.cache_clear()
    edition, number = longest_histories(store, 1)[0]
    monkeypatch.setattr(rule_page, "COSTLY_DIFF", 10.0)  # no diff is slow alone
    monkeypatch.setattr(rule_page, "COSTLY_HISTORY", 10.0)  # nor a history as a whole
    rule_page.history_view(page_store(store, edition, number), edition, number)
    assert rule_page._costly == {}
    rule_page._diff_kept.cache_clear()
    monkeypatch.setattr(rule_page, "COSTLY_HISTORY", -1.0)  # every history is slow as a whole
    view = rule_page.history_view(page_store(store, edition, number), edition, number)
    diffs = {p["diff"] for p in view["periods"] if p.get("diff")}
    assert diffs and set(rule_page._costly.values()) == diffs
    rule_page._diff_kept.cache_clear()

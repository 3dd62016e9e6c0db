"""kb.web.cache: rendered GET answers kept per store version, with ETag, Cache-Control and 304."""

from __future__ import annotations

import os
import time

import pytest
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from rulekb.kb.web.cache import ResponseCache, with_response_cache

from ..helpers import WebServer, http


class Store:
    """What the cache asks of a store: where its data is (the embedded store's ``current`` target)."""

    def __init__(self, data):
        self.data = data

    def data_dir(self):
        return self.data


@pytest.fixture()
def served(tmp_path):
    calls = {"n": 0}

    async def page(request):
        calls["n"] += 1
        media = "text/html" if "html" in request.headers.get("accept", "") else "text/turtle"
        return PlainTextResponse(f"{request.path_params['name']} #{calls['n']} as {media}", media_type=media)

    async def missing(request):
        calls["n"] += 1
        return PlainTextResponse("not here", status_code=404)

    async def broken(request):
        calls["n"] += 1
        return PlainTextResponse("oops", status_code=500)

    async def private(request):
        calls["n"] += 1
        return Response("secret", headers={"Cache-Control": "no-store"})

    (tmp_path / "data-1").mkdir()
    store = Store(tmp_path / "data-1")
    app = Starlette(routes=[Route("/missing", missing), Route("/broken", broken), Route("/private", private),
                            Route("/sparql", page), Route("/page/{name}", page)])
    cached = with_response_cache(app, store, max_entries=3)
    with WebServer(cached) as root:
        yield root, calls, store, cached, tmp_path


def test_a_second_get_is_answered_from_the_cache_with_etag_and_cache_control(served):
    root, calls, *_ = served
    first = http(root + "page/a", headers={"Accept": "text/html"})
    second = http(root + "page/a", headers={"Accept": "text/html"})
    assert first[0] == second[0] == 200
    assert first[2] == second[2] == b"a #1 as text/html"
    assert calls["n"] == 1
    assert first[1]["ETag"] and first[1]["ETag"] == second[1]["ETag"]
    assert first[1]["Cache-Control"].startswith("public, max-age=")
    assert "Accept" in first[1]["Vary"]


def test_answers_are_kept_per_accept_header_and_query_string(served):
    root, calls, *_ = served
    assert http(root + "page/a", headers={"Accept": "text/html"})[2] == b"a #1 as text/html"
    assert http(root + "page/a", headers={"Accept": "text/turtle"})[2] == b"a #2 as text/turtle"
    assert http(root + "page/a?x=1", headers={"Accept": "text/html"})[2] == b"a #3 as text/html"
    assert http(root + "page/a", headers={"Accept": "text/turtle"})[2] == b"a #2 as text/turtle"
    assert calls["n"] == 3


def test_a_matching_if_none_match_gets_304_without_a_body(served):
    root, calls, *_ = served
    etag = http(root + "page/b")[1]["ETag"]
    status, headers, body = http(root + "page/b", headers={"If-None-Match": etag})
    assert (status, body) == (304, b"")
    assert headers["ETag"] == etag
    assert http(root + "page/b", headers={"If-None-Match": '"other"'})[0] == 200


def test_404_is_cached_but_not_other_errors_nor_no_store_answers(served):
    root, calls, *_ = served
    assert http(root + "missing")[0] == 404
    assert http(root + "missing")[0] == 404
    assert calls["n"] == 1
    assert http(root + "broken")[0] == 500
    assert http(root + "broken")[0] == 500
    assert calls["n"] == 3
    http(root + "private")
    http(root + "private")
    assert calls["n"] == 5


def test_the_cache_holds_at_most_max_entries_least_recently_used_out_first(served):
    root, calls, _, cached, _ = served
    for name in "abcd":
        http(root + f"page/{name}")
    assert len(cached.entries) == 3
    http(root + "page/a")  # evicted: computed again
    assert calls["n"] == 5


def test_a_new_store_version_empties_the_cache(served):
    root, calls, store, cached, tmp_path = served
    http(root + "page/a")
    (tmp_path / "data-2").mkdir()
    store.data = tmp_path / "data-2"  # what a rebuild's symlink swap looks like
    time.sleep(1.1)  # the version is read at most once a second
    assert http(root + "page/a")[2] == b"a #2 as text/turtle"


def test_sparql_get_answers_are_cached_unless_turned_off(tmp_path):
    calls = {"n": 0}

    async def sparql(request):
        calls["n"] += 1
        return PlainTextResponse(f"answer {calls['n']}")

    app = Starlette(routes=[Route("/sparql", sparql)])
    os.makedirs(tmp_path / "data", exist_ok=True)
    for sparql_cached, expected in ((True, 1), (False, 2)):
        calls["n"] = 0
        with WebServer(ResponseCache(app, Store(tmp_path / "data"), sparql=sparql_cached)) as root:
            http(root + "sparql?query=ASK%7B%7D")
            http(root + "sparql?query=ASK%7B%7D")
        assert calls["n"] == expected


def test_a_store_without_a_data_directory_is_not_cached(tmp_path):
    calls = {"n": 0}

    async def page(request):
        calls["n"] += 1
        return PlainTextResponse("x")

    from rulekb.kb.store.remote import RemoteStore

    remote = RemoteStore("http://localhost:9/sparql")  # never asked: its data_dir() is None
    with WebServer(with_response_cache(Starlette(routes=[Route("/p", page)]), remote)) as root:
        http(root + "p")
        http(root + "p")
    assert calls["n"] == 2


def test_concurrent_misses_of_one_answer_compute_it_once(tmp_path):
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    calls = {"n": 0}

    async def slow(request):
        calls["n"] += 1
        await asyncio.sleep(0.5)
        return PlainTextResponse("done")

    os.makedirs(tmp_path / "data", exist_ok=True)
    app = with_response_cache(Starlette(routes=[Route("/slow", slow)]), Store(tmp_path / "data"))
    with WebServer(app) as root, ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: http(root + "slow"), range(8)))
    assert {a[2] for a in answers} == {b"done"}
    assert calls["n"] == 1

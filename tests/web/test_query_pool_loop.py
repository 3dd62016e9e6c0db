"""QueryPool.arun, the event loop's way to the query workers (no thread hand-off): a large
answer arrives whole across many reads, the same worker then serves the blocking path,
and the deadline still kills a busy worker."""

from __future__ import annotations

import asyncio
import pickle

import pytest

from rulekb.kb.web.query_pool import QueryPool, Request, _Frame

JSON = "application/sparql-results+json"
EVERY_TRIPLE = "SELECT ?s ?p ?o WHERE { ?s ?p ?o }"
CROSS = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"


@pytest.fixture
def pool(fixture_kb):
    store, _ = fixture_kb
    made = QueryPool(store.local_root, 1, None, 100_000, 2.0)
    yield made
    made.close()


def test_a_large_answer_then_the_blocking_path_then_a_timeout(pool):
    async def scenario():
        first = await pool.arun(Request(EVERY_TRIPLE, (), (), None, JSON))
        again = await pool.arun(Request(EVERY_TRIPLE, (), (), None, JSON, verdict=first[4]))
        return first, again

    first, again = asyncio.run(scenario())
    assert first[0] == "ok" and len(first[2]) > 100_000, first[:2]  # many reads of the socket
    assert first[4] == ("results", False) and again[:4] == first[:4]
    worker = pool.pids()
    assert pool.run(Request("ASK {}", (), (), None, JSON))[0] == "ok"  # blocking again after the loop
    assert pool.pids() == worker

    async def runaway():
        return await pool.arun(Request(CROSS, (), (), None, JSON, timeout=1.0))

    with pytest.raises(TimeoutError):
        asyncio.run(runaway())
    assert pool.pids() != worker  # killed and replaced
    assert asyncio.run(pool.arun(Request("ASK {}", (), (), None, JSON)))[0] == "ok"


def test_frames_of_every_size_are_read_whole():
    import os
    import socket
    from multiprocessing.connection import Connection

    for size in (0, 10, 16_384, 16_385, 3_000_000):
        ours, theirs = socket.socketpair()
        sender = Connection(theirs.detach())
        value = b"x" * size

        async def read():
            loop = asyncio.get_running_loop()
            done = loop.create_future()
            frame = _Frame(ours.fileno(), done)
            os.set_blocking(ours.fileno(), False)
            loop.add_reader(ours.fileno(), frame.readable)
            writer = loop.run_in_executor(None, sender.send, value)
            payload = await done
            await writer
            loop.remove_reader(ours.fileno())
            return payload

        assert pickle.loads(asyncio.run(read())) == value
        sender.close()
        ours.close()

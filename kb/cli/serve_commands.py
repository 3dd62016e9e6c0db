"""``rulekb serve``: the web endpoint (SPARQL 1.1 Protocol at /sparql, pages, dereferenced IRIs).

With ``--workers N`` uvicorn runs N processes; each builds its own app with
:func:`app_from_env` from the settings this command puts in environment
variables (uvicorn's workers import the app by name). The embedded store is
opened read-only by every process at once (RocksDB allows any number of
read-only openers), so the workers share the page cache, not a lock.
uvicorn's "auto" loop is uvloop; the HTTP protocol is httptools' behind the
limits of :mod:`kb.web.guard` (head size and field count, head and body read
timeouts, a connection cap), with ``limit_concurrency`` and a short keep-alive,
and the shortcuts of :mod:`kb.web.protocol` (bounded SPARQL lookups written
from the protocol, one write per response); no access log.
"""

from __future__ import annotations

import os

import typer

from .app import BaseOption, StoreOption, _store, app
from .output import errors_as_exit_codes, fail, stderr

# settings for app_from_env, in the environment the worker processes inherit
_ENV = {
    "store": "RULEKB_SERVE_STORE",
    "base_iri": "RULEKB_SERVE_BASE_IRI",
    "max_rows": "RULEKB_SERVE_MAX_ROWS",
    "timeout": "RULEKB_SERVE_TIMEOUT",
    "cache": "RULEKB_SERVE_CACHE",
    "query_workers": "RULEKB_SERVE_QUERY_WORKERS",
    "cache_sparql": "RULEKB_SERVE_CACHE_SPARQL",
}


# uvicorn's settings for a public server (see kb.web.guard for the protocol's own limits)
UVICORN_LIMITS = {
    "http": "rulekb.kb.web.protocol:ServerProtocol",  # kb.web.guard's limits, cheaper responses
    "limit_concurrency": 512,  # requests in progress per process: then 503 (after the head)
    "timeout_keep_alive": 5,  # seconds an idle kept-alive connection stays open
    "backlog": 1024,
    "server_header": False,
    # at log level warning the access log prints nothing, yet uvicorn formats each line's client
    # address and quoted path before asking the logger (about 3 % of a point lookup's CPU)
    "access_log": False,
}


def build_app(store, base_iri: str | None, *, max_rows: int, timeout: float, cache: int, query_workers: int,
              cache_sparql: bool = True):
    """The app of one process: kb.web's app, behind the response cache unless ``cache`` is 0."""
    from ..web.app import create_app
    from ..web.cache import with_response_cache

    web_app = create_app(store, base_iri, max_rows=max_rows, timeout=timeout, workers=query_workers)
    if cache == 0:
        return web_app
    return with_response_cache(web_app, store, max_entries=cache, sparql=cache_sparql)


def app_from_env():
    """uvicorn's factory for each worker process (``kb.cli.serve_commands:app_from_env``)."""
    from ..service import open_store

    env = os.environ
    return build_app(
        open_store(env.get(_ENV["store"]) or None),
        env.get(_ENV["base_iri"]) or None,
        max_rows=int(env.get(_ENV["max_rows"], "10000")),
        timeout=float(env.get(_ENV["timeout"], "30")),
        cache=int(env.get(_ENV["cache"], "0")),
        query_workers=int(env.get(_ENV["query_workers"], "4")),
        cache_sparql=env.get(_ENV["cache_sparql"], "1") == "1",
    )


def _base_to_serve(kb, asked: str | None) -> str | None:
    """The base whose IRIs this server answers for: the one asked for (--base-iri or
    RULEKB_BASE_IRI), else the one the KB was built with; a mismatch is said, since
    then no IRI of the KB dereferences."""
    from ..service import base_iri, built_base

    built = built_base(kb)
    if asked is None and not os.environ.get("RULEKB_BASE_IRI"):
        return built
    if built and base_iri(asked) != built:
        stderr.print(f"rulekb: warning: the KB was built with the base {built}, not {base_iri(asked)}: "
                     f"its IRIs will not dereference here (rebuild with --base-iri, or serve with --base-iri {built})",
                     markup=False, highlight=False)
    return asked


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
    port: int = typer.Option(8000, "--port", help="Port to listen on."),
    store: str = StoreOption,
    base_iri: str = BaseOption,
    max_rows: int = typer.Option(10_000, "--max-rows", help="Rows (or triples) per answer; more are cut, with X-Rulekb-Truncated: true."),
    timeout: float = typer.Option(30.0, "--timeout", help="Seconds per query (checked between result rows)."),
    workers: int = typer.Option(1, "--workers", help="Server processes (uvicorn workers); about one per core."),
    cache: int = typer.Option(4096, "--cache", help="Rendered pages and resources kept in memory per process (LRU, "
                              "with ETag and Cache-Control); 0: no cache."),
    cache_sparql: bool = typer.Option(True, "--cache-sparql/--no-cache-sparql",
                                      help="Cache GET /sparql answers too (the store is read-only between builds)."),
    query_workers: int = typer.Option(4, "--query-workers", help="SPARQL queries evaluated at once, per server process."),
) -> None:
    """Serve the KB over HTTP: the SPARQL 1.1 Protocol at /sparql (read-only), pages and the KB's IRIs."""
    import uvicorn

    if workers < 1:
        fail("--workers must be 1 or more")
    if cache < 0:
        fail("--cache must be 0 or more")
    if query_workers < 1:
        fail("--query-workers must be 1 or more")
    with errors_as_exit_codes():
        kb = _store(store)
        kb.check()  # fail now, in one line, when there is no KB
        base_iri = _base_to_serve(kb, base_iri)
        stderr.print(f"rulekb: SPARQL endpoint at http://{host}:{port}/sparql"
                     + (f" ({workers} worker processes)" if workers > 1 else ""), markup=False, highlight=False)
        if workers == 1:
            web_app = build_app(kb, base_iri, max_rows=max_rows, timeout=timeout, cache=cache,
                                query_workers=query_workers, cache_sparql=cache_sparql)
            uvicorn.run(web_app, host=host, port=port, log_level="warning", **UVICORN_LIMITS)
            return
        kb.close()  # the workers open their own
        settings = {"store": kb.location, "base_iri": base_iri or "", "max_rows": max_rows,
                    "timeout": timeout, "cache": cache, "query_workers": query_workers,
                    "cache_sparql": int(cache_sparql)}
        os.environ.update({_ENV[key]: str(value) for key, value in settings.items()})
        uvicorn.run("rulekb.kb.cli.serve_commands:app_from_env", factory=True, workers=workers,
                    host=host, port=port, log_level="warning", **UVICORN_LIMITS)

"""``rulekb serve``: the web endpoint (SPARQL 1.1 Protocol at /sparql)."""

from __future__ import annotations

import typer

from .app import app
from .kb_commands import BaseOption, StoreOption, _store
from .output import errors_as_exit_codes, stderr


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
    port: int = typer.Option(8000, "--port", help="Port to listen on."),
    store: str = StoreOption,
    base_iri: str = BaseOption,
    max_rows: int = typer.Option(10_000, "--max-rows", help="Rows (or triples) per answer; more are cut, with X-Rulekb-Truncated: true."),
    timeout: float = typer.Option(30.0, "--timeout", help="Seconds per query (checked between result rows)."),
) -> None:
    """Serve the KB over HTTP: the SPARQL 1.1 Protocol at /sparql (read-only)."""
    import uvicorn

    from ..web.app import create_app

    with errors_as_exit_codes():
        kb = _store(store)
        if hasattr(kb, "store"):
            kb.store()  # fail now, in one line, when there is no KB
        stderr.print(f"rulekb: SPARQL endpoint at http://{host}:{port}/sparql", markup=False, highlight=False)
        uvicorn.run(create_app(kb, base_iri, max_rows=max_rows, timeout=timeout), host=host, port=port, log_level="warning")

"""Errors of the knowledge base: each says what is wrong in one line.

Every error rulekb raises on purpose descends from one root,
:class:`RulekbError` (defined in ``ingest.errors``, the bottom layer, and
re-exported here), which carries ``status`` and ``message``. The CLI turns them
into ``rulekb: error: ...`` and an exit code in one place
(``kb.cli.output.exit_code``); the web endpoint into an HTTP answer in one place
(``kb.web.errors.status_and_message``).
"""

from __future__ import annotations

from rulekb.ingest.errors import IngestError, RulekbError

__all__ = ["RulekbError", "IngestError", "KBError", "StoreError", "NotFound", "QueryError", "BuildError", "ReasonerError"]


class KBError(RulekbError):
    """Base class: a request the KB cannot answer as asked."""

    status = 400


class StoreError(KBError):
    """No store where one was expected, or a store that cannot be used."""

    status = 503


class NotFound(KBError):
    """An edition, rule, query or resource that does not exist."""

    status = 404


class QueryError(KBError):
    """A SPARQL query that does not parse or cannot run."""


class BuildError(KBError):
    """A build that could not produce a store (nothing usable in its sources)."""


class ReasonerError(KBError, RuntimeError):
    """A reasoner could not run (as opposed to: it ran and found a problem).

    Still a RuntimeError for callers that catch that. (Here rather than in
    kb.reason.backends, which re-exports it, so that kb.hermit can raise it without
    importing the backends that run it.)"""

    status = 503

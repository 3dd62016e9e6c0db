"""Errors of the knowledge base: each says what is wrong in one line.

The CLI turns them into ``rulekb: error: ...`` and exit 2; the web endpoint
(later) into a 4xx with the same message.
"""

from __future__ import annotations


class KBError(Exception):
    """Base class: a request the KB cannot answer as asked."""

    status = 400

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


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

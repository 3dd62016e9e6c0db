"""The align and meanings stages: rule lineages across editions, and the changes of meaning between them."""

from __future__ import annotations

from collections.abc import Callable

from rulekb.ingest.model import Edition

from ..rdf import meaning_changes
from .sources import workers


def chain(editions: list[Edition], progress: Callable[[str], None] | None = None):
    """The lineages of the complete editions of each language (partial ones, a
    site's pages or an excerpt, would break every chain they sit in), and whether
    they came from the cache (:mod:`kb.lineage.cache`)."""
    from ..lineage.cache import cached_lineages

    return cached_lineages([e for e in editions if not e.partial], progress=progress)


def meanings(by_id: dict[str, Edition], pairs: list[tuple[str, str]], stage) -> list:
    """:func:`kb.rdf.meaning_changes.consecutive` of ``pairs`` in runs of a few pairs, computed
    by forked workers (kb.parallel), which inherit the editions: handing each pair's two
    editions to a worker by pickle cost more CPU than comparing them (31 s against 19 s for
    the corpus's 126 pairs). Each run is read from the cache or computed and cached as before."""
    from ..parallel import fork_map

    size = 6
    runs = [pairs[start:start + size] for start in range(0, len(pairs), size)]
    found: list = []
    for run, items in zip(runs, fork_map(lambda index: meaning_changes.consecutive(by_id, runs[index]),
                                         len(runs), workers())):
        found += items
        stage.advance(f"compare {run[-1][0]} -> {run[-1][1]}", step=len(run))
    return found


def texts(edition: Edition) -> dict[str, str]:
    """Each rule number's text (a duplicate number: the first, as the KB keeps it)."""
    out: dict[str, str] = {}
    for rule in edition.rules:
        out.setdefault(rule.number, rule.text)
    return out

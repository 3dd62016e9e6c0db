"""The index of a build: written from what the build already holds in memory
(editions, concepts, lineages, the mention matchers), beside the new store."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path


def writer(editions: list, concepts: dict, lineages, matchers: dict, base: str,
           progress: Callable[[str], None] | None = None) -> Callable[[Path], dict]:
    """``write(directory) -> statistics``: the index of these editions, for
    :meth:`kb.store.embedded.EmbeddedStore.replace` (``beside``) or :func:`.home.swap_local`."""

    def write(directory: Path) -> dict:
        from . import documents, index

        if progress:
            progress("index for search")
        from ..compare.terminology import RENAMES

        meta = {"editions": documents.edition_rows(editions), "concepts": documents.concept_rows(concepts),
                "renames": {old: new for old, new in RENAMES.items() if old in concepts or new in concepts},
                "base": base}
        return index.write(directory, documents.documents(editions, concepts, lineages, matchers), meta)

    return write

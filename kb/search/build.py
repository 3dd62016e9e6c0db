"""The index of a build: written from what the build already holds in memory
(editions, concepts, lineages, the mention matchers), beside the new store."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path


def writer(editions: list, concepts: dict, lineages, matchers: dict, base: str,
           progress: Callable[[str], None] | None = None, cards: list | None = None) -> Callable[[Path], dict]:
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
        stats = index.write(directory, documents.documents(editions, concepts, lineages, matchers), meta)
        stats["dense"] = dense_from_cache(directory, progress)
        if cards:  # the card name index beside it (kb.cards.names)
            from ..cards import names

            stats["cards"] = names.write(directory, cards, {"edition": cards[0].get("edition"), "base": base})
        return stats

    return write


def updater(previous, new, concepts: dict, by_rule: dict, matchers: dict, base: str) -> Callable[[Path, Path], dict | None]:
    """``update(old, fresh) -> statistics``: the index in ``old`` with the edition ``new``
    added, written to ``fresh`` (``rulekb build --add``, :meth:`kb.store.embedded.EmbeddedStore.update`);
    None when ``old`` is an index without document keys (then it is copied as it is).
    ``previous``: ``new``'s predecessor (or None); ``by_rule``: (edition id, number) -> lineage id
    for the rules of both."""

    def update(old: Path, fresh: Path) -> dict | None:
        import json
        import shutil
        from types import SimpleNamespace

        from . import documents, index
        from ..compare.terminology import RENAMES

        if not index.can_update(old):
            shutil.copytree(old, fresh)
            return None
        meta = json.loads((Path(old) / index.META).read_text(encoding="utf-8"))
        rows = [row for row in meta.get("editions", []) if row["edition"] != new.id] + documents.edition_rows([new])
        rows.sort(key=lambda row: (row["effective_date"] or "9999", row["edition"]))
        meta = {"editions": rows, "concepts": documents.concept_rows(concepts),
                "renames": {o: n for o, n in RENAMES.items() if o in concepts or n in concepts}, "base": base}
        both = [e for e in (previous, new) if e is not None]
        docs = documents.documents(both, concepts, SimpleNamespace(by_rule=by_rule), matchers)
        stats = index.update(old, fresh, docs, new.id, meta)  # (a copy of old: its card files too)
        stats["dense"] = dense_from_cache(fresh)
        return stats

    return update


def dense_from_cache(directory: Path, progress: Callable[[str], None] | None = None) -> dict:
    """The dense arm beside a new index, from the embedding cache (:func:`.dense_build.write_from_cache`:
    the few missing texts embedded now, many left to ``rulekb build --embed``); ``RULEKB_DENSE=off``: none."""
    from . import dense_build

    if dense_build.mode() == "off":
        return {"state": "off"}
    if progress:
        progress("embeddings for search")
    engine = dense_build.prepare()
    return {**dense_build.write_from_cache(directory), "engine": engine}

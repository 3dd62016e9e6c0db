"""The point-in-time queries as they were before the wordings had their own links
(rk:firstEdition, rk:introducedBy, rk:endedBy): they join the changes of the KB instead. The
tests run both and compare rows, so the faster queries keep the answers. In lineage-versions,
"the wording is its lineage's last" is said with dcterms:replaces, not rk:nextVersion (a per-edition
link the store may drop)."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).parent


def rows(store, name: str, **params) -> list[dict]:
    """The reference query ``name``'s rows on ``store`` (parameters bound as named queries are)."""
    from rulekb.kb.store.queries import parse_query_file

    query = parse_query_file(name, (HERE / f"{name}.rq").read_text(encoding="utf-8"))
    return store.select(query.text, query.bindings({k: v for k, v in params.items() if v is not None}))


def same(old: list[dict], new: list[dict]) -> bool:
    """The same rows, in any order of equal sort keys (a query's ORDER BY leaves ties open)."""
    key = lambda row: sorted(row.items())  # noqa: E731
    return sorted(map(key, old)) == sorted(map(key, new))

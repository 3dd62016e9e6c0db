"""Documents of equal score rank in the order they were written, build after build
(kb.search.index.write): a concept's mentions score alike, and which of them make a
page must not change with how a build's threads shared the writing out."""

from __future__ import annotations

import tantivy

from rulekb.kb.search import rank
from rulekb.kb.search.documents import Doc
from rulekb.kb.search.index import open_index, write


N_DOCS = 1000  # enough for a second writing thread to take a share (two threads: the test fails)


def _docs(n: int):
    for i in range(n):
        number = f"{100 + i // 40}.{i % 40 + 1}"
        yield Doc(kind="rule", lang="en", number=number, text=f"A widget of kind {i} hums when it is wound.",
                  section=number.split(".")[0], group=f"en:{number}", editions=["en/2030-05-05"],
                  mentions={"widget"}, key=f"k{i:05d}")


def _tied_order(directory) -> list[str]:
    index, _ = open_index(directory)
    searcher = index.searcher()
    query = tantivy.Query.const_score_query(rank.exact(index.schema, "mentions", "widget"), 1.0)
    hits = searcher.search(query, limit=5000, count=False).hits
    assert len({score for score, _ in hits}) == 1  # every document ties
    return [searcher.doc(addr).to_dict()["key"][0] for _, addr in hits]


def test_documents_of_equal_score_keep_the_order_they_were_written_in(tmp_path):
    n = N_DOCS
    written = [doc.key for doc in _docs(n)]
    assert write(tmp_path / "a", _docs(n), {"editions": [], "concepts": {}})["documents"] == n
    assert _tied_order(tmp_path / "a") == written

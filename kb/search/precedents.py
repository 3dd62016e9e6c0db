"""Questions settled before: the rules that settled the questions nearest in meaning to a new
one, a list of the fusion (:data:`kb.search.rank.RRF_PRECEDENT`).

Judges are asked the same matters again and again in new words and with other cards ("can I
respond before it resolves?" is settled by the priority rules; "do I lose right there?" by when
state-based actions are checked): the rules that settle such a question are general ones, which
share few words with it and lie far from it in meaning, and which no card's links bring. The
gold sets' *tuning* questions (never a held-out row) are the precedents: ``rulekb bench
adapter`` embeds each as search reads it, beside the query adapter it learns, into
``precedents.npz`` (package data: the vectors in float16, each question's id, text and rules,
and the edition their rule numbers are of).

A question's vector (moved by the query adapter when the dense arm's is) is compared with the
precedents' (moved by the same adapter: both sides are read alike); each of the :data:`K`
nearest gives its similarity to every rule it cites, and the :data:`N` rules given the most
make the list, in the edition searched (through the rules' lineages: a renumbered rule is the
same rule). Only for searches in the precedents' language, in an index that holds their edition:
the French texts are excerpts whose numbers are another edition's. A missing, unreadable or other model's file leaves search as it
was, and :func:`state` says so.
"""

from __future__ import annotations

import json
import zipfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from tantivy import Occur, Query

from . import rank
from .learnt_files import learnt, write_npz

PATH = Path(__file__).with_name("precedents.npz")
# chosen on tuning parts only, each measured with a memory and an adapter learnt without it
# (docs/search.md "Questions settled before")
K = 20  # the nearest precedents that vote
N = 10  # the rules with the most votes that make the list



@dataclass
class Precedents:
    vectors: object  # numpy (n, DIM) float32, unit rows, as the model gives them
    questions: list[dict]  # {"id", "question", "rules"}, row by row
    meta: dict  # model_version, edition, ...
    _moved: object = None  # (the adapter, the vectors it moved): read once per adapter
    _cited: object = None  # (how many precedents cite each rule, and each pair of rules): counted once
    _last: object = None  # (the last question's vector, its adapter, its nearest)

    def nearest(self, vector, adapter=None) -> list[tuple[int, float]]:
        """(row, similarity) of the :data:`K` nearest precedents to ``vector``; ``adapter``: the query
        adapter ``vector`` was moved by (the precedents are moved by it too). The last question's
        are kept: a search asks for its votes, then the learnt order for its tally (kb.search.rerank)."""
        import numpy as np

        last = self._last
        if last is not None and last[0] is vector and last[1] is adapter:
            return last[2]
        rows = self.vectors
        if adapter is not None:
            if self._moved is None or self._moved[0] is not adapter:  # (moved once per adapter)
                moved = rows + rows @ adapter.matrix.T
                self._moved = (adapter, (moved / np.linalg.norm(moved, axis=1, keepdims=True)).astype(np.float32))
            rows = self._moved[1]
        sims = rows @ vector
        found = [(int(i), float(sims[i])) for i in np.argsort(-sims, kind="stable")[:K]]
        self._last = (vector, adapter, found)
        return found

    def votes(self, vector, adapter=None) -> list[tuple[str, int, float]]:
        """(rule number, the nearest precedent citing it, its similarity), the rules with the most
        votes (the similarities of the precedents citing them, summed) first, :data:`N` at most."""
        tally, _ = self.tally(vector, adapter)
        ranked = sorted(tally, key=lambda n: (-tally[n][0], n))[:N]
        return [(n, tally[n][3], tally[n][2]) for n in ranked]

    def tally(self, vector, adapter=None) -> tuple[dict[str, tuple[float, int, float, int]], float]:
        """Every rule the :data:`K` nearest cite -> (their similarities summed, how many, the highest,
        the row of the nearest citing it); and the nearest one's similarity (what :mod:`.rerank` reads)."""
        out: dict[str, tuple[float, int, float, int]] = {}
        nearest = self.nearest(vector, adapter)
        for row, sim in nearest:  # nearest first: the first citing a rule is its highest
            for number in self.questions[row]["rules"]:
                total, count, high, first = out.get(number, (0.0, 0, sim, row))
                out[number] = (total + sim, count + 1, high, first)
        return out, (nearest[0][1] if nearest else 0.0)

    def cited(self) -> tuple[Counter, dict[str, Counter]]:
        """How many precedents cite each rule, and each other rule beside it (counted once)."""
        if self._cited is None:
            alone: Counter = Counter()
            beside: dict[str, Counter] = {}
            for q in self.questions:
                rules = set(q["rules"])
                for a in rules:
                    alone[a] += 1
                    beside.setdefault(a, Counter()).update(b for b in rules if b != a)
            self._cited = (alone, beside)
        return self._cited


def load(model_version: str, path: Path | None = None) -> Precedents | None:
    return learnt(Precedents, _read, Path(path or PATH), model_version)[0]


def state(model_version: str, path: Path | None = None) -> str:
    """``on``, or why they are off: ``absent``, ``unreadable``, ``another model (...)``."""
    return learnt(Precedents, _read, Path(path or PATH), model_version)[1]


def _read(path: Path, model_version: str) -> Precedents | str:
    import numpy as np

    if not path.is_file():
        return "absent"
    try:
        with np.load(path, allow_pickle=False) as data:
            vectors = np.asarray(data["vectors"], dtype=np.float32)
            meta = json.loads(str(data["meta"]))
        questions = meta.pop("questions")
        ok = (vectors.ndim == 2 and len(questions) == vectors.shape[0] and np.isfinite(vectors).all()
              and all(isinstance(q.get("rules"), list) and all(isinstance(n, str) for n in q["rules"]) for q in questions))
    except (OSError, ValueError, KeyError, TypeError, AttributeError, EOFError, zipfile.BadZipFile):
        return "unreadable"
    if not isinstance(meta, dict) or meta.get("model_version") != model_version:
        return f"another model ({meta.get('model_version') if isinstance(meta, dict) else None})"
    if not ok or not vectors.shape[0]:
        return "unreadable"
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return Precedents(vectors / norms, questions, meta)


def write(path: Path, vectors, questions: list[dict], meta: dict) -> None:
    """The vectors (float16) and the questions, written whole then renamed over ``path``."""
    import numpy as np

    write_npz(Path(path), vectors=np.asarray(vectors, dtype=np.float16),
              meta=np.array(json.dumps({**meta, "questions": questions}, sort_keys=True, ensure_ascii=False)))


def ranked(searcher, vector, adapter, edition: str | None, lang: str, unit, docs: dict) -> dict[str, tuple[int, dict]]:
    """``unit`` -> (rank, the nearest precedent citing it) of the rules the precedents nearest to
    ``vector`` vote for, in the edition searched (across editions: the newest's lineages, as
    :mod:`.brought`); their documents go into ``docs``."""
    from .dense import MODEL_VERSION

    found = load(MODEL_VERSION)
    if found is None or rank.RRF_PRECEDENT <= 0:
        return {}
    held_in = edition or searcher.default_edition(lang)
    source = found.meta.get("edition", "")  # (an index without it: their numbers say nothing of its rules)
    if not held_in or source not in searcher.editions or source.split("/")[0] != held_in.split("/")[0]:
        return {}
    voted = found.votes(vector, adapter)
    if not voted:
        return {}
    schema, index = searcher.schema, searcher.searcher

    def rules_in(edition_id: str, field: str, values) -> list[dict]:
        query = Query.boolean_query([
            (Occur.Must, Query.const_score_query(rank.exact(schema, "editions", edition_id), 0.0)),
            (Occur.Must, Query.boolean_query([(Occur.Should, rank.exact(schema, field, v)) for v in values])),
            (Occur.MustNot, rank.exact(schema, "kind", "glossary"))])
        return [index.doc(addr).to_dict() for _, addr in index.search(query, limit=4 * len(values), count=False).hits]

    numbers = [n for n, _, _ in voted]
    if source == held_in:
        by_number = {doc["number"][0]: doc for doc in rules_in(held_in, "number", numbers)}
    else:
        lineage = {doc["number"][0]: doc["lineage"][0] for doc in rules_in(source, "number", numbers) if doc.get("lineage")}
        found_docs = {doc["lineage"][0]: doc for doc in rules_in(held_in, "lineage", sorted(set(lineage.values())))} \
            if lineage else {}
        by_number = {n: found_docs[lin] for n, lin in lineage.items() if lin in found_docs}
    out: dict[str, tuple[int, dict]] = {}
    for number, row, similarity in voted:
        doc = by_number.get(number)
        if doc is None:
            continue
        k = unit(doc)
        if k not in out:
            q = found.questions[row]
            out[k] = (len(out) + 1, {"id": q.get("id"), "question": q.get("question"), "similarity": round(similarity, 4)})
            docs.setdefault(k, doc)
    return out

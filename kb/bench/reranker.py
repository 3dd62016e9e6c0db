"""``rulekb bench reranker``: learn the order of a card question's first results
(:mod:`kb.search.rerank`) from the gold sets' tuning parts, cross-fitted.

A new question meets an adapter and precedents learnt without it; a tuning question searched
with the shipped ones would meet itself among the precedents. So the tuning questions are split
in :data:`FOLDS` parts by a hash of their id; for each part, an adapter and its precedents are
learnt from the other parts (:func:`kb.bench.adapter.learn`, into a temporary folder), and the
part's questions are searched with them, recording each candidate's features. LightGBM's
LambdaRank learns from all the parts' rows; the same model learnt without each part, scored on
it, gives the cross-fitted figures (the fusion's order against the learnt one). The trees are
written as flat arrays (``kb/search/reranker.json``), read back and checked to score as LightGBM
does.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from pathlib import Path

from ..errors import KBError
from . import adapter as adapter_learning
from . import search as gold_search

FOLDS = 4
# chosen on the cross-fitted tuning rows (docs/search.md "The learnt order"): leaves 7 / 15, 100-300
# trees, a first-30 / first-60 candidates' pool within a point of each other at all@10
PARAMS = {"objective": "lambdarank", "num_leaves": 7, "learning_rate": 0.05, "min_data_in_leaf": 20,
          "lambdarank_truncation_level": 20, "seed": 7, "deterministic": True, "force_row_wise": True,
          "num_threads": 1, "verbose": -1}
ROUNDS = 200
CARD_FREE = True  # learnt on the card-free tuning questions too, so search orders them (rerank.covers_card_free)


def fold_of(question_id: str, folds: int = FOLDS) -> int:
    return int(hashlib.sha1(question_id.encode("utf-8")).hexdigest(), 16) % folds


def learn(searcher, sets: dict | None = None, out: Path | None = None, folds: int = FOLDS, progress=None) -> dict:
    """Learn the model and write it to ``out`` (default :data:`kb.search.rerank.PATH`); the figures.
    ``progress(message)``: where the learning is, a line every 50 steps or questions."""
    try:
        import lightgbm
        import numpy as np
    except ImportError:
        raise KBError("rulekb bench reranker needs LightGBM to learn: pip install 'rulekb[learn]'") from None
    from ..search import rank, rerank

    sets = sets if sets is not None else gold_search.gold_sets(None)
    tuning = [(name, q) for name, qs in sets.items() for q in qs if q.tuning]
    if len({fold_of(q.id, folds) for _, q in tuning}) < 2:
        raise KBError("the gold's tuning questions do not fill two parts: nothing to learn the order from")
    groups = []  # (fold, question, numbers, rows)
    for part in range(folds):
        without = {name: [q for q in qs if q.tuning and fold_of(q.id, folds) != part] for name, qs in sets.items()}
        asked = [q for _, q in tuning if fold_of(q.id, folds) == part]
        if not asked:
            continue
        with tempfile.TemporaryDirectory(prefix="rulekb-reranker-") as folder:
            where = Path(folder) / "adapter.npz"
            adapter_learning.learn(searcher, without, where, progress=_every(
                50, progress, f"part {part + 1}/{folds}: the adapter and precedents without it, step {{}}/{{}}"))
            searched = _every(50, progress, f"part {part + 1}/{folds}: question {{}}/{{}} searched")
            with _learnt(where, where.with_name("adapter-precedents.npz")):
                for i, q in enumerate(asked, start=1):
                    searcher.rerank_log = []
                    try:
                        searcher.search(q.question, edition=q.edition, limit=10)
                        for numbers, rows in searcher.rerank_log:
                            groups.append((part, q, numbers, rows))
                    finally:
                        searcher.rerank_log = None
                    searched(i, len(asked))
    usable = [g for g in groups if any(n in g[1].rules for n in g[2])]
    if len(usable) < 10:
        raise KBError(f"{len(usable)} tuning questions find a rule that settles them among the first candidates: too few to learn from")

    def fit(chosen):
        data = lightgbm.Dataset(np.vstack([np.asarray(g[3], dtype=np.float64) for g in chosen]),
                                np.concatenate([[int(n in g[1].rules) for n in g[2]] for g in chosen]),
                                group=[len(g[2]) for g in chosen], params={"verbose": -1})
        return lightgbm.train(PARAMS, data, num_boost_round=ROUNDS)

    before, after = [], []
    for part in sorted({g[0] for g in groups}):
        trained = [g for g in usable if g[0] != part]
        if not trained:
            continue
        model = fit(trained)
        for _, q, numbers, rows in (g for g in groups if g[0] == part):
            scores = model.predict(np.asarray(rows, dtype=np.float64))
            before.append((q, numbers))
            order = [numbers[i] for i in sorted(range(len(numbers)), key=lambda i: (-scores[i], i))]
            after.append((q, rank.spread(order, lambda n: None if n.startswith("glossary:") else rank.family(n))
                          if q.cards else order))
    model = fit(usable)
    trees = _flat(model.dump_model())
    every = np.vstack([np.asarray(g[3], dtype=np.float64) for g in usable])
    if not np.allclose(rerank.Trees(**{k: np.asarray(v) for k, v in trees.items() if k != "depth"},
                                    depth=trees["depth"], meta={}).score(every), model.predict(every), atol=1e-9):
        raise KBError("the flattened trees do not score as LightGBM does: not written")
    meta = {"features": list(rerank.FEATURES), "depth": trees.pop("depth"), "params": PARAMS, "rounds": ROUNDS,
            "lightgbm": lightgbm.__version__, "folds": folds, "questions": len(usable),
            "gold": {name: adapter_learning._digest(qs) for name, qs in sorted(sets.items()) if any(q.tuning for q in qs)},
            "card_free": CARD_FREE,
            "cross_fitted": {"questions": len(before), "fusion": _figures(before), "learnt": _figures(after),
                             **{kind: {"questions": sum(1 for q, _ in before if chosen(q)),
                                       "fusion": _figures([r for r in before if chosen(r[0])]),
                                       "learnt": _figures([r for r in after if chosen(r[0])])}
                                for kind, chosen in (("cards", lambda q: bool(q.cards)),
                                                     ("card_free", lambda q: not q.cards))}}}
    path = Path(out) if out else rerank.PATH
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps({"meta": meta, "trees": trees}, separators=(",", ":")) + "\n", encoding="utf-8")
    tmp.replace(path)
    from ..search import learnt_files

    learnt_files.forget(path)
    return {**meta, "path": str(path)}


def _every(n: int, progress, message: str):
    """A ``(done, total)`` callback saying ``message.format(done, total)`` at the first, every
    ``n``-th and the last (nothing without ``progress``)."""
    def say(done: int, total: int) -> None:
        if progress and (done == 1 or done % n == 0 or done == total):
            progress(message.format(done, total))
    return say


class _learnt:
    """Search with another adapter and precedents for a while (the package's paths, put back after)."""

    def __init__(self, adapter_path: Path, precedents_path: Path):
        self.paths = (adapter_path, precedents_path)

    def __enter__(self):
        from ..search import adapter, precedents

        self.saved = (adapter.PATH, precedents.PATH)
        adapter.PATH, precedents.PATH = self.paths

    def __exit__(self, *exc):
        from ..search import adapter, learnt_files, precedents

        adapter.PATH, precedents.PATH = self.saved
        for path in self.paths:
            learnt_files.forget(path)


def _figures(ranked) -> dict:
    """recall@5 and every cited rule in the first 10, in %, of (question, candidates in order)."""
    n = len(ranked) or 1
    five = sum(1 for q, order in ranked if set(q.rules) & set(order[:5]))
    every = sum(1 for q, order in ranked if set(q.rules) <= set(order[:10]))
    return {"recall@5": round(100 * five / n, 1), "all@10": round(100 * every / n, 1)}


def _flat(dump: dict) -> dict:
    """LightGBM's trees as arrays (:class:`kb.search.rerank.Trees`)."""
    arrays = {"feature": [], "threshold": [], "left": [], "right": [], "value": [], "roots": []}
    depth = 1

    def walk(node: dict, level: int) -> int:
        nonlocal depth
        depth = max(depth, level)
        i = len(arrays["feature"])
        for name, empty in (("feature", -1), ("threshold", 0.0), ("left", -1), ("right", -1), ("value", 0.0)):
            arrays[name].append(empty)
        if "leaf_value" in node:
            arrays["value"][i] = float(node["leaf_value"])
            return i
        if node.get("decision_type") != "<=":
            raise KBError(f"a split LightGBM wrote as {node.get('decision_type')!r}: only '<=' is read")
        arrays["feature"][i], arrays["threshold"][i] = int(node["split_feature"]), float(node["threshold"])
        arrays["left"][i] = walk(node["left_child"], level + 1)
        arrays["right"][i] = walk(node["right_child"], level + 1)
        return i

    for tree in dump["tree_info"]:
        arrays["roots"].append(walk(tree["tree_structure"], 1))
    return {**arrays, "depth": depth}

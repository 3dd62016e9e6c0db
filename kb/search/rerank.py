"""The learnt order of a question's first results: a ranking model over what the fusion knew.

A judge's question naming cards is settled by several rules of several matters (the card's
keyword, when state-based actions are checked, what a replacement does), and the gold's scenarios
were found one at a time but rarely all in the first ten: the fusion of :mod:`.rank` adds
reciprocal ranks with weights set by hand, and cannot learn that a rule two lists hold low is
worth more than one a single list holds high, or that rules cited beside the first results in the
questions settled before (:mod:`.precedents`) belong with them. So the first :data:`TOP`
candidates of the fusion (after the family cap) are scored by a tree ensemble learnt with
LightGBM's LambdaRank on the gold's tuning questions (``rulekb bench reranker``: each question's
features read with an adapter and precedents learnt without it, as a new question meets them),
and put in that order; the rest keep theirs. The features (:data:`FEATURES`) are what the fusion
had: each list's rank (words, meaning, the cards' sections, what they bring, the rules the first
results cite, the precedents), the words' score and the meaning's similarity, how the precedents
voted, how often the gold's tuning questions cite the rule and cite it beside the first results,
its family among the first results, and the question's length and cards.

Only where it was learnt: a question searched in one edition that is the precedents' (their
numbers are its rules), with the query adapter on, naming a card, or card-free when the model was
learnt on card-free questions too (``meta.card_free``: :func:`covers_card_free`); a card-free
question's order is not family-capped, as its fusion's was not. The model is package data
(``reranker.json``: the trees as arrays, evaluated with numpy; LightGBM is needed to learn it,
never to search); a missing, unreadable or other features' file leaves the fusion's order, and
:func:`state` says why.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

from . import rank
from .learnt_files import learnt

PATH = Path(__file__).with_name("reranker.json")
TOP = 40  # the fusion's first candidates the model orders (30 and 60 measured the same)
FEATURES = (
    "position", "rrf_words", "words_score", "in_words", "rrf_meaning", "similarity_below_best", "similarity",
    "in_meaning", "rrf_met", "rrf_brought", "rrf_referred", "rrf_precedent", "votes", "voters", "voter_nearest",
    "votes_of_best", "glossary", "subrule", "family_in_first_15", "parent_in_first_10", "cited_before",
    "cited_beside_first_5", "cited_beside_first_10", "cards", "asked_in_french", "question_words",
    "nearest_precedent", "chapter",
)
_C = 30  # the reciprocal ranks' constant in the features (fixed: what the model learnt on)
_SUBRULE = re.compile(r"\d[a-z]+$")


@dataclass
class Trees:
    """A LightGBM ensemble as flat arrays: node ``i`` is a leaf when ``feature[i] < 0`` (its value
    ``value[i]``), else goes to ``left[i]`` when the row's ``feature[i]`` is at most ``threshold[i]``."""
    feature: object
    threshold: object
    left: object
    right: object
    value: object
    roots: object
    depth: int
    meta: dict

    def score(self, rows):
        import numpy as np

        rows = np.asarray(rows, dtype=np.float64)
        node = np.repeat(self.roots[None, :], len(rows), axis=0)
        index = np.arange(len(rows))[:, None]
        for _ in range(self.depth):
            feature = self.feature[node]
            inner = feature >= 0
            if not inner.any():
                break
            x = rows[index, np.where(inner, feature, 0)]
            node = np.where(inner, np.where(x <= self.threshold[node], self.left[node], self.right[node]), node)
        return self.value[node].sum(axis=1)


def covers_card_free(path: Path | None = None) -> bool:
    """Whether the model was learnt on card-free questions too (``meta.card_free``), so orders them."""
    found = load(path)
    return found is not None and getattr(found, "meta", {}).get("card_free") is True


def load(path: Path | None = None) -> Trees | None:
    return learnt(Trees, _read, Path(path or PATH))[0]


def state(path: Path | None = None) -> str:
    """``on``, or why it is off: ``absent``, ``unreadable``, ``other features``."""
    return learnt(Trees, _read, Path(path or PATH))[1]


def _read(path: Path, _model_version: str) -> Trees | str:
    import numpy as np

    if not path.is_file():
        return "absent"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        meta, trees = data["meta"], data["trees"]
        arrays = {name: np.asarray(trees[name], dtype=np.float64 if name in ("threshold", "value") else np.int64)
                  for name in ("feature", "threshold", "left", "right", "value", "roots")}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return "unreadable"
    if not isinstance(meta, dict) or tuple(meta.get("features") or ()) != FEATURES:
        return "other features"
    if any(a.ndim != 1 for a in arrays.values()):
        return "unreadable"
    n = len(arrays["feature"])
    inner = arrays["feature"] >= 0
    if not (n and all(len(a) == n for name, a in arrays.items() if name != "roots") and len(arrays["roots"])
            and np.isfinite(arrays["threshold"]).all() and np.isfinite(arrays["value"]).all()
            and (arrays["feature"] < len(FEATURES)).all()
            and ((arrays["left"][inner] >= 0) & (arrays["left"][inner] < n)).all()
            and ((arrays["right"][inner] >= 0) & (arrays["right"][inner] < n)).all()
            and ((arrays["roots"] >= 0) & (arrays["roots"] < n)).all()):
        return "unreadable"
    depth = meta.get("depth")
    if not isinstance(depth, int) or isinstance(depth, bool) or not 0 < depth <= n:
        return "unreadable"
    return Trees(**arrays, depth=depth, meta=meta)


def features(u, numbers: list[str], lists: dict, tally: dict, nearest: float, cited: tuple) -> list[list[float]]:
    """One row of :data:`FEATURES` per candidate, ``numbers`` the candidates' rule numbers in the
    fusion's order (a glossary entry: ``glossary:<key>``); ``lists``: the fusion's inputs (``words``
    unit -> rank, ``score``, ``meaning`` -> (rank, similarity), ``met``, ``brought``, ``referred``,
    ``precedent`` -> rank), keyed by number here; ``tally``, ``nearest``: :meth:`Precedents.tally`
(its first three of each rule);
    ``cited``: :meth:`Precedents.cited`."""
    alone, beside = cited
    words, score, meaning = lists["words"], lists["score"], lists["meaning"]
    best_score = max(score.values(), default=0.0) or 1.0
    best_sim = max((sim for _, sim in meaning.values()), default=0.0) or 1.0
    best_votes = max((v[0] for v in tally.values()), default=0.0) or 1.0
    family = [rank.family(n) for n in numbers]
    first_15: dict[str, int] = {}
    for f in family[:15]:
        first_15[f] = first_15.get(f, 0) + 1
    first_10 = set(numbers[:10])

    def rr(r):
        return 0.0 if r is None else 1.0 / (_C + r)

    def beside_first(n, k):
        return sum(beside[c].get(n, 0) / (alone[c] + 2) for c in numbers[:k] if c != n and c in beside)

    rows = []
    for i, (n, fam) in enumerate(zip(numbers, family), start=1):
        glossary = n.startswith("glossary:")
        rank_meaning, sim = meaning.get(n, (None, None))
        votes, voters, high = tally.get(n, (0.0, 0, 0.0))[:3]
        rows.append([
            1.0 / (i + 5), rr(words.get(n)), score.get(n, 0.0) / best_score, float(n in words),
            rr(rank_meaning), (sim - best_sim) if sim else -0.3, sim or 0.0, float(n in meaning),
            rr(lists["met"].get(n)), rr(lists["brought"].get(n)), rr(lists["referred"].get(n)),
            rr(lists["precedent"].get(n)), votes, voters, high, votes / best_votes,
            float(glossary), float(bool(_SUBRULE.search(n))), 0.0 if glossary else first_15.get(fam, 1) - 1.0,
            float(fam in first_10 and fam != n), math.log1p(alone.get(n, 0)), beside_first(n, 5), beside_first(n, 10),
            float(len(u.cards)), float(u.asked_in == "fr"), float(len(u.text.split())), nearest,
            -1.0 if glossary else float(n[0]) if n[:1].isdigit() else -1.0,
        ])
    return rows


def apply(searcher, u, ordered: list[str], docs: dict, near: dict, lists: dict, vector, adapter,
          edition: str | None, grouped: bool) -> tuple[list[str], str]:
    """``ordered`` with its first :data:`TOP` in the model's order (then the family cap again), and
    what was done: ``on``, or why not (a question naming no card, another edition, the model's
    :func:`state`); ``u.learnt_from``: the fusion's rank of each candidate the order moved (its hit says so). When ``searcher.rerank_log`` is a list, each question's rows are appended to
    it ((numbers, rows): what ``rulekb bench reranker`` learns from)."""
    from . import precedents
    from .dense import MODEL_VERSION

    log = getattr(searcher, "rerank_log", None)
    orders = bool(u.cards) or covers_card_free()  # (a card-free question only by a model learnt on them)
    if grouped or not edition or adapter is None or not (orders or log is not None):
        return ordered, "off"
    found = precedents.load(MODEL_VERSION)
    if found is None or found.meta.get("edition") != edition:
        return ordered, "off"
    head = ordered[:TOP]
    searcher.fill_docs(head, docs, near, grouped)
    head = [k for k in head if k in docs]
    number = {k: docs[k]["number"][0] if docs[k]["kind"][0] == "rule" else f"glossary:{k}" for k in head}
    keyed = {name: {number[k]: v for k, v in ranks.items() if k in number} for name, ranks in lists.items()}
    tally, nearest = found.tally(vector, adapter)
    rows = features(u, [number[k] for k in head], keyed, tally, nearest, found.cited())
    if log is not None:
        log.append(([number[k] for k in head], rows))
    model = load()
    if model is None:
        return ordered, state()
    if not orders:  # (features recorded for the learning, the order not applied)
        return ordered, "off"
    scores = model.score(rows)
    order = sorted(range(len(head)), key=lambda i: (-scores[i], i))
    rest = [k for k in ordered if k not in number]
    family_of = lambda k: rank.family(docs[k]["number"][0]) if k in docs and docs[k]["kind"][0] == "rule" else None  # noqa: E731
    learnt = [head[i] for i in order] + rest
    if u.cards:  # (as the fusion's order was: a card question's families capped)
        learnt = rank.spread(learnt, family_of)
    before = {k: i for i, k in enumerate(ordered, start=1)}
    u.learnt_from = {k: before[k] for i, k in enumerate(learnt[:TOP], start=1) if before.get(k) != i}
    return learnt, "on"

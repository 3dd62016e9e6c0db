"""``rulekb bench adapter``: learn the query adapter (:mod:`kb.search.adapter`) from the gold sets'
tuning parts, against a built store whose dense arm holds the edition they ask about.

Only the *tuning* rows are read (the held-out rows are what measures it afterwards, in
``rulekb bench search``): each question as search reads it (the cards it names read as what
they are, players' shorthand as the rules' words: the text the dense arm embeds), the rules
that settle it as its targets, every document of the edition as the softmax's field. The
questions asked about one edition are used, the edition most of them ask about (the newest
English rules of the corpus): a rule's number means one document there.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path

from ..errors import KBError
from . import search as gold_search


def learn(searcher, sets: dict | None = None, out: Path | None = None, progress=None) -> dict:
    """Learn the map and write it to ``out`` (default: the package's :data:`adapter.PATH`), and the
    same questions' vectors as the precedents (:mod:`kb.search.precedents`) beside it
    (``<out>-precedents.npz``; default: :data:`precedents.PATH`); what was learnt from, and the
    recall@5 by meaning alone of the training questions before and after."""
    import numpy as np

    from ..search import adapter, dense, precedents

    sets = sets if sets is not None else gold_search.gold_sets(None)
    questions = [(name, q) for name, qs in sets.items() for q in qs if q.tuning]
    if not questions:
        raise KBError("no tuning questions in the gold sets: nothing to learn the adapter from")
    edition = Counter(q.edition for _, q in questions).most_common(1)[0][0]
    lang = edition.split("/")[0]
    arm = searcher.arm()
    if arm is None:
        raise KBError("the store has no dense arm: build it first (rulekb build, then rulekb build --embed now)")
    done, total = arm.coverage(edition, lang)
    if not total or done < total:
        raise KBError(f"the dense arm holds {done:,} of the {total:,} documents of {edition}: complete it first "
                      "(rulekb build --embed now)")
    rows = arm.rows(edition, lang)
    numbers = searcher.document_numbers([str(arm.keys[r]) for r in rows])
    row_of = {}
    for i, key in enumerate(str(arm.keys[r]) for r in rows):
        kind, number = numbers.get(key, ("", ""))
        if kind == "rule":
            row_of.setdefault(number, i)
    vectors, targets, used, kept = [], [], Counter(), []
    for name, q in questions:
        if q.edition != edition:
            continue
        wanted = sorted({row_of[n] for n in q.rules if n in row_of})
        if not wanted:
            continue
        u = searcher.read(q.question, lang)
        vectors.append(dense.embed_query(u.meaning_text or u.text, adapted=False))
        targets.append(wanted)
        used[name] += 1
        kept.append({"id": q.id, "question": q.question, "rules": [n for n in q.rules if n in row_of]})
    if not vectors:
        raise KBError(f"no tuning question of {edition} names a rule the store holds: nothing to learn from")
    vectors = np.stack(vectors)
    documents = np.asarray(arm.vectors[rows], dtype=np.float32)
    matrix = adapter.train(vectors, targets, documents, epochs=adapter.EPOCHS, rate=adapter.RATE,
                           penalty=adapter.PENALTY, temperature=adapter.TEMPERATURE, progress=progress)  # (what meta says)
    found = adapter.Adapter(matrix.astype(np.float16).astype(np.float32), {})
    meta = {
        "model_version": dense.MODEL_VERSION, "edition": edition, "documents": int(len(rows)),
        "questions": sum(used.values()), "sets": dict(sorted(used.items())),
        "gold": {name: _digest(sets[name]) for name in sorted(used)},
        "epochs": adapter.EPOCHS, "rate": adapter.RATE, "penalty": adapter.PENALTY,
        "temperature": adapter.TEMPERATURE,
        "recall@5_by_meaning": {"before": _recall(vectors, targets, documents, None),
                                "after": _recall(vectors, targets, documents, found)},
    }
    adapter.write(Path(out) if out else adapter.PATH, matrix, meta)
    beside = Path(out).with_name(Path(out).stem + "-precedents.npz") if out else precedents.PATH
    precedents.write(beside, vectors, kept, {key: meta[key] for key in ("model_version", "edition", "sets", "gold")})
    meta["precedents"] = str(beside)
    return meta


def _digest(questions) -> str:
    """What the questions were: a hash of their ids, texts and rules (a changed gold set shows)."""
    text = "\n".join(f"{q.id}\t{q.question}\t{' '.join(q.rules)}" for q in questions if q.tuning)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _recall(vectors, targets: list[list[int]], documents, found) -> float:
    import numpy as np

    moved = np.stack([found.apply(v) for v in vectors]) if found is not None else vectors
    top = np.argsort(-(moved @ documents.T), axis=1)[:, :5]
    hits = sum(bool(set(row.tolist()) & set(wanted)) for row, wanted in zip(top, targets))
    return round(100.0 * hits / len(targets), 1)

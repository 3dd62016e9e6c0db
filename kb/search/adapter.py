"""The query adapter: a question's embedding moved towards where the rules that settle
questions lie, before the dense arm ranks by meaning.

The model (:mod:`.dense`) places a player's question and the rule that settles it further apart
than the question and a glossary entry or a rule that only shares its topic: it was trained on
web search, not on judges' questions. The adapter is one linear map learnt on our gold sets'
*tuning* parts (the questions and the rules that settle them, :mod:`kb.bench.adapter`): the
question's vector ``q`` becomes ``q + A q``, normalised. The rules' vectors are not touched, so
nothing is embedded again, and the held-out parts of the gold sets, which it never saw, say
what it is worth (``rulekb bench search`` prints the fused ranking with and without it).

Learnt by :func:`train`: a softmax over every document of the edition (the settling rules the
targets), full batch, Adam, a penalty on ``A`` keeping the map near the identity, from ``A = 0``
(deterministic: the same gold and store give the same map). It is package data
(``query_adapter.npz``: the map in float16 and how it was learnt), read once, and used only for
the model it was learnt on; a missing or unreadable file leaves search as it was, and says so in
:func:`state`.
"""

from __future__ import annotations

import json
import zipfile
from dataclasses import dataclass
from pathlib import Path

from .learnt_files import learnt, write_npz

PATH = Path(__file__).with_name("query_adapter.npz")
# How it is learnt: chosen with adapters learnt apart from what they were measured on (without the
# blind tuning pools, measured on them; on the blind sets alone, measured on the older tuning parts).
# Penalty 0.03 and 200 steps once the set grew to 934 questions: at 0.1 the map could not fit it
# (docs/search.md "The query adapter")
EPOCHS = 200
RATE = 0.001  # Adam's step
PENALTY = 0.03  # on the squared entries of A: the map stays near the identity
TEMPERATURE = 0.02  # of the softmax over the edition's documents (cosine / T)


@dataclass
class Adapter:
    matrix: object  # numpy (DIM, DIM) float32
    meta: dict

    def apply(self, vector):
        import numpy as np

        moved = vector + self.matrix @ vector
        norm = float(np.linalg.norm(moved))
        return (moved / norm).astype(np.float32) if norm else vector


def load(model_version: str, path: Path | None = None) -> Adapter | None:
    """The adapter learnt for ``model_version`` (read once per path), or None: no file, an
    unreadable one, or one learnt on another model (:func:`state` says which)."""
    return learnt(Adapter, _read, Path(path or PATH), model_version)[0]


def state(model_version: str, path: Path | None = None) -> str:
    """``on``, or why it is off: ``absent``, ``unreadable``, ``another model (...)``."""
    return learnt(Adapter, _read, Path(path or PATH), model_version)[1]


def _read(path: Path, model_version: str) -> Adapter | str:
    import numpy as np

    if not path.is_file():
        return "absent"
    try:
        with np.load(path, allow_pickle=False) as data:
            matrix = np.asarray(data["matrix"], dtype=np.float32)
            meta = json.loads(str(data["meta"]))
    except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile):  # junk, truncated, another shape
        return "unreadable"
    if meta.get("model_version") != model_version:
        return f"another model ({meta.get('model_version')})"
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1] or not np.isfinite(matrix).all():
        return "unreadable"
    return Adapter(matrix, meta)


def write(path: Path, matrix, meta: dict) -> None:
    """The map (float16: half the bytes, the same rankings) and ``meta``, written whole then
    renamed over ``path``."""
    import numpy as np

    write_npz(Path(path), matrix=np.asarray(matrix, dtype=np.float16), meta=np.array(json.dumps(meta, sort_keys=True)))


def train(questions, targets: list[list[int]], documents, epochs: int = EPOCHS, rate: float = RATE,
          penalty: float = PENALTY, temperature: float = TEMPERATURE, progress=None):
    """The map ``A`` (DIM x DIM) that moves each question's vector (rows of ``questions``, unit
    length) towards its targets' (rows of ``documents``, unit length): the softmax over every
    document of the questions' similarities, each target an equal share, cross-entropy plus
    ``penalty`` times the squares of ``A``; full-batch Adam from ``A = 0``."""
    import numpy as np

    q = np.asarray(questions, dtype=np.float32)
    docs = np.asarray(documents, dtype=np.float32)
    n, dim = q.shape
    wanted = np.zeros((n, docs.shape[0]), dtype=np.float32)
    for i, rows in enumerate(targets):
        wanted[i, rows] = 1.0 / len(rows)
    a = np.zeros((dim, dim), dtype=np.float32)
    first, second = np.zeros_like(a), np.zeros_like(a)
    for step in range(1, epochs + 1):
        moved = q + q @ a.T
        norms = np.linalg.norm(moved, axis=1, keepdims=True)
        unit = moved / norms
        logits = unit @ docs.T / temperature
        logits -= logits.max(axis=1, keepdims=True)
        shares = np.exp(logits)
        shares /= shares.sum(axis=1, keepdims=True)
        g_unit = (shares - wanted) @ docs / temperature / n
        g_moved = (g_unit - unit * (g_unit * unit).sum(axis=1, keepdims=True)) / norms  # through the normalisation
        grad = g_moved.T @ q + 2 * penalty * a
        first = 0.9 * first + 0.1 * grad
        second = 0.999 * second + 0.001 * grad ** 2
        a -= rate * (first / (1 - 0.9 ** step)) / (np.sqrt(second / (1 - 0.999 ** step)) + 1e-8)
        if progress is not None:
            progress(step, epochs)
    return a

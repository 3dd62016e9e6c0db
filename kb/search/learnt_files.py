"""The files search learnt and ships as package data: the query adapter (:mod:`.adapter`), the
precedents (:mod:`.precedents`) and the learnt order (:mod:`.rerank`), written by ``rulekb bench
adapter`` and ``rulekb bench reranker``. Each is read once per reader, path and model version,
and is either the thing learnt or why there is none (``absent``, ``unreadable``, ``another model
(...)``, ``other features``): search goes on without it and says so."""

from __future__ import annotations

from pathlib import Path

_LOADED: dict = {}


def learnt(kind: type, read, path: Path, model_version: str = "") -> tuple[object | None, str]:
    """(what ``read(path, model_version)`` found when it is a ``kind``, else None; ``on`` or why not)."""
    found = read_once(Path(path), model_version, read)
    return (found, "on") if isinstance(found, kind) else (None, found)


def read_once(path: Path, model_version: str, read):
    """What ``read(path, model_version)`` found, read once per reader, path and model."""
    key = (read, str(path), model_version)
    if key not in _LOADED:
        _LOADED[key] = read(path, model_version)
    return _LOADED[key]


def write_npz(path: Path, **arrays) -> None:
    """``arrays`` written whole then renamed over ``path``; what was read there is forgotten."""
    import numpy as np

    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez_compressed(tmp, **arrays)
    tmp.replace(path)
    forget(path)


def forget(path: Path) -> None:
    """What was read at ``path`` is read again next time (a file written or swapped)."""
    for key in [k for k in _LOADED if k[1] == str(path)]:
        del _LOADED[key]

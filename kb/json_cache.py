"""Results cached as JSON files under $RULEKB_CACHE (lineages, translation drift):
one place for where they live and how they are written."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path


def cache_folder(name: str) -> Path:
    from .reasoning import cache_dir

    return cache_dir() / name


def write_json(folder: Path, path: Path, raw: dict, keep: int) -> None:
    """Write ``raw`` to ``path`` atomically, keeping the ``keep`` newest files of ``folder``."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=folder, delete=False, suffix=".tmp", encoding="utf-8") as f:
            json.dump(raw, f, ensure_ascii=False, separators=(",", ":"))
        os.replace(f.name, path)  # readers see the whole file or none
        for old in sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)[keep:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass  # an unwritable cache costs time, not correctness

"""Where the rules corpus lives: ``RULEKB_CORPUS``, else ``../shared/corpus``.

The corpus is Wizards of the Coast's text; it is read from beside the project,
never copied into it.
"""

from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def corpus_dir() -> Path | None:
    env = os.environ.get("RULEKB_CORPUS")
    if env:
        return Path(env)
    for candidate in (Path.cwd() / ".." / "shared" / "corpus", PROJECT_ROOT / ".." / "shared" / "corpus"):
        if candidate.is_dir():
            return candidate.resolve()
    return None

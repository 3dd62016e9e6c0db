"""Parsed documents kept on disk, so a rebuild from the same files does not parse them again.

An entry is one document's editions (what :func:`ingest.parse.parse_bytes` returned), pickled,
under a name made from the document's location, its bytes, the digest of the parser's code
(the caller's: ingest does not know where its package lies on disk) and the Python version: a
changed byte, another place, another parser or interpreter is a miss. The entries of one code
digest live in one folder; opening the cache removes the folders of other digests, so the cache
holds one corpus's worth (about 100 MB for the corpus). Reading 213 documents back costs their
unpickling (about 1.8 s) against about 6 s of CPU to parse them.

A damaged entry (a truncated file, another version's classes) is a miss, and an entry that cannot
be written is no error: the cache costs time, never correctness. Entries are pickles: load them
only from a cache directory you own (``RULEKB_CACHE``).
"""

from __future__ import annotations

import hashlib
import os
import pickle
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .model import Edition


@dataclass(frozen=True)
class ParsedDocuments:
    folder: Path  # the entries of this code digest
    code: str  # the digest of the parser's code

    @classmethod
    def open(cls, root: Path, code: str) -> "ParsedDocuments":
        """The cache under ``root`` for this code; the entries of other code go."""
        root = Path(root)
        folder = root / hashlib.sha256(code.encode()).hexdigest()[:20]
        try:
            others = [other for other in root.iterdir() if other.is_dir() and other != folder]
        except OSError:  # no cache yet (or none to be had): nothing to remove
            others = []
        for other in others:
            shutil.rmtree(other, ignore_errors=True)
        return cls(folder, code)

    def entry(self, location: str, data: bytes) -> Path:
        h = hashlib.sha256()
        for part in (self.code, sys.version, location):
            h.update(part.encode("utf-8", "surrogateescape") + b"\0")
        h.update(data)
        return self.folder / f"{h.hexdigest()[:40]}.pickle"

    def load(self, entry: Path) -> list[Edition] | None:
        """The editions kept in ``entry``, or None (absent or damaged)."""
        try:
            with open(entry, "rb") as f:
                found = pickle.load(f)
        except FileNotFoundError:
            return None
        except Exception:  # noqa: BLE001 -- any damage is a miss: parse the document again
            entry.unlink(missing_ok=True)
            return None
        if not isinstance(found, list) or not all(isinstance(e, Edition) for e in found):
            return None
        return found

    def store(self, entry: Path, editions: list[Edition]) -> None:
        partial = None
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            handle, partial = tempfile.mkstemp(dir=self.folder, suffix=".tmp")
            with os.fdopen(handle, "wb") as f:
                pickle.dump(editions, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(partial, entry)  # readers see the whole entry or none
            partial = None
        except (OSError, pickle.PicklingError, RecursionError):
            pass
        finally:
            if partial is not None:
                Path(partial).unlink(missing_ok=True)

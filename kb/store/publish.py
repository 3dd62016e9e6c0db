"""``rulekb publish DIR``: a read-only, versioned snapshot of a built KB, for replicas to serve.

A build of the embedded store is a set of entries beside each other, named by one
stamp: ``data-STAMP`` (the Oxigraph store) and whatever the build writes beside it
(``pages-STAMP.sqlite``, ``search-STAMP``, and any later companion). A snapshot copies
*every* entry of the store's folder whose name carries the current build's stamp --
not a fixed list, so a companion added later is published too -- into::

    DIR/STAMP/current -> data-STAMP          a store folder: `rulekb serve --store DIR/STAMP`
    DIR/STAMP/data-STAMP/ pages-STAMP.sqlite search-STAMP/ ...
    DIR/STAMP/SNAPSHOT.json                  build, time, files and bytes
    DIR/latest -> STAMP                      swapped atomically once the copy is whole

The copy is written under a hidden name and renamed into place (a replica never sees
half a snapshot), then made read-only (files 0444, folders 0555). The store's build
lock is held meanwhile, so no build swaps or removes what is being copied. Publishing
the build already published is a no-op. Old snapshots are kept (replicas may still
serve them): remove them once no replica does.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import time
from pathlib import Path

from ..errors import StoreError

LATEST = "latest"
INFO = "SNAPSHOT.json"


def build_stamp(data_dir: Path) -> str:
    name = data_dir.name
    return name[len("data-"):] if name.startswith("data-") else name


def _read_only(root: Path) -> None:
    for folder, dirs, files in os.walk(root, topdown=False):
        for name in files:
            path = Path(folder, name)
            if not path.is_symlink():
                path.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
        Path(folder).chmod(0o555)


def _size(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink())


def publish(store, target: Path) -> dict:
    """Copy the store's current build into ``target/STAMP``; point ``target/latest`` at it."""
    root = getattr(store, "local_root", None)
    if root is None:
        raise StoreError("publish copies an embedded store (a directory); a SPARQL endpoint is published by its server")
    target = Path(target)
    started = time.perf_counter()
    with store._lock():  # no build swaps `current` (and removes the old build) while we copy
        data = store.data_dir()
        if data is None or not (Path(root) / "current").exists():
            raise StoreError(f"no built knowledge base at {root}: build one with `rulekb build`")
        stamp = build_stamp(data)
        entries = sorted(p for p in Path(root).iterdir() if stamp in p.name and not p.name.startswith("."))
        snapshot = target / stamp
        if snapshot.exists():
            info = json.loads((snapshot / INFO).read_text(encoding="utf-8"))
            _point(target, stamp)
            return {**info, "snapshot": str(snapshot), "already": True}
        try:
            target.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot write the snapshot folder {target}: {exc.strerror}") from None
        staging = target / f".publishing-{stamp}-{os.getpid()}"
        shutil.rmtree(staging, ignore_errors=True)
        try:
            staging.mkdir()
            for entry in entries:
                if entry.is_dir():
                    shutil.copytree(entry, staging / entry.name, symlinks=True)
                else:
                    shutil.copy2(entry, staging / entry.name)
            (staging / "current").symlink_to(data.name)
            info = {"build": stamp, "published_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                    "source": str(root), "entries": {e.name: _size(staging / e.name) for e in entries}}
            (staging / INFO).write_text(json.dumps(info, indent=1) + "\n", encoding="utf-8")
            _read_only(staging)
            staging.chmod(0o755)  # (renamed below; made read-only after)
            os.rename(staging, snapshot)
            snapshot.chmod(0o555)
        except OSError as exc:
            _remove(staging)
            raise StoreError(f"cannot write the snapshot at {snapshot}: {exc.strerror or exc}") from None
        except BaseException:
            _remove(staging)
            raise
    _point(target, stamp)
    info.update(snapshot=str(snapshot), already=False, seconds=round(time.perf_counter() - started, 2))
    return info


def _point(target: Path, stamp: str) -> None:
    """``target/latest`` -> ``stamp``, by one rename."""
    link = target / f".latest-{os.getpid()}"
    link.unlink(missing_ok=True)
    link.symlink_to(stamp)
    os.replace(link, target / LATEST)


def _remove(path: Path) -> None:
    if not path.exists():
        return
    for folder, dirs, _ in os.walk(path):
        for name in dirs:
            Path(folder, name).chmod(0o755)
    path.chmod(0o755)
    shutil.rmtree(path, ignore_errors=True)

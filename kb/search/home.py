"""Where a store's search index lives, and how a build swaps it in.

- **Embedded store** (``--store DIR``): beside the build's data directory,
  ``DIR/search-<stamp>`` for ``DIR/data-<stamp>``. The build writes it before
  it swaps ``DIR/current`` (:meth:`kb.store.embedded.EmbeddedStore.replace`, its
  ``beside`` step), so the one rename swaps the pair: an interrupted build
  leaves the old store and the old index answering, and a reader that follows
  ``current`` (``rulekb serve``) finds the new index with the new store.
- **Remote store** (``--store URL``): a local index of what it holds, under
  ``$XDG_DATA_HOME/rulekb/search-remote/<url>/current -> search-<stamp>``,
  swapped by the same kind of rename once the remote build has committed.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

PREFIX = "search-"
STAGING = ".search-staging-"  # + the writing process's pid + a unique tail


def staging(root: Path) -> Path:
    """A new private directory under an embedded store's ``root`` for an index written before
    the build's data directory exists (:mod:`kb.build` starts the index as soon as the lineages
    are known); the build renames what it holds to the new build's :func:`companion` just
    before the swap. Its name carries the build's pid, so a build killed before its swap
    leaves one that a later build removes (:func:`stale_staging`)."""
    root.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f"{STAGING}{os.getpid()}-", dir=root))


def stale_staging(root: Path) -> list[Path]:
    """The staging directories under ``root`` whose build is no longer running."""
    stale = []
    for path in root.glob(f"{STAGING}*"):
        pid = path.name[len(STAGING):].partition("-")[0]
        if not pid.isdigit():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            stale.append(path)
        except PermissionError:  # alive, another user's
            pass
    return stale


def companion(data_dir: Path) -> Path:
    """The index directory that goes with a store's data directory."""
    name = data_dir.name
    return data_dir.with_name(PREFIX + (name[len("data-"):] if name.startswith("data-") else name))


def remote_root(url: str) -> Path:
    from ..rdf.iris import slug

    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "rulekb" / "search-remote" / slug(url)[:120]


def index_dir(store) -> Path:
    """The index of ``store``'s current build (it may not exist: the reader says so)."""
    if store.local_root is not None:  # embedded
        data = store.data_dir()
        if data is None:
            from ..errors import StoreError

            raise StoreError(f"no knowledge base at {store.location}: build one with `rulekb build`")
        return companion(data) if data != Path(store.location) else data / "rulekb-search"
    return (remote_root(store.location) / "current").resolve()


def swap_local(root: Path, write: Callable[[Path], object]) -> object:
    """Write a new index with ``write(directory)`` under ``root`` and swap
    ``root/current`` to it (remote stores); older ones are removed."""
    root.mkdir(parents=True, exist_ok=True)
    fresh = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{time.strftime('%Y%m%dT%H%M%S')}-", dir=root))
    fresh.rmdir()  # the writer creates it
    try:
        result = write(fresh)
        link = root / f".current-{os.getpid()}"
        link.unlink(missing_ok=True)
        link.symlink_to(fresh.name)
        os.replace(link, root / "current")
    except BaseException:
        shutil.rmtree(fresh, ignore_errors=True)
        raise
    for old in root.glob(f"{PREFIX}*"):
        if old != fresh:
            shutil.rmtree(old, ignore_errors=True)
    return result

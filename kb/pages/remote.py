"""Page data for a server over a remote store (``rulekb build --store URL``, ``rulekb serve --store URL``).

Why: over a remote store each named query of a rule page is a round trip (11 a page without
page data; about half a second each over Virtuoso with the full KB's graphs named), where the
embedded page reads its page data. So the writer's build writes the page data of what it just
committed, locally, and a server over the same store reads it.

- **Written** by ``rulekb build --store URL`` once the remote build has committed: the same
  quads, made again by the build's workers, are bulk-loaded into a temporary embedded store
  beside the remote store's local search index (``$XDG_DATA_HOME/rulekb/search-remote/<url>/``,
  :func:`kb.search.home.remote_root`), :func:`kb.pages.data.write` writes the page data from
  it exactly as for an embedded build, and the temporary store is removed. The file is
  ``pages-<token>.sqlite``, the token the remote build's manifest graph's
  (``urn:rulekb:manifest:TOKEN``), which its ``meta`` table names too; older files go.
- **Read** by :func:`kb.pages.reading.for_store`: the remote store's build id is its manifest
  graph (:meth:`kb.store.remote.RemoteStore.build_id`, read again at most every 30 s); the file
  of that token whose ``meta`` names that manifest is used. Another build's file, or none, and
  the pages ask the store, as before -- said once in the log (``rulekb.pages``) for each build.
- A replica over the same remote store on another machine reads the writer's file: copy the
  folder (or ``rulekb publish``'s snapshot) with the search index.
"""

from __future__ import annotations

import logging
import re
import shutil
import tempfile
import types
from collections.abc import Callable
from pathlib import Path

from .data import PREFIX, write
from .reuse import Inputs

log = logging.getLogger("rulekb.pages")
_SAID: set[tuple[str, str]] = set()  # (store, build) whose missing page data the log has told


def folder(store) -> Path:
    """Where a remote store's local files are: its search index, its page data."""
    from ..search.home import remote_root

    return remote_root(store.location)


def token(build: str) -> str:
    """The file name's part for a build id (a manifest graph's IRI): its tail, as a file name."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", build.rsplit(":", 1)[-1])[:100]


def file_for(store, build: str) -> Path | None:
    """The page data file of ``build`` of the remote ``store``; None, said once in the log, when
    there is none for that build."""
    path = folder(store) / f"{PREFIX}{token(build)}.sqlite"
    if path.is_file():
        return path
    if (store.location, build) not in _SAID:
        _SAID.add((store.location, build))
        others = sorted(p.name for p in folder(store).glob(f"{PREFIX}*.sqlite"))
        why = (f"{folder(store)} holds page data of another build ({', '.join(others)})" if others
               else f"{folder(store)} holds none")
        log.warning("no page data for build %s of %s: %s; the rule pages ask the store "
                    "(`rulekb build --store URL` writes it)", build, store.location, why)
    return None


def write_beside(store, parts, progress: Callable[[str], None] | None = None,
                 total: Callable[[int], None] | None = None, extra: Callable | None = None) -> dict:
    """Write the page data of the remote ``store``'s build just committed, from ``parts`` (the
    build's parts, :func:`kb.build.load.load_parts`) loaded into a temporary embedded store;
    ``extra`` as :func:`kb.pages.data.write`'s (what an embedded build keeps too)."""
    from ..build.load import serialised
    from ..store.embedded import EmbeddedStore

    build = store.build_id()
    if build is None:
        return {}
    root = folder(store)
    root.mkdir(parents=True, exist_ok=True)
    target = root / f"{PREFIX}{token(build)}.sqlite"
    counted = types.SimpleNamespace(citations=0, dangling=0)  # (the build's report counted them already)
    quiet = types.SimpleNamespace(advance=lambda *args, **kwargs: None)
    scratch = Path(tempfile.mkdtemp(prefix=".pages-store-", dir=root))
    try:
        local = EmbeddedStore(scratch)
        inputs = Inputs()  # a rebuild of the same KB takes the previous file (kb.pages.reuse): no query asked
        local.replace(nquads=map(inputs.fed, serialised(parts, quiet, counted)))
        if progress is not None:
            progress("pages: the build's quads loaded into a local store")
        report = write(local, progress, target=target, total=total, build=build, extra=extra, inputs=inputs.digest())
        local.close()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    for old in root.glob(f"{PREFIX}*.sqlite"):
        if old != target:
            old.unlink(missing_ok=True)
    return report

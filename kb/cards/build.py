"""The build's cards stage: which card file, its cards linked to this build's concepts.

The card file: ``RULEKB_CARDS`` (a file; ``none`` builds without cards), else the file
``rulekb fetch --cards`` keeps in the cache (``$RULEKB_CACHE/cards/oracle-cards.json.gz``),
else the newest ``*.json``/``*.json.gz`` in the corpus's ``cards/`` folder
(``../shared/corpus/cards``), else none. A card file that cannot be read fails the build
at its start, before anything is written (the previous store, and its cards, are kept).

Each card becomes a row (plain JSON) with its Oracle text, faces, keywords, types,
ability shapes, the concepts it mentions and the rules of the newest complete English
edition that govern it (:mod:`.link`); the rows are cached under ``$RULEKB_CACHE/cards-linked``
by the card file's bytes, that edition's rules, the concepts' labels and this code, so a
rebuild with the same inputs reads them back instead of linking 30,000 cards again (a folder
per card file, so builds with other card files, such as the tests' small ones, do not push
the real file's links out).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from rulekb.ingest import cards as card_files

from ..errors import BuildError

CACHE_NAME = "oracle-cards.json.gz"
ENV = "RULEKB_CARDS"


def fetched_file() -> Path:
    """Where ``rulekb fetch --cards`` keeps the card file."""
    from rulekb.ingest.fetch import cache_dir

    return cache_dir() / "cards" / CACHE_NAME


def card_file(explicit: str | Path | None = None) -> Path | None:
    """The card file a build reads (see the module's docstring), or None."""
    if explicit:
        return None if str(explicit).lower() == "none" else Path(explicit)
    env = os.environ.get(ENV)
    if env:
        return None if env.lower() == "none" else Path(env)
    fetched = fetched_file()
    if fetched.is_file():
        return fetched
    from ..corpus import corpus_dir

    corpus = corpus_dir()
    if corpus is not None and (corpus / "cards").is_dir():
        found = sorted(p for p in (corpus / "cards").iterdir() if p.name.endswith((".json", ".json.gz")))
        if found:
            return found[-1]
    return None


class Loaded:
    """A card file read at the start of a build (a bad one fails it before any work), with the digest
    of its bytes (part of the key its links are cached by)."""

    def __init__(self, path: Path):
        data = _bytes(path)
        self.path, self.digest = Path(path), hashlib.sha256(data).hexdigest()
        try:
            self.file = card_files.parse_bytes(data, str(path))
        except card_files.CardFileError as exc:
            raise BuildError(f"{exc} (the previous store and its cards are kept)") from None


def read(path: Path | None) -> Loaded | None:
    """The card file at ``path`` (None: no cards), read and checked now."""
    return None if path is None else Loaded(path)


def newest_english(editions: list):
    complete = [e for e in editions if e.language == "en" and not e.partial and e.rules]
    return max(complete, key=lambda e: (e.effective_date or "", e.id)) if complete else None


def rows(loaded: Loaded | None, editions: list, concepts: dict, matcher) -> tuple[list[dict], dict]:
    """(card rows, report) for the build: empty when there is no card file or no English edition."""
    import time

    started = time.perf_counter()
    if loaded is None:
        return [], {"cards": 0, "file": None}
    path = str(loaded.path)
    edition = newest_english(editions)
    if edition is None:
        return [], {"cards": 0, "file": path, "note": "no complete English edition to link the cards to"}
    key = _digest(loaded.digest, edition, concepts)
    from ..json_cache import cache_folder, write_json

    # a folder per card file, each keeping its own newest links: the small invented card files
    # the tests build with (dozens of KBs a run) no longer push the real file's links out
    folder = cache_folder("cards-linked") / loaded.digest[:16]
    cached = folder / f"{key}.json"
    try:
        found = json.loads(cached.read_text(encoding="utf-8"))
        _touch(folder)  # (read: recently used, kept before the card files not used since)
        return found, {"cards": len(found), "file": path, "edition": edition.id, "cached": True,
                       "seconds": round(time.perf_counter() - started, 2)}
    except (OSError, ValueError):
        pass
    from .link import Vocabulary, governing, link

    vocab = Vocabulary.of(edition, concepts, matcher)
    out = []
    slugs: set[str] = set()
    for card in loaded.file.cards:
        links = link(card, vocab)
        out.append(_row(card, links, governing(links, vocab), _slug(card.name, slugs), edition.id))
    write_json(folder, cached, out, keep=2)
    _keep_newest_folders(folder.parent, CARD_FILES_KEPT)
    return out, {"cards": len(out), "file": path, "edition": edition.id, "shape": loaded.file.shape,
                 "cached": False, "seconds": round(time.perf_counter() - started, 2)}


CARD_FILES_KEPT = 8  # card files whose links are kept (the real one, a fetched one, the tests' few)


def _keep_newest_folders(parent: Path, keep: int) -> None:
    """Only the ``keep`` most recently used card files' folders stay (and no file of the older
    layout, where the links of every card file shared one folder)."""
    import shutil

    try:
        entries = sorted(parent.iterdir(), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return
    folders = [p for p in entries if p.is_dir()]
    for old in folders[keep:] + [p for p in entries if p.suffix == ".json"]:
        try:
            shutil.rmtree(old) if old.is_dir() else old.unlink()
        except OSError:
            pass


def _touch(folder: Path) -> None:
    try:
        os.utime(folder)
    except OSError:
        pass


def _bytes(path: Path) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise BuildError(f"{path}: cannot read the card file: {exc.strerror or exc}") from None


def _digest(file_digest: str, edition, concepts: dict) -> str:
    from ..json_cache import code_digest

    h = hashlib.sha256(file_digest.encode())
    # the links are made by this package, the definitions (kb.define) and the label matcher (kb.rdf)
    h.update(code_digest("rulekb.kb.cards", "rulekb.kb.define", "rulekb.kb.rdf").encode())
    h.update(edition.id.encode())
    for rule in edition.rules:
        h.update(f"\x1e{rule.number}\x1f{rule.text}".encode("utf-8", "surrogatepass"))
    for key in sorted(concepts):
        c = concepts[key]
        h.update(f"\x1e{key}\x1f{c.labels.get('en')}\x1f{sorted(c.defined_by)}".encode("utf-8", "surrogatepass"))
    return h.hexdigest()[:32]


def _slug(name: str, taken: set[str]) -> str:
    from ..rdf.iris import slug

    base = slug(name.replace(" // ", " "))
    out, n = base, 2
    while out in taken:
        out, n = f"{base}-{n}", n + 1
    taken.add(out)
    return out


def _row(card, links, rules: list[tuple[str, str]], slug: str, edition: str) -> dict:
    french = {"name_fr": card.name_fr} if card.name_fr else {}  # (only where the file has French names)
    return {
        "name": card.name, "slug": slug, "edition": edition, "type_line": card.type_line, "mana_cost": card.mana_cost,
        "text": card.oracle_text, "power": card.power, "toughness": card.toughness, **french,
        "faces": [{"name": f.name, "type_line": f.type_line, "mana_cost": f.mana_cost, "text": f.oracle_text,
                   **({"name_fr": f.name_fr} if f.name_fr else {})}
                  for f in card.faces],
        "keywords": [{"name": k.name, "kind": k.kind, "rule": k.rule, "concept": k.concept} for k in links.keywords],
        "types": links.types, "kinds": links.kinds, "shapes": links.shapes, "mentions": links.mentions,
        "concepts": links.concepts(),
        "rules": [[number, why] for number, why in rules],
    }


class _Linking:
    """:func:`rows` in a forked process (kb.parallel.fork_call), beside the build's next stages."""

    def __init__(self, loaded, editions, concepts, matcher):
        import time

        from ..parallel import fork_call

        self._started = time.perf_counter()
        self._job = fork_call(lambda: rows(loaded, editions, concepts, matcher)) if loaded is not None else None

    def result(self) -> tuple[list[dict], dict]:
        import time

        if self._job is None:
            return [], {"cards": 0, "file": None}
        found, report = self._job.result()
        report["wall_seconds"] = round(time.perf_counter() - self._started, 2)
        return found, report

    def cancel(self) -> None:
        if self._job is not None:
            self._job.cancel()


def linking(loaded: Loaded | None, editions: list, concepts: dict, matcher) -> _Linking:
    """The card rows of ``loaded`` (:func:`read`), computed from now on in a forked process: ``.result()``."""
    return _Linking(loaded, editions, concepts, matcher)


def load_part(card_rows: list[dict], concepts: dict, mint) -> tuple[str, object]:
    """The build's load part for the cards' graph: ``(name, on_link -> N-Quads bytes)``."""
    import pyoxigraph as ox

    from .quads import quads

    edition = card_rows[0].get("edition") if card_rows else None
    keys = set(concepts)

    def part(on_link) -> bytes:
        return ox.serialize(quads(card_rows, edition, keys, mint), format=ox.RdfFormat.N_QUADS) or b""

    return "cards", part

"""The lineages of a set of editions, cached on disk by what they were computed from.

Aligning the 127 complete English editions takes about 10 s; a rebuild from the
same texts (the usual case) reads them back in well under a second. The key is a
digest of the alignment code (every module of :mod:`kb.align`) and of each
edition's content (id, date, parts, sections, rules with their examples,
glossary), so a changed text or matcher recomputes. The cache is JSON (not
pickle: nothing in a cache directory gets to run code) in
``$RULEKB_CACHE/lineages`` beside the reasoning cache; the newest few are kept.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path

from rulekb.ingest.model import Edition

from ..json_cache import cache_folder, code_digest, write_json
from ..align import Alignment, Lineage, Lineages, Pair, lineages

KEEP = 32  # cached sets kept: a corpus and its variants (tests write small sets, which must not push the corpus out; ~10 MB each)


def cached_lineages(editions: list[Edition], progress: Callable[[str], None] | None = None,
                    cache: Path | None = None) -> tuple[Lineages, bool]:
    """``kb.align.lineages(editions)``, from the cache when it has them; and whether it did."""
    folder = cache or _cache_dir()
    path = folder / f"{digest(editions)}.json"
    try:
        found = from_json(json.loads(path.read_text(encoding="utf-8")))
        os.utime(path)  # recently used: kept longest
        return found, True
    except (OSError, ValueError, KeyError, TypeError):
        pass
    found = lineages(editions, progress=progress, align=_pair_cache(editions, folder / "pairs"))
    _write(folder, path, to_json(found))
    return found, False


def aligned(old: Edition, new: Edition, cache: Path | None = None) -> Alignment:
    """``kb.align.align(old, new)``, read back from the aligned pairs' cache when these two texts
    were aligned before by the same code, else aligned and kept there: a build aligns every pair
    of consecutive editions, so ``rulekb diff`` or ``cite-check`` of two of them after a build
    reads the alignment instead of computing it (the 2009 restructure: about 5 s of CPU), and two
    editions further apart are aligned once (a French text's base against the newest edition).
    The key is each edition's own digest (two texts of one id, a re-publication, are two keys)."""
    from ..align import align_profiles
    from ..align.profile import build

    folder = (cache or _cache_dir()) / "pairs"
    path = folder / f"{_pair_key(digest([old]), digest([new]))}.json"
    found = _read_pair(path, old.id, new.id)
    if found is None:
        found = align_profiles(build(old), build(new))
        _write_pair(folder, path, found, PAIRS_KEEP)
    return found


PAIRS_KEEP = 1024  # aligned pairs kept: every consecutive pair of a corpus (about 250) several times over


def _pair_cache(editions: list[Edition], folder: Path) -> Callable:
    """``align(previous profile, profile)`` that reads each pair's alignment back when that pair
    (the same two texts, the same alignment code) was aligned before: a set of editions that
    differs from a cached one by one edition -- one inserted, one replaced, one appended --
    aligns only the pairs it changes (an edition inserted: its two), not the whole chain."""
    from ..align import align_profiles

    by_id = {e.id: e for e in editions}
    texts: dict[str, str] = {}
    written: list[bool] = []

    def text_digest(edition_id: str) -> str:
        if edition_id not in texts:
            texts[edition_id] = digest([by_id[edition_id]])
        return texts[edition_id]

    def align(previous, profile):
        path = folder / f"{_pair_key(text_digest(previous.id), text_digest(profile.id))}.json"
        found = _read_pair(path, previous.id, profile.id)
        if found is not None:
            return found
        alignment = align_profiles(previous, profile)
        _write_pair(folder, path, alignment, PAIRS_KEEP if not written else None)  # (pruned once a build, not at every pair)
        written.append(True)
        return alignment

    return align


def _pair_key(old_digest: str, new_digest: str) -> str:
    code = code_digest("rulekb.kb.align")
    return hashlib.sha256(f"{code}\0{old_digest}\0{new_digest}".encode()).hexdigest()[:32]


def _read_pair(path: Path, old_id: str, new_id: str) -> Alignment | None:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        if raw["old"] == old_id and raw["new"] == new_id:
            os.utime(path)
            return Alignment(raw["old"], raw["new"], [_pair(p) for p in raw["pairs"]], raw["sections"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return None


def _write_pair(folder: Path, path: Path, alignment: Alignment, keep: int | None) -> None:
    write_json(folder, path, {"old": alignment.old, "new": alignment.new, "sections": alignment.sections,
                              "pairs": [_pair_json(p) for p in alignment.pairs]}, keep=keep)


def digest(editions: list[Edition]) -> str:
    h = hashlib.sha256(code_digest("rulekb.kb.align").encode())
    for edition in editions:
        fields = [edition.id, edition.language, str(edition.effective_date), str(edition.partial)]
        fields += [f"{p.number}\x1e{p.title}" for p in edition.parts]
        fields += [f"{s.number}\x1e{s.title}" for s in edition.sections]
        fields += [f"{r.number}\x1e{r.text}\x1e{r.parent}\x1e{r.order}\x1e" + "\x1e".join(r.examples)
                   for r in edition.rules]
        fields += [f"{g.term}\x1e{g.definition}" for g in edition.glossary]
        h.update("\x1f".join(fields).encode("utf-8", "surrogatepass") + b"\x1d")
    return h.hexdigest()[:32]


# an unchanged pair is stored as its number alone (the other 90 % of a corpus's pairs)
_SAME = ("unchanged", 1.0, "identical", "")


def _pair_json(p: Pair):
    if p.old == p.new and (p.kind, p.similarity, p.evidence, p.detail) == _SAME:
        return p.old
    return [p.old, p.new, p.kind, p.similarity, p.evidence, p.detail]


def _pair(raw) -> Pair:
    return Pair(raw, raw, *_SAME) if isinstance(raw, str) else Pair(*raw)


def to_json(found: Lineages) -> dict:
    return {
        "editions": found.editions,
        "lineages": [[l.id, l.language, list(l.numbers.items()), l.split_from, l.merged_into]
                     for l in found.lineages.values()],
        "alignments": [{"old": a.old, "new": a.new, "sections": a.sections,
                        "pairs": [_pair_json(p) for p in a.pairs]}
                       for a in found.alignments],
    }


def from_json(raw: dict) -> Lineages:
    found: dict[str, Lineage] = {}
    by_rule: dict[tuple[str, str], str] = {}
    for lid, language, numbers, split_from, merged_into in raw["lineages"]:
        found[lid] = Lineage(lid, language, dict(numbers), [tuple(x) for x in split_from],
                             [tuple(x) for x in merged_into])
        for edition, number in numbers:
            by_rule[(edition, number)] = lid
    alignments = [Alignment(a["old"], a["new"], [_pair(p) for p in a["pairs"]], a["sections"])
                  for a in raw["alignments"]]
    return Lineages(raw["editions"], found, by_rule, alignments)


def _cache_dir() -> Path:
    return cache_folder("lineages")


def _write(folder: Path, path: Path, raw: dict) -> None:
    write_json(folder, path, raw, KEEP)

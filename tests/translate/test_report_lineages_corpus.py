"""Every French text of the corpus against the newest English edition: the report
through the KB's stored lineages against the report that aligns the base with the newest
edition again (what ``rulekb translation-report`` did before), both from the same base
(the one the build detected: detecting it again is the same for both, and slow for the
undated texts, which score every English edition).

The two agree on most texts. Where they do not, the difference must have a cause the
test can name: a base rule the two carry to different rules of the newest edition (the
lineages follow a rule through every edition in between; one alignment across a decade
or two loses or swaps some -- 2003's 404.1, triggered abilities, is 603.1 now, which the
lineages follow and a direct alignment 2003 -> 2026 misses), or that they judge changed
differently. A difference without such a cause fails: no silent change of findings. And the
report now says what the build stored (``translation-findings``): both follow the lineages."""

from __future__ import annotations

from collections import Counter

import pytest

from rulekb.kb import service
from rulekb.kb.align.model import MODIFIED
from rulekb.kb.lineage.cache import aligned
from rulekb.kb.translate.drift import drift_report
from rulekb.kb.translate.from_kb import stored_alignment, translation_parts

pytestmark = pytest.mark.corpus


def _changes(alignment) -> dict[str, tuple]:
    """Base number -> (its rule in the newest edition, whether it changed and how)."""
    successors = alignment.successors(merges=False)
    modified = {p.old: p.detail for p in alignment.pairs if p.kind == MODIFIED and p.old is not None}
    return {old: (new, old in modified, modified.get(old)) for old, new in successors.items()}


def _key(item: dict) -> tuple:
    return item["kind"], item.get("fr"), item.get("us"), item.get("base_rule")


def test_every_french_text_finds_through_the_lineages_what_the_aligner_finds(corpus_kb, corpus_rows):
    store, _ = corpus_kb
    newest = service.newest_english(store)
    bases: dict[str, str] = {}  # French text -> the base the build detected among every English edition
    for row in corpus_rows("translation-links"):  # (every French text's: asked once a run)
        bases.setdefault(row["edition"], row["en_edition"])
    aligned_with: dict[str, object] = {}  # base id -> its alignment with the newest edition, once
    differing, compared = {}, 0
    for french, base_id in sorted(bases.items()):
        data, fr, english, base = translation_parts([french], newest, base_id, store)
        if base is None or base.id == english.id:
            continue  # nothing carried through a base: one path
        compared += 1
        # what the build stored (graph/translation, found through the same lineages): the same
        stored = Counter(row["kind"] for row in service.run(store, "translation-findings", edition=french))
        assert stored == Counter(i["kind"] for i in data["items"]), french
        if base.id not in aligned_with:  # (not setdefault: its argument, an alignment, would be computed every time)
            aligned_with[base.id] = aligned(base, english)  # (kb.align's, read back when a run aligned them before)
        direct = aligned_with[base.id]
        before = drift_report(fr, english, base=base, alignment_of=lambda b, t, wanted: direct)
        lineage_kinds, aligner_kinds = Counter(i["kind"] for i in data["items"]), Counter(i["kind"] for i in before["items"])
        if lineage_kinds == aligner_kinds and sorted(map(_key, data["items"])) == sorted(map(_key, before["items"])):
            continue
        through = _changes(stored_alignment(store)(base, english, None))
        directly = _changes(direct)
        caused = {n for n in set(through) | set(directly) if through.get(n) != directly.get(n)}
        changed = set(map(_key, data["items"])) ^ set(map(_key, before["items"]))
        unexplained = sorted((k for k in changed if k[3] not in caused), key=str)
        assert not unexplained, (french, base.id, unexplained)
        differing[french] = (dict(aligner_kinds), dict(lineage_kinds))
    assert compared >= 5, compared
    # what differs, for whoever reads the log: text -> (counts aligning again, counts through the lineages)
    print({k: v for k, v in differing.items() if v[0] != v[1]})

"""kb.lineage.cache.aligned: two editions' alignment (``rulekb diff``, ``cite-check``, a French
text's base against the newest edition) read back from the aligned pairs' cache the build fills,
equal to aligning them; keyed by each text, not by its id."""

from __future__ import annotations

from rulekb.kb.align import align
from rulekb.kb.lineage.cache import aligned, cached_lineages

from ..helpers import invented_edition

OLD = [("100.1", "A widget is a card."), ("100.2", "A gadget is a token."), ("100.3", "Players draw cards.")]
NEW = [("100.1", "A widget is a card."), ("100.2", "Players draw two cards."), ("100.3", "A gadget is a marker token.")]


def _counting(monkeypatch) -> list:
    """The alignments aligned() computes (kb.align.align's own are not counted)."""
    import rulekb.kb.align as kb_align

    calls = []
    real = kb_align.align_profiles
    monkeypatch.setattr(kb_align, "align_profiles", lambda *a, **k: calls.append(1) or real(*a, **k))
    return calls


def test_an_alignment_is_computed_once_and_read_back_equal(tmp_path, monkeypatch):
    old, new = invented_edition("en/2030-01-01", OLD), invented_edition("en/2030-02-01", NEW)
    expected = align(old, new)
    calls = _counting(monkeypatch)
    assert aligned(old, new, cache=tmp_path) == expected and len(calls) == 1
    assert aligned(old, new, cache=tmp_path) == expected and len(calls) == 1  # read back
    assert aligned(new, old, cache=tmp_path) == align(new, old) and len(calls) == 2  # the other way: its own


def test_a_build_s_consecutive_pair_is_read_back(tmp_path, monkeypatch):
    old, new = invented_edition("en/2030-01-01", OLD), invented_edition("en/2030-02-01", NEW)
    chained, _ = cached_lineages([old, new], cache=tmp_path)  # what a build's lineages stage does
    calls = _counting(monkeypatch)
    assert aligned(old, new, cache=tmp_path) == chained.alignments[0] == align(old, new)
    assert calls == []  # read the build's pair (kb.align.align calls its own align_profiles, not counted)


def test_another_text_under_the_same_id_is_aligned_anew(tmp_path, monkeypatch):
    """A re-publication (one id, another text) is no hit for the first text's alignment."""
    old, new = invented_edition("en/2030-01-01", OLD), invented_edition("en/2030-02-01", NEW)
    aligned(old, new, cache=tmp_path)
    republished = invented_edition("en/2030-02-01", NEW[:2] + [("100.3", "A gadget is a marker.")])
    calls = _counting(monkeypatch)
    assert aligned(old, republished, cache=tmp_path) == align(old, republished) and len(calls) == 1

"""The translators' files as the front door (:mod:`kb.service`) hands them out: each
function runs the domain work and returns ``(text, warning)``, the warning saying how many
characters XML 1.0 could not carry were dropped (None when none)."""

from __future__ import annotations


def translation_xliff(sources: list[str], us: str | None = None, base: str = "auto", store=None,
                      copy_source: bool = False) -> tuple[str, str | None]:
    """``rulekb translation-report --report xliff``: the worklist as XLIFF 1.2 and a warning
    (characters XML cannot carry, dropped) or None."""
    from .xliff import to_xliff
    from ..from_kb import translation_parts

    data, fr, english, base_edition = translation_parts(sources, us, base, store)
    text, cleaner = to_xliff(data, fr, english, base_edition, copy_source=copy_source)
    return text, cleaner.warning()


def translation_memory(french: list[str] | None = None, us: str | None = None, store=None) -> tuple[str, str | None]:
    """``rulekb translation-memory``: the aligned French/English rules as TMX 1.4b, and a warning or None."""
    from .memory import memory_pairs
    from .tmx import to_tmx

    pairs, note = memory_pairs(store, french, us)
    text, cleaner = to_tmx(pairs, note)
    return text, cleaner.warning()


def term_pairs(glossaries: list = ()) -> list[dict]:
    """The English-French term pairs of ``rulekb lexicon`` (ontology, core table, matched glossaries)."""
    from ..lexicon import term_pairs as pairs

    return pairs(glossaries)


def termbase(pairs: list[dict], store=None) -> tuple[str, str | None]:
    """``rulekb lexicon --format tbx``: the term pairs as TBX v2 (TBX-Basic), the renamed
    terms' history read against the KB's English editions (none when ``store`` is None)."""
    from ...errors import KBError
    from ...store.queries import editions
    from .tbx import to_tbx2

    english_ids = []
    if store is not None:
        try:
            opened = store() if callable(store) else store
            english_ids = [e["edition"] for e in editions(opened) if e["language"] == "en"]
        except KBError:  # no KB: the terms without their editions
            english_ids = []
    text, cleaner = to_tbx2(pairs, english_ids)
    return text, cleaner.warning()

"""The memory's pairs, from the KB.

Default: each French text with the English edition it translates (its base, detected
by the build), through the KB's ``rk:translationOf`` links (named query
``translation-links``): every aligned pair the KB knows, read and not recomputed.
With ``us``: each French text against that English edition instead, through the
translation report (against the base the build detected, read from the KB) (:func:`kb.translate.from_kb.translation_parts`): only the French
rules the report finds nothing against (their XLIFF state is ``translated``) are paired
with that edition's English, so a CAT tool fills exactly those from the memory.
"""

from __future__ import annotations

from .tmx import Pair, glossary_pairs, rule_pairs
from .xliff import units


def memory_pairs(store, french: list[str] | None = None, us: str | None = None) -> tuple[list[Pair], str]:
    """``(pairs, note)``; ``store`` is a store or a callable giving it."""
    from ...errors import KBError
    from ...rdf.stored_edition import load_edition, stored_edition
    from ...store.queries import run
    from ..from_kb import translation_parts

    opener = store if callable(store) else (lambda: store)
    pairs: list[Pair] = []
    if us is not None:
        english = load_edition(us, opener)
        if english.language != "en":
            raise KBError(f"--us {english.id} is not English")
        if not french:
            raise KBError("--us needs the French texts to pair with it (FR...)")
        for name in french:
            # the base the build detected (read, not detected again: that is most of a report's time)
            rows = run(opener(), "translation-links", edition=name) if "/" in name else []
            base = rows[0]["en_edition"] if rows else "auto"
            data, fr, en, _ = translation_parts([name], english.id, base, opener)
            made, _ = units(data, fr, en, None)
            links = {u.fr: u.us for u in made if u.fr and u.us and not u.items}
            pairs += rule_pairs(fr, en, links) + glossary_pairs(fr, en)
        return pairs, f"French rules that still translate {english.id} (nothing found by the report)"
    links: dict[tuple[str, str], dict[str, str]] = {}
    for name in french or [None]:
        rows = run(opener(), "translation-links", **({"edition": name} if name else {}))
        if name and not rows:
            raise KBError(f"no rule of {name} is linked to an English rule in the KB "
                          "(not a French edition of the KB, or one the build could not align)")
        for row in rows:
            links.setdefault((row["edition"], row["en_edition"]), {})[row["fr_number"]] = row["en_number"]
    if not links:
        raise KBError("no French rule of the KB is linked to an English rule: nothing to remember")
    read: dict[str, object] = {}  # an English base several French texts translate is read once

    def edition(name: str):
        if name not in read:
            read[name] = stored_edition(opener(), name)
        return read[name]

    for (fr_id, en_id), numbers in sorted(links.items()):
        fr, en = edition(fr_id), edition(en_id)
        pairs += rule_pairs(fr, en, numbers) + glossary_pairs(fr, en)
    return pairs, "each French text with the English edition it translates (rk:translationOf)"

"""The termbase as TBX v2 (TBX-Basic, ``<martif>``): what translate-toolkit (so Weblate)
and OmegaT import, where TBX v3 (``<tbx>``, :func:`kb.translate.lexicon.to_tbx`) is
rejected by the one and ignored by the other.

One ``termEntry`` per English term (the lexicon's pairs, :func:`kb.translate.lexicon.term_pairs`),
an ``en`` and an ``fr`` ``langSet``, one ``tig`` per term. Each term has an
``administrativeStatus`` (TBX-Basic's values): ``preferredTerm-admn-sts`` for the first
French rendering of a term and for the current name of a renamed term,
``admittedTerm-admn-sts`` for other renderings, ``deprecatedTerm-admn-sts`` for a
historical name (:data:`RENAMES`), whose ``note`` says in which English editions of the
KB each name held.
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from .validate import check
from .xmlchars import Cleaner

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
PREFERRED, ADMITTED, DEPRECATED = "preferredTerm-admn-sts", "admittedTerm-admn-sts", "deprecatedTerm-admn-sts"


@dataclass(frozen=True)
class Rename:
    """A game term the rules renamed: the old names gave way to the new ones in the first
    English edition dated ``since`` or later (the first edition of the KB using the new
    English name; the corpus test checks it)."""
    en_old: tuple[str, ...]
    en_new: str
    fr_old: tuple[str, ...]
    fr_new: str
    since: str


RENAMES = (
    Rename(("in play",), "battlefield", ("en jeu",), "champ de bataille", "2009-07-08"),
    Rename(("removed from the game",), "exile", ("retirer de la partie", "retiré de la partie"), "exiler", "2009-07-08"),
    Rename(("converted mana cost",), "mana value", ("coût converti de mana",), "valeur de mana", "2021-04-19"),
    Rename(("tribal",), "kindred", ("tribal",), "parenté", "2024-06-07"),
)


def periods(english_ids: list[str], since: str) -> tuple[str, str]:
    """``(old, new)``: the spans of English editions (``first … last``) in which the old and
    the new name held, among ``english_ids`` (edition ids ``en/DATE``)."""
    dated = sorted(e for e in english_ids if e[3:4].isdigit())
    before = [e for e in dated if e[3:] < since]
    after = [e for e in dated if e[3:] >= since]

    def span(ids: list[str]) -> str:
        return f"{ids[0]} … {ids[-1]}" if ids else "no edition of the KB"

    return span(before), span(after)


def entries(pairs: list[dict], english_ids: list[str]) -> list[dict]:
    """``[{"en": [(term, status, note)], "fr": [(term, status, note)]}]``: the lexicon's
    pairs grouped by English term, with the renamed terms' history."""
    grouped: dict[str, dict] = {}
    for pair in pairs:
        entry = grouped.setdefault(pair["en"].lower(), {"en": pair["en"], "fr": {}, "sources": {}})
        entry["fr"].setdefault(pair["fr"], set()).add(pair["source"])
    for rename in RENAMES:  # a renamed term the lexicon lacks still gets its entry
        entry = grouped.setdefault(rename.en_new.lower(), {"en": rename.en_new, "fr": {}, "sources": {}})
        entry["fr"].setdefault(rename.fr_new, set()).add("history")
    out = []
    renamed_fr = {old.lower(): r for r in RENAMES for old in r.fr_old}
    for key, entry in sorted(grouped.items()):
        rename = next((r for r in RENAMES if key == r.en_new.lower()), None)
        renamed = next((r for r in RENAMES if key in {o.lower() for o in r.en_old}), None)
        en_terms = [(entry["en"], PREFERRED, None)]
        if renamed is not None:  # an old name with an entry of its own (the ontology keeps "in play")
            old_span, _ = periods(english_ids, renamed.since)
            en_terms = [(entry["en"], DEPRECATED, f"held in {old_span}; renamed {renamed.en_new!r} since {renamed.since}")]
        fr_terms = []
        for i, (french, sources) in enumerate(entry["fr"].items()):
            status = PREFERRED if i == 0 else ADMITTED
            note = "source: " + ", ".join(sorted(sources))
            if french.lower() in renamed_fr and renamed_fr[french.lower()].en_new.lower() != key:
                status = DEPRECATED
            fr_terms.append((french, status, note))
        if rename is not None:
            old_span, new_span = periods(english_ids, rename.since)
            en_terms = [(entry["en"], PREFERRED, f"since {new_span}")]
            en_terms += [(old, DEPRECATED, f"held in {old_span}; renamed {rename.en_new!r} since {rename.since}")
                         for old in rename.en_old]
            known = {t.lower() for t, _, _ in fr_terms}
            fr_terms = [(t, PREFERRED if t.lower() == rename.fr_new.lower() else s,
                         (n + "; " if n else "") + f"since {new_span}" if t.lower() == rename.fr_new.lower() else n)
                        for t, s, n in fr_terms]
            if rename.fr_new.lower() not in known:
                fr_terms.insert(0, (rename.fr_new, PREFERRED, f"since {new_span}"))
            fr_terms = [(t, ADMITTED if s == PREFERRED and t.lower() != rename.fr_new.lower() else s, n)
                        for t, s, n in fr_terms]
            fr_terms += [(old, DEPRECATED, f"held in {old_span}; renamed {rename.fr_new!r} since {rename.since}")
                         for old in rename.fr_old if old.lower() not in known]
            fr_terms = [(t, DEPRECATED, (n or "") + f"; held in {old_span}, renamed {rename.fr_new!r} since {rename.since}")
                        if t.lower() in {o.lower() for o in rename.fr_old} and s != DEPRECATED else (t, s, n)
                        for t, s, n in fr_terms]
        out.append({"en": en_terms, "fr": fr_terms})
    return out


def to_tbx2(pairs: list[dict], english_ids: list[str]) -> tuple[str, Cleaner]:
    """The TBX-Basic document (checked against the TBX core structure DTD)."""
    clean = Cleaner()
    root = etree.Element("martif", {"type": "TBX-Basic", XML_LANG: "en"})
    header = etree.SubElement(root, "martifHeader")
    file_desc = etree.SubElement(header, "fileDesc")
    etree.SubElement(etree.SubElement(file_desc, "titleStmt"), "title").text = \
        "rulekb: Magic: The Gathering rules terms, English and French"
    etree.SubElement(etree.SubElement(file_desc, "sourceDesc"), "p").text = \
        "The ontology's labels, rulekb's core term table and matched glossaries; historical names deprecated."
    etree.SubElement(etree.SubElement(header, "encodingDesc"), "p", type="XCSURI").text = "TBXBasicXCSV02.xcs"
    body = etree.SubElement(etree.SubElement(root, "text"), "body")
    for i, entry in enumerate(entries(pairs, english_ids), 1):
        term_entry = etree.SubElement(body, "termEntry", id=f"c{i}")
        for lang in ("en", "fr"):
            if not entry[lang]:
                continue
            lang_set = etree.SubElement(term_entry, "langSet", {XML_LANG: lang})
            for term, status, note in entry[lang]:
                tig = etree.SubElement(lang_set, "tig")
                etree.SubElement(tig, "term").text = clean(term)
                etree.SubElement(tig, "termNote", type="administrativeStatus").text = status
                if note:
                    etree.SubElement(tig, "note").text = clean(note)
    if not len(body):
        raise ValueError("no terms")
    text = etree.tostring(root, encoding="unicode", pretty_print=True)
    return check('<?xml version="1.0" encoding="UTF-8"?>\n' + text, "tbx"), clean

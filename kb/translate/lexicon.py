"""A bilingual (English-French) lexicon of the game's terms, for translators.

Three sources, each pair tagged with where it comes from:

- ``ontology``: the French labels of the ontology's concepts (:func:`kb.rdf.lexicon.ontology_labels`),
  the English term being the concept's preferred label (its key, hyphens as spaces);
- ``core``: the hand table of :data:`kb.translate.evidence.CORE_TERMS` (older French words included);
- ``glossary``: a French glossary entry and an English one that cite exactly the same rules
  (a non-empty set), when that match is one-to-one; a translated glossary keeps the citations
  of the entry it translates, and a set of citations shared by two entries proves nothing.

Export as CSV (``en,fr,source,key``) or as TBX (ISO 30042, the TBX-Basic dialect's core
structure: ``termEntry`` > ``langSec xml:lang`` > ``termSec`` > ``term``), escaped by the
XML writer.
"""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET

from rulekb.ingest.model import Edition

from .evidence import CORE_TERMS


def glossary_pairs(fr: Edition, en: Edition) -> list[dict]:
    by_refs_fr: dict[frozenset, list[str]] = {}
    by_refs_en: dict[frozenset, list[str]] = {}
    for entries, table in ((fr.glossary, by_refs_fr), (en.glossary, by_refs_en)):
        for entry in entries:
            refs = frozenset(entry.refs or ())
            if refs:
                table.setdefault(refs, []).append(entry.term)
    out = []
    for refs, fr_terms in by_refs_fr.items():
        en_terms = by_refs_en.get(refs, [])
        if len(fr_terms) == 1 and len(en_terms) == 1:
            out.append({"key": en_terms[0].lower().replace(" ", "-"), "en": en_terms[0], "fr": fr_terms[0],
                        "source": "glossary"})
    return sorted(out, key=lambda p: (p["en"].lower(), p["fr"].lower()))


def term_pairs(glossaries: list[tuple[Edition, Edition]] = (), ontology: bool = True) -> list[dict]:
    """Every (English term, French term) pair, once per source, sorted by English term."""
    pairs: list[dict] = []
    if ontology:
        try:
            from rulekb.kb.rdf.lexicon import ontology_labels

            for key, info in ontology_labels().items():
                for french in info.get("fr") or ():
                    pairs.append({"key": key, "en": key.replace("-", " "), "fr": french, "source": "ontology"})
        except ImportError:  # pragma: no cover - the ontology ships with the project
            pass
    for key, (english, french) in CORE_TERMS.items():
        for en_term in english[:1]:  # the first English form is the term; the rest are inflections
            for fr_term in french:
                pairs.append({"key": key, "en": en_term, "fr": fr_term, "source": "core"})
    for fr, en in glossaries:
        pairs.extend(glossary_pairs(fr, en))
    seen, out = set(), []
    for pair in pairs:
        ident = (pair["en"].lower(), pair["fr"].lower(), pair["source"])
        if ident not in seen:
            seen.add(ident)
            out.append(pair)
    return sorted(out, key=lambda p: (p["en"].lower(), p["fr"].lower(), p["source"]))


def to_csv(pairs: list[dict]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["en", "fr", "source", "key"])
    for pair in pairs:
        writer.writerow([pair["en"], pair["fr"], pair["source"], pair["key"]])
    return buffer.getvalue()


XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def to_tbx(pairs: list[dict]) -> str:
    """One ``termEntry`` per English term, its French renderings as ``termSec`` of the
    ``fr`` ``langSec``; the source as a ``note``."""
    root = ET.Element("tbx", {"type": "TBX-Basic", "style": "dca", XML_LANG: "en",
                              "xmlns": "urn:iso:std:iso:30042:ed-2"})
    header = ET.SubElement(root, "tbxHeader")
    file_desc = ET.SubElement(header, "fileDesc")
    source = ET.SubElement(file_desc, "sourceDesc")
    ET.SubElement(source, "p").text = "rulekb: Magic: The Gathering rules terms, English and French"
    body = ET.SubElement(ET.SubElement(root, "text"), "body")
    grouped: dict[str, list[dict]] = {}
    for pair in pairs:
        grouped.setdefault(pair["en"].lower(), []).append(pair)
    for i, (english, group) in enumerate(sorted(grouped.items()), 1):
        entry = ET.SubElement(body, "conceptEntry", {"id": f"c{i}"})
        en_sec = ET.SubElement(entry, "langSec", {XML_LANG: "en"})
        ET.SubElement(ET.SubElement(en_sec, "termSec"), "term").text = group[0]["en"]
        fr_sec = ET.SubElement(entry, "langSec", {XML_LANG: "fr"})
        for french in dict.fromkeys(p["fr"] for p in group):
            term_sec = ET.SubElement(fr_sec, "termSec")
            ET.SubElement(term_sec, "term").text = french
            sources = sorted({p["source"] for p in group if p["fr"] == french})
            ET.SubElement(term_sec, "note").text = "source: " + ", ".join(sources)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"

"""A translation memory as TMX 1.4b: the French and English rules the KB aligned.

A memory is a list of :class:`Pair` (one French rule and the English rule it
translates, with their editions); each becomes a paragraph-level ``tu`` (the whole
rule, examples included: what a CAT tool's segment of the XLIFF worklist holds) and,
where both sides split into the same number of sentences, one sentence-level ``tu`` per
sentence. Properties (``prop type="x-..."``) keep the rule numbers and editions. Matched
glossary entries (a French and an English entry citing exactly the same rules) add their
terms and definitions.
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass

from lxml import etree

from .validate import check
from .xmlchars import Cleaner

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"

# a sentence ends at . ! ? (a French one may close a quote first) before a capital or an
# opening quote: "Cf. règle" and "rule 110.5a." stay whole
_SENTENCE_END = re.compile(r"(?<=[.!?])[»”\"')]?\s+(?=[«“\"(]?\s?[A-ZÀ-ÖØ-Þ])")


@dataclass(frozen=True)
class Pair:
    fr_edition: str
    fr_rule: str
    en_edition: str
    en_rule: str
    fr_text: str
    en_text: str
    kind: str = "rule"  # rule | glossary-term | glossary-definition


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


def _full(rule) -> str:
    return " ".join([rule.text, *rule.examples]).strip()


def rule_pairs(fr, en, links: dict[str, str]) -> list[Pair]:
    """``links``: French rule number -> English rule number (of ``en``)."""
    fr_rules = {r.number: r for r in fr.rules}
    en_rules = {r.number: r for r in en.rules}
    out = []
    for fr_number, en_number in links.items():
        if fr_number in fr_rules and en_number in en_rules:
            f, e = _full(fr_rules[fr_number]), _full(en_rules[en_number])
            if f and e:
                out.append(Pair(fr.id, fr_number, en.id, en_number, f, e))
    return out


def glossary_pairs(fr, en) -> list[Pair]:
    """Glossary entries citing exactly the same (non-empty) set of rules, one to one."""
    by_refs: dict[frozenset, list] = {}
    for side, edition in ((0, fr), (1, en)):
        for entry in edition.glossary:
            if entry.refs:
                by_refs.setdefault(frozenset(entry.refs), [[], []])[side].append(entry)
    out = []
    for refs, (french, english) in sorted(by_refs.items(), key=lambda kv: sorted(kv[0])):
        if len(french) == 1 and len(english) == 1:
            f, e = french[0], english[0]
            out.append(Pair(fr.id, f.term, en.id, e.term, f.term, e.term, "glossary-term"))
            if f.definition and e.definition:
                out.append(Pair(fr.id, f.term, en.id, e.term, f.definition, e.definition, "glossary-definition"))
    return out


def to_tmx(pairs: list[Pair], note: str = "") -> tuple[str, Cleaner]:
    """The TMX 1.4b document (checked against its DTD) and its :class:`Cleaner`."""
    clean = Cleaner()
    now = _dt.datetime.now(_dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    root = etree.Element("tmx", version="1.4")
    header = etree.SubElement(root, "header", {
        "creationtool": "rulekb", "creationtoolversion": "0.1.0", "segtype": "paragraph", "o-tmf": "rulekb",
        "adminlang": "en", "srclang": "en", "datatype": "plaintext", "creationdate": now})
    if note:
        etree.SubElement(header, "note").text = clean(note)
    body = etree.SubElement(root, "body")
    seen: set[tuple[str, str]] = set()

    def tu(pair: Pair, en_text: str, fr_text: str, segtype: str, extra: dict[str, str]) -> None:
        en_text, fr_text = clean(en_text), clean(fr_text)
        if not en_text.strip() or not fr_text.strip() or (en_text, fr_text) in seen:
            return
        seen.add((en_text, fr_text))
        unit = etree.SubElement(body, "tu", {"segtype": segtype})
        props = {"x-kind": pair.kind, "x-fr-edition": pair.fr_edition, "x-fr-rule": pair.fr_rule,
                 "x-en-edition": pair.en_edition, "x-en-rule": pair.en_rule, **extra}
        for name, value in props.items():
            etree.SubElement(unit, "prop", type=name).text = clean(value)
        for lang, text in (("en", en_text), ("fr", fr_text)):
            etree.SubElement(etree.SubElement(unit, "tuv", {XML_LANG: lang}), "seg").text = text

    for pair in pairs:
        segtype = "phrase" if pair.kind == "glossary-term" else "paragraph"
        tu(pair, pair.en_text, pair.fr_text, segtype, {})
        if pair.kind == "rule":
            en_s, fr_s = sentences(pair.en_text), sentences(pair.fr_text)
            if len(en_s) == len(fr_s) > 1:
                for i, (e, f) in enumerate(zip(en_s, fr_s), 1):
                    tu(pair, e, f, "sentence", {"x-sentence": str(i)})
    if not len(body):
        raise ValueError("empty memory")  # the callers say why before getting here
    text = etree.tostring(root, encoding="unicode", pretty_print=True)
    return check('<?xml version="1.0" encoding="UTF-8"?>\n' + text, "tmx"), clean

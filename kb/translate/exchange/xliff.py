"""The translator's worklist as XLIFF 1.2: what every CAT tool opens.

One ``trans-unit`` per rule the French text covers: ``id`` and ``resname`` the current
English number (``fr:NUMBER`` for a French rule with no English counterpart), ``<source>``
the current English, ``<target>`` the current French with a ``state`` from the report:

- ``translated``: the rule has a French translation and the report found nothing (the unit
  is ``approved="yes"``: translate-toolkit, so Weblate, reads an unapproved target as fuzzy);
- ``needs-review-translation``: stale (the English changed after the French base) or
  another finding (citations, numbers, card names, sentences);
- ``needs-translation``: missing (no French): the target is empty.

Each finding is a ``<note from="rulekb:KIND">`` (the kinds of ``rulekb translation-report``,
counted the same: one note per report item; the report-level terminology items are notes
of the file header); a stale rule's note carries the English change since the base, old
-> new. ``<alt-trans>`` holds the base edition's English and the French that translates it.
Units are grouped by section, the group carrying the section title in both languages.

``copy_source``: OmegaT 3.6's XLIFF filter translates the *target*'s text (an empty or
absent target is no segment, a French one becomes a French "source"), so for OmegaT
every target holds a copy of the English and the French goes to the memory (TMX) the
project loads: the ``state`` attributes stay as they are.
"""

from __future__ import annotations

import datetime as _dt

from lxml import etree

from rulekb.ingest.numbers import sort_key

from ..worklist import KIND_NOTES
from .validate import check
from .xmlchars import Cleaner

NS = "urn:oasis:names:tc:xliff:document:1.2"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
FINDING = "rulekb:"  # a note's ``from``: rulekb:KIND

TRANSLATED, REVIEW, TODO = "translated", "needs-review-translation", "needs-translation"


def _full(rule) -> str:
    return " ".join([rule.text, *rule.examples]).strip() if rule is not None else ""


def _key(number: str) -> tuple:
    try:
        return (0, sort_key(number), number)
    except (ValueError, TypeError, AttributeError):
        return (1, (0, 0, 0), number)


def _section(number: str) -> str:
    return number.removeprefix("fr:").split(".")[0]


def _change(item: dict) -> str:
    return " ".join(("[-" + t.strip() + "-]") if op == "delete" else ("{+" + t.strip() + "+}")
                    for op, t in item.get("diff") or () if op != "equal" and t.strip())


def _finding_text(item: dict, base_id: str | None) -> str:
    kind = item["kind"]
    text = KIND_NOTES.get(kind, kind)
    if kind == "stale":
        text += f". English change since {base_id or 'the base'} ({item.get('detail') or 'text'}): {_change(item)}"
        text += f" | was: {item.get('base_value') or ''} | now: {item.get('us_value') or ''}"
        return text
    if kind == "terminology-inconsistency":
        renderings = "; ".join(f"{name} ({', '.join(numbers)})" for name, numbers in (item.get("fr_value") or {}).items())
        return f"{text}: {item.get('us_value')} -> {renderings}"
    values = []
    for side, label in (("fr_value", "French"), ("us_value", "English")):
        value = item.get(side)
        if value not in (None, [], ""):
            values.append(f"{label}: {', '.join(map(str, value)) if isinstance(value, list) else value}")
    return text + (" (" + "; ".join(values) + ")" if values else "")


class _Unit:
    def __init__(self, key: str, us: str | None, fr: str | None):
        self.key, self.us, self.fr = key, us, fr
        self.items: list[dict] = []
        self.base_rule: str | None = None


def units(data: dict, fr, english, base) -> tuple[list[_Unit], list[dict]]:
    """The units (one per rule) and the report-level items, from the report and its alignment."""
    pairs = data.get("pairs") or {}  # French -> base English
    successors = data.get("successors")  # base -> current English (when the base is older)
    found: dict[str, _Unit] = {}
    by_fr: dict[str, _Unit] = {}

    def unit(us: str | None, fr_number: str | None) -> _Unit:
        if fr_number is not None and fr_number in by_fr:
            return by_fr[fr_number]
        key = us if us is not None and us not in found else f"fr:{fr_number}" if fr_number else f"en:{us}"
        if key in found:
            return found[key]
        made = found[key] = _Unit(key, us if key == us else None, fr_number)
        if fr_number is not None:
            by_fr[fr_number] = made
        return made

    for fr_number, base_number in sorted(pairs.items(), key=lambda p: _key(p[0])):
        current = successors.get(base_number) if successors is not None else base_number
        made = unit(current, fr_number)
        made.base_rule = base_number
    header = []
    for item in data.get("items") or ():
        if item.get("us") is None and item.get("fr") is None:
            header.append(item)
            continue
        made = unit(item.get("us"), item.get("fr"))
        made.items.append(item)
        if item.get("base_rule") and made.base_rule is None:
            made.base_rule = item["base_rule"]
    return sorted(found.values(), key=lambda u: (_key(_section(u.key)), _key(u.key.removeprefix("fr:")))), header


def to_xliff(data: dict, fr, english, base=None, copy_source: bool = False) -> tuple[str, Cleaner]:
    """The XLIFF 1.2 document (checked against the OASIS schema) and its :class:`Cleaner`
    (how many characters XML could not carry)."""
    clean = Cleaner()
    base_id = data.get("base_detected")
    en_rules = {r.number: r for r in english.rules}
    fr_rules = {r.number: r for r in fr.rules}
    base_rules = {r.number: r for r in base.rules} if base is not None else en_rules if base_id == english.id else {}
    titles = {"en": {h.number: h.title for h in english.sections}, "fr": {h.number: h.title for h in fr.sections}}

    root = etree.Element(f"{{{NS}}}xliff", nsmap={None: NS}, version="1.2")
    file = etree.SubElement(root, f"{{{NS}}}file", {
        "original": f"rulekb:{fr.id}", "source-language": "en", "target-language": "fr", "datatype": "plaintext",
        "date": _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z"),
        "product-name": "rulekb", "product-version": english.id, "build-num": base_id or "none"})
    header = etree.SubElement(file, f"{{{NS}}}header")
    etree.SubElement(header, f"{{{NS}}}tool", {"tool-id": "rulekb", "tool-name": "rulekb translation-report"})
    made, report_items = units(data, fr, english, base)
    summary = (f"French {fr.id} against English {english.id}; base detected: {base_id or 'not detected'}. "
               f"{len(data.get('items') or ())} findings. States: translated (nothing found), "
               "needs-review-translation (stale or another finding, see the notes), needs-translation (missing).")
    etree.SubElement(header, f"{{{NS}}}note", {"from": "rulekb"}).text = clean(summary)
    for item in report_items:
        etree.SubElement(header, f"{{{NS}}}note", {"from": FINDING + item["kind"]}).text = \
            clean(_finding_text(item, base_id))
    body = etree.SubElement(file, f"{{{NS}}}body")
    if not made:  # a French text without rules: an empty worklist, still a valid file
        group = etree.SubElement(body, f"{{{NS}}}group", {"id": "empty"})
        etree.SubElement(group, f"{{{NS}}}note", {"from": "rulekb"}).text = clean(data.get("note") or "no rules")
        unit = etree.SubElement(group, f"{{{NS}}}trans-unit", {"id": "none", "translate": "no"})
        etree.SubElement(unit, f"{{{NS}}}source", {XML_LANG: "en"})
    group, current = None, None
    for u in made:
        section = _section(u.key)
        if section != current:
            current = section
            group = etree.SubElement(body, f"{{{NS}}}group", {"id": f"section-{section}", "resname": section,
                                                               "restype": "x-section"})
            for lang in ("en", "fr"):
                if titles[lang].get(section):
                    etree.SubElement(group, f"{{{NS}}}note", {"from": f"section-title-{lang}", XML_LANG: lang}).text = \
                        clean(f"{section}. {titles[lang][section]}")
        _unit(group, u, en_rules, fr_rules, base_rules, base_id, clean, copy_source)
    text = etree.tostring(root, encoding="unicode", pretty_print=True)
    return check('<?xml version="1.0" encoding="UTF-8"?>\n' + text, "xliff"), clean


def _unit(group, u: _Unit, en_rules, fr_rules, base_rules, base_id, clean, copy_source) -> None:
    kinds = {i["kind"] for i in u.items}
    english = _full(en_rules.get(u.us)) if u.us else ""
    french = _full(fr_rules.get(u.fr)) if u.fr else ""
    attrs = {"id": u.key, "resname": u.key.removeprefix("fr:")}
    if not u.us:  # no English counterpart: nothing to translate, a French rule to check or remove
        attrs["translate"] = "no"
    el = etree.SubElement(group, f"{{{NS}}}trans-unit", attrs)
    etree.SubElement(el, f"{{{NS}}}source", {XML_LANG: "en"}).text = clean(english)
    if "missing" in kinds or not u.fr:
        state = TODO if u.us else REVIEW
    else:
        state = REVIEW if kinds else TRANSLATED
    target_text = french
    if copy_source:
        target_text = english
    if state == TRANSLATED and not copy_source:  # translate-toolkit (Weblate) counts only approved units as done
        el.set("approved", "yes")
    if target_text or u.us:
        target = etree.SubElement(el, f"{{{NS}}}target", {XML_LANG: "fr", "state": state})
        target.text = clean(target_text)
    for item in u.items:
        etree.SubElement(el, f"{{{NS}}}note", {"from": FINDING + item["kind"], "annotates": "general"}).text = \
            clean(_finding_text(item, base_id))
    if copy_source and french:
        etree.SubElement(el, f"{{{NS}}}note", {"from": "french", XML_LANG: "fr"}).text = clean(french)
    if u.fr and u.base_rule and u.base_rule in base_rules and base_id:
        alt = etree.SubElement(el, f"{{{NS}}}alt-trans", {"origin": base_id, "alttranstype": "previous-version"})
        etree.SubElement(alt, f"{{{NS}}}source", {XML_LANG: "en"}).text = clean(_full(base_rules[u.base_rule]))
        etree.SubElement(alt, f"{{{NS}}}target", {XML_LANG: "fr"}).text = clean(french)

"""Atom feeds (RFC 4287) of the KB's editions and of one rule's changes.

Built with ``xml.etree`` (every text escaped by the serializer), entry ids are the KB's own
IRIs (an edition's, a change's: stable across rebuilds of the same texts), ``updated`` is the
effective date of the edition at midnight UTC.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

ATOM = "http://www.w3.org/2005/Atom"
ET.register_namespace("", ATOM)


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _clean(text: str) -> str:
    """What XML 1.0 cannot carry (control characters) dropped; the serializer escapes the rest."""
    return _NOT_XML.sub("", text)


def _stamp(date: str | None) -> str:
    return f"{date or '1999-01-01'}T00:00:00Z"


def _el(parent, tag: str, text: str | None = None, **attrs) -> ET.Element:
    node = ET.SubElement(parent, f"{{{ATOM}}}{tag}", {k.rstrip("_"): _clean(v) for k, v in attrs.items()})
    if text is not None:
        node.text = _clean(text)
    return node


def feed(feed_id: str, title: str, self_href: str, alternate: str, entries: list[dict]) -> bytes:
    """``entries``: ``{"id", "title", "updated" (ISO date), "href", "summary", "content"}``,
    newest first. The feed's ``updated`` is its newest entry's."""
    root = ET.Element(f"{{{ATOM}}}feed")
    _el(root, "id", feed_id)
    _el(root, "title", title)
    _el(root, "updated", _stamp(max((e["updated"] for e in entries if e.get("updated")), default=None)))
    _el(root, "link", rel="self", href=self_href, type="application/atom+xml")
    _el(root, "link", rel="alternate", href=alternate, type="text/html")
    author = _el(root, "author")
    _el(author, "name", "rulekb")
    _el(root, "generator", "rulekb")
    for entry in entries:
        node = _el(root, "entry")
        _el(node, "id", entry["id"])
        _el(node, "title", entry["title"])
        _el(node, "updated", _stamp(entry.get("updated")))
        _el(node, "link", rel="alternate", href=entry["href"], type="text/html")
        if entry.get("summary"):
            _el(node, "summary", entry["summary"])
        if entry.get("content"):
            _el(node, "content", entry["content"], type="text")
    return b'<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="utf-8")


def edition_entry(edition: dict, changed: dict[str, int], edition_iri: str, base: str) -> dict:
    """The entry of ``/feed/editions`` for one edition (a row of the editions query, with its
    ``rules`` count) that changed ``changed`` (kind -> count, kb.timeline.effects)."""
    from . import effects

    summary = (f"{edition['rules']} rules; " + effects.summary(changed)) if changed else f"{edition['rules']} rules"
    return {"id": edition_iri, "updated": edition["effective_date"],
            "title": f"{edition['edition']}{' (partial)' if edition['partial'] else ''}, "
                     f"effective {edition['effective_date']}",
            "href": base + f"effects/{edition['edition']}", "summary": summary}


def entry_xml(entry: dict) -> str:
    """One entry as the feed writes it (``<entry xmlns=...>...</entry>``): what ``rulekb update``
    shows of the feed for an edition it added."""
    whole = ET.fromstring(feed("-", "-", "-", "-", [entry]))
    node = whole.find(f"{{{ATOM}}}entry")
    return ET.tostring(node, encoding="unicode")

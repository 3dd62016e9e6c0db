"""Rules quoted inside other pages: forum posts, articles, glossary sites.

Such a page is mostly chatter (navigation, author boxes, commentary) with a
few rules pasted in, usually from an old French translation::

    Envoyé par Cromat le Vendredi 27 Février 2004 à 15:13    <- post byline
    403. Capacités activées                                   <- section heading
    403.1. Une capacité activée peut exister …                <- rule: number, text on the line
    806.3a Si deux joueurs …                                  <- (or the text on the next line)
    Exemple : …                                               <- example of the rule above
    La version originale officielle des règles :              <- chatter
    702.18a Vigilance is a static ability …                   <- English beside the French

Decisions (taken for the project; see also ``ingest/layouts/__init__.py``):

- EXTRACT: a rule is a rule number at the start of a line with its text on
  that line or the next. ``Exemple :`` lines after a rule are its examples. A
  following line continues the rule only when it visibly continues it (starts
  lower-case or with a closing bracket, follows a line ending in "(" "," ";"
  ":", or sits between the rule and its example); any other line is chatter,
  dropped, and ends the rule. A section heading ("403. Capacités activées") is
  kept when a rule of that section follows it. Chatter is never rule text, so
  the page does not round-trip; instead every rule's text occurs, in order, in
  the page (the corpus tests check that).
- One edition per language: each rule's language is judged from its own text
  (:func:`.fragments.rule_languages`), so a page quoting the French and the
  English gives ``fr/…`` and ``en/…``.
- Date: the rules date the text states ("Ces règles entrent en vigueur au …"),
  else the publication date of the post that quotes the rules (its byline:
  "Envoyé par X le Vendredi 27 Février 2004", "Posté le 20/08/2015", "13.07.13
  13:18"), else none: the edition is ``LANG/undated-<file stem>`` with
  ``effective_date = None`` and a warning -- which English edition it
  translates is for ``rulekb translation-report`` to detect. A post date is
  not a rules date: the quoted text may be years older (warned too).
- Every edition is ``partial``. A page whose numbered lines are only a table
  of contents (section titles, keyword titles) is not a rules page.
"""

from __future__ import annotations

import itertools

from .. import dates, language, numbers
from ..errors import NotRulesError
from ..model import Edition, Heading, Rule
from ..textdoc import TextDoc, is_blank
from . import fragments as fx
from .common import source_name

LAYOUT = "forum"

_OPENS = ("(", ",", ";", ":", "«", "“")  # a line ending so is continued on the next


def looks(lines: list[str]) -> bool:
    return bool(_rules(fx.classify(lines)))


def parse(doc: TextDoc) -> list[Edition]:
    items = fx.classify(doc.lines)
    found = _rules(items)
    if not found:
        raise NotRulesError("no rules quoted in this page: no line starts with a rule number and its text")
    langs = fx.rule_languages([rule.text for rule, _ in found], "fr")
    editions: dict[str, Edition] = {}
    for (rule, heading), lang in zip(found, langs):
        ed = editions.get(lang)
        if ed is None:
            ed = editions[lang] = _edition(doc, lang, found[0][0].line)
        if heading is not None and heading.number not in {s.number for s in ed.sections}:
            ed.sections.append(heading)
        ed.rules.append(rule)
    for ed in editions.values():
        _check(ed)
    return [editions[lang] for lang in ("fr", "en") if lang in editions]


def _rules(items: list[fx.Item]) -> list[tuple[Rule, Heading | None]]:
    """The quoted rules, each with the section heading printed just above it."""
    out: list[tuple[Rule, Heading | None]] = []
    order = itertools.count(1)
    rule: Rule | None = None
    heading: Heading | None = None
    waiting = last_example = False
    for k, item in enumerate(items):
        following = items[k + 1] if k + 1 < len(items) else None
        if item.kind == "rule":
            rule = Rule(item.number, item.text, parent=numbers.parent(item.number), line=item.line, printed=item.printed)
            waiting, last_example = not item.text, False
            out.append((rule, heading))
            heading = None
        elif item.kind == "section":
            rule = None
            heading = None
            if following and following.kind == "rule" and numbers.section_of(following.number) == item.number:
                heading = Heading(item.number, item.text)
        elif rule is None:
            continue  # chatter
        elif waiting:
            rule.text, waiting = item.source, False
        elif item.kind == "example":
            rule.examples.append(item.text)
            last_example = True
        elif _continues(fx.last_text(rule), item.text, following):
            if last_example:
                rule.examples[-1] += " " + item.text
            else:
                rule.text += " " + item.text
        else:
            rule = None  # chatter ends the quote
    # a table of contents is not rules: keep pages where some rule is a sentence
    kept = [(r, h) for r, h in out if r.text]
    if not any(fx.is_sentence(r.text) for r, _ in kept):
        return []
    for rule, heading in kept:
        if heading is not None:
            heading.order = next(order)
        rule.order = next(order)
    return kept


def _continues(before: str, text: str, following: fx.Item | None) -> bool:
    """Is ``text`` more of the rule above rather than the poster's own words?"""
    if text[:1].islower() or text[:1] in ")]»,;":
        return True
    if before.rstrip().endswith(_OPENS):
        return True
    return following is not None and following.kind == "example"  # rule, paragraph, its example


def _edition(doc: TextDoc, lang: str, first_rule_line: int) -> Edition:
    lines = doc.lines
    text = "\n".join(lines)
    stated = dates.stated_rules_date(text, lang)
    published = _publication_date(lines, first_rule_line)
    date = stated or published
    title = next((line.strip()[:120] for line in lines if not is_blank(line)), "")
    ed = Edition(id="", language=lang, effective_date=date, title=title, sources=[doc.source], partial=True)
    if date:
        ed.id = f"{lang}/{date}"
        if not stated:
            ed.warn(
                "publication-date",
                f"no rules date in the page; named by the date the rules were posted ({published}), "
                "which may be later than the rules' edition",
            )
    else:
        stem = source_name(doc.source.location).rsplit(".", 1)[0] or "page"
        ed.id = f"{lang}/undated-{stem}"
        ed.warn(
            "undated",
            "no date for these rules in the page: the edition is undated; the English edition "
            "it follows must be detected later (rulekb translation-report)",
        )
    return ed


def _publication_date(lines: list[str], first_rule_line: int) -> str | None:
    """The byline of the post holding the rules: the last dated byline above
    the first rule, else the first one on the page."""
    dated = [(i, d) for i, line in enumerate(lines) if (d := dates.french_byline_date(line))]
    above = [d for i, d in dated if i < first_rule_line]
    if above:
        return above[-1]
    return dated[0][1] if dated else None


def _check(ed: Edition) -> None:
    ed.rules.sort(key=lambda r: r.order)
    seen: set[str] = set()
    for rule in ed.rules:
        if rule.number in seen:
            ed.warn("duplicate-number", f"rule {rule.number} is quoted more than once", rule.line)
        seen.add(rule.number)
    last = ed.rules[-1]
    if fx.looks_cut(fx.last_text(last)):
        ed.warn("truncated", f"the quote of rule {last.number} stops mid-sentence", last.line)
    if not any(language.guess(r.text) == ed.language for r in ed.rules):
        ed.warn("language", f"no rule's text is clearly {ed.language}: the language was inferred from neighbours")

"""An article that prints a stretch of the rules in CR layout under a title and a byline.

The shape (the 2008 French article of the seeds, rules 200-210 in the old
numbering)::

    REGLES: 2. CARTES (1/2)                          <- title
    Ecrit par Toutenkarton le lundi 14 avril 2008     <- byline: the publication date
    200. Généralités                                  <- section headings
    200.1. Quand une règle … / 201.1 Les … / 200.1a. … <- rules, number and text on one line
    Exemple : …  /  Note : …                          <- examples; other paragraphs continue the rule
    Suite (2/2) de la deuxième partie des règles …    <- a pointer to the next part

Decisions:

- Title and byline (and anything else above the first heading) are front
  matter; trailing navigation lines ("Suite …", "À suivre", "Lire la suite")
  are back matter. Neither is ever rule text.
- The article states no rules date, so the edition is named by its
  publication date: ``fr/2008-04-14``, with a warning saying so. A rules date
  stated in the text ("Ces règles entrent en vigueur au …") wins when present.
- Everything between is kept: a paragraph after a rule continues it (joined
  with a newline), text outside any rule is unplaced with a warning. The page
  round-trips through :func:`ingest.render.round_trip`.
- Rule numbers keep their printed form ("201.1", "200.1a."), so rendering
  gives back the page; they are normalised like every other number.
"""

from __future__ import annotations

import itertools
import re

from .. import dates, language, numbers
from ..repair import repair_numbers
from ..errors import NotRulesError
from ..model import Edition, Heading, Rule, Unplaced
from ..textdoc import TextDoc, is_blank
from . import fragments as fx

LAYOUT = "article"

_FOOTER = re.compile(
    r"^[ \t]*(?:Suite\b|\(?[ \t]*[àÀa][ \t]+suivre|Lire la suite|Partie (?:suivante|précédente)"
    r"|Page (?:suivante|précédente)|Retour (?:au sommaire|en haut))",
    re.IGNORECASE,
)
_MIN_RULES = 10


def _byline(lines: list[str]) -> tuple[int, str] | None:
    """(index, date) of a dated byline among the first lines, under a title."""
    seen = 0
    for i, line in enumerate(lines):
        if is_blank(line):
            continue
        seen += 1
        if seen > 4:
            return None
        date = dates.french_byline_date(line)
        if date and seen > 1:
            return i, date
    return None


def looks(lines: list[str]) -> bool:
    found = _byline(lines)
    if found is None:
        return False
    items = fx.classify(lines, found[0] + 1)
    first = next((k for k, item in enumerate(items) if item.kind in ("rule", "section")), None)
    if first is None or items[first].kind != "section":
        return False  # an article opens its rules with a section heading
    return sum(1 for item in items if item.kind == "rule") >= _MIN_RULES


def parse(doc: TextDoc) -> Edition:
    lines = doc.lines
    found = _byline(lines)
    if found is None:
        raise NotRulesError("no dated byline: not an article")
    byline_at, published = found
    items = fx.classify(lines, byline_at + 1)
    first = next((k for k, item in enumerate(items) if item.kind in ("rule", "section")), None)
    if first is None:
        raise NotRulesError("an article without numbered rules")
    body_start = items[first].line - 1
    footer_start = _footer_start(lines, items)

    body_text = "\n".join(item.text for item in items if item.kind != "section")
    lang = language.detect(body_text, default="fr")
    stated = dates.stated_rules_date("\n".join(lines), lang)
    date = stated or published
    ed = Edition(
        id=f"{lang}/{date}",
        language=lang,
        effective_date=date,
        title=next((line.strip() for line in lines if not is_blank(line)), ""),
        sources=[doc.source],
        partial=True,
    )
    ed.front_matter = [line.strip() for line in lines[:body_start] if not is_blank(line)]
    ed.back_matter = [line.strip() for line in lines[footer_start:] if not is_blank(line)]
    under = _body(ed, [item for item in items if body_start < item.line <= footer_start])
    repair_numbers(ed, under)  # misprinted numbers: read back with evidence, and a warning
    if not ed.rules:
        raise NotRulesError("an article without numbered rules")
    if not stated:
        ed.warn(
            "publication-date",
            f"the article states no rules date; the edition is named by its publication date {published}",
            byline_at + 1,
        )
    ed.warn("excerpt", f"an article quoting rules {ed.rules[0].number}-{ed.rules[-1].number}, not a whole edition")
    last = ed.rules[-1]
    if fx.looks_cut(fx.last_text(last)):
        ed.warn("truncated", f"the text stops in the middle of rule {last.number}", last.line)
    return ed


def _footer_start(lines: list[str], items: list[fx.Item]) -> int:
    """Index of the first line of trailing navigation ("Suite (2/2) …")."""
    start = len(lines)
    for item in reversed(items):
        if item.kind == "text" and _FOOTER.match(item.text):
            start = item.line - 1
        else:
            break
    return start


def _body(ed: Edition, items: list[fx.Item]) -> list[str]:
    """Fill the edition; return the section heading each rule sat under."""
    under: list[str] = []
    section = ""
    order = itertools.count(1)
    rule: Rule | None = None
    last_example = False
    waiting = False
    for item in items:
        if item.kind == "rule":
            under.append(section)
            rule = Rule(item.number, item.text, parent=numbers.parent(item.number), order=next(order),
                        line=item.line, printed=item.printed)
            ed.rules.append(rule)
            waiting, last_example = not item.text, False
        elif item.kind == "section":
            ed.sections.append(Heading(item.number, item.text, next(order)))
            section, rule = item.number, None
        elif item.kind == "example" and rule is not None and not waiting:
            rule.examples.append(item.text)
            last_example = True
        elif rule is None:
            ed.unplaced.append(Unplaced(item.source, next(order), item.line))
            ed.warn("unknown-line", f"text outside any rule kept unplaced: {item.source[:60]!r}", item.line)
        elif waiting:
            rule.text, waiting = item.source, False
        elif last_example:
            rule.examples[-1] += "\n" + item.source
        else:
            rule.text += "\n" + item.source  # "Note : …", a second paragraph of the rule
    return under

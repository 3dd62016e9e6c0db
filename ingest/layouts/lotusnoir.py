"""Rules web pages in the lotusnoir.info shape: one section per page, French or English.

A page, as text (saved as text, or read from HTML by :mod:`ingest.formats.html`)::

    Règles complètes de Magic: The Gathering          <- site title
    Règles US [30/09/2011] Règles FR [04/02/2011]     <- the two editions the site shows
    Sommaire / 0. Introduction / 1. Concepts du Jeu … <- the site's table of contents
    111. Concepts du Jeu : Sorts                      <- the page: part title : section title
    111.1.                                            <- a rule number on its own line …
    Un sort est une carte sur la pile. …              <- … then its text
    Exemple : …                                       <- an example of the rule above

Decisions:

- The page's language is the language of its body (the rules), not of its
  navigation: the site serves French navigation around English text. The
  edition is ``LANG/DATE`` with the header's date for that language
  (``Règles FR [04/02/2011]`` -> ``fr/2011-02-04``; US -> ``en/2011-09-30``).
  When the headings' language differs from the body's, the page title is kept
  as front matter (a warning), so an English edition gets no French headings.
- The page title becomes a part heading and a section heading sharing one
  ``order``; :func:`ingest.render.render` writes such a pair back as one line.
- Text before the first rule number is kept as :class:`Unplaced` with a
  warning (numbers are never invented); on the Introduction page (``1.
  Introduction : Introduction``) it is front matter, with a ``no-rules`` warning.
- Pages are excerpts: the edition is ``partial``; a last rule cut mid-sentence
  gets a ``truncated`` warning. Pages of one edition are merged by
  :mod:`ingest.combine`.
- A page holding both languages (HTML with side-by-side columns, emitted one
  column after the other) gives one edition per language, each rule judged by
  its own text (:func:`.fragments.rule_languages`).
- The site's own slips are read back with a warning, never silently: a number
  printed twice where the next belongs (``702.2d`` for ``702.2e``) goes through
  :func:`ingest.repair.repair_numbers`, as in the official texts; a
  cross-reference the site cut out as a fake rule ("… proceed to rule" /
  ``616.1d`` / ".") stays text of the rule that cites it (``split-reference``).
- A page with the header but nothing else (only the table of contents) is
  refused: ``NotRulesError``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from .. import dates, language, numbers
from ..errors import NotRulesError
from ..model import Edition, Heading, Rule, Unplaced
from ..repair import repair_numbers
from ..textdoc import TextDoc, is_blank
from . import fragments as fx
from .common import source_name

LAYOUT = "lotusnoir"

_VERSION = re.compile(
    r"\b(?:R[èe]gles|Rules)\s+(US|EN|FR|VF|VO)\s*\[\s*(\d{1,2}/\d{1,2}/\d{4})\s*\]", re.IGNORECASE
)
_LANG = {"us": "en", "en": "en", "vo": "en", "fr": "fr", "vf": "fr"}
# "111. Concepts du Jeu : Sorts", and on the Introduction page "1. Introduction : Introduction"
_PAGE_TITLE = re.compile(rf"^[ \t]*({numbers.LEADING})\.[ \t]+(\S.*?)[ \t]+:[ \t]+(\S.*?)[ \t]*$")
_HEAD_LINES = 30


def versions(lines: list[str]) -> dict[str, str]:
    """{"en": "2011-09-30", "fr": "2011-02-04"} from the page header."""
    found: dict[str, str] = {}
    for line in lines[:_HEAD_LINES]:
        for m in _VERSION.finditer(line):
            date = dates.dmy(m.group(2))
            if date:
                found.setdefault(_LANG[m.group(1).lower()], date)
    return found


def looks(lines: list[str]) -> bool:
    return bool(versions(lines))


def parse(doc: TextDoc) -> list[Edition]:
    lines = doc.lines
    header = versions(lines)
    title_at = next(
        (i for i, line in enumerate(lines) if _PAGE_TITLE.match(line) and not fx.NUMBER_TEXT.match(line)), None
    )
    first_rule = next((i for i, line in enumerate(lines) if _is_rule_line(line)), len(lines))
    if title_at is not None and title_at > first_rule:
        title_at = None  # a " : " inside the rules is not the page title
    body_start = title_at + 1 if title_at is not None else first_rule
    front = [line.strip() for line in lines[: title_at if title_at is not None else body_start] if not is_blank(line)]

    body_text = "\n".join(line for line in lines[body_start:] if not fx.NUMBER_ONLY.match(line))
    # the headings' language: the page title's own words, else the table of
    # contents (the site's title and header are French on every page)
    toc = "\n".join(front[2:])
    heading_lang = language.guess(lines[title_at]) if title_at is not None else None
    heading_lang = heading_lang or language.guess(toc)
    lang = language.detect(body_text, default=heading_lang or "fr") if body_text.strip() else heading_lang or "fr"
    heading_lang = heading_lang or lang

    page = Edition(id="", language=lang, effective_date=None, title=front[0] if front else "", sources=[doc.source])
    page.front_matter = front
    page.partial = True
    order = itertools.count(1)
    intro = title_at is not None and len(_PAGE_TITLE.match(lines[title_at]).group(1)) < 3
    if title_at is not None:
        title_line = lines[title_at].strip()
        if intro:
            page.front_matter.append(title_line)
        elif heading_lang != lang and body_text.strip():
            page.front_matter.append(title_line)
            page.warn(
                "mixed-language",
                f"the page's headings are in {heading_lang} but its text is in {lang}: "
                f"the page title is kept as front matter, not as {lang} headings",
                title_at + 1,
            )
        else:
            _title_headings(page, _PAGE_TITLE.match(title_line), next(order))
    _body(page, lines, body_start, intro, order)

    if not (page.rules or page.unplaced or intro):
        raise NotRulesError("no rules found: the page holds only the site's header and table of contents")
    editions = _by_language(page)
    for edition in editions:
        _name(edition, header, doc)
        _check(edition)
    return editions


def _is_rule_line(line: str) -> bool:
    return bool(fx.NUMBER_ONLY.match(line) or fx.NUMBER_TEXT.match(line))


def _title_headings(ed: Edition, m: re.Match, order: int) -> None:
    """``111. Concepts du Jeu : Sorts`` -> part 1 and section 111, one order."""
    section = m.group(1)
    ed.parts.append(Heading(section[0], m.group(2), order))
    ed.sections.append(Heading(section, m.group(3), order))


def _body(ed: Edition, lines: list[str], start: int, intro: bool, order: Iterator[int]) -> None:
    rule: Rule | None = None
    waiting = False  # a number seen on its own line; its text comes next
    last_example = False
    body = [(n, line.strip()) for n, line in enumerate(lines[start:], start + 1) if not is_blank(line)]
    for k, (lineno, s) in enumerate(body):
        m_num, m_text = fx.NUMBER_ONLY.match(s), fx.NUMBER_TEXT.match(s)
        title = _PAGE_TITLE.match(s)
        if m_num and rule is not None and not waiting and _broken_reference(fx.last_text(rule), body[k + 1 :]):
            # "… proceed to rule" / "616.1d" / "." : the site cut a cross-reference
            # into a rule of its own; it stays text of the rule that cites it
            ed.warn("split-reference", f"{s} after {rule.number}'s \"…{fx.last_text(rule)[-20:]}\" is a cited rule, not a new one", lineno)
            if last_example:
                rule.examples[-1] += " " + s
            else:
                rule.text += " " + s
            continue
        if m_num or m_text:
            if waiting and rule is not None:
                ed.warn("empty-rule", f"rule {rule.number} has no text", rule.line)
            number, printed = fx.number_of(m_num or m_text)
            rule = _start(ed, number, printed, lineno, next(order))
            waiting = m_num is not None
            if m_text:
                rule.text, rule.examples = fx.split_examples(m_text.group(5))
            last_example = bool(rule.examples)
        elif title and len(title.group(1)) == 3 and not waiting:
            _title_headings(ed, title, next(order))  # a second section on the page
            rule = None
        elif (ex := fx.EXAMPLE.match(s)) and rule is not None and not waiting:
            rule.examples.append(ex.group(1))
            last_example = True
        elif rule is None:
            if intro:
                ed.front_matter.append(s)
            else:
                ed.unplaced.append(Unplaced(s, next(order), lineno))
                ed.warn("unnumbered", f"text without a rule number kept unplaced: {s[:60]!r}", lineno)
        elif waiting:
            rule.text, rule.examples = fx.split_examples(s)
            waiting = False
            last_example = bool(rule.examples)
        elif last_example and not fx.WORD.search(s):
            rule.examples[-1] += " " + s  # "." left over from a cut reference
        elif last_example:
            rule.examples[-1] += "\n" + s
        elif not fx.WORD.search(s):
            rule.text += " " + s
        else:
            text, examples = fx.split_examples(s)
            rule.text = f"{rule.text}\n{text}" if rule.text else text
            rule.examples.extend(examples)
            last_example = bool(examples)
    if waiting and rule is not None:
        ed.warn("empty-rule", f"the page stops after rule number {rule.number}, before its text", rule.line)


_CITES = re.compile(r"\b(?:rules?|règles?|sections?|see|voir|cf\.)$", re.IGNORECASE)


def _broken_reference(before: str, after: list[tuple[int, str]]) -> bool:
    """A text ending "… rule" followed by a lone number and a line with no words."""
    return bool(_CITES.search(before.rstrip())) and bool(after) and not fx.WORD.search(after[0][1])


def _start(ed: Edition, number: str, printed: str | None, lineno: int, order: int) -> Rule:
    rule = Rule(number, "", parent=numbers.parent(number), order=order, line=lineno, printed=printed)
    ed.rules.append(rule)
    return rule


def _by_language(page: Edition) -> list[Edition]:
    """One edition, or two when the page holds French and English rules."""
    langs = fx.rule_languages([r.text for r in page.rules], page.language)
    if len(set(langs)) < 2:
        return [page]
    out = {}
    for lang in ("fr", "en"):
        ed = Edition(id="", language=lang, effective_date=None, title=page.title, sources=list(page.sources))
        ed.front_matter = list(page.front_matter)
        ed.partial = True
        ed.warnings = list(page.warnings)
        out[lang] = ed
    rule_lang = dict(zip((id(r) for r in page.rules), langs))
    for rule in page.rules:
        out[rule_lang[id(rule)]].rules.append(rule)
    sections = {s.order: s for s in page.sections}
    for part in page.parts:
        section = sections.pop(part.order, None)
        lang = language.guess(part.title + " " + (section.title if section else "")) or _next_rule_lang(page, part.order, rule_lang)
        out[lang].parts.append(part)
        if section:
            out[lang].sections.append(section)
    for section in sections.values():
        lang = language.guess(section.title) or _next_rule_lang(page, section.order, rule_lang)
        out[lang].sections.append(section)
    for block in page.unplaced:
        lang = language.guess(block.text) or page.language
        out[lang].unplaced.append(block)
    for ed in out.values():
        ed.warn("bilingual-page", "the page holds French and English rules: one edition per language")
    return list(out.values())


def _next_rule_lang(page: Edition, order: int, rule_lang: dict[int, str]) -> str:
    later = [r for r in page.rules if r.order > order]
    return rule_lang[id(later[0])] if later else page.language


def _name(ed: Edition, header: dict[str, str], doc: TextDoc) -> None:
    date = header.get(ed.language)
    ed.effective_date = date
    if date:
        ed.id = f"{ed.language}/{date}"
    else:
        stem = source_name(doc.source.location).rsplit(".", 1)[0] or "page"
        ed.id = f"{ed.language}/undated-{stem}"
        shown = ", ".join(f"{k} {v}" for k, v in header.items())
        ed.warn("undated", f"the page header dates only other editions ({shown}), not the {ed.language} rules it holds")


def _check(ed: Edition) -> None:
    # misprinted numbers (the site prints 702.2d twice, the second for 702.2e)
    # are read back by the official parser's rules, with a warning
    sections = {s.number for s in ed.sections}
    repair_numbers(ed, [numbers.section_of(r.number) if numbers.section_of(r.number) in sections else "" for r in ed.rules])
    if not ed.rules:
        what = "the rules' introduction" if not ed.unplaced else "text without rule numbers"
        ed.warn("no-rules", f"no numbered rules on this page: it holds {what}")
        return
    last = ed.rules[-1]
    if fx.looks_cut(fx.last_text(last)):
        ed.warn("truncated", f"the page stops in the middle of rule {last.number} (an excerpt of the page)", last.line)

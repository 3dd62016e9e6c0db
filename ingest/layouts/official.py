"""Wizards' official rules text, every era from 1999 to today (and its French translation).

The document is: front matter (title, effective date, introduction, table of
contents), the body (parts ``1. Game Concepts``, sections ``100. General``,
rules ``100.1.`` and subrules ``100.1a`` with ``Example:`` paragraphs), the
glossary (``Term`` then its definition, entries separated by blank lines), and
back matter (credits, index, contact details).

Eras differ in ways this parser absorbs rather than special-cases by date:
hard-wrapped lines (1999-04-23, 2001-2002, late 2003-early 2004) are joined;
trailing-dot and no-dot numbers, indented subrules and paragraphs, section
underlines, dot-leader tables of contents, and the 2009 renumbering are all
"just layout". Malformed numbers ("702. 37a", "408.f", "901.4.All") are read
with a warning; lines that fit nowhere are kept as unplaced text with a warning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .. import dates, language, numbers, refs
from ..errors import NotRulesError
from ..model import Edition, GlossaryEntry, Heading, Rule, Unplaced
from ..repair import repair_numbers, successors
from ..textdoc import EXAMPLE, TextDoc, indent, is_blank, paragraphs
from .common import name_edition

LAYOUT = "official"

_RULE = re.compile(rf"^{numbers.RULE_NUMBER}(\.?)(?:[ \t]+|(?=[A-Z“\"(])|$)(.*)$")
_RULE_SPACED = re.compile(rf"^({numbers.SECTION})\.[ \t]+({numbers.DIGITS}{numbers.OPT_LETTER})\.?[ \t]+(.*)$")  # "702. 37a ..."
_RULE_NO_DIGIT = re.compile(rf"^({numbers.SECTION})\.({numbers.LETTER})\.?[ \t]+(.*)$")  # "408.f ..."
_SECTION = re.compile(rf"^({numbers.SECTION})\.[ \t]+(\S.*?)[ \t]*$")
_PART = re.compile(rf"^({numbers.PART})\.[ \t]+(\S.*?)[ \t]*$")
_BODY_RULE = re.compile(rf"^[ \t]*{numbers.RULE_OR_SUBRULE}\.?(?:[ \t]|[A-Z])")
_LEADING_NUMBER = re.compile(rf"^{numbers.RULE_OR_SUBRULE}\.?(?:[ \t]|[A-Z“\"(]|$)")  # (of a stripped line)
_GLOSSARY = re.compile(r"^[ \t]*(?:Glossary|GLOSSARY|Glossaire|GLOSSAIRE)[ \t]*$")
_GLOSSARY_END = re.compile(r"^[ \t]*(?:Credits|CREDITS|Index|INDEX|Crédits|CRÉDITS)[ \t]*$")
_TERMINAL = re.compile(r"[.:!?”\"')\]»]$")

CR_TITLE = re.compile(
    r"comprehensive\s+rules|r[èe]gles\s+compl[èe]tes", re.IGNORECASE
)


@dataclass
class _State:
    edition: Edition
    wrapped: bool
    order: int = 0
    part: Heading | None = None
    section: Heading | None = None
    rule: Rule | None = None
    rule_indent: int = 0
    last: str | None = None  # "rule" | "example" | "heading" | None
    prev_blank: bool = True
    rule_sections: list[str] = field(default_factory=list)  # the heading each rule sat under

    def next_order(self) -> int:
        self.order += 1
        return self.order


def looks_official(lines: list[str]) -> bool:
    """A CR title over numbered rules or an effective date; or a long run of
    numbered rules followed by a glossary (a copy that lost its title page)."""
    rule_lines = sum(1 for line in lines if _BODY_RULE.match(line))
    head = "\n".join(lines[:40])
    if CR_TITLE.search(head):
        if rule_lines:
            return True
        return bool(dates.english_effective_date(head) or dates.french_effective_date(head))
    return rule_lines >= 20 and any(_GLOSSARY.match(line) for line in lines)


def parse(doc: TextDoc) -> Edition:
    lines = doc.lines
    body_start = _find_body_start(lines)
    if body_start is None:
        body_start = gloss_start = gloss_end = len(lines)
    else:
        gloss_start, gloss_end = _find_glossary(lines, body_start)
    body = lines[body_start:gloss_start]
    wrapped = _is_hard_wrapped(body)

    head_text = "\n".join(lines[: max(body_start, 1)])
    tail_text = "\n".join(lines[gloss_end:])
    lang = language.detect(head_text + "\n" + "\n".join(body[:400]))
    date = _effective_date(head_text, tail_text, lang)
    edition = Edition(
        id="",
        language=lang,
        effective_date=date,
        title=_title(lines[:body_start]),
        sources=[doc.source],
    )
    edition.front_matter = _matter(lines[:body_start], wrapped)
    state = _State(edition, wrapped)
    for offset, line in enumerate(body):
        _body_line(state, line, body_start + offset + 1)
    repair_numbers(edition, state.rule_sections)
    if gloss_start < len(lines):
        edition.glossary_heading = lines[gloss_start].strip()
        _glossary(edition, lines[gloss_start + 1 : gloss_end], gloss_start + 2, wrapped)
    edition.back_matter = _matter(lines[gloss_end:], wrapped)
    _check_complete(edition, lines, body_start, gloss_start, gloss_end)

    name_edition(edition, date)
    if not edition.rules:
        if not edition.id or not CR_TITLE.search(head_text):
            raise NotRulesError("not a Comprehensive Rules document: no numbered rules found")
        edition.partial = True
        edition.warn("no-rules", "no numbered rules: only the document's opening (title, date, introduction)")
    if not edition.id:
        raise NotRulesError("no effective date in the text or the file name: cannot name the edition")
    return edition


# -- regions ---------------------------------------------------------------


def _find_body_start(lines: list[str]) -> int | None:
    """The part heading (or section heading) just above the first numbered rule."""
    # the first rule line that another rule line soon follows: a lone number in
    # the introduction or a stray line is not where the rules begin
    rule_lines = [i for i, line in enumerate(lines) if _BODY_RULE.match(line)]
    if not rule_lines:
        return None
    first = next(
        (i for i, j in zip(rule_lines, rule_lines[1:]) if j - i <= 24), rule_lines[0]
    )
    start = first
    i = first - 1
    while i >= 0 and first - i <= 8:
        line = lines[i].strip()
        if is_blank(line):
            i -= 1
            continue
        if _SECTION.match(line) or _PART.match(line):
            start = i
            i -= 1
            continue
        break
    return start


def _find_glossary(lines: list[str], body_start: int) -> tuple[int, int]:
    start = next(
        (i for i in range(body_start, len(lines)) if _GLOSSARY.match(lines[i])), len(lines)
    )
    end = next(
        (i for i in range(start + 1, len(lines)) if _GLOSSARY_END.match(lines[i])), len(lines)
    )
    return start, end


def _is_hard_wrapped(body: list[str]) -> bool:
    """Do paragraphs run over several lines? (Counted, not assumed from the date.)"""
    starts = continued = 0
    prev_blank = True
    for line in body:
        if is_blank(line):
            prev_blank = True
            continue
        s = line.strip()
        if _RULE.match(s) or EXAMPLE.match(s):
            starts += 1
        elif not prev_blank and indent(line) < 3:
            continued += 1
        prev_blank = False
    return continued > 0.2 * max(starts, 1)


def _matter(lines: list[str], wrapped: bool) -> list[str]:
    if wrapped:
        return paragraphs(lines)
    return [line.strip() for line in lines if not is_blank(line)]


# what runs on after the title when a copy lost its line breaks ("… Gathering Ces
# règles entrent en vigueur au …", "… Gathering Introduction", "… Complètes Wizards of the Coast – 1 er Mai 2006")
_TITLE_RUN_ON = re.compile(r"\s+(?:Ces\s+règles\s|These\s+rules\s|Introduction\b|Wizards\s+of\s+the\s+Coast\b)")


def _title(front: list[str]) -> str:
    # page furniture can come first (a page number "59", a viewer's "Vous êtes
    # sur la page 1sur 197"): start at the first of the opening lines naming the CR
    opening = [i for i, line in enumerate(front) if not is_blank(line)][:5]
    named = next((i for i in opening if CR_TITLE.search(front[i])), 0)
    for i, line in enumerate(front[named:], named):
        if is_blank(line):
            continue
        title = _TITLE_RUN_ON.split(line.strip(), 1)[0] or line.strip()
        if title.isupper() and i + 1 < len(front) and front[i + 1].strip().isupper():
            title += " " + front[i + 1].strip()  # "COMPREHENSIVE" / "RULES"
        title = re.sub(r"\s+\d\d/\d\d/\d\d$", "", title)  # 1999 header date
        title = title.replace("_", "").replace("(R)", "").replace("(r)", "")
        return re.sub(r"\s+", " ", title).strip()
    return "Comprehensive Rules"


def _effective_date(head: str, tail: str, lang: str) -> str | None:
    finders = (
        (dates.french_effective_date, dates.english_effective_date)
        if lang == "fr"
        else (dates.english_effective_date, dates.french_effective_date)
    )
    for text in (head, tail):
        for find in finders:
            found = find(text)
            if found:
                return found
    return None


# -- body ------------------------------------------------------------------


def _body_line(st: _State, line: str, lineno: int) -> None:
    if is_blank(line):
        st.prev_blank = True
        return
    s = line.strip()
    ed = st.edition
    m = _RULE.match(s)
    number = f"{m.group(1)}.{m.group(2)}{m.group(3)}" if m else ""
    if m and _accept_rule(st, number):
        printed = None if m.group(4) == ("" if m.group(3) else ".") else s[: m.end(4)]
        _start_rule(st, number, m.group(5), line, lineno, printed=printed)
    elif _heading(st, s, lineno):
        pass
    elif m := _RULE_SPACED.match(s):
        number = f"{m.group(1)}.{m.group(2)}"
        printed = " ".join(s.split()[:2])
        ed.warn("malformed-number", f"rule number printed as '{printed}'; read as {number}", lineno)
        _start_rule(st, number, m.group(3), line, lineno, printed=printed)
    elif (m := _RULE_NO_DIGIT.match(s)) and (number := _infer_number(st, m.group(1), m.group(2))):
        ed.warn("malformed-number", f"rule number printed as {m.group(1)}.{m.group(2)}; read as {number} (follows {st.rule.number})", lineno)
        _start_rule(st, number, m.group(3), line, lineno, printed=s.split()[0])
    elif (m := EXAMPLE.match(s)) and st.rule is not None and st.last in ("rule", "example"):
        text = m.group(1)
        if doubled := EXAMPLE.match(text):
            ed.warn("doubled-label", f"example label printed twice in rule {st.rule.number}", lineno)
            text = doubled.group(1)
        st.rule.examples.append(text)
        st.last = "example"
    else:
        _continuation(st, line, s, lineno)
    st.prev_blank = False


def _heading(st: _State, s: str, lineno: int) -> bool:
    if st.wrapped and not st.prev_blank:
        return False
    m = _PART.match(s)
    if m and len(m.group(2)) < 80 and not m.group(2)[0].isdigit():
        n = int(m.group(1))
        if st.part is None or n == int(st.part.number) + 1:
            st.part = Heading(m.group(1), m.group(2), st.next_order())
            st.edition.parts.append(st.part)
            st.last = "heading"
            return True
    m = _SECTION.match(s)
    if m and len(m.group(2)) < 100 and not m.group(2)[0].isdigit() and not _RULE_SPACED.match(s):
        n = m.group(1)
        if (st.section is None or int(n) > int(st.section.number)) and not m.group(2).endswith(
            (",", ";")
        ):
            st.section = Heading(n, m.group(2), st.next_order())
            st.edition.sections.append(st.section)
            if st.part is None or n[0] != st.part.number:
                st.edition.warn("section-outside-part", f"section {n} is not in part {st.part.number if st.part else '?'}", lineno)
            st.rule = None
            st.last = "heading"
            return True
    return False


def _accept_rule(st: _State, number: str) -> bool:
    """In hard-wrapped text a line may start with a cited number ("See rule /
    419.8 ..."): glued to the line above, accept only the rule that comes next."""
    if not st.wrapped or st.prev_blank or st.rule is None:
        return True
    section = st.section.number if st.section else numbers.section_of(number)
    return number in successors(st.rule.number, section)


def _infer_number(st: _State, section: str, letter: str) -> str | None:
    prev = st.rule
    if prev is None or not prev.number.startswith(section + ".") or not numbers.is_subrule(prev.number):
        return None
    following = numbers.next_subrule(prev.number)
    if following is None or numbers.parse(following).letter != letter:
        return None
    return following


def _start_rule(st: _State, number: str, text: str, line: str, lineno: int, printed: str | None = None) -> None:
    ed = st.edition
    st.rule_sections.append(st.section.number if st.section else "")
    st.rule = Rule(
        number=number,
        text=text.strip(),
        parent=numbers.parent(number),
        order=st.next_order(),
        line=lineno,
        printed=printed,
    )
    st.rule_indent = indent(line)
    ed.rules.append(st.rule)
    st.last = "rule"


def _continuation(st: _State, line: str, s: str, lineno: int) -> None:
    ed = st.edition
    # a stray fragment on a line of its own ("f" in 2021-11-15); in hard-wrapped
    # text a short line is just the end of a sentence
    glued = st.wrapped and not st.prev_blank
    junk = not glued and (len(s) < 3 or not re.search(r"[A-Za-zÀ-ÿ]{2}", s))
    # once a line went unplaced, what follows cannot join the text above it
    # without changing the order of the source
    if st.rule is None or st.last in ("heading", "unplaced") or junk:
        if st.rule is not None and st.last != "heading":
            ed.unplaced.append(Unplaced(s, st.rule.order, lineno, slot=len(st.rule.examples)))
            st.last = "unplaced"
        else:
            ed.unplaced.append(Unplaced(s, st.next_order(), lineno))
        where = f"after rule {st.rule.number}" if st.rule else "outside any rule"
        ed.warn("unknown-line", f"text {where} kept unplaced: {s[:60]!r}", lineno)
        return
    if _LEADING_NUMBER.match(s):  # a line that opens with a rule number, kept as text: never silently
        ed.warn("swallowed-number",
                f"line starting with a rule number kept in the text of rule {st.rule.number}: {s[:60]!r}", lineno)
    new_paragraph = (
        st.prev_blank or indent(line) >= st.rule_indent + 3
        if st.wrapped
        else True
    )
    if st.last == "example":
        st.rule.examples[-1] = _join(st.rule.examples[-1], s, new_paragraph)
    else:
        st.rule.text = _join(st.rule.text, s, new_paragraph)


def _join(text: str, line: str, new_paragraph: bool) -> str:
    if not text:
        return line
    if new_paragraph and (_TERMINAL.search(text) or not line[:1].islower()):
        return f"{text}\n{line}"
    return f"{text} {line}"


# -- glossary --------------------------------------------------------------


def _glossary(ed: Edition, lines: list[str], first_lineno: int, wrapped: bool) -> None:
    entry: GlossaryEntry | None = None
    base = 0
    prev_blank = True
    order = 0
    for offset, line in enumerate(lines):
        if is_blank(line):
            prev_blank = True
            continue
        s = line.strip()
        if prev_blank and indent(line) == 0 and _looks_like_term(s):
            order += 1
            entry = GlossaryEntry(term=s, definition="", order=order)
            ed.glossary.append(entry)
            base = -1
        elif entry is None:
            ed.unplaced.append(Unplaced(s, offset, first_lineno + offset, region="glossary"))
            ed.warn("unknown-line", f"glossary text before the first term: {s[:60]!r}", first_lineno + offset)
        elif base < 0:
            entry.definition = s
            base = indent(line)
        else:
            new_paragraph = prev_blank or indent(line) > base + 2 if wrapped else True
            entry.definition = _join(entry.definition, s, new_paragraph)
        prev_blank = False
    for entry in ed.glossary:
        entry.refs = refs.cited_numbers(entry.definition)


def _looks_like_term(s: str) -> bool:
    return len(s) <= 80 and not (len(s) > 40 and s.endswith("."))


def _check_complete(ed: Edition, lines: list[str], body_start: int, gloss_start: int, gloss_end: int) -> None:
    if body_start >= len(lines):
        return
    if gloss_start >= len(lines):
        ed.partial = True
        last = ed.rules[-1].number if ed.rules else "?"
        ed.warn("truncated", f"truncated: the text stops in the rules (last rule {last}); no glossary", len(lines))
    elif gloss_end >= len(lines):
        ed.partial = True
        last = ed.glossary[-1].term if ed.glossary else "?"
        ed.warn("truncated", f"truncated: the text stops in the glossary (last term {last!r}); no credits", len(lines))

"""HTML -> lines of text, in reading order, for the same layout parsers as plain text.

What a rules web page becomes:

- Chrome is dropped: ``script``, ``style``, ``template``, forms and embedded
  objects always; ``nav``, ``header``, ``footer``, ``aside`` (and elements with
  the matching ARIA roles) too, except a line there that dates the rules
  ("Règles US [30/09/2011] Règles FR [04/02/2011]", "Ces règles entrent en
  vigueur au …"): that names the edition, so it is kept. Comments, doctypes,
  processing instructions and hidden elements never give text. Script text can
  therefore never reach a rule.
- Block elements (``p``, ``div``, ``li``, ``dt``/``dd``, headings, table cells …)
  become separate lines with a blank line between paragraphs; ``br`` breaks a
  line; inline elements run together, so ``<p><b>111.1.</b> Un sort…</p>`` is
  one line. A rule number in its own block (``<span class="num">111.1.</span>
  <p>text</p>``, ``<dt>111.1.</dt><dd>text</dd>``) is joined to the text
  block after it ("111.1. text", the shape every
  layout reads); a number glued to its text ("111.1.Un") gets its space back.
- Tables: a column of rule numbers is put in front of the text of its row
  ("111.1. text"). **Side-by-side languages**: when a table (or a grid of
  ``div`` rows with the same number of cells each) has two or more text
  columns in different languages, each column is emitted whole, one after the
  other, every row prefixed with its rule number: the French rules, then the
  English rules. Layout parsers then judge each rule's language by its text
  and give one edition per language. Row by row would interleave the two
  translations line by line.

Hostile input is bounded: the walk is iterative (deep nesting cannot exhaust
the stack), tables and grids are recognised only a few levels deep, and
anything lxml cannot make sense of is simply text or nothing.
"""

from __future__ import annotations

import re

from bs4 import BeautifulSoup, NavigableString, Tag
from bs4.element import PreformattedString, Script, Stylesheet, TemplateString

from .. import dates, language, numbers

_DROP = frozenset(
    "script style noscript template iframe frame frameset object embed applet svg math canvas "
    "head title meta link base button select option textarea input form map area audio video".split()
)
_CHROME = frozenset("nav header footer aside menu".split())
_CHROME_ROLES = frozenset("navigation banner contentinfo complementary search menu menubar".split())
_BLOCK = frozenset(
    "html body div p li ul ol dl dt dd h1 h2 h3 h4 h5 h6 section article main blockquote pre "
    "address figure figcaption center table thead tbody tfoot tr td th caption details summary "
    "fieldset legend hr".split()
)
_NOT_TEXT = (PreformattedString, Script, Stylesheet, TemplateString)  # comments, doctype, CDATA, PIs
_MAX_GRID_DEPTH = 6  # tables inside tables inside ...: deeper ones are read as plain blocks
_SPACE = re.compile(r"\s+")
_NUMBER_CELL = re.compile(rf"^\s*{numbers.RULE_OR_SUBRULE}\.?\s*$")
_STARTS_NUMBERED = re.compile(rf"^\s*{numbers.LEADING}\.")  # a rule, section or part: not a number's text
_GLUED = re.compile(rf"^({numbers.RULE_OR_SUBRULE}\.?)(?=[A-ZÀ-Ý«\"“(])")
_RULES_DATE = re.compile(r"\b(?:R[èe]gles|Rules)\s+(?:US|EN|FR|VF|VO)\s*\[\s*\d{1,2}/\d{1,2}/\d{4}\s*\]", re.IGNORECASE)


def lines(text: str) -> list[str]:
    """An HTML document's text as lines (see the module docstring)."""
    soup = BeautifulSoup(text, "lxml")
    out = _Lines()
    _walk(soup, out, 0)
    return _join_numbers(out.finish())


def _join_numbers(lines: list[str]) -> list[str]:
    """``111.1.`` alone (its own element) + the text block after it -> one line,
    the shape every layout reads ("111.1. Un sort …")."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        j = i + 1
        while j < len(lines) and not lines[j]:
            j += 1
        if _NUMBER_CELL.match(line) and j < len(lines) and not _STARTS_NUMBERED.match(lines[j]):
            out.append(f"{line.strip()} {lines[j]}")
            i = j + 1
            continue
        out.append(line)
        i += 1
    return out


class _Lines:
    """Collects text: inline pieces join into a line; blocks end lines."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.buffer: list[str] = []
        self.pre = 0

    def text(self, s: str) -> None:
        if self.pre:
            first, *rest = s.split("\n")
            self.buffer.append(first)
            for piece in rest:
                self.newline()
                self.buffer.append(piece)
        else:
            self.buffer.append(_SPACE.sub(" ", s))

    def newline(self) -> None:
        line = _SPACE.sub(" ", "".join(self.buffer)).strip() if not self.pre else "".join(self.buffer).rstrip()
        self.buffer = []
        if line.strip():
            self.lines.append(_GLUED.sub(r"\1 ", line))

    def paragraph(self) -> None:
        self.newline()
        if self.lines and self.lines[-1] != "":
            self.lines.append("")

    def extend(self, lines: list[str]) -> None:
        self.newline()
        for line in lines:
            if line or (self.lines and self.lines[-1] != ""):
                self.lines.append(line)

    def finish(self) -> list[str]:
        self.newline()
        while self.lines and self.lines[-1] == "":
            self.lines.pop()
        return self.lines


def _walk(root: Tag, out: _Lines, depth: int, in_chrome: bool = False) -> None:
    stack: list[tuple[object, bool]] = [(root, False)]
    while stack:
        node, closing = stack.pop()
        if closing:
            if node.name == "pre":
                out.pre -= 1
            if node.name == "dt":
                out.newline()  # a term (or number) and its definition stay together
            else:
                out.paragraph()
            continue
        if isinstance(node, NavigableString):
            if not isinstance(node, _NOT_TEXT):
                out.text(str(node))
            continue
        if not isinstance(node, Tag) or _skipped(node):
            continue
        name = node.name
        if not in_chrome and _is_chrome(node):  # chrome inside chrome is read once, not recursively
            out.extend(_dated_lines(node, depth))
            continue
        if name == "br":
            out.newline()
            continue
        if depth < _MAX_GRID_DEPTH and (rows := _rows(node)) and _emit_grid(rows, out, depth, table=name == "table"):
            continue
        if name in _BLOCK or name not in _INLINE_KNOWN and _has_block_child(node):
            if name == "dd":
                out.newline()  # right under its <dt>
            else:
                out.paragraph()
            if name == "pre":
                out.pre += 1
            stack.append((node, True))
        stack.extend((child, False) for child in reversed(node.contents))


# unknown tags ("<x-rule>", "<foo>") are blocks when they hold blocks, inline otherwise
_INLINE_KNOWN = frozenset("a abbr b bdi bdo cite code data dfn em font i kbd mark q s samp small span strong sub sup time tt u var wbr nobr label".split())


def _has_block_child(node: Tag) -> bool:
    return any(isinstance(c, Tag) and c.name in _BLOCK for c in node.contents)


def _skipped(node: Tag) -> bool:
    if node.name in _DROP:
        return True
    attrs = node.attrs if isinstance(node.attrs, dict) else {}
    if "hidden" in attrs or attrs.get("aria-hidden") == "true":
        return True
    style = attrs.get("style")
    return isinstance(style, str) and bool(re.search(r"display\s*:\s*none|visibility\s*:\s*hidden", style, re.I))


def _is_chrome(node: Tag) -> bool:
    role = node.attrs.get("role") if isinstance(node.attrs, dict) else None
    return node.name in _CHROME or (isinstance(role, str) and role.lower() in _CHROME_ROLES)


def _dated_lines(node: Tag, depth: int) -> list[str]:
    """The lines of a chrome element that date the rules; the rest is dropped."""
    inner = _Lines()
    for child in node.contents:
        _walk(child, inner, depth + 1, in_chrome=True)
    kept = [
        line for line in inner.finish()
        if _RULES_DATE.search(line) or dates.french_effective_date(line) or dates.english_effective_date(line)
    ]
    return kept + [""] if kept else []


# -- tables and grids -------------------------------------------------------


def _rows(node: Tag) -> list[list[Tag]] | None:
    """The rows of cells of a table, or of a grid: a block whose children are
    two or more rows with the same number (2-4) of block cells each."""
    if node.name == "table":
        rows = []
        for child in node.children:
            if isinstance(child, Tag) and child.name in ("thead", "tbody", "tfoot"):
                rows.extend(c for c in child.children if isinstance(c, Tag) and c.name == "tr")
            elif isinstance(child, Tag) and child.name == "tr":
                rows.append(child)
        cells = [[c for c in row.children if isinstance(c, Tag) and c.name in ("td", "th")] for row in rows]
        return [r for r in cells if r] or None
    if node.name not in _BLOCK or node.name in ("tr", "pre"):
        return None
    rows = [c for c in node.children if isinstance(c, Tag) and not _skipped(c)]
    if len(rows) < 2 or any(isinstance(c, NavigableString) and not isinstance(c, _NOT_TEXT) and c.strip() for c in node.children):
        return None
    grid = [[c for c in row.children if isinstance(c, Tag) and not _skipped(c)] for row in rows]
    widths = {len(cells) for cells in grid}
    if len(widths) != 1 or not 2 <= widths.pop() <= 4:
        return None
    if any(isinstance(c, NavigableString) and not isinstance(c, _NOT_TEXT) and c.strip() for row in rows for c in row.children):
        return None
    return grid


def _emit_grid(rows: list[list[Tag]], out: _Lines, depth: int, table: bool) -> bool:
    """Write a table or grid; False when a grid is just blocks (walk it normally)."""
    cells = [[_cell_lines(cell, depth) for cell in row] for row in rows]
    width = max(len(row) for row in cells)
    number_col = next((j for j in range(width) if _is_number_column(cells, j)), None)
    text_cols = [j for j in range(width) if j != number_col and any(len(r) > j and r[j] for r in cells)]
    langs = {j: language.guess(" ".join(" ".join(r[j]) for r in cells if len(r) > j)) for j in text_cols}
    side_by_side = len(text_cols) >= 2 and len({lang for lang in langs.values() if lang}) >= 2
    if not table and not side_by_side:
        return False
    out.paragraph()
    if side_by_side:
        # one language after the other, never interleaved; header rows ("Version
        # française" | "Original version") label columns and are left out
        body = [row for row, tags in zip(cells, rows) if not all(t.name == "th" for t in tags)]
        for j in text_cols:
            for row in body:
                _emit_cell(out, _number(row, number_col), row[j] if len(row) > j else [])
            out.paragraph()
        return True
    for row in cells:
        number = _number(row, number_col)
        for j, cell in enumerate(row):
            if j != number_col:
                _emit_cell(out, number, cell)
                number = None
        if number:
            out.extend([number])
        out.paragraph()
    return True


def _cell_lines(cell: Tag, depth: int) -> list[str]:
    inner = _Lines()
    _walk(cell, inner, depth + 1)
    return [line for line in inner.finish() if line]


def _is_number_column(cells: list[list[list[str]]], j: int) -> bool:
    values = [r[j] for r in cells if len(r) > j and r[j]]
    hits = sum(1 for v in values if len(v) == 1 and _NUMBER_CELL.match(v[0]))
    return bool(values) and hits >= 0.6 * len(values)


def _number(row: list[list[str]], col: int | None) -> str | None:
    if col is None or len(row) <= col or not row[col]:
        return None
    return row[col][0].strip() if _NUMBER_CELL.match(row[col][0]) else None


def _emit_cell(out: _Lines, number: str | None, lines: list[str]) -> None:
    if not lines:
        return
    first = f"{number} {lines[0]}" if number else lines[0]
    out.extend([first, *lines[1:], ""])

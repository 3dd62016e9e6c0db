"""Human-readable comparison reports: two texts side by side, the changed words marked.

    from rulekb.kb.compare.report import word_diff, Entry, Pane, markdown, html
    word_diff("The owner of a token", "The controller of a token")
    # [("equal", "The "), ("delete", "owner "), ("insert", "controller "), ("equal", "of a token")]

- :func:`word_diff` diffs two texts word by word (difflib): a word is a run of letters and
  digits with inner apostrophes or hyphens ("owner's", "state-based"), and every other
  non-space character is a word of its own, so "owner." against "owner," changes only the
  punctuation. Each segment keeps the spacing after its words: the equal and deleted
  segments put together give the old text's words, the equal and inserted ones the new's.
  :func:`side_by_side` gives the two columns, each with its own text's spacing.
- :class:`Entry` is one item of a report (a finding, a changed rule): a title, notes, and
  an old and a new :class:`Pane` (edition, rule, text); :func:`markdown` and :func:`html`
  render a list of them with the old text beside the new one -- deleted words struck
  (``~~old~~``, ``<del>``) in the old column, inserted words marked (``**new**``, ``<ins>``)
  in the new one. Rule text is escaped, always: HTML through ``html.escape``; Markdown with
  ``<``, ``>`` and ``&`` as entities and its own markup characters backslash-escaped, so a
  rule (or a hostile source) cannot inject markup into a report.
- :func:`findings_entries` turns the ``rulekb contradictions`` JSON into entries and
  :func:`term_change_rows` its term changes into table rows; ``rulekb diff`` builds its own
  entries from rule changes and uses the same renderers.
"""

from __future__ import annotations

import html as _html
import re
from dataclasses import dataclass, field
from cydifflib import SequenceMatcher  # difflib's, compiled: the same opcodes (kb.align uses it too), about twice as fast here

# a word (with inner ' ’ or - joins), or any other single non-space character; then its spacing
_TOKEN = re.compile(r"([^\W_]+(?:['’\-][^\W_]+)*|\S)(\s*)")

EQUAL, DELETE, INSERT = "equal", "delete", "insert"


def _tokens(text: str) -> tuple[str, list[str], list[str]]:
    """(leading space, words, the spacing after each word)."""
    lead = text[: len(text) - len(text.lstrip())]
    words, spaces = [], []
    for m in _TOKEN.finditer(text, len(lead)):
        words.append(m.group(1))
        spaces.append(m.group(2))
    return lead, words, spaces


def _segments(old_text: str, new_text: str):
    """(op, old segment, new segment): each side's words with its own spacing."""
    _, a, a_space = _tokens(old_text or "")
    _, b, b_space = _tokens(new_text or "")

    def join(words, spaces):
        return "".join(w + s for w, s in zip(words, spaces))

    for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            yield EQUAL, join(a[i1:i2], a_space[i1:i2]), join(b[j1:j2], b_space[j1:j2])
        else:
            if i2 > i1:
                yield DELETE, join(a[i1:i2], a_space[i1:i2]), ""
            if j2 > j1:
                yield INSERT, "", join(b[j1:j2], b_space[j1:j2])


def word_diff(old_text: str, new_text: str) -> list[tuple[str, str]]:
    """``[(op, words)]``, op one of "equal", "delete", "insert"; ``words`` is the segment's
    text with the spacing after each word -- the new text's spacing in an equal segment (a
    replacement is a delete then an insert)."""
    return [(op, new if op != DELETE else old) for op, old, new in _segments(old_text, new_text)]


def side_by_side(old_text: str, new_text: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The old text's segments (equal and deleted, its own spacing) and the new text's
    (equal and inserted): the two columns of a report."""
    old_side, new_side = [], []
    for op, old, new in _segments(old_text, new_text):
        if op != INSERT:
            old_side.append((op, old))
        if op != DELETE:
            new_side.append((op, new))
    return old_side, new_side


def similarity(old_text: str, new_text: str) -> float:
    """The share of words the two texts have in common (difflib ratio over words)."""
    a, b = _tokens(old_text or "")[1], _tokens(new_text or "")[1]
    return SequenceMatcher(None, a, b, autojunk=False).ratio() if a or b else 1.0


# ---------------------------------------------------------------------- report items


@dataclass(frozen=True)
class Pane:
    """One side of an entry: where the text is (edition, rule or glossary term) and the text."""

    edition: str
    rule: str = ""  # rule number; "" for a glossary entry
    text: str = ""
    term: str = ""  # glossary term, when the text is a glossary definition

    @property
    def label(self) -> str:
        where = f"rule {self.rule}" if self.rule else (f"glossary: {self.term}" if self.term else "")
        return f"{self.edition} {where}".strip()


@dataclass(frozen=True)
class Entry:
    title: str  # "owner-changed: token (owner)"
    old: Pane | None  # None: the old edition has nothing here
    new: Pane | None
    notes: tuple[str, ...] = ()  # explanation, members added/removed, axioms...
    tag: str = ""  # a short badge: the severity, the kind of change
    diff: bool = True  # False: two texts side by side unmarked (a translation beside its original)


@dataclass(frozen=True)
class Report:
    title: str
    summary: tuple[str, ...] = ()  # lines under the title
    entries: tuple[Entry, ...] = ()
    # further tables: (heading, column names, rows of cells), e.g. the term changes
    tables: tuple[tuple[str, tuple[str, ...], tuple[tuple[str, ...], ...]], ...] = field(default_factory=tuple)


def _sides(entry: Entry) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The old column's segments (equal and deleted) and the new column's (equal and inserted)."""
    old_text = entry.old.text if entry.old else ""
    new_text = entry.new.text if entry.new else ""
    if entry.old is None or entry.new is None or not entry.diff:  # nothing to compare word by word
        return [(EQUAL, old_text)] if old_text else [], [(EQUAL, new_text)] if new_text else []
    return side_by_side(old_text, new_text)


def _split_space(text: str) -> tuple[str, str, str]:
    """(leading spacing, the words, trailing spacing): markers go round the words only."""
    core = text.strip()
    if not core:
        return text, "", ""
    lead = text[: len(text) - len(text.lstrip())]
    return lead, core, text[len(lead) + len(core):]


# ---------------------------------------------------------------------- Markdown

_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~])")  # markup anywhere in a line
_MD_LEADING = re.compile(r"^(\s*)([#+=-]|\d+(?=[.)]))")  # markup at the start of a line: a heading, a list


def md_escape(text: str, line_start: bool = False) -> str:
    """Text as literal Markdown: entities for < > &, backslashes before markup characters
    (and, for text that opens a line, before what would make it a heading or a list item),
    line breaks as <br> (a table cell is one line)."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _MD_SPECIAL.sub(r"\\\1", text)
    m = _MD_LEADING.match(text) if line_start else None
    if m:
        lead, mark = m.groups()
        mark = mark + "\\" if mark[0].isdigit() else "\\" + mark  # "1." -> "1\.", "#" -> "\#"
        text = lead + mark + text[m.end():]
    return re.sub(r"\s*\n\s*", "<br>", text)


def _marked(segments: list[tuple[str, str]], escape, before: str, after: str) -> str:
    """A side of a word diff as text: the unchanged runs escaped, each changed run's words
    (not the spacing round them, which stays as it is) escaped between ``before`` and ``after``."""
    out = []
    for op, text in segments:
        if op == EQUAL:
            out.append(escape(text))
        else:
            lead, core, trail = _split_space(text)
            out.append(f"{lead}{before}{escape(core)}{after}{trail}" if core else escape(text))
    return "".join(out)


def _md_segments(segments: list[tuple[str, str]], marker: str) -> str:
    return re.sub(r"\s+", " ", _marked(segments, md_escape, marker, marker)).strip()


def markdown(report: Report) -> str:
    """The report in (GitHub-flavoured) Markdown: per entry a two-column table, the old
    text with ``~~deleted~~`` words beside the new text with ``**inserted**`` words."""
    lines = [f"# {md_escape(report.title, line_start=True)}", ""]
    lines += [md_escape(line, line_start=True) + "  " for line in report.summary]
    if report.summary:
        lines.append("")
    if not report.entries:
        lines += ["No changes.", ""]
    for i, entry in enumerate(report.entries, 1):
        tag = f" `{entry.tag}`" if entry.tag else ""
        lines += [f"## {i}. {md_escape(entry.title)}{tag}", ""]
        for note in entry.notes:
            lines.append(f"- {md_escape(note, line_start=True)}")
        if entry.notes:
            lines.append("")
        old, new = _sides(entry)
        head_old = md_escape(entry.old.label) if entry.old else "(nothing)"
        head_new = md_escape(entry.new.label) if entry.new else "(nothing)"
        lines += [f"| {head_old} | {head_new} |", "|---|---|",
                  f"| {_md_segments(old, '~~') or '—'} | {_md_segments(new, '**') or '—'} |", ""]
    for heading, columns, rows in report.tables:
        lines += [f"## {md_escape(heading, line_start=True)}", ""]
        if not rows:
            lines += ["None.", ""]
            continue
        lines.append("| " + " | ".join(md_escape(c) for c in columns) + " |")
        lines.append("|" + "---|" * len(columns))
        lines += ["| " + " | ".join(md_escape(str(c)) for c in row) + " |" for row in rows]
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


# ---------------------------------------------------------------------- HTML

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 75em; line-height: 1.45; }
table.diff { border-collapse: collapse; width: 100%; table-layout: fixed; margin-bottom: 1.5em; }
table.diff th, table.diff td { border: 1px solid #ccc; padding: .4em .6em; vertical-align: top; text-align: left; }
table.diff th { background: #f4f4f4; font-weight: 600; }
table.diff td { white-space: pre-wrap; }
del { background: #fdd; color: #900; }
ins { background: #dfd; color: #060; text-decoration: none; }
.tag { font-size: .8em; padding: .1em .5em; border-radius: .8em; background: #eee; vertical-align: middle; }
.tag.high { background: #fcc; } .tag.medium { background: #fe9; } .tag.low { background: #def; }
.none { color: #888; font-style: italic; }
table.terms { border-collapse: collapse; } table.terms th, table.terms td { border: 1px solid #ccc; padding: .2em .6em; }
"""


_EMPTY = '<span class="none">—</span>'


def _esc(text: str) -> str:
    return _html.escape(text, quote=True)


def _html_segments(segments: list[tuple[str, str]], tag: str) -> str:
    return _marked(segments, _esc, f"<{tag}>", f"</{tag}>")  # (spacing needs no escaping)


def html(report: Report) -> str:
    """The report as one HTML page: per entry a two-column table, ``<del>`` in the old
    text, ``<ins>`` in the new; every text escaped."""
    parts = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
             f"<title>{_esc(report.title)}</title>", f"<style>{_STYLE}</style>", "</head>", "<body>",
             f"<h1>{_esc(report.title)}</h1>"]
    for line in report.summary:
        parts.append(f"<p>{_esc(line)}</p>")
    if not report.entries:
        parts.append('<p class="none">No changes.</p>')
    for i, entry in enumerate(report.entries, 1):
        tag = f' <span class="tag {_esc(entry.tag)}">{_esc(entry.tag)}</span>' if entry.tag else ""
        parts.append(f'<section id="item-{i}">')
        parts.append(f"<h2>{i}. {_esc(entry.title)}{tag}</h2>")
        if entry.notes:
            parts.append("<ul>" + "".join(f"<li>{_esc(note)}</li>" for note in entry.notes) + "</ul>")
        old, new = _sides(entry)
        parts.append('<table class="diff"><thead><tr>'
                     f"<th>{_esc(entry.old.label) if entry.old else 'old: nothing'}</th>"
                     f"<th>{_esc(entry.new.label) if entry.new else 'new: nothing'}</th>"
                     "</tr></thead><tbody><tr>"
                     f"<td>{_html_segments(old, 'del') or _EMPTY}</td>"
                     f"<td>{_html_segments(new, 'ins') or _EMPTY}</td>"
                     "</tr></tbody></table>")
        parts.append("</section>")
    for heading, columns, rows in report.tables:
        parts.append(f"<h2>{_esc(heading)}</h2>")
        if not rows:
            parts.append('<p class="none">None.</p>')
            continue
        parts.append('<table class="terms"><thead><tr>' + "".join(f"<th>{_esc(c)}</th>" for c in columns)
                     + "</tr></thead><tbody>")
        for row in rows:
            parts.append("<tr>" + "".join(f"<td>{_esc(str(c))}</td>" for c in row) + "</tr>")
        parts.append("</tbody></table>")
    parts += ["</body>", "</html>"]
    return "\n".join(parts) + "\n"


def render(report: Report, kind: str) -> str:
    """``kind``: "md" or "html"."""
    if kind == "md":
        return markdown(report)
    if kind == "html":
        return html(report)
    raise ValueError(f"unknown report format {kind!r} (md or html)")


# ---------------------------------------------------------------------- contradictions


def _pane(side: dict | None) -> Pane | None:
    if not side:
        return None
    return Pane(side.get("edition", ""), side.get("rule") or "", side.get("text") or "", side.get("term", ""))


def findings_entries(items: list[dict]) -> list[Entry]:
    """Entries for the items of the ``rulekb contradictions`` JSON (``to_json(...)["items"]``)."""
    out = []
    for item in items:
        notes = [item.get("explanation", "")]
        if item.get("removed"):
            notes.append("only in the old edition: " + ", ".join(item["removed"]))
        if item.get("added"):
            notes.append("only in the new edition: " + ", ".join(item["added"]))
        notes += [f"axiom: {a}" for a in item.get("axioms", ())]
        aspect = item.get("aspect", "")
        title = f"{item['kind']}: {item['concept']}" + (f" ({aspect})" if aspect and aspect != "concept" else "")
        out.append(Entry(title, _pane(item.get("old")), _pane(item.get("new")),
                         tuple(n for n in notes if n), item.get("severity", "")))
    return out


def term_change_rows(changes: list[dict]) -> tuple[tuple[str, ...], ...]:
    """Rows (old term, new term, rules, examples) for the term changes' JSON."""
    return tuple((c["old"], c["new"], str(c["rules"]),
                  ", ".join(f"{e['old']} → {e['new']}" for e in c.get("examples", ())))
                 for c in changes)


def contradictions_report(data: dict) -> Report:
    """The report of ``rulekb contradictions OLD NEW --report md|html`` from its JSON."""
    items = data.get("items", [])
    counts = {}
    for item in items:
        counts[item.get("severity", "")] = counts.get(item.get("severity", ""), 0) + 1
    if items:
        tally = ", ".join(f"{n} {severity}" for severity, n in counts.items())
        summary = [f"{len(items)} finding{'s' if len(items) != 1 else ''} ({tally})."]
    elif data["old"] == data["new"]:
        summary = ["The same edition twice: no changes."]
    else:
        summary = ["No contradiction or change of meaning found."]
    if data.get("reasoner"):
        summary.append(f"Reasoner: {data['reasoner']}.")
    tables = ()
    if "term_changes" in data:
        tables = (("Term changes", ("old term", "new term", "rules", "examples (old → new rule)"),
                   term_change_rows(data["term_changes"])),)
    return Report(f"Contradictions and changes of meaning: {data['old']} → {data['new']}", tuple(summary),
                  tuple(findings_entries(items)), tables)

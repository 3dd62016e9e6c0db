"""``rulekb translation-report``: where a French text and an English edition disagree
(as text, JSON, a worklist in Markdown/HTML or XLIFF), ``rulekb translation-memory``: the
aligned rules as TMX, and ``rulekb lexicon``: the English-French term pairs, as CSV or TBX.

The French comes from source files or directories (parsed; several pages of one
text combine as ``rulekb ingest`` combines them) or from the KB by id; the English
from the KB (or a source file). The work is :mod:`kb.translate`.

Base detection (which English edition the French translates) reads its candidates
from the KB, in a date window (``--base auto``), all of them (``--base all``) or one
(``--base ID``): :mod:`kb.translate.from_kb` says why.
"""

from __future__ import annotations

import enum
import sys

import typer

from .app import Format, FormatOption, LazyStore, StoreOption, app, edition_name
from .output import emit_json, errors_as_exit_codes, fail, stdout

def _print_text(data: dict, fr, english) -> None:
    from collections import Counter

    from ..translate.worklist import _section, _text

    def say(line: str = "") -> None:
        stdout.print(line, markup=False, highlight=False)

    base = data["base"]
    runner = f", runner-up {base['runner_up']} ({base['runner_up_score']})" if base.get("runner_up") else ""
    if base.get("tied"):
        runner = f", tied with {base['tied']} later edition{'s' if base['tied'] > 1 else ''} " \
                 f"up to {base['tied_until']}" + runner
    scored = f" (score {base['score']}{runner}; {base['candidates']} candidates, {base['seconds']} s)" \
        if base.get("score") is not None else ""
    if data.get("note"):
        say(data["note"])
        return
    say(f"{data['fr_edition']} against {data['us_edition']}: base {data['base_detected']}{scored}")
    cov = data["coverage"]
    say(f"coverage: {cov['french_rules']} French rules, sections {', '.join(cov['sections'])}; "
        f"{cov['english_rules_in_span']} English rules in span")
    tally = Counter(i["kind"] for i in data["items"])
    say(f"{len(data['items'])} items" + (": " + ", ".join(f"{n} {k}" for k, n in sorted(tally.items())) if tally else ""))
    current = None
    for item in sorted(data["items"], key=lambda i: (_section(i), i.get("fr") or i.get("us") or "")):
        if _section(item) != current:
            current = _section(item)
            say()
            say(f"§{current}")
        where = " -> ".join(n for n in (item.get("fr"), item.get("us")) if n)
        say(f"  {where}  [{item['kind']}]")
        if item["kind"] == "stale":
            changed = " ".join(("[-" + t.strip() + "-]") if op == "delete" else ("{+" + t.strip() + "+}")
                               for op, t in item["diff"] if op != "equal")
            say(f"    English change ({item['detail']}): {changed}")
        elif item.get("fr_value") not in (None, []) or item.get("us_value") not in (None, []):
            say(f"    French: {item.get('fr_value')}   English: {item.get('us_value')}")
        if item.get("fr"):
            say(f"    fr: {_short(_text(fr, item['fr']))}")
        if item.get("us"):
            say(f"    en: {_short(_text(english, item['us']))}")


def _short(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class WorklistKind(str, enum.Enum):
    md = "md"
    html = "html"
    xliff = "xliff"


def _write(text: str, warning: str | None) -> None:
    """A finished file to stdout; what was dropped to make it valid, on stderr."""
    from .output import stderr

    if warning:
        stderr.print(f"rulekb: warning: {warning}", markup=False, highlight=False)
    sys.stdout.write(text)


@app.command("translation-report")
def translation_report_command(
    sources: list[str] = typer.Argument(..., help="French source files or directories (several pages of one text "
                                        "combine), or a French edition id in the KB (e.g. fr/2011-02-04)."),
    us: str = typer.Option(None, "--us", help="The English edition to check against: an id, alias (en/latest), date (en@2010-03-15) or a source file "
                           "(default: the newest complete English edition in the KB)."),
    base: str = typer.Option("auto", "--base", help="The English edition the French translates: auto (detect "
                             "among the KB's complete English editions dated 3 years before to 6 months after "
                             "the French), all (detect among all of them: slow), or an edition id."),
    report: WorklistKind = typer.Option(None, "--report", help="A translator's worklist instead: md or html, "
                                        "French beside English by section, English changes since the base marked; "
                                        "or xliff (XLIFF 1.2, one trans-unit per rule, for CAT tools)."),
    copy_source: bool = typer.Option(False, "--copy-source", help="With --report xliff: every target holds a copy "
                                     "of the English (OmegaT 3.6 translates the targets' text); the French goes to "
                                     "the memory (rulekb translation-memory) and to a note."),
    store: str = StoreOption,
    format: Format = FormatOption,
) -> None:
    """Where a French rules text and an English edition disagree: missing and extra rules, citations, numbers,
    card names, sentences, and rules whose English changed after the edition the French translates (stale)."""
    from .. import service

    if report is not None and format is Format.json:
        fail("--report and --format json are alternatives: choose one")
    if copy_source and report is not WorklistKind.xliff:
        fail("--copy-source goes with --report xliff")
    if report is WorklistKind.xliff:
        with errors_as_exit_codes():
            text, warning = service.translation_xliff(sources, us, base, LazyStore(store), copy_source=copy_source)
        _write(text, warning)
        return
    with errors_as_exit_codes():
        data, fr, english = service.translation(sources, us, base, LazyStore(store))
    if report is not None:
        from ..compare.report import render
        from ..translate.worklist import worklist

        sys.stdout.write(render(worklist(data, fr, english), report.value))
    elif format is Format.json:
        emit_json(data)
    else:
        _print_text(data, fr, english)


class LexiconFormat(str, enum.Enum):
    csv = "csv"
    tbx = "tbx"
    tbx3 = "tbx3"
    json = "json"


class MemoryFormat(str, enum.Enum):
    tmx = "tmx"


@app.command("translation-memory")
def translation_memory(
    french: list[str] = typer.Argument(None, help="French editions of the KB: ids, aliases (fr/latest) or dates "
                                       "(fr@2011-03-01) (default: every French text the KB aligned)."),
    us: str = typer.Option(None, "--us", help="Pair the French with this English edition instead of the one it "
                           "translates: only the rules the translation report finds nothing against."),
    store: str = StoreOption,
    format: MemoryFormat = typer.Option(MemoryFormat.tmx, "--format", "-f", help="tmx (TMX 1.4b)."),
) -> None:
    """A translation memory (TMX 1.4b) of the aligned French and English rules, sentence by sentence where both
    sides split alike, and the matched glossary entries: for a CAT tool's memory folder."""
    from .. import service

    with errors_as_exit_codes():
        opener = LazyStore(store)
        if french or us:  # fr/latest, en@2010-03-15: the ids they name (said on stderr)
            french = [edition_name(opener(), name).edition for name in french or ()]
            us = edition_name(opener(), us).edition if us else None
        text, warning = service.translation_memory(french or None, us, opener)
    _write(text, warning)


@app.command()
def lexicon(
    glossary: list[str] = typer.Option(
        None, "--glossary", help="A French text (files/directories, or an id in the KB) whose glossary entries are "
        "paired with the English glossary's entries citing the same rules. Repeatable."),
    us: str = typer.Option(None, "--us", help="The English edition for --glossary: an id, alias (en/latest), date (en@2010-03-15) or a source file "
                           "(default: the newest complete English edition in the KB)."),
    store: str = StoreOption,
    format: LexiconFormat = typer.Option(LexiconFormat.csv, "--format", "-f",
                                         help="csv (en,fr,source,key), tbx (TBX v2, TBX-Basic <martif>: "
                                         "translate-toolkit, Weblate, OmegaT), tbx3 (TBX v3, <tbx>) or json."),
) -> None:
    """The English-French term pairs: the ontology's labels, the hand-made core table, and matched glossaries."""
    from .. import service

    from ..translate.lexicon import term_pairs, to_csv, to_tbx

    with errors_as_exit_codes():
        glossaries = []
        if glossary:
            opener = LazyStore(store)
            if us is None:
                us = service.newest_english(opener)
            english = service.edition(us, opener)
            for source in glossary:
                glossaries.append((service.french_edition(source.split(","), opener), english))
        pairs = term_pairs(glossaries)
    if format is LexiconFormat.json:
        emit_json(pairs)
    elif format is LexiconFormat.tbx:
        with errors_as_exit_codes():
            text, warning = service.termbase(pairs, LazyStore(store))
        _write(text, warning)
    else:
        sys.stdout.write(to_csv(pairs) if format is LexiconFormat.csv else to_tbx(pairs))

"""``rulekb translation-report``: where a French text and an English edition disagree,
and ``rulekb lexicon``: the English-French term pairs, as CSV or TBX.

The French comes from source files or directories (parsed; several pages of one
text combine as ``rulekb ingest`` combines them) or from the KB by id; the English
from the KB (or a source file). The work is :mod:`kb.translate`.

Base detection (which English edition the French translates) reads its candidates
from the KB. Why a date window by default: reading an edition back costs a quarter
to half a second, so all 128 English editions take about a minute, while French
translations lag the English by months, rarely years. ``--base auto`` reads the
complete English editions dated from three years before to six months after the
French text's date (all of them when the French is undated); ``--base all`` reads
every complete English edition (slow; the JSON's ``base.seconds`` says how long);
``--base ID`` takes that edition and detects nothing.
"""

from __future__ import annotations

import enum
import sys
import time

import typer

from .app import Format, FormatOption, app
from .compare_commands import ReportKind
from .kb_commands import LazyStore, StoreOption
from .output import emit_json, errors_as_exit_codes, fail, stdout

WINDOW_BEFORE_YEARS = 3  # a translation may lag its English edition this long
WINDOW_AFTER_MONTHS = 6  # a French page's date may precede the English it shows


def load_french(sources: list[str], opener):
    """The French edition named by ``sources``: one KB id, or files/directories parsed."""
    from pathlib import Path

    from ..errors import KBError
    from ..stored_edition import stored_edition

    if len(sources) == 1 and not Path(sources[0]).exists() and "/" in sources[0] \
            and not sources[0].endswith((".txt", ".html", ".htm", ".pdf", ".docx")):
        edition = stored_edition(opener(), sources[0])
    else:
        from ingest.parse import parse_many

        for source in sources:
            if not source.startswith(("http://", "https://")) and not Path(source).exists():
                raise KBError(f"no file or directory {source!r}")
        result = parse_many(sources)
        french = [e for e in result.editions if e.language == "fr" and e.rules]
        if not french:
            empty = [e for e in result.editions if e.language == "fr"]
            if len(empty) == 1:
                return empty[0]  # a French text without rules (an official excerpt's front matter): said, not failed
            raise KBError(f"no French rules in {', '.join(sources)}")
        if len(french) > 1:
            raise KBError(f"the sources hold {len(french)} French texts ({', '.join(e.id for e in french)}): "
                          "give the files of one")
        edition = french[0]
    if edition.language != "fr":
        raise KBError(f"{edition.id} is not French")
    return edition


def _english_rows(opener) -> list[dict]:
    from .. import service

    rows = [e for e in service.editions(opener()) if e["language"] == "en" and not e["partial"]
            and e["effective_date"]]
    return sorted(rows, key=lambda e: e["effective_date"])


def _default_us(rows: list[dict]) -> str:
    """``--us`` when not given: the newest complete English edition of the KB."""
    from ..errors import KBError

    if not rows:
        raise KBError("no complete English edition in the knowledge base: give --us")
    return rows[-1]["edition"]


def _window(date: str | None) -> tuple[str, str] | None:
    if not date:
        return None
    year, month = int(date[:4]), int(date[5:7])
    month += WINDOW_AFTER_MONTHS
    year_after, month_after = year + (month - 1) // 12, (month - 1) % 12 + 1
    return f"{year - WINDOW_BEFORE_YEARS:04d}{date[4:]}", f"{year_after:04d}-{month_after:02d}{date[7:]}"


def translation_data(sources: list[str], us: str | None = None, base: str = "auto", store: str | None = None):
    """``(data, french, english)``: the JSON of ``rulekb translation-report`` and the two editions."""
    from ..errors import KBError
    from ..stored_edition import load_edition, stored_edition
    from ..translate.drift import drift_report

    opener = LazyStore(store)
    fr = load_french(sources, opener)
    rows = None
    if us is None:
        rows = _english_rows(opener)
        us = _default_us(rows)
    english = load_edition(us, opener)
    if english.language != "en":
        raise KBError(f"--us {english.id} is not English")
    started = time.perf_counter()
    info: dict = {"mode": base}
    if not fr.rules:
        note = f"no French rules in {fr.id}: the text holds no numbered rules, nothing to compare"
        info.update({"candidates": 0, "score": None, "runner_up": None, "runner_up_score": None, "seconds": 0.0})
        return ({"fr_edition": fr.id, "us_edition": english.id, "base_detected": None, "items": [], "note": note,
                 "coverage": {"sections": [], "english_rules_in_span": 0, "english_rules_total": len(english.rules),
                              "french_rules": 0, "spans": {}},
                 "base": info, "stale_checked": False}, fr, english)
    if base in ("auto", "all"):
        rows = rows if rows is not None else _english_rows(opener)
        window = _window(fr.effective_date) if base == "auto" else None
        chosen = [r["edition"] for r in rows if window is None or window[0] <= r["effective_date"] <= window[1]]
        if not chosen:
            chosen = [r["edition"] for r in rows]
            window = None
        candidates = [english if name == english.id else stored_edition(opener(), name) for name in chosen]
        info["window"] = list(window) if window else None
        data = drift_report(fr, english, candidates=candidates)
    else:
        base_edition = english if base == english.id else load_edition(base, opener)
        if base_edition.language != "en":
            raise KBError(f"--base {base_edition.id} is not English")
        data = drift_report(fr, english, base=base_edition)
    info.update(data["base"])
    info["seconds"] = round(time.perf_counter() - started, 2)  # reading the candidates included
    data["base"] = info
    data.pop("pairs", None)  # the build's translationOf links; not in the report's JSON
    return data, fr, english


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


@app.command("translation-report")
def translation_report_command(
    sources: list[str] = typer.Argument(..., help="French source files or directories (several pages of one text "
                                        "combine), or a French edition id in the KB (e.g. fr/2011-02-04)."),
    us: str = typer.Option(None, "--us", help="The English edition to check against: an id or a source file "
                           "(default: the newest complete English edition in the KB)."),
    base: str = typer.Option("auto", "--base", help="The English edition the French translates: auto (detect "
                             "among the KB's complete English editions dated 3 years before to 6 months after "
                             "the French), all (detect among all of them: slow), or an edition id."),
    report: ReportKind = typer.Option(None, "--report", help="A translator's worklist instead: md or html, "
                                      "French beside English by section, English changes since the base marked."),
    store: str = StoreOption,
    format: Format = FormatOption,
) -> None:
    """Where a French rules text and an English edition disagree: missing and extra rules, citations, numbers,
    card names, sentences, and rules whose English changed after the edition the French translates (stale)."""
    if report is not None and format is Format.json:
        fail("--report and --format json are alternatives: choose one")
    with errors_as_exit_codes():
        data, fr, english = translation_data(sources, us, base, store)
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
    json = "json"


@app.command()
def lexicon(
    glossary: list[str] = typer.Option(
        None, "--glossary", help="A French text (files/directories, or an id in the KB) whose glossary entries are "
        "paired with the English glossary's entries citing the same rules. Repeatable."),
    us: str = typer.Option(None, "--us", help="The English edition for --glossary: an id or a source file "
                           "(default: the newest complete English edition in the KB)."),
    store: str = StoreOption,
    format: LexiconFormat = typer.Option(LexiconFormat.csv, "--format", "-f",
                                         help="csv (en,fr,source,key), tbx (TBX-Basic XML) or json."),
) -> None:
    """The English-French term pairs: the ontology's labels, the hand-made core table, and matched glossaries."""
    from ..translate.lexicon import term_pairs, to_csv, to_tbx

    with errors_as_exit_codes():
        glossaries = []
        if glossary:
            from ..stored_edition import load_edition

            opener = LazyStore(store)
            if us is None:
                us = _default_us(_english_rows(opener))
            english = load_edition(us, opener)
            for source in glossary:
                glossaries.append((load_french(source.split(","), opener), english))
        pairs = term_pairs(glossaries)
    if format is LexiconFormat.json:
        emit_json(pairs)
    else:
        sys.stdout.write(to_csv(pairs) if format is LexiconFormat.csv else to_tbx(pairs))

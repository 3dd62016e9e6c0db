"""The translation report over editions of the KB or parsed sources: which English
edition a French text translates (detected among a date window of candidates), and
:func:`kb.translate.drift.drift_report` against it. Shared by ``rulekb
translation-report`` and the web's ``/translation`` (through :mod:`kb.service`).

Why a date window by default: reading an edition back costs a quarter to half a
second, so all 128 English editions take about a minute, while French translations
lag the English by months, rarely years. ``base="auto"`` reads the complete English
editions dated from three years before to six months after the French text's date
(all of them when the French is undated); ``"all"`` reads every complete English
edition (slow; the JSON's ``base.seconds`` says how long); an edition id takes that
edition and detects nothing.

``store`` is a store or a callable giving it (opened only when an id needs it).
"""

from __future__ import annotations

import time

WINDOW_BEFORE_YEARS = 3  # a translation may lag its English edition this long
WINDOW_AFTER_MONTHS = 6  # a French page's date may precede the English it shows


def _opener(store):
    return store if callable(store) else (lambda: store)


def load_french(sources: list[str], store):
    """The French edition named by ``sources``: one KB id, or files/directories parsed."""
    from pathlib import Path

    from ..errors import KBError
    from ..rdf.stored_edition import load_edition
    from ..timeline.editions import names_by_alias

    opener = _opener(store)
    if len(sources) == 1 and not Path(sources[0]).exists() and ("/" in sources[0] or names_by_alias(sources[0])) \
            and not sources[0].endswith((".txt", ".html", ".htm", ".pdf", ".docx")):
        edition = load_edition(sources[0], opener)  # an id, fr/latest, fr@2011-03-01 (one resolver)
    else:
        from rulekb.ingest.parse import parse_many

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


def english_rows(store) -> list[dict]:
    """The KB's complete, dated English editions, oldest first."""
    from ..store.queries import editions

    rows = [e for e in editions(_opener(store)()) if e["language"] == "en" and not e["partial"]
            and e["effective_date"]]
    return sorted(rows, key=lambda e: e["effective_date"])


def default_us(rows: list[dict]) -> str:
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


def translation_data(sources: list[str], us: str | None = None, base: str = "auto", store=None):
    """``(data, french, english)``: the JSON of ``rulekb translation-report`` and the two editions."""
    data, fr, english, _ = translation_parts(sources, us, base, store)
    data.pop("pairs", None)  # the build's translationOf links; not in the report's JSON
    data.pop("successors", None)
    return data, fr, english


def translation_parts(sources: list[str], us: str | None = None, base: str = "auto", store=None):
    """``(data, french, english, base)``: :func:`translation_data` with the alignment kept
    (``data["pairs"]``: French number -> base English number; ``data["successors"]``: base
    number -> its number in ``english``, when the base is older) and the base edition
    (``None`` when not detected): what the translators' exchange formats are made of."""
    from ..errors import KBError
    from ..rdf.stored_edition import load_edition, stored_edition
    from ..translate.drift import drift_report

    opener = _opener(store)
    fr = load_french(sources, opener)
    rows = None
    if us is None:
        rows = english_rows(opener)
        us = default_us(rows)
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
                 "base": info, "stale_checked": False}, fr, english, None)
    if base in ("auto", "all"):
        rows = rows if rows is not None else english_rows(opener)
        window = _window(fr.effective_date) if base == "auto" else None
        chosen = [r["edition"] for r in rows if window is None or window[0] <= r["effective_date"] <= window[1]]
        if not chosen:
            chosen = [r["edition"] for r in rows]
            window = None
        candidates = [english if name == english.id else stored_edition(opener(), name) for name in chosen]
        info["window"] = list(window) if window else None
        data = drift_report(fr, english, candidates=candidates)
        base_edition = next((c for c in candidates if c.id == data.get("base_detected")), None)
    else:
        base_edition = english if base == english.id else load_edition(base, opener)
        if base_edition.language != "en":
            raise KBError(f"--base {base_edition.id} is not English")
        data = drift_report(fr, english, base=base_edition)
    info.update(data["base"])
    info["seconds"] = round(time.perf_counter() - started, 2)  # reading the candidates included
    data["base"] = info
    return data, fr, english, base_edition

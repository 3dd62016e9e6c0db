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

Why the candidates from the page data: twenty editions read back from the store took 5 of
the 6 seconds of a report with ``--base auto``; the build's page data holds each rule
version's wording (text kept once) and which versions have examples, so the candidates are
read from there (:mod:`kb.translate.candidates`) and only the chosen base from the store.
And a choice is kept (``$RULEKB_CACHE/base-choices``, per build, French text, candidates and
scoring code: :func:`choice_key`): a translator's second export of a text detects nothing.

``store`` is a store or a callable giving it (opened only when an id needs it).

Why the stored lineages when the French translates an older edition: the report must
carry each base rule to the newest English edition and know whether it changed. The
build chained every pair of consecutive English editions and stored the lineages
(graph/lineage), so the base -> newest correspondence is two reads of the store
(:func:`stored_alignment`, a tenth of a second each) where aligning the two editions
again took most of the report's time (9 of 10 s for a whole French text). The
aligner stays the path for an English edition the lineages do not hold (one read from
a file, a partial one).
"""

from __future__ import annotations

import time

from ..store.memo import BuildMemo
from .candidates import english_rows  # noqa: F401  (the candidates' rows; read here too)

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


def candidate_names(rows: list[dict], date: str | None, mode: str = "auto") -> tuple[list[str], tuple | None]:
    """``(editions, window)``: the English editions of ``rows`` (:func:`english_rows`) a French
    text of that date is scored against -- with ``mode`` ``"auto"`` those of its date window
    (all of them when it is undated or none falls in it: window None), with ``"all"`` all of them."""
    window = _window(date) if mode == "auto" else None
    chosen = [r["edition"] for r in rows if window is None or window[0] <= r["effective_date"] <= window[1]]
    if not chosen:
        return [r["edition"] for r in rows], None
    return chosen, window


def translation_data(sources: list[str], us: str | None = None, base: str = "auto", store=None):
    """``(data, french, english)``: the JSON of ``rulekb translation-report`` and the two editions."""
    data, fr, english, _ = translation_parts(sources, us, base, store)
    data.pop("pairs", None)  # the build's translationOf links; not in the report's JSON
    data.pop("successors", None)
    return data, fr, english


def translation_parts(sources: list[str], us: str | None = None, base: str = "auto", store=None,
                      lineages: bool = True, candidates: str = "cached"):
    """``(data, french, english, base)``: :func:`translation_data` with the alignment kept
    (``data["pairs"]``: French number -> base English number; ``data["successors"]``: base
    number -> its number in ``english``, when the base is older) and the base edition
    (``None`` when not detected; when detected among candidates, its header and rules
    only: :func:`kb.rdf.stored_edition.stored_edition`'s ``rules_only``): what the
    translators' exchange formats are made of.
    ``lineages=False`` aligns the base with ``english`` again instead of reading the stored
    lineages (the comparison's and the bench's baseline). ``candidates``: how ``base="auto"``
    (or ``"all"``) chooses -- ``"cached"`` the choice made before from the same texts by the same
    code (:func:`choice_key`), else as ``"kept"`` does: the candidates' rules' features the build
    kept in its page data (:mod:`kb.translate.kept`), else as ``"page data"`` does: their texts read
    from the build's page data and scored (:mod:`kb.translate.candidates`), else from the store;
    ``"store"``: read from the store, as before the page data answered them (the bench's baseline)."""
    from ..errors import KBError
    from ..rdf.stored_edition import load_edition, stored_edition
    from ..translate.candidates import candidate_editions, scored_sections
    from ..translate.kept import scoring_candidates
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
        chosen, window = candidate_names(rows, fr.effective_date, base)
        read: dict = {}

        def whole(name: str):  # an edition as the report reads it: header and rules (with examples)
            if name not in read:
                read[name] = english if name == english.id else stored_edition(opener(), name, rules_only=True)
            return read[name]

        alignment_of = stored_alignment(opener) if lineages and not _names_file(us) else None
        info["window"] = list(window) if window else None
        key = choice_key(opener(), fr, base, chosen) if candidates == "cached" else None
        known = read_choice(key)
        if known is not None:  # detected before, from the same texts by the same code: not again
            info["candidates_from"] = "cache"
            data = drift_report(fr, english, base=whole(known["base_detected"]), alignment_of=alignment_of)
            data["base"] = known["base"]
        else:
            # the candidates as scoring reads them (number, text, examples), from the build's page
            # data; else read from the store, rules only (not the glossaries, a third of reading an
            # edition back, times twenty candidates)
            # -- their rules' features themselves when the build kept them (kb.translate.kept)
            wanted = [r for r in rows if r["edition"] in set(chosen)]
            sections = scored_sections(rule.number for rule in fr.rules)
            kept = scoring_candidates(opener(), wanted, sections) if candidates in ("cached", "kept") else None
            scored, seeded = kept if kept is not None else (None, None)
            if scored is None and candidates != "store":
                scored = candidate_editions(opener(), wanted, sections)
            info["candidates_from"] = "page data" if scored is not None else "store"
            if scored is None:
                scored = [whole(name) for name in chosen]
            data = drift_report(fr, english, candidates=scored, read_base=lambda found: whole(found.id),
                                alignment_of=alignment_of, scoring=seeded)
            if data.get("base_detected"):
                write_choice(key, {"base_detected": data["base_detected"], "base": data["base"]})
        base_edition = read.get(data.get("base_detected"))
    else:
        if base == english.id:
            base_edition = english
        elif _names_file(base):
            base_edition = load_edition(base, opener)
        else:  # rules only, as a detected base (an alias or a date names the edition it resolves to)
            from ..timeline.answers import resolve

            base_edition = stored_edition(opener(), resolve(opener(), base).edition, rules_only=True)
        if base_edition.language != "en":
            raise KBError(f"--base {base_edition.id} is not English")
        in_kb = lineages and not _names_file(us) and not _names_file(base)
        data = drift_report(fr, english, base=base_edition, alignment_of=stored_alignment(opener) if in_kb else None)
    info.update(data["base"])
    info["seconds"] = round(time.perf_counter() - started, 2)  # reading the candidates included
    data["base"] = info
    return data, fr, english, base_edition


def _names_file(name: str) -> bool:
    """Whether an edition name is a source file (parsed, not read from the KB: its
    lineages are not the KB's), as :func:`kb.rdf.stored_edition.load_edition` tells them."""
    from pathlib import Path

    return name.endswith((".txt", ".html", ".htm", ".pdf", ".docx")) or Path(name).is_file()


def stored_successors(store, base: str, target: str) -> dict[str, str] | None:
    """Base rule number -> the number its lineage has in ``target``, read from the KB's
    lineages (named query ``page-lineages``, once per edition); None when no lineage of the
    KB joins them (a partial edition, one not in the KB, two languages)."""
    opened = _opener(store)()
    if opened is None:
        return None
    lineage_of = dict(_page_lineages(opened, base))
    if not lineage_of:
        return None
    number_in_target: dict[str, str] = {}
    for number, lineage in _page_lineages(opened, target):
        number_in_target.setdefault(lineage, number)
    found = {number: number_in_target[lid] for number, lid in lineage_of.items() if lid in number_in_target}
    return found or None  # no lineage joins them (not chained together): not a correspondence


_LINEAGES_KEPT = 16  # editions' (number, lineage) rows a process keeps, per build (an embedded store's)
_lineages_kept = BuildMemo(_LINEAGES_KEPT, copies=False)  # tuples of strings: shared as they are


def _page_lineages(store, edition: str) -> tuple[tuple[str, str], ...]:
    """(number, lineage) of each rule version of ``edition`` (page-lineages, in its order); kept
    per build of an embedded store (the report of every French text reads the newest edition's)."""
    from ..store.queries import run

    return _lineages_kept.get(store, edition, lambda: tuple(
        (row["number"], row["lineage"]) for row in run(store, "page-lineages", edition=edition)))


def stored_alignment(store):
    """The ``alignment_of`` of :func:`kb.translate.drift.drift_report` for editions of the
    KB: base -> target as the stored lineages chain it
    (:func:`kb.rdf.translation.successor_alignment`, what the build's own report uses),
    and :func:`kb.align.align` when the lineages hold neither edition (read back from the aligned
    pairs' cache when the two texts were aligned before: kb.lineage.cache.aligned)."""

    def alignment_of(base, target, wanted):
        from ..errors import KBError
        from ..lineage.cache import aligned
        from ..rdf.translation import successor_alignment

        numbers = None
        if store is not None:
            try:
                numbers = stored_successors(store, base.id, target.id)
            except KBError:  # no KB to read
                numbers = None
        if numbers is None:
            return aligned(base, target)
        return successor_alignment(numbers, base, target, wanted)

    return alignment_of


CHOICES_KEPT = 500  # cached choices (one a French text, candidate window and build)


def choice_key(store, fr, mode: str, chosen: list[str]) -> str | None:
    """The cache key of a base detection: the build the store reads (its data directory: a
    rebuild is another key), the French text's content, the candidate editions and the code
    that scores (:mod:`kb.translate`, :mod:`kb.align`); None when the store names no build (a
    store in memory, a remote endpoint: its content may change under the same name)."""
    import hashlib

    from ..json_cache import code_digest
    from ..lineage.cache import digest

    try:
        build = store.build_id() if hasattr(store, "build_id") else None
    except Exception:  # noqa: BLE001 - no store to name: nothing cached
        build = None
    if not build:
        return None
    parts = [build, code_digest("rulekb.kb.translate", "rulekb.kb.align"), digest([fr]), mode, *chosen]
    return hashlib.sha256("\x1f".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:32]


def read_choice(key: str | None) -> dict | None:
    import json

    from ..json_cache import cache_folder

    if key is None:
        return None
    try:
        found = json.loads((cache_folder("base-choices") / f"{key}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) and found.get("base_detected") and isinstance(found.get("base"), dict) \
        else None


def write_choice(key: str | None, choice: dict) -> None:
    from ..json_cache import cache_folder, write_json

    if key is not None:
        folder = cache_folder("base-choices")
        write_json(folder, folder / f"{key}.json", choice, keep=CHOICES_KEPT)

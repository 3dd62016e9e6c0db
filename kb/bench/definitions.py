"""Measure definition extraction (:mod:`kb.define`) against a gold set.

The gold set (``kb/bench/gold/definitions_gold.tsv``) holds annotations and
references only, never rule text: each row names a corpus source, an edition,
a rule and a sentence of that rule (its 0-based index in
:func:`kb.define.sentences`, or a short anchor), the statements the
sentence makes, and the first 8 hex digits of the sentence's SHA-1 so that a
row that no longer points at the sentence it was written for fails loudly.

Columns (tab-separated; ``#`` starts a comment line)::

    source  edition  rule  sentence  expected  check  note

``expected`` lists statements separated by `` ; `` (empty: the sentence makes
none), each written ``concept|aspect|value|qualifier|members[|language]`` with
members comma-separated in the order printed, e.g.
``spell|is-a|card|on-the-stack|`` or ``object|kinds|||ability-on-the-stack,card``.
``negated`` follows from the aspect (``not-a``).

Scores count statements: a predicted statement equal to an expected one (all
fields) is a true positive, an extra one a false positive, a missing one a
miss. Rows are split by language (the edition's) and by era: pre-2009 for
editions dated before the 2009 renumbering (2009-07) and undated French texts
in the old numbering (``fr/MANIFEST.tsv``), 2009+ otherwise.
"""

from __future__ import annotations

import csv
import hashlib
import re
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from importlib import resources

from ..define import Statement, edition_statements, extract, sentences
from ..errors import KBError

GOLD = resources.files("rulekb.kb.bench").joinpath("gold", "definitions_gold.tsv")
RENUMBERING = "2009-07"  # the M10 restructure: the first edition in the new numbering is 2009-07-08

Key = tuple[str, str, str, tuple[str, ...], str, bool, str]


class GoldError(KBError):
    """The gold file is missing, malformed, or points at a sentence that moved."""


@dataclass(frozen=True)
class GoldRow:
    source: str  # corpus path relative to the corpus root (a file or a directory)
    edition: str  # edition id, e.g. en/2026-01-16
    rule: str
    sentence: str  # 0-based index, or an anchor the sentence contains
    expected: tuple[Key, ...]
    check: str = ""  # first 8 hex digits of the sentence's SHA-1
    note: str = ""
    line: int = 0

    @property
    def name(self) -> str:
        return f"{self.edition} {self.rule}#{self.sentence}"


def statement_key(st: Statement) -> Key:
    return (st.concept, st.aspect, st.value, tuple(st.members), st.qualifier, st.negated, st.language)


def parse_statements(text: str) -> tuple[Key, ...]:
    """``a|is-a|b|q| ; c|kinds|||x,y`` -> keys."""
    out = []
    for part in (p.strip() for p in text.split(" ; ")):
        if not part:
            continue
        fields = part.split("|")
        if len(fields) not in (5, 6):
            raise ValueError(f"a statement has 5 or 6 |-separated fields: {part!r}")
        concept, aspect, value, qualifier, members = fields[:5]
        language = fields[5] if len(fields) == 6 else "en"
        members_t = tuple(m for m in members.split(",") if m)
        out.append((concept, aspect, value, members_t, qualifier, aspect == "not-a", language))
    return tuple(out)


def format_statement(key: Key) -> str:
    concept, aspect, value, members, qualifier, _, language = key
    text = f"{concept}|{aspect}|{value}|{qualifier}|{','.join(members)}"
    return text + (f"|{language}" if language != "en" else "")


def load_gold(path: Path | str = GOLD) -> list[GoldRow]:
    path = Path(path)
    if not path.is_file():
        raise GoldError(f"gold file not found: {path} (the package's gold set is kb/bench/gold/)")
    rows = []
    with path.open(encoding="utf-8", newline="") as handle:
        lines = [(n, line) for n, line in enumerate(handle, 1) if line.strip() and not line.startswith("#")]
    reader = csv.reader((line for _, line in lines), delimiter="\t", quoting=csv.QUOTE_NONE)
    for (number, _), fields in zip(lines, reader):
        if fields[:4] == ["source", "edition", "rule", "sentence"]:
            continue  # the header
        fields += [""] * (7 - len(fields))
        source, edition, rule, sentence, expected, check, note = (f.strip() for f in fields[:7])
        try:
            keys = parse_statements(expected)
        except ValueError as exc:
            raise GoldError(f"{path.name} line {number}: {exc}") from None
        rows.append(GoldRow(source, edition, rule, sentence, keys, check, note, number))
    if not rows:
        raise GoldError(f"gold file has no rows: {path}")
    return rows


@dataclass
class _Sources:
    """Parsed corpus sources, each parsed once."""

    root: Path
    editions: dict[str, dict] = field(default_factory=dict)
    numbering: dict[str, str] | None = None

    def edition(self, source: str, edition_id: str):
        if source not in self.editions:
            from rulekb.ingest.parse import parse_file, parse_path

            path = self.root / source
            if not path.exists():
                raise GoldError(f"corpus source not found: {path}")
            found = parse_path(path).editions if path.is_dir() else parse_file(path)
            self.editions[source] = {e.id: e for e in found}
        try:
            return self.editions[source][edition_id]
        except KeyError:
            raise GoldError(f"{source} has no edition {edition_id} "
                            f"(it has {', '.join(sorted(self.editions[source]))})") from None

    def era(self, source: str, edition_id: str) -> str:
        m = re.search(r"/(\d{4}-\d{2})", edition_id)
        if m:
            return "pre-2009" if m.group(1) < RENUMBERING else "2009+"
        if self.numbering is None:  # undated forum quotes: the manifest says which numbering they use
            self.numbering = {}
            manifest = self.root / "fr" / "MANIFEST.tsv"
            if manifest.is_file():
                for row in csv.DictReader(manifest.open(encoding="utf-8"), delimiter="\t"):
                    self.numbering["fr/" + row["path"]] = row.get("numbering", "")
        return "pre-2009" if self.numbering.get(source) == "old" else "2009+"


def _locate(row: GoldRow, sources: _Sources) -> tuple[str, str]:
    """(sentence as printed, language) of a gold row."""
    edition = sources.edition(row.source, row.edition)
    rule = edition.rule(row.rule)
    if rule is None:
        raise GoldError(f"line {row.line}: {row.edition} has no rule {row.rule}")
    found = sentences(rule.text)
    if row.sentence.isdigit():
        index = int(row.sentence)
        if index >= len(found):
            raise GoldError(f"line {row.line}: rule {row.rule} of {row.edition} has {len(found)} sentences")
        text = found[index]
    else:
        text = next((s for s in found if row.sentence in s), None)
        if text is None:
            raise GoldError(f"line {row.line}: no sentence of {row.edition} {row.rule} contains {row.sentence!r}")
    if row.check and hashlib.sha1(text.encode("utf-8")).hexdigest()[:8] != row.check:
        raise GoldError(f"line {row.line}: {row.name} is no longer the sentence the row was written for "
                        f"(checksum {row.check}); update the row")
    return text, edition.language


def _score(tp: int, fp: int, fn: int) -> dict:
    return {
        "statements": tp + fn, "true_positives": tp, "false_positives": fp, "misses": fn,
        "precision": tp / (tp + fp) if tp + fp else 1.0,
        "recall": tp / (tp + fn) if tp + fn else 1.0,
    }


def evaluate(rows: list[GoldRow], corpus_root: Path | str) -> dict:
    """Precision and recall of :func:`kb.define.extract` on the gold rows:
    overall, by language and by era, with every miss and false positive named."""
    sources = _Sources(Path(corpus_root))
    counts: dict[str, list[int]] = {}
    misses, false_positives = [], []
    languages: dict[str, int] = {}
    eras: dict[str, int] = {}
    negatives = 0
    for row in rows:
        text, language = _locate(row, sources)
        era = sources.era(row.source, row.edition)
        languages[language] = languages.get(language, 0) + 1
        eras[era] = eras.get(era, 0) + 1
        negatives += not row.expected
        predicted = [statement_key(st) for st in extract(text, language)]
        expected = list(row.expected)
        tp = 0
        for key in predicted:
            if key in expected:
                expected.remove(key)
                tp += 1
            else:
                false_positives.append({"row": row.name, "statement": format_statement(key), "sentence": text})
        for key in expected:
            misses.append({"row": row.name, "statement": format_statement(key), "note": row.note})
        fp = len(predicted) - tp
        chosen = "sample" if row.note.startswith("sample") else "chosen"
        for group in ("overall", f"language:{language}", f"era:{era}", f"set:{chosen}"):
            c = counts.setdefault(group, [0, 0, 0])
            c[0] += tp
            c[1] += fp
            c[2] += len(expected)
    return {
        "sentences": len(rows),
        "negative_sentences": negatives,
        "sentences_by_language": languages,
        "sentences_by_era": eras,
        "overall": _score(*counts["overall"]),
        "by_language": {k.split(":", 1)[1]: _score(*v) for k, v in sorted(counts.items()) if k.startswith("language:")},
        "by_era": {k.split(":", 1)[1]: _score(*v) for k, v in sorted(counts.items()) if k.startswith("era:")},
        # rows picked by hand while reading the rules, and a random sample of
        # definitional-looking sentences (its recall is the less flattering figure)
        "by_set": {k.split(":", 1)[1]: _score(*v) for k, v in sorted(counts.items()) if k.startswith("set:")},
        "misses": misses,
        "false_positives": false_positives,
    }


def extraction_speed(directory: Path | str) -> dict:
    """Parse every English edition, then time :func:`edition_statements` over
    them all, starting with empty caches (parsing is not timed)."""
    from rulekb.ingest.parse import parse_file

    from .. import define as definitions

    files = sorted(Path(directory).glob("*.txt"))
    if not files:
        raise GoldError(f"no .txt editions in {directory}")
    started = time.perf_counter()
    editions = [e for f in files for e in parse_file(f)]
    parse_seconds = time.perf_counter() - started
    definitions.load_lexicon()  # loaded once per process: not extraction work
    definitions.clear_caches()
    per_edition: dict[str, int] = {}
    times = []
    started = time.perf_counter()
    for edition in editions:
        t0 = time.perf_counter()
        per_edition[edition.id] = len(edition_statements(edition))
        times.append(time.perf_counter() - t0)
    seconds = time.perf_counter() - started
    counts = list(per_edition.values())
    total = sum(counts)
    return {
        "editions": len(editions),
        "statements": total,
        "statements_per_edition_median": statistics.median(counts),
        "statements_per_edition_min": min(counts),
        "statements_per_edition_max": max(counts),
        "fewest_statements_edition": min(per_edition, key=per_edition.get),
        "seconds": seconds,
        "per_edition_ms_median": statistics.median(times) * 1000,
        "statements_per_second": total / seconds if seconds else 0.0,
        "parse_seconds": parse_seconds,
    }

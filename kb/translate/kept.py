"""The English rules' scoring evidence, computed once by the build and kept in its page data.

Why: ``--base auto`` scores a French text against candidate English editions rule by rule
(:mod:`.base`), and each English rule's evidence (:func:`.evidence.features`: the rules it cites,
its numbers, names, terms, shape) was computed from its text in every export: an undated text,
scored against all 127 English editions, reads three sections of each (63,800 rule versions,
2,200 distinct texts), and computing their evidence was 0.4 of the 0.5 s of CPU its scoring
took, reading their texts and examples another 0.2 s. The evidence of a rule depends on its text
and examples only, which an edition never changes: the build computes it for every rule version
of every complete English edition (12,900 distinct texts, about 3 s of CPU once) and keeps it in
the page data (:mod:`kb.pages.features`); scoring then reads, for the sections it scores, each
rule version's evidence row and each distinct evidence once, and computes nothing.

Exact: the evidence kept is :func:`.evidence.features` of the rule exactly as the candidates
read from the page data give it (:func:`.candidates.candidate_editions`: the store's number,
text and examples; the corpus test compares them), computed by the build's code. The digest of
that code (this package, :mod:`rulekb.ingest`'s citation and number grammar, :mod:`kb.rdf`'s
lexicon) and of the ontology (the terms' labels) is kept with it: evidence computed by other
code or labels is not read (the texts are read and scored as before), and ``build --add``
computes it all again rather than add to it.
"""

from __future__ import annotations

import hashlib
import json

from rulekb.ingest.model import Edition, Rule

from .align import FeatureCache
from .evidence import Features, features

_DIGEST: list[str] = []


def computed_by() -> str:
    """The digest of what computes the evidence: the scoring code and the ontology's labels."""
    if not _DIGEST:
        from rulekb.ontology import turtle

        from ..json_cache import code_digest

        code = code_digest("rulekb.kb.translate", "rulekb.ingest", "rulekb.kb.rdf")
        _DIGEST.append(hashlib.sha256(f"{code}\0{turtle()}".encode("utf-8", "surrogatepass")).hexdigest()[:32])
    return _DIGEST[0]


def as_json(found: Features) -> str:
    return json.dumps([sorted(found.refs), sorted(found.numbers), sorted(found.names), sorted(found.terms),
                       found.sentences, found.examples, found.length, found.complete, found.all_sentences,
                       found.full_length, list(found.number_tokens)], ensure_ascii=False, separators=(",", ":"))


def from_json(text: str) -> Features:
    refs, numbers, names, terms, sentences, examples, length, complete, all_sentences, full_length, tokens = \
        json.loads(text)
    return Features(refs=frozenset(refs), numbers=frozenset(numbers), names=frozenset(names), terms=frozenset(terms),
                    sentences=sentences, examples=examples, length=length, complete=complete,
                    all_sentences=all_sentences, full_length=full_length, number_tokens=tuple(tokens))


def keep(db, store, edition: str | None = None) -> int:
    """Compute and write into the page data ``db`` is writing (its rules, texts and examples
    written already) the evidence of every complete English edition of ``store`` (the build the
    file is for), or of ``edition`` alone (just appended: ``build --add``) when the file's evidence
    was computed by today's code (else all again). Returns how many rule versions; 0 when the
    file cannot give the candidates' texts (nothing kept: scoring reads the texts)."""
    from ..pages import features as table
    from ..pages.reading import PageData
    from .candidates import candidate_editions, english_rows

    digest = computed_by()
    rows = english_rows(store)
    if edition is not None and table.digest(db) == digest:
        rows = [row for row in rows if row["edition"] == edition]
    else:
        table.clear(db)
    read = candidate_editions(store, rows, data=PageData.over(db)) if rows else []
    if read is None:
        return 0
    kept = _Kept(digest)  # a rebuild computes only the evidence of texts no build computed before
    known: dict[tuple, str] = {}
    out = []
    for candidate in read:
        for rule in candidate.rules:
            key = (rule.text, tuple(rule.examples))
            found = known.get(key)
            if found is None:
                found = known[key] = kept.get(rule.text, rule.examples, candidate.language)
            out.append((candidate.id, rule.number, found))
    kept.save()
    table.write(db, digest, [candidate.id for candidate in read], out)
    return len(out)


class _Kept:
    """The evidence computed by earlier builds, under $RULEKB_CACHE/base-evidence/DIGEST.json (text
    digest -> evidence as JSON): the evidence of a text depends on the text, its examples and the
    code (the digest), so a warm rebuild reads it back (about 3 s of CPU of its pages stage)."""

    KEEP = 2  # digests kept: this code's and the one before

    def __init__(self, digest: str):
        from ..json_cache import cache_folder

        self.folder = cache_folder("base-evidence")
        self.path = self.folder / f"{digest}.json"
        try:
            self.entries: dict[str, str] = json.loads(self.path.read_text(encoding="utf-8"))
            if not isinstance(self.entries, dict):
                self.entries = {}
        except (OSError, ValueError):
            self.entries = {}
        self.new = 0

    def get(self, text: str, examples, language: str) -> str:
        key = hashlib.sha1("\x1f".join([language, text, *examples]).encode("utf-8", "surrogatepass")).hexdigest()
        found = self.entries.get(key)
        if not isinstance(found, str):
            found = self.entries[key] = as_json(features(text, examples, language))
            self.new += 1
        return found

    def save(self) -> None:
        if self.new:
            from ..json_cache import write_json

            write_json(self.folder, self.path, self.entries, keep=self.KEEP)


def scoring_candidates(store, rows: list[dict], sections: set[str] | None = None):
    """``(editions, cache)``: the editions of ``rows`` (:func:`.from_kb.english_rows`' rows) as
    scoring reads them -- their rules of ``sections``, numbers only -- and a
    :class:`.align.FeatureCache` holding each rule's kept evidence; None when the page data does
    not keep it for every one of them, or kept another code's."""
    from ..pages.reading import for_store

    data = for_store(store)
    if data is None or data.features_digest is None or data.features_digest != computed_by():
        return None
    ids = [row["edition"] for row in rows]
    if data.features_held(ids) != set(ids):
        return None
    keys, sets = data.feature_rows(ids, sections)
    decoded = {i: from_json(text) for i, text in sets.items()}
    by_id = {row["edition"]: Edition(id=row["edition"], language=row.get("language", "en"),
                                     effective_date=row.get("effective_date"), title="") for row in rows}
    cache, numbered = FeatureCache(), {}
    for edition, rules in keys:
        for number, found in rules:
            rule = numbered.get(number)
            if rule is None:  # (its number is all scoring reads of it: one Rule a number)
                rule = numbered[number] = Rule(number=number, text="")
            by_id[edition].rules.append(rule)
        cache.seed(edition, {number: decoded[found] for number, found in rules})
    return list(by_id.values()), cache

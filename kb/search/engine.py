"""Answering a search: edition choice, the fused query, one hit per lineage,
the "why" of each hit (its snippet: :mod:`.snippets`) (``rulekb search``, ``/search``, ``/api/search``).

Editions: the newest complete English edition by default; ``lang="fr"``: every
French text together (the corpus's French texts are all excerpts of different
translations, none complete: the newest alone holds one rule); ``edition``:
that one; ``all_editions``: every edition of the language, one hit per rule
lineage with the editions whose version matched.
"""

from __future__ import annotations

import os
from functools import cached_property
from pathlib import Path

from tantivy import Occur, Query

from ..errors import KBError, NotFound
from . import brought as card_brought
from . import referred as referred_rules
from . import adapter as query_adapter
from . import analysis, card_words, interactions, precedents, rank, rerank, shorthand
from . import dense as dense_arm
from .index import open_index
from .snippets import TOKEN, memo, snippet
from .understand import MAX_CHARS, Understood, clean, understand

MAX_LIMIT = 100
SCAN = 400  # hits read to fill a page of lineages (--all-editions)


class SearchError(KBError):
    """A query that cannot be searched (empty, only punctuation, too long)."""


class Searcher:
    """One index directory, opened read-only: many searches."""

    def __init__(self, directory: Path, dense: bool = True):
        self.directory = Path(directory)
        self._use_dense = dense
        self.index, self.meta = open_index(self.directory)
        self.searcher = self.index.searcher()
        self.schema = self.index.schema
        self.total = self.searcher.num_docs
        self.editions = {row["edition"]: row for row in self.meta["editions"]}
        # meta lists editions oldest first (by date, then id): their position is their order
        self._order = {edition: i for i, edition in enumerate(self.editions)}
        self._spec: dict[str, float] = {}
        self._interactions: dict[str | None, dict] = {}
        self._arm: tuple[str, object] | None = None

    # -- what the index knows ------------------------------------------------

    @cached_property
    def matchers(self) -> dict:
        from .understand import LabelMatcher

        concepts = self.meta["concepts"]
        return {lang: LabelMatcher({key: row["labels"].get(lang, []) for key, row in concepts.items()}, lang)
                for lang in analysis.LANGS}

    @cached_property
    def renames(self) -> dict[str, str]:
        """Historical concept -> current one (kb.compare.terminology.RENAMES, kept in the index's meta)."""
        return dict(self.meta.get("renames", {}))

    @cached_property
    def minter(self):
        from ..rdf.iris import Minter

        return Minter.for_base(self.meta.get("base"))

    @cached_property
    def cards(self):
        """The card name index of this build (kb.cards.names), or None (a build without cards)."""
        from ..cards.names import NameIndex

        try:
            return NameIndex.open(self.directory)
        except (OSError, ValueError):
            return None

    @cached_property
    def common_words(self) -> "card_words.Common":
        """Words and labels of the rules and question words (folded): a card name that is one of them,
        written plainly, is not taken for the card (read on first use: most questions need none)."""
        return card_words.Common(self.meta["concepts"], self._in_rules)

    def _in_rules(self, word: str) -> bool:
        return card_words.in_rules(self.searcher, self.schema, word)

    def default_edition(self, lang: str) -> str | None:
        complete = [e for e, row in self.editions.items() if row["language"] == lang and not row["partial"]]
        return complete[-1] if complete else None  # meta lists editions oldest first

    def interaction_sections(self, edition: str | None) -> dict:
        if edition not in self._interactions:
            self._interactions[edition] = interactions.sections(self.searcher, self.schema, edition, self.meta["concepts"])
        return self._interactions[edition]

    def spec(self, key: str) -> float:
        if key not in self._spec:
            self._spec[key] = rank.specificity(self.searcher, key, self.total)
        return self._spec[key]

    # -- searching ------------------------------------------------------------

    def read(self, query: str, lang: str) -> Understood:
        if query is None or not str(query).strip():
            raise SearchError("empty search: give some words, e.g. rulekb search \"summoning sickness\"")
        if len(query) > MAX_CHARS:
            raise SearchError(f"a search is at most {MAX_CHARS} characters (this one has {len(query):,})")
        read, text = None, clean(query)
        asked_in = analysis.language_of(text) or lang  # a French question may ask about the English rules
        if self.cards is not None and len(self.cards):
            from ..cards.recognise import read as read_cards

            read = read_cards(text, self.cards, self.common_words, lower_names=asked_in != "fr", french=asked_in == "fr")
        if read and read["cards"]:
            u = understand(read["rest"], lang, self.matchers.get(asked_in), self.renames)
            u.text = text
            if not u.words and not u.numbers:
                u.terms, u.phrases = [], []  # only card names: the cards' knowledge is the query
        else:
            # (the concepts in the asker's language's labels: the KB's concepts are both languages'; an
            # English label matched in a French question was a French word: "encore", "pile")
            u = understand(query, lang, self.matchers.get(asked_in), self.renames)
        if read:
            u.cards, u.unknown_cards, u.cards_note = read["cards"], read["unknown"], read["note"]
            u.card_concepts, u.card_rules, u.card_how = read["concepts"], read["rules"], read["how"]
            if read["cards"]:  # (French questions too, by the French labels: docs/cards.md says how measured)
                u.meaning_text = card_words.as_what_they_are(text, read["spans"], self.meta["concepts"], asked_in)
        for key, weight in card_words.quoted_kinds(text, lang).items():  # card text quoted: read as a card's
            if key not in u.concepts and key not in u.card_concepts:
                u.card_concepts[key], u.card_how[key] = weight, "quoted"
        if asked_in != lang:
            u.asked_in = asked_in
        if u.shorthand:  # the meaning arm reads the rules' words too
            u.meaning_text = shorthand.expand(u.meaning_text or u.text, u.lang)[0]
        if not (u.terms or u.numbers or u.sections or u.concepts or u.card_concepts):
            raise SearchError(f"nothing to search for in {_quote(u.text)}: no words or rule numbers")
        return u

    def scope(self, edition: str | None, lang: str | None, all_editions: bool) -> tuple[str, str | None, bool]:
        """(language, edition or None, grouped by lineage)."""
        if lang not in (None, "en", "fr"):
            raise SearchError(f"unknown language {lang!r} (en or fr)")
        if edition and edition != "all":
            row = self.editions.get(edition)
            if row is None:
                raise NotFound(f"no edition {edition!r} in the search index (rulekb editions lists them)")
            return row["language"], edition, False
        lang = lang or "en"
        if all_editions or edition == "all":
            return lang, None, True
        chosen = self.default_edition(lang)
        return (lang, chosen, False) if chosen else (lang, None, True)

    def search(self, query: str, edition: str | None = None, lang: str | None = None, all_editions: bool = False,
               limit: int = 10, offset: int = 0, baseline: bool = False, dense: bool = True,
               adapted: bool = True) -> dict:
        """``baseline``: plain BM25 (the bench's floor); ``dense=False``: the lexical ranking
        alone (words and the KB's links), without the dense arm even when it is there;
        ``adapted=False``: the question's embedding without the query adapter (the bench's
        comparison)."""
        limit = max(1, min(int(limit), MAX_LIMIT))
        offset = max(0, int(offset))
        lang, edition, grouped = self.scope(edition, lang, all_editions)
        u = self.read(query, lang)
        if len(u.cards) >= interactions.MIN_CARDS:  # two cards whose effects meet: the rules' section on it
            held_in = edition or self.default_edition("en")
            u.card_sections = interactions.among(u.cards, self.interaction_sections(held_in), held_in)
        filter_ = (rank.exact(self.schema, "editions", edition) if edition
                   else rank.exact(self.schema, "lang", lang))
        q = self._query(u, lang, filter_, baseline)
        arm = None if baseline or not dense else self.arm()
        meaning = self._meaning_state(arm, edition, lang) if not baseline else None
        if meaning and meaning["answers"]:
            meaning["adapter"] = dense_arm.adapter_state() if adapted else "off"
            meaning["precedents"] = precedents.state(dense_arm.MODEL_VERSION) if adapted else "off"
        near: dict = {}
        meaning_ranked = False  # whether the meaning arm's ranking was fused (though no hit shown came from it)
        if arm is not None and meaning["answers"]:
            try:
                hits, more, near, meaning_ranked = self._fused_hits(q, u, arm, lang, edition, grouped, limit, offset,
                                                                    adapted)
                meaning["learnt_order"] = u.learnt_order  # (kb.search.rerank: whether it ordered them, or why not)
            except dense_arm.DenseUnavailable as exc:
                meaning.update(answers=False, state="unavailable", note=str(exc))
                hits, more = ([], False) if q is None else self._hits(q, limit, offset, grouped, edition)
        else:
            hits, more = ([], False) if q is None else self._hits(q, limit, offset, grouped, edition)
        results = [self._result(score, doc, u, lang, edition, grouped, baseline, near) for score, doc in hits]
        out = {"query": u.text, "edition": edition or "all", "lang": lang, "offset": offset, "limit": limit,
               "more": more, "understood": u.to_dict(), "results": results}
        if not baseline:
            out["arms"] = ["words"] + (["meaning"] if meaning_ranked else [])
            out["meaning"] = meaning
            if meaning_ranked and u.meaning_leads:
                out["understood"]["meaning_leads"] = True
        if u.cards or u.unknown_cards:
            out["cards"] = [{**card, "iri": self.minter.card(card["slug"])} for card in u.cards]
            out["unknown_cards"] = u.unknown_cards
        return out

    # -- the dense arm --------------------------------------------------------

    def arm(self):
        """The dense arm beside the index (:mod:`.dense`), reopened when a background job
        swapped a newer one in; None when there is none (or it is unreadable)."""
        if not self._use_dense:
            return None
        link = self.directory / dense_arm.LINK
        try:
            target = os.readlink(link)
        except OSError:
            return None
        if self._arm is None or self._arm[0] != target:
            try:
                self._arm = (target, dense_arm.Arm(self.directory / target))
            except (OSError, ValueError, KeyError):
                self._arm = (target, None)
        return self._arm[1]

    def _meaning_state(self, arm, edition: str | None, lang: str) -> dict:
        """Whether the dense arm answers this search, and how much of the scope it holds."""
        if arm is None:
            state = "building" if dense_arm.running(self.directory) else "absent"
            return {"answers": False, "state": state, "embedded": 0}
        done, total = arm.coverage(edition, lang)
        if edition:
            state = "complete" if total and done >= total else ("partial" if done else "absent")
        else:
            state = "complete" if arm.manifest.get("rows") == arm.manifest.get("documents") else ("partial" if done else "absent")
        if state == "partial" and dense_arm.running(self.directory):
            state = "building"
        found = {"answers": done > 0, "state": state, "embedded": done, "model": arm.manifest.get("model_version")}
        if edition:
            found["documents"] = total
        return found

    def _fused_hits(self, q: Query | None, u: Understood, arm, lang: str, edition: str | None, grouped: bool,
                    limit: int, offset: int, adapted: bool = True):
        """Reciprocal-rank fusion of the lexical ranking and the dense arm (:mod:`.rank`'s
        RRF_K, RRF_DENSE; RRF_K_ADAPTED, RRF_ADAPTED for a question the adapter moved); a rule
        cited by number keeps the lead the lexical ranking gives it.
        (hits, more, what placed each hit shown beyond the words, whether the meaning ranked any.)"""
        depth = max(rank.FUSE_DEPTH, offset + limit + 1)
        lexical = [] if q is None else self._hits(q, depth, 0, grouped, edition)[0]
        unit = (lambda doc: doc["group"][0]) if grouped else (lambda doc: doc["key"][0])
        lex_rank = {unit(doc): i for i, (_, doc) in enumerate(lexical, start=1)}
        docs = {unit(doc): doc for _, doc in lexical}
        vector = dense_arm.embed_query(u.meaning_text or u.text, adapted)
        near: dict[str, tuple[int, float, str]] = {}  # unit -> (rank by meaning, similarity, document key)
        for row, sim in arm.nearest(vector, None if grouped else edition, lang, depth * (4 if grouped else 1)):
            key = str(arm.groups[row]) if grouped else str(arm.keys[row])
            if key not in near:
                near[key] = (len(near) + 1, sim, str(arm.keys[row]))
                if len(near) >= depth:
                    break
        cited = {key for key, doc in docs.items() if doc["number"][0] in u.numbers}
        lex_score = {unit(doc): score for score, doc in lexical}
        met = [unit(doc) for _, doc in lexical if doc.get("section", [""])[0] in u.card_sections]
        brought = card_brought.ranked(self, u, arm, vector, edition, lang, unit, docs)
        moved = adapted and dense_arm.adapter_state() == "on"  # the better ranking by meaning
        learnt = query_adapter.load(dense_arm.MODEL_VERSION) if moved else None  # (the precedents move by it too)
        precedent = precedents.ranked(self, vector, learnt, edition, lang, unit, docs) if adapted else {}
        weight = rank.RRF_CROSS if u.meaning_leads else rank.RRF_ADAPTED if moved else None
        constant = rank.RRF_K_ADAPTED if moved else None

        def fused(referred_rank: dict | None = None) -> tuple[dict, list]:
            scored = rank.fuse(lex_rank, lex_score, {k: v[:2] for k, v in near.items()},
                               {k: i for i, k in enumerate(met, start=1)}, brought, referred_rank, weight, constant,
                               {k: r for k, (r, _) in precedent.items()})
            for key in cited:
                scored[key] += 10.0
            return scored, sorted(scored, key=lambda k: (-scored[k], lex_rank.get(k, depth + 1),
                                                         near.get(k, (depth + 1,))[0]))

        scored, ordered = fused()
        referred = referred_rules.ranked(self, u, ordered, docs, near, edition, lang, unit, grouped)
        if referred:
            scored, ordered = fused({k: r for k, (r, _) in referred.items()})
        if u.cards and rank.FAMILY_CAP > 0:  # a scenario's rules are of several matters: one rule's family is capped
            self.fill_docs(ordered[:rank.FAMILY_TOP * 3], docs, near, grouped)
            ordered = rank.spread(ordered, lambda k: rank.family(docs[k]["number"][0])
                                  if k in docs and docs[k]["kind"][0] == "rule" else None)
        ordered, u.learnt_order = rerank.apply(self, u, ordered, docs, near, {  # then the learnt order
            "words": lex_rank, "score": lex_score, "meaning": {k: v[:2] for k, v in near.items()}, "brought": brought,
            "met": {k: i for i, k in enumerate(met, start=1)}, "referred": {k: r for k, (r, _) in referred.items()},
            "precedent": {k: r for k, (r, _) in precedent.items()}}, vector, learnt, edition, grouped)
        page = ordered[offset:offset + limit]
        self.fill_docs(page, docs, near, grouped)
        hits = [(scored[k], docs[k]) for k in page if k in docs]
        info = {id(docs[k]): (near.get(k), k not in lex_rank, brought.get(k), referred.get(k), precedent.get(k))
                for k in page if k in docs and (k in near or k in brought or k in referred or k in precedent)}
        return hits, len(ordered) > offset + limit, info, bool(near)

    def fill_docs(self, keys: list[str], docs: dict, near: dict, grouped: bool) -> None:
        """Put into ``docs`` the documents of ``keys`` only the meaning arm holds (read by key)."""
        wanted = [near[k][2] for k in keys if k not in docs and k in near]
        if not wanted:
            return
        by_key = self._docs_by_key(wanted)
        for k in keys:
            if k not in docs and k in near and near[k][2] in by_key:
                doc = by_key[near[k][2]]
                if grouped:
                    doc["matched_editions"] = sorted(set(doc["editions"]), key=self._edition_order)
                docs[k] = doc

    def document_numbers(self, keys: list[str]) -> dict[str, tuple[str, str]]:
        """Document key -> (kind, number): "rule", "702.19b"; "glossary", its term."""
        out: dict[str, tuple[str, str]] = {}
        for start in range(0, len(keys), 512):
            for key, doc in self._docs_by_key(keys[start:start + 512]).items():
                out[key] = (doc["kind"][0], doc["number"][0])
        return out

    def _docs_by_key(self, keys: list[str]) -> dict[str, dict]:
        if not keys:
            return {}
        query = Query.boolean_query([(Occur.Should, rank.exact(self.schema, "key", key)) for key in keys])
        found = self.searcher.search(query, limit=len(keys) * 2, count=False).hits
        out = {}
        for _, addr in found:
            doc = self.searcher.doc(addr).to_dict()
            out[doc["key"][0]] = doc
        return out

    def _query(self, u: Understood, lang: str, filter_: Query, baseline: bool) -> Query | None:
        if baseline:
            words = rank.plain_bm25(self.schema, analysis.terms(u.text, lang), lang)
            if words is None:
                return None
            return Query.boolean_query([(Occur.Must, Query.const_score_query(filter_, 0.0)), (Occur.Must, words)])
        words = rank.words_query(self.schema, u, lang)
        best = 0.0
        if words is not None:
            top = self.searcher.search(Query.boolean_query([(Occur.Must, Query.const_score_query(filter_, 0.0)),
                                                            (Occur.Must, words)]), limit=1, count=False).hits
            best = top[0][0] if top else 0.0
        spec = {key: self.spec(key) for key in [*u.concepts, *u.card_concepts]}
        return rank.fused(self.schema, words, best, rank.kb_clauses(self.schema, u, spec), filter_)

    def _hits(self, q: Query, limit: int, offset: int, grouped: bool, edition: str | None):
        if not grouped:
            found = self.searcher.search(q, limit=limit + 1, offset=offset, count=False).hits
            docs = [(score, self.searcher.doc(addr).to_dict()) for score, addr in found[:limit]]
            return docs, len(found) > limit
        found = self.searcher.search(q, limit=SCAN, count=False).hits
        groups: dict[str, list] = {}
        order: list[str] = []
        for score, addr in found:
            doc = self.searcher.doc(addr).to_dict()
            key = doc["group"][0]
            if key not in groups:
                if len(order) > offset + limit:
                    break
                groups[key] = [score, doc, []]
                order.append(key)
            groups[key][2].extend(doc["editions"])
        page = order[offset:offset + limit]
        out = []
        for key in page:
            score, doc, editions = groups[key]
            doc["matched_editions"] = sorted(set(editions), key=self._edition_order)
            out.append((score, doc))
        return out, len(order) > offset + limit

    def _edition_order(self, edition: str) -> int:
        return self._order.get(edition, -1)

    def _result(self, score: float, doc: dict, u: Understood, lang: str, edition: str | None, grouped: bool,
                baseline: bool, near: dict | None = None) -> dict:
        kind = doc["kind"][0]
        text = (doc.get(f"text_{lang}") or doc.get("heading") or [""])[0]
        editions = doc.get("matched_editions") or doc["editions"]
        shown = edition or editions[-1]  # editions come oldest first
        number = doc["number"][0]
        marks = set(u.terms) | set(u.era_terms)
        term_of = memo(lang)
        result = {"kind": kind, "edition": shown}
        if kind == "rule":
            result.update(rule=number, iri=self.minter.rule(shown, number))
        else:
            from ..rdf.iris import slug

            result.update(term=number, rules=doc.get("refs", []), iri=self.minter.glossary(shown, slug(number)))
        result.update({"score": round(float(score), 4), "snippet": snippet(text, marks, lang, term_of=term_of), "text": text})
        if grouped:
            result["editions"] = editions
            if doc.get("lineage"):
                result["lineage"] = self.minter.lineage(doc["lineage"][0])
        result["why"] = [] if baseline else self._why(doc, u, lang, term_of)
        found, meaning_only, brought, referred, precedent = (near or {}).get(id(doc), (None,) * 5)
        if brought is not None:
            result["brought"] = brought
            result["why"].append(f"what the cards bring: #{brought} in meaning to the question")
        if referred is not None:
            result["referred_by"] = referred[1]
            result["why"].append(f"cited by the first results: {', '.join(referred[1])}")
        if precedent is not None:
            result["precedent"] = {"rank": precedent[0], **precedent[1]}
            result["why"].append(f"settled a question like it: {_quote(precedent[1]['question'] or '')} "
                                 f"(similarity {precedent[1]['similarity']:.2f})")
        if doc["key"][0] in u.learnt_from:  # (kb.search.rerank: put elsewhere than the fusion had it)
            result["learnt_order"] = {"fusion_rank": u.learnt_from[doc["key"][0]]}
            result["why"].append(f"the learnt order (the fusion had it #{u.learnt_from[doc['key'][0]]})")
        if found is not None:
            by_meaning, similarity, _ = found
            result["meaning"] = {"rank": by_meaning, "similarity": round(similarity, 4), "only": meaning_only}
            if meaning_only:
                result["why"].insert(0, f"found by meaning, not by its words (#{by_meaning} by meaning, "
                                        f"similarity {similarity:.2f})")
            elif by_meaning <= 10:
                result["why"].append(f"close in meaning: #{by_meaning} by meaning (similarity {similarity:.2f})")
        return result

    def _why(self, doc: dict, u: Understood, lang: str, term_of) -> list[str]:
        from ..cards.link import brought_keys

        why = []
        number = doc["number"][0]
        if number in u.numbers:
            why.append(f"rule {number} cited")
        if doc.get("section", [""])[0] in u.sections:
            why.append(f"in section {doc['section'][0]} cited")
        labels = self.meta["concepts"]
        name = lambda key: (labels.get(key, {}).get("labels", {}).get(lang) or labels.get(key, {}).get("labels", {}).get("en") or [key])[0]  # noqa: E731
        for key in u.concepts:
            if key in doc.get("defines", []):
                why.append(f"defines {name(key)!r}" if doc["kind"][0] == "rule" else f"glossary entry for {name(key)!r}")
            elif key in doc.get("defines_sub", []):
                why.append(f"part of the definition of {name(key)!r}")
            elif key in doc.get("mentions", []):
                why.append(f"mentions {name(key)!r}")
        for key in u.card_concepts:
            if key in u.concepts:
                continue
            cards = ", ".join(dict.fromkeys(c["name"] for c in u.cards if key in brought_keys(c)))
            cards = f"card {cards}" if u.card_how.get(key) != "quoted" else "quoted card text"
            if key in doc.get("defines", []) or key in doc.get("defines_sub", []):
                why.append(f"{cards}: {'defines' if key in doc.get('defines', []) else 'part of the definition of'} {name(key)!r}")
            elif key in doc.get("mentions", []):
                why.append(f"{cards}: mentions {name(key)!r}")
        if number in u.card_rules:
            why.append(f"card keyword rule {number}")
        met = u.card_sections.get(doc.get("section", [""])[0])
        if met:
            why.append(f"cards {' and '.join(met['cards'])}: {met['title']} (section {met['section']})")
        if u.quoted:  # the text's terms in place, a stop word None: its gaps count as the phrase query's do
            said = [term_of(w) for w in TOKEN.findall(doc.get(f"text_{lang}", [""])[0])]
            why += [f"quotes {quote!r}" for quote, terms in u.quoted if rank.holds_phrase(said, terms)]
        fields = " ".join(doc.get(f"{f}_{lang}", [""])[0] for f in ("text", "titles", "examples"))
        present = {term_of(w) for w in set(TOKEN.findall(fields))} - {None}  # None: a stop word
        matched = [w for w in u.words if term_of(w) in present]
        if matched:
            why.append("words: " + ", ".join(dict.fromkeys(w.lower() for w in matched)))
        for asked, other in u.eras:
            if set(analysis.terms(other, lang)) & present:
                why.append(f"historical name: {asked} ~ {other}")
        for asked, meaning in u.shorthand:
            if set(analysis.terms(meaning, lang)) & present:
                why.append(f"shorthand: {asked} read as {meaning!r}")
        return why


def _quote(text: str) -> str:
    return repr(text if len(text) <= 60 else text[:57] + "...")


_OPEN: dict[str, tuple[Path, Searcher]] = {}


def searcher_for(store) -> Searcher:
    """The searcher of the index beside ``store``'s current build, reopened when a
    rebuild swapped it (:mod:`.home` says where it is)."""
    from .home import index_dir

    directory = index_dir(store)
    key = str(getattr(store, "location", ""))
    cached = _OPEN.get(key)
    if cached and cached[0] == directory:
        return cached[1]
    try:
        searcher = Searcher(directory)
    except (OSError, ValueError) as exc:
        from ..errors import StoreError

        raise StoreError(f"no usable search index at {directory} ({_short(exc)}): rebuild with `rulekb build`") from None
    _OPEN[key] = (directory, searcher)
    return searcher


def _short(exc: Exception) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:120]

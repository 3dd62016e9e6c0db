"""``rulekb ask`` and ``rulekb define``: questions answered from the KB, with the
rules that support the answer and the SPARQL that found it.

A question is parsed (:mod:`kb.define.questions`), its terms resolved to concepts by
their labels in either language, and answered by named queries over the
definitional statements (asserted by rules, or inferred by the reasoner, which
then explains itself). Editions default to the newest one of the question's
language that says something about the concept, then to the newest English
one. An answer the KB does not hold is said to be unknown -- never guessed.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from ..store import queries
from ..rdf.concepts import _norm
from ..errors import NotFound
from .common import NARROWED, OPEN_QUALIFIERS
from .questions import UNKNOWN, Question, parse
from ..store.kind import bind_values

SUGGEST = "try `rulekb define TERM` or a named query (`rulekb query --list`)"


def _key(label: str) -> str:
    words = re.findall(r"[\w’']+", unicodedata.normalize("NFC", label.lower()))
    # apostrophes aside ("qu'un" = "quun"): a concept named from a listed phrase
    # ("cible d'un sort") has a label minted from its key, without them
    return " ".join(_norm(w).replace("'", "") for w in words)


def _unaccented(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


@dataclass
class Labels:
    """Every concept label, normalised (case, plural, accents) -> concept IRI."""

    index: dict[str, str] = field(default_factory=dict)
    by_concept: dict[str, dict[str, dict[str, list[str]]]] = field(default_factory=dict)  # concept -> kind -> lang -> labels

    @classmethod
    def load(cls, store) -> "Labels":
        labels = cls()
        rank = {"pref": 0, "alt": 1, "hidden": 2}  # a preferred label wins a clash
        rows = sorted(_run(store, "concept-labels", {})[0], key=lambda r: rank.get(r["kind"], 3))
        for row in rows:
            key = _key(row["label"])
            for variant in (key, _unaccented(key)):
                labels.index.setdefault(variant, row["concept"])
            kinds = labels.by_concept.setdefault(row["concept"], {})
            found = kinds.setdefault(row["kind"], {}).setdefault(row.get("lang") or "", [])
            if row["label"] not in found:
                found.append(row["label"])
        return labels

    def resolve(self, term: str) -> str | None:
        key = _key(term)
        return self.index.get(key) or self.index.get(_unaccented(key))


def _run(store, name: str, params: dict) -> tuple[list[dict], str]:
    query = queries.get(name)
    bound = query.bindings(params)
    return store.select(query.text, bound), bind_values(query.text, bound)


def _pick_edition(rows: list[dict], edition: str | None, language: str) -> str | None:
    """The edition to answer from: the one asked for, else the newest of the
    question's language that has rows, else the newest English one."""
    editions = [r["edition"] for r in rows]  # rows come newest first
    if edition:
        return edition if edition in editions else None
    for lang in (language, "en"):
        for candidate in editions:
            if candidate.startswith(f"{lang}/"):
                return candidate
    return editions[0] if editions else None


class Asker:
    def __init__(self, store):
        self.store = store
        self._labels: Labels | None = None
        self._ontology = None

    @property
    def labels(self) -> Labels:
        if self._labels is None:
            self._labels = Labels.load(self.store)
        return self._labels

    @property
    def ontology(self):
        """The store's ontology graph alone, in memory: ``ontology-relation`` asks only about the
        ontology's terms, and over the whole KB its label scans and paths took 14 s a pair of labels
        (an ask tries several pairs), over the ontology's 2,000 triples a few milliseconds."""
        if self._ontology is None:
            from ..store.embedded import EmbeddedStore

            graph = next((g for g in self.store.graphs() if g.endswith("/graph/ontology")), None)
            self._ontology = EmbeddedStore.in_memory(self.store.export(graph, "nq") if graph else b"")
        return self._ontology

    # -- ask -----------------------------------------------------------------

    def ask(self, text: str, edition: str | None = None) -> dict:
        question = parse(text)
        if question.intent == UNKNOWN:
            return self._unknown(question, "this is not a question shape rulekb knows")
        concept = self.labels.resolve(question.subject)
        if concept is None:
            return self._unknown(question, f"no concept called {question.subject!r} in the knowledge base")
        handler = {
            "what-is": self._what_is,
            "owner": self._role,
            "controller": self._role,
            "is-a": self._is_a,
            "members": self._members,
            "mentions": self._mentions,
        }[question.intent]
        answer = handler(question, concept, edition)
        answer.setdefault("question", text)
        answer.setdefault("intent", question.intent)
        answer.setdefault("language", question.language)
        answer.setdefault("concept", concept)
        return answer

    def _unknown(self, question: Question, why: str) -> dict:
        return {"question": question.text, "intent": question.intent, "language": question.language,
                "answer": None, "unknown": f"cannot answer: {why}; {SUGGEST}", "rules": [], "sparql": None}

    def _statements(self, concept: str, edition: str | None, language: str, aspects: set[str]):
        rows, sparql = _run(self.store, "statements-about", {"concept": concept})
        rows = [r for r in rows if r["aspect"] in aspects]
        chosen = _pick_edition(rows, edition, language)
        return [r for r in rows if r["edition"] == chosen], chosen, sparql

    def _what_is(self, question: Question, concept: str, edition: str | None) -> dict:
        rows, chosen, sparql = self._statements(concept, edition, question.language, {"is-a", "kinds"})
        glossary, glossary_sparql = _run(self.store, "concept-glossary", {"concept": concept})
        entry = next((g for g in glossary if g["edition"] == (edition or chosen)), None)
        if entry is None and not edition:
            entry = next((g for g in glossary if g["edition"].startswith(question.language + "/")), None) or (
                glossary[0] if glossary else None)
        if not rows and entry is None:
            return self._unknown(question, f"no definition of {question.subject!r}"
                                 + (f" in {edition}" if edition else ""))
        parts = [self._sentence(r) for r in rows]
        if entry is not None:
            parts.append(f"Glossary ({entry['edition']}), {entry['term']}: {entry['definition']}")
        return {
            "answer": " ".join(p for p in parts if p),
            "edition": chosen or entry["edition"],
            "rules": self._cited(rows),
            "sparql": sparql if rows else glossary_sparql,
        }

    def _role(self, question: Question, concept: str, edition: str | None) -> dict:
        rows, chosen, sparql = self._statements(concept, edition, question.language, {question.intent})
        if not rows:
            return self._unknown(question, f"no rule states the {question.intent} of {question.subject!r}"
                                 + (f" in {edition}" if edition else ""))
        return {
            "answer": " ".join(self._sentence(r) for r in rows),
            "values": sorted({r.get("value", "") for r in rows}),
            "edition": chosen,
            "rules": self._cited(rows),
            "sparql": sparql,
        }

    def _is_a(self, question: Question, concept: str, edition: str | None) -> dict:
        other = self.labels.resolve(question.other)
        if other is None:
            return self._unknown(question, f"no concept called {question.other!r} in the knowledge base")
        found, chosen = self._is_a_between(question, concept, other, edition, seen={concept})
        if found is None:
            return self._unknown(question, f"no rule of {edition or chosen or 'any edition'} says whether "
                                 f"{question.subject!r} is {question.other!r}")
        return found

    def _is_a_between(self, question: Question, concept: str, other: str, edition: str | None,
                      seen: set[str]) -> tuple[dict | None, str | None]:
        """Is ``concept`` an ``other``: the edition's statements about it, the kinds ``other`` lists,
        the ontology, and then the same through what the edition says ``concept`` is ("Trample is a
        static ability", and static and triggered abilities are disjoint: trample is not a triggered
        ability), two steps at most; with the edition asked. None when nothing settles it."""
        other_key = other.rstrip("/").rsplit("/", 1)[-1]
        rows, chosen, sparql = self._statements(concept, edition, question.language, {"is-a", "not-a"})
        relevant = [r for r in rows if r.get("value") == other_key]
        if not relevant:  # "is a token an object?": the kinds of the other concept
            kinds, kchosen, ksparql = self._statements(other, edition or chosen, question.language, {"kinds"})
            concept_key = concept.rstrip("/").rsplit("/", 1)[-1]
            # a narrowed list ("a cost is an action or payment necessary to ..."): its members are
            # not thereby the concept
            members = [r for r in kinds if concept_key in (r.get("members") or "").split(", ")
                       and NARROWED not in (r.get("qualifier") or "").split("+")]
            if members:
                # "A permanent is a card or token on the battlefield": a card is one there only
                where = {_where(r) for r in members}
                answer = "yes" if "" in where else "only " + " or ".join(sorted(where))
                return {"answer": answer, "edition": kchosen, "because": [self._sentence(r) for r in members],
                        "rules": self._cited(members), "sparql": ksparql}, chosen
            from_ontology = self._ontology_is_a(question, concept, other)
            if from_ontology:
                return from_ontology, chosen
            return self._through_what_it_is(question, rows, concept, other, edition or chosen, seen, sparql), chosen
        yes = any(r["aspect"] == "is-a" and r["negated"] != "true" for r in relevant)
        no = any(r["aspect"] == "not-a" or r["negated"] == "true" for r in relevant)
        answer = {
            "answer": "yes" if yes and not no else "no" if no and not yes else "both (the rules contradict)",
            "edition": chosen,
            "because": [self._sentence(r) for r in relevant],
            "rules": self._cited(relevant),
            "sparql": sparql,
        }
        inferred = [r for r in relevant if r.get("inferred") == "true"]
        if inferred:
            answer["explanation"] = self._explain(inferred)
        return answer, chosen

    def _through_what_it_is(self, question: Question, rows: list[dict], concept: str, other: str,
                            edition: str | None, seen: set[str], sparql: str) -> dict | None:
        if len(seen) > 2:
            return None
        prefix = concept.rstrip("/").rsplit("/", 1)[0] + "/"
        for row in rows:
            if row["aspect"] != "is-a" or row["negated"] == "true" or not row.get("value"):
                continue
            broader = prefix + row["value"]
            if broader in seen or broader == other:
                continue
            found, _ = self._is_a_between(question, broader, other, edition, seen | {broader})
            if found and found["answer"] in ("yes", "no"):
                cited = self._cited([row])
                return {**found, "edition": found.get("edition") or row["edition"],
                        "because": [self._sentence(row)] + found["because"],
                        "rules": cited + [r for r in found["rules"] if r not in cited],
                        "sparql": sparql if found.get("source") == "ontology" else found["sparql"]}
        return None

    def _english_labels(self, concept: str) -> list[str]:
        kinds = self.labels.by_concept.get(concept, {})
        return list(dict.fromkeys(kinds.get("pref", {}).get("en", []) + kinds.get("alt", {}).get("en", [])))

    def _ontology_is_a(self, question: Question, concept: str, other: str) -> dict | None:
        """No rule settles it: does the ontology (its classes, members and
        disjointness axioms) say yes or no? The answer names the axioms."""
        for x in self._english_labels(concept):
            for y in self._english_labels(other):
                rows, sparql = _run(self.ontology, "ontology-relation", {"x": x, "y": y})
                if not rows:
                    continue
                row = rows[0]
                local = lambda iri: iri.rsplit("#", 1)[-1]  # noqa: E731
                axiom = {
                    "subclass": f"{local(row['tx'])} ⊑ {local(row['ty'])}",
                    "instance": f"{local(row['tx'])} is a {local(row['via'])} (⊑ {local(row['ty'])})",
                    "disjoint": f"{local(row['via'])} and {local(row['ty'])} are disjoint ({local(row['tx'])} ⊑ {local(row['via'])})",
                    "not-instance": f"{local(row['tx'])} is a {local(row['via'])}, disjoint from {local(row['ty'])}",
                }[row["relation"]]
                return {
                    "answer": "yes" if row["relation"] in ("subclass", "instance") else "no",
                    "because": [f"the rulekb ontology: {axiom}"],
                    "explanation": [axiom],
                    "source": "ontology",
                    "rules": [],
                    "sparql": sparql,
                }
        return None

    def _members(self, question: Question, concept: str, edition: str | None) -> dict:
        rows, chosen, sparql = self._statements(concept, edition, question.language, {"members", "kinds"})
        if not rows:
            return self._unknown(question, f"no rule lists the {question.subject!r}")
        members = [m for r in rows for m in (r.get("members") or "").split(", ") if m]
        return {"answer": ", ".join(dict.fromkeys(members)), "members": list(dict.fromkeys(members)),
                "edition": chosen, "rules": self._cited(rows), "sparql": sparql}

    def _mentions(self, question: Question, concept: str, edition: str | None) -> dict:
        chosen = edition or self._newest(question.language)
        rows, sparql = _run(self.store, "concept-mentions-iri", {"concept": concept, "edition": chosen})
        return {"answer": ", ".join(r["number"] for r in rows) or "none", "edition": chosen,
                "rules": [{"edition": chosen, "rule": r["number"]} for r in rows], "sparql": sparql}

    # -- pieces ----------------------------------------------------------------

    def _newest(self, language: str) -> str:
        rows, _ = _run(self.store, "edition-graphs", {})
        complete = [r for r in rows if r["language"] == language and r.get("partial") != "true"]
        rows = complete or [r for r in rows if r["language"] == language] or rows
        if not rows:
            raise NotFound("the knowledge base has no editions")
        return rows[-1]["edition"]  # ordered oldest first

    @staticmethod
    def _sentence(row: dict) -> str:
        where = f" (rule {row['number']}, {row['edition']})" if row.get("number") else f" ({row['edition']}, inferred)"
        aspect = {"is-a": "is a", "not-a": "is not a", "kinds": "is one of", "members": "are"}.get(row["aspect"], row["aspect"])
        value = (row.get("value") or row.get("members") or "").replace("-", " ")
        return (row.get("sentence") or f"{aspect} {value}") + where

    @staticmethod
    def _cited(rows: list[dict]) -> list[dict]:
        seen = []
        for row in rows:
            item = {"edition": row["edition"], "rule": row.get("number")}
            if item["rule"] and item not in seen:
                seen.append(item)
        return seen

    def _explain(self, inferred_rows: list[dict]) -> list[str]:
        """The reasoner's justification (kept with the inferred statement), else the
        statements it was derived from."""
        lines = []
        for row in inferred_rows:
            sources, _ = _run(self.store, "statement-explanation", {"statement": row["statement"]})
            justification = next((s["justification"] for s in sources if s.get("justification")), "")
            if justification:
                lines += justification.splitlines()
                continue
            for source in sources:
                lines.append(
                    f"{source.get('concept_label', '?')} {source['aspect']} {source.get('value', '')}"
                    f" (rule {source.get('number', '?')}; {source['reasoner']})".strip()
                )
        return lines


    # -- define ----------------------------------------------------------------

    def define(self, term: str, language: str = "en", edition: str | None = None) -> dict:
        """``rulekb define``: labels, defining rules and statements, neighbours."""
        concept = self.labels.resolve(term)
        if concept is None:
            raise NotFound(f"no concept called {term!r} (try another spelling, or `rulekb query search`)")
        names = self.labels.by_concept.get(concept, {})
        glossary, _ = _run(self.store, "concept-glossary", {"concept": concept})
        statements, _ = _run(self.store, "statements-about", {"concept": concept})
        candidates = glossary + statements
        chosen = _pick_edition(sorted(candidates, key=lambda r: r.get("date") or "", reverse=True), edition, language)
        if chosen is None:
            chosen = edition or self._newest(language)
        entry = next((g for g in glossary if g["edition"] == chosen), None)
        rules, _ = _run(self.store, "concept-rules-in-edition", {"concept": concept, "edition": chosen})
        said = [r for r in statements if r["edition"] == chosen]
        neighbours, _ = _run(self.store, "concept-neighbours", {"concept": concept})
        related, _ = _run(self.store, "concept-related", {"concept": concept, "edition": chosen})
        broader = [n["label"] for n in neighbours if n["relation"] == "broader"]
        broader += [r["value"] for r in said if r["aspect"] == "is-a" and r.get("value") and r["negated"] != "true"]
        narrower = [n["label"] for n in neighbours if n["relation"] == "narrower"]
        narrower += [m for r in said if r["aspect"] in ("members", "kinds")
                     and NARROWED not in (r.get("qualifier") or "").split("+")
                     for m in (r.get("members") or "").split(", ") if m]
        return {
            "term": term,
            "concept": concept,
            "edition": chosen,
            "labels": {lang: names.get("pref", {}).get(lang, [])[:1] + names.get("alt", {}).get(lang, [])
                       for lang in ("en", "fr")},
            "historical": sorted({label for labels in names.get("hidden", {}).values() for label in labels}),
            "glossary": {"term": entry["term"], "definition": entry["definition"]} if entry else None,
            "definitions": [{"edition": chosen, "rule": r["number"], "text": r.get("text", "")} for r in rules],
            "statements": [{"aspect": r["aspect"], "value": r.get("value"), "members": r.get("members") or None,
                            "negated": r["negated"] == "true", "rule": r.get("number"),
                            "inferred": r.get("inferred") == "true"} for r in said],
            "broader": list(dict.fromkeys(broader)),
            "narrower": list(dict.fromkeys(narrower)),
            "related": [r.get("label") or r["other"] for r in related],
            "editions_with_glossary_entry": [g["edition"] for g in glossary],
        }


def _where(row: dict) -> str:
    """Where a kinds statement's members are the concept ("on the battlefield"), or "" for
    everywhere (no qualifier, or one that only leaves the list open)."""
    places = [q for q in (row.get("qualifier") or "").split("+") if q and q not in _NOT_A_PLACE]
    return " ".join(places).replace("-", " ")


# qualifiers of a kinds statement that do not restrict where its members are the concept
_NOT_A_PLACE = OPEN_QUALIFIERS | {"by-default", NARROWED}

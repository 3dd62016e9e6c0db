"""What the English and French readers share: cleaning a sentence, singulars,
and the ontology's concept keys and French labels (the lexicon that maps
French terms to English concept keys)."""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from ..rdf.concepts import concept_key

# --------------------------------------------------------------------------
# Shared normalisation

_QUOTES = str.maketrans({"’": "'", "‘": "'", "`": "'", "´": "'", "“": '"', "”": '"', "«": '"', "»": '"',
                         "\u00a0": " ", "\u202f": " ", "–": "—"})


def _clean(sentence: str) -> str:
    """One spelling for quotes, dashes and spaces; archive artefacts undone."""
    s = unicodedata.normalize("NFC", sentence).translate(_QUOTES)
    # a lost apostrophe printed as "?" or U+FFFD ("card?s", "isn?t"), then lost quotes
    s = re.sub(r"(?<=[A-Za-z])[?\ufffd](?=(?:s|t|re|ll|ve|d|m)\b)", "'", s)
    s = re.sub(r"(?<![\w])[?\ufffd](?=\w)|(?<=\w)[?\ufffd](?=[\s,.;:]|$)", '"', s)
    s = re.sub(r"_([^_]+)_", r"\1", s)  # _Magic_ (markup of some archive copies)
    s = re.sub(r"\s*(?:\(tm\)|\(TM\)|™|®)", "", s)
    s = re.sub(r"\s*(?:--|—| - )\s*|(?<=\w)-(?=even\b)", " — ", s)
    return re.sub(r"\s+", " ", s).strip()


def _drop_parentheses(s: str) -> str:
    previous = None
    while previous != s:
        previous, s = s, re.sub(r"\s*\([^()]*\)", "", s)
    return s.strip()


# A list of kinds that the words after it narrow ("A cost is an action or payment necessary to
# ..."): the subject is one of the kinds, not their union (kb.reason.axioms: a subclass, not an
# equivalence, so an action is not thereby a cost).
NARROWED = "narrowed"
# Qualifiers that leave a list open: the rules name some members, not all of them (kb.reason.axioms
# reads such a list as subclasses of the concept; kb.define.ask as members wherever they are).
OPEN_QUALIFIERS = frozenset({"normally", "usually", "some", "for-example", "including", "among-others", "also"})


def _join(*qualifiers: str) -> str:
    parts: list[str] = []
    for q in qualifiers:
        for part in q.split("+") if q else ():
            if part not in parts:
                parts.append(part)
    return "+".join(parts)


_EN_KEEP = {"plains", "status", "always", "its", "this", "is", "has", "was", "does", "less", "loss", "rules",
            "lotus", "aurochs", "gods", "thesis", "basis", "mass", "pass", "class", "boss", "news"}


def _singular_en(word: str) -> str:
    """A crude singular for lower-case nouns ("abilities" -> "ability")."""
    if word == "people":
        return "person"
    if not word.islower() or word in _EN_KEEP or len(word) <= 3:
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ss", "us", "is")):
        return word
    return word[:-1] if word.endswith("s") else word


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


# document-layer terms: their labels ("règle", "partie", "terme") are no game concepts
_DOCUMENT_TERMS = {"DocumentUnit", "Edition", "Part", "Section", "Rule", "Example", "GlossaryEntry", "Citation",
                   "Lineage", "Statement", "InferredStatement", "ObsoleteRule"}


@cache
def _ontology_keys() -> frozenset[str]:
    """The game-concept layer's concept keys (its French labels: :func:`.french._lexicon`)."""
    return frozenset(_concept_labels())


@cache
def _concept_labels() -> dict[str, dict]:
    """The ontology's labels by concept key, the game-concept layer only (no document
    terms, no properties but owner and controller)."""
    import rdflib
    from rdflib.namespace import OWL, RDF

    from rulekb.ontology import turtle

    from ..rdf.lexicon import ontology_labels as _ontology_labels

    graph = rdflib.Graph().parse(data=turtle(), format="turtle")
    properties = {s for t in (OWL.ObjectProperty, OWL.DatatypeProperty, OWL.AnnotationProperty)
                  for s in graph.subjects(RDF.type, t)}
    labels = {key: by_lang for key, by_lang in _ontology_labels().items()
              if not any(iri.rsplit("#", 1)[-1] in _DOCUMENT_TERMS or
                         (rdflib.URIRef(iri) in properties and not iri.endswith(("#owner", "#controller")))
                         for iri in by_lang.get("denotes", []))}
    return labels


def _subject_key(words: list[str], qualifier: str) -> tuple[str, str]:
    """(concept, qualifier) of a subject: its location joins the concept when
    the ontology has the composite ("an ability on the stack")."""
    parts = [q for q in qualifier.split("+") if q]
    located = next((q for q in parts if q.startswith(("on-", "in-"))), "")
    key, location = _location_key(words, located)
    return key, _join(location, *(q for q in parts if q != located))


def _location_key(words: list[str], location: str) -> tuple[str, str]:
    """(concept, qualifier) for a noun phrase with a location: the ontology's
    own composite concept when it has one ("ability-on-the-stack",
    "combat-damage-on-the-stack"), else the noun with the location as qualifier."""
    phrase = " ".join(words)
    if location:
        composite = concept_key(f"{phrase} {location.replace('-', ' ')}")
        if composite in _ontology_keys():
            return composite, ""
    return concept_key(phrase), location


class Reader:
    """The skeleton both definition readers share (one sentence -> statement tuples); a
    language gives its patterns and the steps that differ:

    - ``UNLESS``: the exception in parentheses ("(unless it's a token)"), its group read by
      :meth:`_unless`; ``BY_DEFAULT``: the lead that qualifies the whole sentence;
      ``START_REJECT``: sentences that define nothing;
    - :meth:`_prepare` (typos of the source), :meth:`_trim` (leads and the final stop),
      :meth:`_after_default`, and the readers proper: :meth:`_members` (a list of
      members), :meth:`_clauses`, and the clause readers :meth:`_clause` tries in turn
      (``_role``, ``_passive_role``, ``_creator_role``, ``_identity``, ``_copula``).
    """

    UNLESS: re.Pattern
    BY_DEFAULT: re.Pattern
    START_REJECT: re.Pattern

    def __init__(self, sentence: str):
        self.sentence = sentence

    def read(self) -> list[tuple]:
        s = self._prepare(_clean(self.sentence))
        unless = ""
        m = self.UNLESS.search(s)
        if m:
            unless = self._unless(m.group(1))
        s = self._trim(_drop_parentheses(s))
        if not s:
            return []
        listed = self._members(s)
        if listed is not None:
            return listed
        qualifier = ""
        m = self.BY_DEFAULT.match(s)
        if m:
            s, qualifier = self._after_default(s[m.end():]), "by-default"
        if self.START_REJECT.match(s):
            return []
        out: list[tuple] = []
        for clause in self._clauses(s):
            out.extend(self._clause(clause, _join(qualifier, unless)))
        return out

    def _prepare(self, s: str) -> str:
        return s

    def _trim(self, s: str) -> str:
        return s.rstrip(" .")

    def _after_default(self, s: str) -> str:
        return s

    def _unless(self, text: str) -> str:
        raise NotImplementedError

    def _members(self, s: str) -> list[tuple] | None:
        raise NotImplementedError

    def _clauses(self, s: str) -> list[str]:
        raise NotImplementedError

    def _clause(self, c: str, qualifier: str) -> list[tuple]:
        """A copular clause: the first of the language's clause readers that reads it."""
        for reader in (self._role, self._passive_role, self._creator_role, self._identity, self._copula):
            found = reader(c, qualifier)
            if found is not None:
                return found
        return []

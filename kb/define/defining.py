"""The rule that defines a glossary term, when its entry cites a section.

A glossary entry cites a numbered rule ("See rule 110.5") or a whole section
or part ("See rule 110, "Permanents."", "See section 4, "Zones.""). A cited
rule is the term's defining rule as it stands; a cited section is resolved to
the rule in it that states what the thing is:

1. a rule with a defining sentence for the term: its subject is the term (an
   article aside, singular or plural) and its verb says what it is ("A
   permanent is ...", "Tokens are ...", "To cast a spell is ...", ""Attack"
   means ...", "Un sort est ...");
2. else the first rule of the section whose text names the term, of the rules as
   such (``113.4``, not its subrules), unless a subrule before it opens on the term
   ("113.3c Triggered abilities have a trigger condition ...": no verb says what
   they are, but the rule is about them; "113.4 Some activated abilities and some
   triggered abilities are mana abilities" only names them);
3. else the rule that opens the section (its ``.1``), the section's general
   statement, for a section that does not name the term in words (a
   glossary entry "Ante" citing 407 "Ante" whose rules say "ante" -- tier 2;
   "Legend" citing 205.4 -- already a rule).

A cited rule that is only a title ("702.64. Absorb", "205.4. Supertypes") is kept, and
its subrule that says what the term is joins it ("702.64a Absorb is a static ability
...", "205.4d Any permanent with the supertype "legendary" ..."; not a list naming it).

Parts ("section 4") are resolved like sections over every rule of the part,
with tiers 2 and 3 read from the part's ``N00`` "General" section only.
Tier 1 is tried over every cited section before tiers 2-3 are used for any,
so "Ability" (citing 112 and part 6) gets 112's rule, not one from each.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from rulekb.ingest import numbers

from ..rdf.concept_keys import _OBSOLETE, _norm
from . import titles

_WORD = re.compile(r"[a-zà-ÿ0-9]+", re.IGNORECASE)
_ARTICLES = {"a", "an", "the", "un", "une", "le", "la", "les", "l", "des"}
# what follows the subject of a defining sentence
_VERBS = (
    ("is",), ("are",), ("was",), ("were",), ("can", "be"), ("may", "be"), ("refers", "to"), ("means",),
    ("est",), ("sont",), ("peut", "être"), ("désigne",), ("signifie",),
)
# a quoted term named as a word: 'the word "instead"', 'refers to a "card,"', 'le terme "permanent"'
_QUOTED = re.compile(r'\b(?:word|term|keyword|refers? to(?: an?| the)?|mot|terme|référence à(?: une?| la| l\'| le)?)'
                     r'\s*"\s*([^"]{1,40}?)[\s,.]*"', re.IGNORECASE)
_PASSIVE = re.compile(r"^\w+(?:ed|é|és|ée|ées)$")
_DEFINE_VERB = {"is", "means", "est", "signifie"}  # "To cast a spell is ...", "Lancer un sort signifie ..."
# after a rule's opening subject, the verbs that make the rule about it: "Triggered abilities have a trigger
# condition ...", "Static abilities do something all the time" (not "Creature subtypes are ...": a compound)
_OPENING_VERBS = {(w,) for w in ("have", "has", "do", "does", "can", "may", "use", "uses", "ont", "a", "peut", "peuvent")}


def _words(text: str) -> list[str]:
    text = unicodedata.normalize("NFC", text).replace("’", "'")
    return [_norm(w) for w in _WORD.findall(text)]


def term_forms(term: str) -> list[tuple[str, ...]]:
    """The word sequences a glossary term is written as: itself and, for a
    comma list ("Control, Controller"), each part; singular forms."""
    label = _OBSOLETE.sub("", term)
    parts = [label] + [p for p in re.split(r",\s*", label) if p.strip()]
    forms = [tuple(_words(p)) for p in parts]
    return [f for f in dict.fromkeys(forms) if f]


def _sentences(text: str) -> list[str]:
    from .splitting import sentences

    return list(sentences(text))


@lru_cache(maxsize=1 << 16)  # rule texts recur across editions
def defined_subjects(text: str) -> frozenset[tuple[str, ...]]:
    """The subjects ``text``'s sentences define: the words before a defining
    verb (an article aside), and after "To" for "To cast a spell is ..."."""
    found: set[tuple[str, ...]] = set()
    for sentence in _sentences(text):
        phrases = _phrase_words(sentence)  # each word, and whether punctuation follows it
        if phrases and phrases[0][0] in _ARTICLES:
            phrases = phrases[1:]
        words = [w for w, _ in phrases]
        for i in range(1, min(len(words), 7)):
            verb = next((v for v in _VERBS if tuple(words[i : i + len(v)]) == v), None)
            if verb and _PASSIVE.search(" ".join(words[i + len(verb) : i + len(verb) + 1])):
                break  # "The name of a card is printed ...", "Les terrains sont joués ...": not what it is
            if verb:
                subject = tuple(words[:i])
                if verb in _COPULAS:
                    rest = words[i + len(verb):]
                    if rest[:2] in _ONLY:
                        break  # "An activated ability is the only kind of ability that can be activated": not what it is
                    said = _conditional(rest)
                    if said:  # "A static ability is a characteristic-defining ability if ...": says when it is the other
                        found.add(said)
                        break
                found.add(subject)
                for j, word in enumerate(subject[1:], 1):  # "The name of a card is ..."
                    if word in ("of", "for", "d", "de", "du"):
                        found.add(subject[:j])
                        break
                break
        for i, word in enumerate(words):
            # "... becomes an attacking creature", "Some continuous effects are replacement effects": what
            # follows, to the phrase's end ("... allows them to become artifact creatures" names no "artifact")
            if word == "become" or word == "becomes" or (word in ("are", "is") and words[:1] == ["some"]):
                rest = phrases[i + 1:]
                if rest and rest[0][0] in _ARTICLES:
                    rest = rest[1:]
                phrase = tuple(w for w, _ in rest[:4])
                one_word = bool(rest) and (rest[0][1] or len(rest) == 1 or rest[1][0] in _PHRASE_ENDS)
                found.update(phrase[:k] for k in range(1 if one_word else 2, len(phrase) + 1))
        for quoted in _QUOTED.findall(sentence.replace("“", '"').replace("”", '"').replace("«", '"').replace("»", '"')):
            found.add(tuple(_words(quoted)))  # Effects that use the word "instead" ...
        if words[:1] in (["to"], ["pour"]) and _DEFINE_VERB & set(words[2:10]):
            found.update(tuple(words[1 : 1 + k]) for k in range(1, 6))
    return frozenset(found)


_COPULAS = {("is",), ("are",), ("est",), ("sont",)}
_ONLY = (["the", "only"], ["le", "seul"], ["la", "seule"])
_CONDITIONS = {"if", "when", "whenever", "si", "lorsque", "quand"}


def _conditional(rest: list[str]) -> tuple[str, ...] | None:
    """What "X is [a] Y if ..." says X is when a condition holds: Y (its first five words at most)."""
    if rest and rest[0] in _ARTICLES:
        rest = rest[1:]
    for k, word in enumerate(rest[:6]):
        if word in _CONDITIONS:
            return tuple(rest[:k]) if k else None
        if word in _PHRASE_ENDS:  # "... are game actions that happen automatically whenever ...": a definition
            return None
    return None


_PHRASE_ENDS = {"if", "when", "whenever", "and", "or", "that", "which", "with", "until", "unless", "as", "for", "in", "of",
                "on", "under", "by", "from", "to", "while", "but", "even", "si", "et", "ou", "qui", "que", "avec"}


def _phrase_words(sentence: str) -> list[tuple[str, bool]]:
    """The sentence's words as :func:`_words` reads them, each with whether punctuation follows it."""
    text = unicodedata.normalize("NFC", sentence).replace("’", "'")
    out = []
    for m in _WORD.finditer(text):
        after = text[m.end():m.end() + 2].lstrip(" ")
        out.append((_norm(m.group(0)), bool(after[:1]) and after[:1] in ",.;:!?)”\""))
    return out


def defines(text: str, forms: list[tuple[str, ...]]) -> bool:
    """Does one of ``text``'s sentences define a term written as ``forms``?"""
    subjects = defined_subjects(text)
    return any(form in subjects for form in forms)


@lru_cache(maxsize=1 << 16)  # rule texts recur across editions, and each is searched for many terms
def _text_words(text: str) -> tuple[str, ...]:
    return tuple(_words(text))


def opens_with(text: str, forms: list[tuple[str, ...]]) -> bool:
    """Does ``text`` open on the term as its subject (an article aside): "Triggered abilities have a
    trigger condition and an effect" -- what the rule is about, though no verb says what it is."""
    words = _text_words(text)
    if words[:1] and words[0] in _ARTICLES:
        words = words[1:]
    return any(form and words[:len(form)] == form and words[len(form):len(form) + 1] in _OPENING_VERBS for form in forms)


def mentions(text: str, forms: list[tuple[str, ...]]) -> bool:
    words = _text_words(text)
    for form in forms:
        n = len(form)
        if any(tuple(words[i : i + n]) == form for i in range(len(words) - n + 1)):
            return True
    return False


def _under_title(index: "SectionIndex", ref: str, forms: list[tuple[str, ...]]) -> str | None:
    """For a cited rule that is only a title ("702.64. Absorb", "205.4. Supertypes"), its subrule that
    says what the term is: one that defines it or opens on it ("702.64a Absorb is a static ability"),
    else the first that names it outside a list ("205.4c Any land with the supertype "basic" is a
    basic land", not "205.4a ... The supertypes are basic, legendary, ongoing, snow, and world")."""
    text = index.rules[ref].text.strip()
    if not text or len(text.split()) > 6 or any(mark in text for mark in ".:;"):
        return None
    below = [r for r in index.by_section.get(ref.split(".", 1)[0], [])
             if r.number.startswith(ref) and r.number[len(ref):].isalpha()]
    return (next((r.number for r in below if defines(r.text, forms) or opens_with(r.text, forms)), None)
            or next((r.number for r in below if mentions(r.text, forms) and not _listed(r.text, forms)), None))


_LIST = re.compile(r"\w+, (?:\w+, )*(?:and|or) \w+")


def _listed(text: str, forms: list[tuple[str, ...]]) -> bool:
    """Whether the term is only named in an enumeration ("basic, legendary, ongoing, snow, and world")."""
    items = [tuple(_words(m.group(0).replace(" and ", ", ").replace(" or ", ", ")))
             for m in _LIST.finditer(unicodedata.normalize("NFC", text))]
    return any(set(form) <= set(item) for item in items for form in forms if len(form) == 1)


class SectionIndex:
    """An edition's rules by number, by section (``110``) and by part (``1``)."""

    def __init__(self, edition):
        self.rules = {r.number: r for r in edition.rules}
        self.named = titles.titles(edition)  # number -> title (kb.define.titles)
        self.titled = titles.by_title(self.named)
        self.sections = {s.number for s in edition.sections}
        self.parts = {p.number for p in edition.parts}
        self.by_section: dict[str, list] = {}
        for rule in edition.rules:
            self.by_section.setdefault(rule.number.split(".", 1)[0], []).append(rule)

    def in_ref(self, ref: str) -> tuple[list, list]:
        """(rules searched for a defining sentence, rules for tiers 2-3)."""
        if numbers.is_section(ref) and (ref in self.sections or ref in self.by_section):
            rules = [r for r in self.by_section.get(ref, []) if "." in r.number]
            return rules, rules
        if numbers.is_part(ref) and (ref in self.parts or f"{ref}00" in self.by_section):
            rules = [r for s, rs in sorted(self.by_section.items()) if s[:1] == ref and len(s) == 3
                     for r in rs if "." in r.number]
            general = [r for r in self.by_section.get(f"{ref}00", []) if "." in r.number]
            return rules, general
        return [], []


def defining_rules(index: SectionIndex, term: str, refs: list[str], text: str | None = None) -> list[str]:
    """The numbers of the rules that define ``term`` among what its glossary
    entry cites (``refs``): cited rules as they are, cited sections resolved. With the entry's
    ``text``, a citation quoting another rule's title is read as that rule ("See rule 702.62,
    "Endure."": 701.63 Endure, not 702.62 Suspend; :func:`kb.define.titles.repointed`)."""
    if text:
        moved = titles.repointed(text, index.named, index.titled)
        refs = list(dict.fromkeys(moved.get(ref, ref) for ref in refs))
    forms = term_forms(term)
    found = []
    for ref in refs:
        if ref in index.rules:
            found.append(ref)
            below = _under_title(index, ref, forms)
            if below:
                found.append(below)
    sections = [ref for ref in refs if ref not in index.rules]
    if not sections:
        return found
    resolved: list[str] = []
    for ref in sections:
        searched, _ = index.in_ref(ref)
        hit = next((r.number for r in searched if defines(r.text, forms)), None)
        if hit:
            resolved.append(hit)
    if not resolved and not found:
        for ref in sections:
            _, general = index.in_ref(ref)
            # the first rule that names it, of the rules as such ("302.1 ... cast a creature card"), or
            # before it a subrule that opens on it ("113.3c Triggered abilities have ...", not "113.4 Some
            # activated abilities and some triggered abilities are mana abilities")
            hit = next((r.number for r in general if (r.number[-1].isdigit() and mentions(r.text, forms))
                        or opens_with(r.text, forms)), None)
            hit = hit or next((r.number for r in general if mentions(r.text, forms)), None)
            hit = hit or next((r.number for r in general), None)
            if hit:
                resolved.append(hit)
                break
    return list(dict.fromkeys(found + resolved))


def coverage(editions) -> dict:
    """Over every edition x glossary entry citing a rule or section: how many
    cite a rule or section the edition has, how many the cited numbers alone
    define (the rule cited exists), and how many get a defining rule here."""
    entries = citing = cited_rule = defined = 0
    by_kind = {"cited-rule": 0, "defining-sentence": 0, "names-it": 0, "opens-section": 0}
    missing: list[str] = []
    for edition in editions:
        index = SectionIndex(edition)
        for entry in edition.glossary:
            if not entry.refs:
                continue
            entries += 1
            exists = [ref for ref in entry.refs if ref in index.rules or index.in_ref(ref)[0]]
            citing += bool(exists)
            direct = any(ref in index.rules for ref in entry.refs)
            cited_rule += direct
            found = defining_rules(index, entry.term, entry.refs, entry.definition)
            defined += bool(found)
            if found:
                forms = term_forms(entry.term)
                first = index.rules[found[-1]]
                kind = ("cited-rule" if direct else "defining-sentence" if defines(first.text, forms)
                        else "names-it" if mentions(first.text, forms) else "opens-section")
                by_kind[kind] += 1
            elif exists:
                missing.append(f"{edition.id} {entry.term}")
    share = lambda n: round(n / citing, 4) if citing else 0.0  # noqa: E731
    return {"editions": sum(1 for e in editions if e.glossary), "entries_citing": entries,
            "citing_existing": citing, "cited_rule_only": cited_rule, "cited_rule_only_share": share(cited_rule),
            "defined": defined, "defined_share": share(defined), "by_kind": by_kind, "missing": missing}


def sentence_definitions(edition, labels: dict[str, list[str]]) -> list[tuple[str, str]]:
    """(concept key, rule number) for every rule of an edition without a
    glossary (the French texts, a site's pages) with a defining sentence for a
    concept, read through the concept's labels in the edition's language
    ("Un sort est une carte sur la pile." defines spell; "Le propriétaire d'un
    sort est ..." defines owner). ``labels``: concept key -> labels in that
    language. Only defining sentences count (tier 1): with no glossary entry
    there is no cited section to fall back on."""
    forms: dict[tuple[str, ...], str] = {}
    for key, values in labels.items():
        for label in values:
            for form in term_forms(label):
                forms.setdefault(form, key)
    found: list[tuple[str, str]] = []
    for rule in edition.rules:
        for subject in defined_subjects(rule.text):
            key = forms.get(subject)
            if key and (key, rule.number) not in found:
                found.append((key, rule.number))
    return found

"""Citations that point at the wrong rule, inside one edition.

- *citation-title*: a citation followed by a quoted title ("See rule 405, "Stack."",
  "(see rule 613, "Interaction of Continuous Effects")") whose title is not the title
  of the section, part or titled rule (a keyword's "702.19. Trample") it names. Titles
  compare without case, punctuation or typography. A title naming another rule or
  section of the edition is an *inconsistency* that says which; a title differing only
  in word order or a plural ("Lands" for "Land"), or shortened ("Continuous Effects"),
  is a *notice*. A cited rule with no title of its own (a sentence) is compared with its
  section's title, and reported only when the quoted title is another rule's;
- *citation-range*: a range of subrules ("rules 112.5a-j") of which some (overrun) or all
  (missed) are not in the edition while the rule they belong to is;
- *citation-dangling*: a cited number the edition does not have at all (complete
  editions only: a partial text does not hold the rules it cites);
- *citation-obsolete*: a citation whose quoted title, or whose cited rule's title, is a
  term the same edition's glossary marks obsolete.
"""

from __future__ import annotations

import re

from rulekb.ingest import numbers, refs

from ..define.titles import by_title as _by_title
from ..define.titles import norm, quoted, titles

from .model import Finding

_RANGE = re.compile(rf"({numbers.RULE})({numbers.LETTER})\s*[-–—]\s*(?:\1)?({numbers.LETTER})\b")


def _singular(word: str) -> str:
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


def _words(title: str) -> list[str]:
    return [_singular(w) for w in norm(title).split()]


def _places(edition):
    """(place, text) for every rule, example and glossary entry."""
    for rule in edition.rules:
        yield rule.number, rule.text
        for i, example in enumerate(rule.examples, 1):
            yield f"{rule.number} example {i}", example
    for entry in edition.glossary:
        yield f"glossary: {entry.term}", entry.definition


def check(edition, obsolete_terms: dict[str, str]) -> list[Finding]:
    """``obsolete_terms``: normalised term -> the glossary term as printed, for the
    terms the edition's glossary marks obsolete."""
    named = titles(edition)
    by_title = _by_title(named)
    rules = {r.number: r for r in edition.rules}
    known = set(named) | set(rules)
    out: list[Finding] = []
    for place, text in _places(edition):
        for citation in refs.find(text):
            out += _title(edition, place, text, citation, named, by_title, rules, obsolete_terms)
            out += _range(edition, place, text, citation, rules)
            if not edition.partial:
                out += _dangling(edition, place, text, citation, known, rules)
    return out


def _text_of(edition, number: str, named: dict[str, str], rules) -> str:
    if number in rules:
        return f"{number} {rules[number].text}"
    return f"{number}. {named.get(number, '')}"


def _where(number: str) -> str:
    if "." in number:
        return number
    return f"section {number}" if len(number) == 3 else f"part {number}"


def _title(edition, place, text, citation, named, by_title, rules, obsolete_terms) -> list[Finding]:
    quoted_title = quoted(text, citation)
    if quoted_title is None:
        return []
    number = citation.numbers[0]
    out = []
    term = obsolete_terms.get(norm(quoted_title)) or obsolete_terms.get(norm(named.get(number, "")))
    if term and not place.startswith("glossary: ") and number in named | rules.keys():
        out.append(Finding(
            "citation-obsolete", "inconsistency", (place, _where(number), f"glossary: {term}"),
            (text, _text_of(edition, number, named, rules), ""),
            f"{citation.text} is cited as \"{quoted_title}\", a term the glossary marks obsolete",
            f"the glossary of {edition.id} lists \"{term}\"; the rules still cite it by that name"))
    actual = named.get(number)
    if actual is None:
        if number not in rules:
            return out  # a dangling number: reported as such
        others = [n for n in by_title.get(norm(quoted_title), []) if n != number]
        ancestors = {numbers.section_of(number), *(_ancestors(number))}
        if others and not ancestors & set(others):
            out.append(_wrong(edition, place, text, citation, quoted_title, number, others, named, rules,
                              f"rule {number} has no title of its own"))
        return out
    if norm(actual) == norm(quoted_title):
        return out
    others = [n for n in by_title.get(norm(quoted_title), []) if n != number]
    if others:
        out.append(_wrong(edition, place, text, citation, quoted_title, number, others, named, rules,
                          f"the title of {_where(number)} is \"{actual}\""))
        return out
    a, q = _words(actual), _words(quoted_title)
    if sorted(a) == sorted(q):
        severity, how = "notice", "the same words in another order or number"
    elif set(q) < set(a) or norm(actual).startswith(norm(quoted_title)):
        severity, how = "notice", "a shortened title"
    else:
        severity, how = "inconsistency", "another title"
    out.append(Finding(
        "citation-title", severity, (place, _where(number)), (text, _text_of(edition, number, named, rules)),
        f"{citation.text} is quoted as \"{quoted_title}\"; {_where(number)} is titled \"{actual}\"",
        f"{how}: the quoted title is not the title {edition.id} gives {_where(number)}"))
    return out


def _wrong(edition, place, text, citation, quoted, number, others, named, rules, said) -> Finding:
    other = others[0]
    return Finding(
        "citation-title", "inconsistency", (place, _where(number), _where(other)),
        (text, _text_of(edition, number, named, rules), _text_of(edition, other, named, rules)),
        f"{citation.text} is quoted as \"{quoted}\", the title of {_where(other)}",
        f"{said}; \"{quoted}\" is the title of {_where(other)}: the citation names one rule and quotes another")


def _ancestors(number: str) -> list[str]:
    out = []
    while number:
        number = numbers.parent(number)
        if number:
            out.append(number)
    return out


def _range(edition, place, text, citation, rules) -> list[Finding]:
    m = _RANGE.search(citation.text)
    if not m:
        return []
    base = m.group(1)
    if base not in rules:
        return []
    wanted = numbers.expand_range(base + m.group(2), m.group(3))
    missing = [n for n in wanted if n not in rules]
    if not missing:
        return []
    have = sorted((n for n in rules if numbers.parent(n) == base), key=numbers.sort_key)
    span = f"{have[0]}–{numbers.parse(have[-1]).letter}" if have else "none"
    how = "misses every subrule it names" if len(missing) == len(wanted) else "runs past the subrules the edition has"
    return [Finding(
        "citation-range", "inconsistency", (place, base), (text, f"{base} {rules[base].text}"),
        f"{citation.text}: {', '.join(missing)} not in {edition.id} (rule {base} has subrules {span})",
        f"the range {how}")]


def _dangling(edition, place, text, citation, known, rules) -> list[Finding]:
    if _RANGE.search(citation.text):
        return []  # a range is checked as a range
    missing = [n for n in citation.numbers if n not in known]
    if not missing:
        return []
    return [Finding(
        "citation-dangling", "inconsistency", (place,), (text,),
        f"{citation.text}: {edition.id} has no {', '.join(_where(n) for n in missing)}",
        "the citation names a number the edition does not have")]

"""Misprinted rule numbers, read back with evidence (and always a warning).

The official texts carry typos in rule numbers: ``432.2b`` between ``423.2a``
and ``423.3``, a second ``702.30d`` where ``702.30e`` belongs, ``505.54``
before ``505.5a``, a run of ``501.x`` inside section 510. Left alone they break
the tree (a rule under the wrong parent), collide (two rules with one number and
one IRI) and confuse every comparison across editions.

A number is *suspect* when it is not in its section, does not move forward, or
jumps past the rule after it. A suspect number is read as the one successor of
the previous rule that is a single edit away from what was printed (one
character changed, added, dropped, or two swapped) and still fits before the
next rule. No such unique successor: the number stays as printed, with a
warning. The printed form is kept in ``Rule.printed`` so the text round-trips.
"""

from __future__ import annotations

from . import numbers
from .model import Edition, Rule


def successors(previous: str | None, section: str) -> list[str]:
    """Numbers that may directly follow ``previous`` inside ``section``."""
    if previous is None or numbers.section_of(previous) != section:
        return [f"{section}.1"]
    parts = numbers.parse(previous)
    if parts is None or not parts.rule:
        return [f"{section}.1"]
    out = []
    if (subrule := numbers.next_subrule(previous)) is not None:
        out.append(subrule)
    out.append(numbers.format(parts._replace(rule=str(int(parts.rule) + 1), letter="")))
    return out


def edit_distance_at_most_one(a: str, b: str) -> bool:
    """Damerau: one substitution, insertion, deletion or adjacent swap."""
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def repair_numbers(edition: Edition, sections: list[str]) -> None:
    """Check the rule sequence; read misprinted numbers back where evidence is unique.

    ``sections[i]`` is the section heading ``edition.rules[i]`` was found under.
    """
    rules = edition.rules
    seen: set[str] = set()
    previous: Rule | None = None
    for i, rule in enumerate(rules):
        section = sections[i] or numbers.section_of(rule.number)
        following = rules[i + 1] if i + 1 < len(rules) else None
        if _suspect(rule, previous, following, section, seen):
            fixed = _unique_fix(rule.number, previous, following, section, seen)
            if fixed:
                between = f"after {previous.number}" if previous else f"first in section {section}"
                edition.warn(
                    "misprinted-number",
                    f"rule number printed as {rule.printed or rule.number}; read as {fixed} ({between})",
                    rule.line,
                )
                rule.printed = rule.printed or _label(rule.number)
                rule.number = fixed
                rule.parent = numbers.parent(fixed)
            else:
                _warn_unrepaired(edition, rule, previous, section, seen)
        seen.add(rule.number)
        previous = rule


def _label(number: str) -> str:
    from .render import rule_label

    return rule_label(number)


def _suspect(rule: Rule, previous: Rule | None, following: Rule | None, section: str, seen: set[str]) -> bool:
    key = numbers.sort_key(rule.number)
    if numbers.section_of(rule.number) != section or rule.number in seen:
        return True
    if previous is not None and key <= numbers.sort_key(previous.number):
        return True
    if following is not None and previous is not None:
        nxt = numbers.sort_key(following.number)
        return key >= nxt > numbers.sort_key(previous.number)
    return False


def _unique_fix(printed: str, previous: Rule | None, following: Rule | None, section: str, seen: set[str]) -> str | None:
    prev_number = previous.number if previous else None
    candidates = [
        c
        for c in successors(prev_number, section)
        if c not in seen
        and edit_distance_at_most_one(printed, c)
        and (following is None or numbers.sort_key(c) < numbers.sort_key(following.number)
             or numbers.section_of(following.number) != section)
    ]
    return candidates[0] if len(candidates) == 1 else None


def _warn_unrepaired(edition: Edition, rule: Rule, previous: Rule | None, section: str, seen: set[str]) -> None:
    if rule.number in seen:
        edition.warn("duplicate-number", f"rule {rule.number} appears more than once", rule.line)
    elif numbers.section_of(rule.number) != section:
        edition.warn("rule-outside-section", f"rule {rule.number} is under section {section}", rule.line)
    elif previous is not None and numbers.sort_key(rule.number) <= numbers.sort_key(previous.number):
        edition.warn("out-of-order", f"rule {rule.number} follows rule {previous.number}", rule.line)

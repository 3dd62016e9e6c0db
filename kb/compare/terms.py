"""Term changes between two editions: a term giving way to another across many rules.

1. Align rules: each old rule with the new rule of the same number or, across a
   renumbering, the new rule sharing the most of its rarer words (Jaccard of word sets,
   candidates from an index of words in at most 30 rules; a pair needs 0.4).
2. Diff each aligned pair word by word (difflib): every "replace" of at most four words
   by at most four words is a candidate (old phrase -> new phrase), also with one or two
   words of left context (so "state-based effects" -> "state-based actions" is found
   though "effects" alone stays common).
3. Keep a candidate seen in at least ``min_rules`` aligned pairs whose old phrase drops
   sharply over the whole edition (to at most half its count, scaled by the editions'
   sizes) while the new phrase rises; of a candidate and its context-extended forms,
   keep the shortest that passes. A hyphenated compound is one word in the diff (so
   "state-based effects" is not cut to "based effects") and spaced in the report and
   the counts (so "removed-from-the-game zone" counts as "removed from the game").

Rule numbers and other digits never form a term (a renumbering is not a term change).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from difflib import SequenceMatcher

from .model import TermChange

_WORD = re.compile(r"[a-z]+(?:['-][a-z]+)*|\d+[a-z]?")
MAX_WORDS = 4


def _words(text: str) -> list[str]:
    """Words, a hyphenated compound as one ("state-based"): a change inside it keeps it whole."""
    return _WORD.findall(text.lower().replace("’", "'"))


def _phrase(words: list[str]) -> str:
    """A term as reported and counted: hyphens as spaces ("removed-from-the-game" zone)."""
    return " ".join(words).replace("-", " ")


def align(old, new, *, threshold: float = 0.4) -> list[tuple[str, str, list[str], list[str]]]:
    """(old rule, new rule, old words, new words) for each old rule with a counterpart."""
    new_words = {r.number: _words(r.text) for r in new.rules}
    frequency = Counter(w for words in new_words.values() for w in set(words))
    index = defaultdict(list)
    for number, words in new_words.items():
        for w in set(words):
            if frequency[w] <= 30:
                index[w].append(number)
    pairs = []
    for rule in old.rules:
        words = _words(rule.text)
        if len(words) < 3:
            continue
        mine = set(words)
        # the eight rules sharing most rare words, ties by number: most_common() breaks ties by
        # first insertion, which followed the set's (hash-seeded) order, so a count could differ
        # from one run to the next ("comes into play" -> "enters the battlefield": 29 or 30 rules)
        votes = Counter(n for w in sorted(mine) for n in index.get(w, ()))
        candidates = {n for n, _ in sorted(votes.items(), key=lambda item: (-item[1], item[0]))[:8]}
        if rule.number in new_words:
            candidates.add(rule.number)
        best, score = None, threshold
        for number in sorted(candidates):
            theirs = set(new_words[number])
            s = len(mine & theirs) / len(mine | theirs)
            if s > score or (s == score and number == rule.number):
                best, score = number, s
        if best is not None:
            pairs.append((rule.number, best, words, new_words[best]))
    return pairs


def _counts(edition, phrases: set[str]) -> Counter:
    """Occurrences of each of ``phrases`` in the edition's rules."""
    lengths = {len(p.split()) for p in phrases}
    counts = Counter()
    for rule in edition.rules:
        words = _phrase(_words(rule.text)).split()
        for n in lengths:
            for i in range(len(words) - n + 1):
                phrase = " ".join(words[i:i + n])
                if phrase in phrases:
                    counts[phrase] += 1
    return counts


def term_changes(old, new, *, min_rules: int = 3, limit: int = 50) -> list[TermChange]:
    """Terms of ``old`` that give way to another term in ``new``, most widespread first."""
    seen: dict[tuple[str, str], set[tuple[str, str]]] = defaultdict(set)
    for old_rule, new_rule, a, b in align(old, new):
        if a == b:
            continue
        for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
            if op != "replace" or i2 - i1 > MAX_WORDS or j2 - j1 > MAX_WORDS:
                continue
            for left in range(3):  # with 0, 1 or 2 words of shared left context
                if i1 - left < 0 or (left and a[i1 - left:i1] != b[j1 - left:j1]):
                    break
                before, after = a[i1 - left:i2], b[j1 - left:j2]
                if any(w[0].isdigit() for w in before + after):
                    break
                seen[(_phrase(before), _phrase(after))].add((old_rule, new_rule))
    seen = {pair: rules for pair, rules in seen.items() if len(rules) >= min_rules}
    phrases = {p for pair in seen for p in pair}
    old_counts, new_counts = _counts(old, phrases), _counts(new, phrases)
    scale = len(new.rules) / max(1, len(old.rules))
    passed: dict[tuple[str, str], set] = {}
    for (before, after), rules in seen.items():
        if new_counts[before] > 0.5 * old_counts[before] * scale:
            continue  # the old term is still in use
        if old_counts[after] * scale >= new_counts[after]:
            continue  # the new term did not rise
        passed[(before, after)] = rules
    kept = {}
    for (before, after), rules in passed.items():
        if not any((b, c) in passed for b, c in _shorter(before, after)):
            kept[(before, after)] = rules
    out = [TermChange(before, after, len(rules), old_counts[before], new_counts[before], old_counts[after],
                      new_counts[after], tuple(sorted(rules, key=_order)[:5]))
           for (before, after), rules in kept.items()]
    out.sort(key=lambda t: (-t.rules, -t.old_count, t.old_term, t.new_term))
    return out[:limit]


def _shorter(before: str, after: str):
    """The same change with fewer words of shared left context."""
    a, b = before.split(), after.split()
    for k in (1, 2):
        if len(a) > k and len(b) > k and a[:k] == b[:k]:
            yield " ".join(a[k:]), " ".join(b[k:])


def _order(pair: tuple[str, str]):
    return [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", pair[0])]

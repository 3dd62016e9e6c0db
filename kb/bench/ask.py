"""How well ``rulekb ask`` answers, edition by edition (``rulekb bench ask``).

Each check is a question whose right answer we know for every era from reading the
rules ourselves: tokens were never cards; "ongoing" became a supertype with
Archenemy (June 2010) and "snow" with Coldsnap (July 2006); planeswalker became a
card type with Lorwyn (October 2007), "battle" with March of the Machine (2023),
"tribal" became "kindred" in 2024. The question is asked of every edition of its
language (the French texts are all partial -- pages, an article, forum posts -- and are
all asked); an edition that has no rule saying it counts against *coverage*, a wrong
answer against *accuracy* (correct / answered). An answer must also cite a rule of
the edition it is about: a right answer from the wrong edition is wrong.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ..define.ask import Asker
from ..service import run as run_query


@dataclass(frozen=True)
class Check:
    question: str
    language: str
    correct: Callable[[dict, str], bool]  # (answer, edition date) -> right?
    since: str = ""  # editions before this date have no rule to answer it (not counted)


def _members(answer: dict) -> set[str]:
    return {m.replace("-", " ") for m in answer.get("members") or []}


def _supertypes(answer: dict, date: str) -> bool:
    found = _members(answer)
    return ({"basic", "legendary"} <= found
            and ("ongoing" in found) == (date >= "2010-06-18")
            and ("snow" in found) == (date >= "2006-07-21"))


def _card_types(answer: dict, date: str) -> bool:
    found = _members(answer)
    return ({"artifact", "creature", "enchantment", "instant", "land", "sorcery"} <= found
            and ("planeswalker" in found) == (date >= "2007-10-01")
            and ("battle" in found) == (date >= "2023-04-14"))


def _says(*words: str) -> Callable[[dict, str], bool]:
    return lambda answer, date: all(w in (answer.get("answer") or "").lower() for w in words)


CHECKS = [
    Check("Is a token a card?", "en", lambda a, d: a["answer"] == "no"),
    Check("Is an emblem a permanent?", "en", lambda a, d: a["answer"] == "no", since="2009-10-01"),
    Check("Is a copy of a spell a spell?", "en", lambda a, d: a["answer"] == "yes", since="2009-07-11"),
    Check("Who owns a token?", "en", _says("player")),
    Check("Who controls a spell?", "en", _says("player")),
    Check("Who controls an emblem?", "en", _says("command zone"), since="2009-10-01"),
    Check("What are the supertypes?", "en", _supertypes, since="2003-07-01"),
    Check("What are the card types?", "en", _card_types, since="2009-07-11"),
    Check("Qui est le propriétaire d'un jeton ?", "fr", _says("joueur")),
    Check("Quels sont les types de cartes ?", "fr", _card_types),
]


def evaluate(store, checks: list[Check] = CHECKS, every: int = 1) -> dict:
    """Every check over every complete edition of its language (``every``: one edition in
    that many, for a quicker sample)."""
    asker = Asker(store)
    editions = [r for r in run_query(store, "edition-graphs") if r.get("partial") != "true" or r["language"] == "fr"]
    editions = editions[::every]
    results, started, timings = [], time.perf_counter(), []
    for check in checks:
        for edition in editions:
            date = edition.get("effective_date") or ""
            if edition["language"] != check.language or (check.since and date < check.since):
                continue
            t = time.perf_counter()
            answer = asker.ask(check.question, edition=edition["edition"])
            timings.append(time.perf_counter() - t)
            answered = answer.get("answer") is not None
            cites = any(r.get("edition") == edition["edition"] for r in answer.get("rules") or []) \
                or answer.get("source") == "ontology"
            results.append({
                "question": check.question, "edition": edition["edition"], "answered": answered,
                "correct": answered and cites and check.correct(answer, date),
                "answer": answer.get("answer"), "rules": [r.get("rule") for r in answer.get("rules") or []],
            })
    return {"checks": _summary(results, checks), "overall": _score(results),
            "wrong": [r for r in results if r["answered"] and not r["correct"]],
            "ask_ms_median": 1000 * sorted(timings)[len(timings) // 2] if timings else None,
            "seconds": round(time.perf_counter() - started, 2)}


def _score(results: list[dict]) -> dict:
    answered = [r for r in results if r["answered"]]
    return {"asked": len(results), "answered": len(answered),
            "correct": sum(r["correct"] for r in answered),
            "coverage": round(len(answered) / len(results), 3) if results else None,
            "accuracy": round(sum(r["correct"] for r in answered) / len(answered), 3) if answered else None}


def _summary(results: list[dict], checks: list[Check]) -> dict:
    return {c.question: _score([r for r in results if r["question"] == c.question]) for c in checks}

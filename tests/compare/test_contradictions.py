"""Contradictions and changes of meaning between two editions (kb.compare).

Unit tests run on editions invented here (made-up concepts: gizmos, doohickeys, whirling).
Corpus tests check the detector against kb/bench/gold/contradictions_gold.tsv, a hand-checked
list of real changes and of rewordings that must give nothing; they need the corpus and
FAIL in CI (CI=true) when it is missing. HermiT needs Java: skipped on a developer
machine without it, failed in CI.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from importlib import resources

import pytest

from rulekb.ingest.model import Edition, GlossaryEntry, ParseWarning, Rule
from rulekb.kb.reason import backends as reasoning
from rulekb.kb.compare import Finding, contradictions, term_changes, to_json
from rulekb.kb.compare.terminology import canonical_value

from ..helpers import need

GOLD = resources.files("rulekb.kb.bench").joinpath("gold", "contradictions_gold.tsv")



def edition(eid: str, rules: dict[str, str], glossary: dict[str, str] | None = None) -> Edition:
    ed = Edition(eid, "en", eid.split("/")[1], "Invented Rules")
    ed.rules = [Rule(number, text, order=i) for i, (number, text) in enumerate(rules.items())]
    ed.glossary = [GlossaryEntry(term, definition, order=i) for i, (term, definition) in enumerate((glossary or {}).items())]
    return ed


def find(findings: list[Finding], kind: str | None = None, concept: str | None = None,
         aspect: str | None = None) -> list[Finding]:
    return [f for f in findings if (kind is None or f.kind == kind) and (concept is None or f.concept == concept)
            and (aspect is None or f.aspect == aspect)]


def serious(findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if f.severity != "info"]


OLD, NEW = "en/2030-01-01", "en/2030-06-01"


# ---------------------------------------------------------------- invented editions: statements


def test_a_different_owner_is_a_finding_and_cites_both_rules():
    old = edition(OLD, {"1.1": "A gizmo's owner is the player who built it."})
    new = edition(NEW, {"1.2": "A gizmo's owner is the player who last repaired it."})
    [f] = contradictions(old, new)
    assert (f.kind, f.concept, f.aspect, f.severity) == ("owner-changed", "gizmo", "owner", "high")
    assert (f.old.edition, f.old.rule, f.new.edition, f.new.rule) == (OLD, "1.1", NEW, "1.2")
    assert f.old.text == old.rules[0].text and f.new.text == new.rules[0].text
    assert f.old.statement.value == "player who built it"
    assert f.removed == ("player who built it",) and f.added == ("player who last repaired it",)
    assert "built it" in f.explanation and "repaired" in f.explanation


def test_terminology_rewordings_of_owner_and_controller_are_not_findings():
    old = edition(OLD, {"1.1": "A gizmo's owner is the player who put it into play.",
                        "1.2": "A gizmo's controller is the player who played it.",
                        "1.3": "The controller of a whirring ability is the player who played it.",
                        "1.4": "A gadget's owner is the controller of the effect that created it."})
    new = edition(NEW, {"7.1": "A gizmo's owner is the player under whose control it entered the battlefield.",
                        "7.2": "A gizmo's controller is the player who cast it.",
                        "7.3": "The controller of a whirring ability is the player who activated it.",
                        "7.4": "A gadget's owner is the player who controlled the spell or ability that created it."})
    assert contradictions(old, new) == []


def test_canonical_values():
    assert canonical_value("player who put it into play", "token") == \
        canonical_value("player under whose control it entered the battlefield", "token")
    assert canonical_value("player who played it", "spell") == "player who cast it"
    assert canonical_value("player who played it", "activated-ability") == "player who activated it"
    assert canonical_value("player who created it", "token") != \
        canonical_value("player under whose control it entered the battlefield", "token")


def test_members_added_and_removed_order_and_articles_aside():
    old = edition(OLD, {"2.1": "The supertypes are basic, legendary, and shiny."})
    same = edition(NEW, {"2.1": "The supertypes are shiny, basic and legendary."})
    assert contradictions(old, same) == []
    new = edition(NEW, {"2.1": "The supertypes are basic, legendary, snow, and world."})
    [f] = contradictions(old, new)
    assert (f.kind, f.concept, f.aspect, f.severity) == ("members-changed", "supertype", "members", "high")
    assert f.removed == ("shiny",) and set(f.added) == {"snow", "world"}
    only_added = edition(NEW, {"2.1": "The supertypes are basic, legendary, shiny, and world."})
    [g] = contradictions(old, only_added)
    assert g.severity == "medium" and g.added == ("world",) and g.removed == ()


def test_a_renamed_member_is_a_renaming_not_a_removal():
    old = edition(OLD, {"4.1": "There are normally four zones: library, hand, in play, and removed from the game."})
    new = edition(NEW, {"9.1": "There are normally four zones: library, hand, battlefield, and exile."})
    [f] = contradictions(old, new)
    assert (f.kind, f.severity) == ("renamed", "info")
    assert f.removed == ("in-play", "removed-from-the-game") and f.added == ("battlefield", "exile")


def test_is_a_changed_and_a_broader_head_is_no_finding():
    old = edition(OLD, {"3.1": "Whirling is a triggered ability.", "3.2": "Buzzing is an upkeep-triggered ability."})
    new = edition(NEW, {"3.1": "Whirling is a static ability.", "3.2": "Buzzing is a triggered ability."})
    [f] = contradictions(old, new)
    assert (f.kind, f.concept, f.aspect, f.severity) == ("is-a-changed", "whirling", "is-a", "high")
    assert f.removed == ("triggered-ability",) and f.added == ("static-ability",)


def test_a_list_narrowed_to_one_kind():
    old = edition(OLD, {"5.1": "A thingamajig is a card or token in play."})
    new = edition(NEW, {"5.1": "A thingamajig is a card on the battlefield."})
    [f] = contradictions(old, new)
    assert (f.kind, f.concept, f.severity) == ("is-a-changed", "thingamajig", "high")
    assert f.removed == ("token",)


@pytest.mark.parametrize("before, after", [("A doohickey is not a card.", "A doohickey is a card."),
                                           ("A doohickey is a card.", "A doohickey is not a card.")])
def test_a_reversed_negation_either_way(before, after):
    [f] = contradictions(edition(OLD, {"6.1": before}), edition(NEW, {"6.1": after}))
    assert (f.kind, f.concept, f.aspect, f.severity) == ("negation-reversed", "doohickey", "not-a", "high")
    assert f.old.rule == f.new.rule == "6.1"


def test_a_negation_reversed_by_a_list_of_kinds():
    old = edition(OLD, {"6.1": "A lever is not a gadget."})
    new = edition(NEW, {"6.2": "There are three kinds of gadgets: sprockets, levers, and flywheels."})
    found = contradictions(old, new)
    [f] = find(found, "negation-reversed")
    assert f.concept == "lever" and f.new.rule == "6.2"


def test_a_definition_removed_unless_still_said_in_other_words():
    old = edition(OLD, {"6.1": "A doohickey is not a card."})
    gone = edition(NEW, {"6.1": "Doohickeys are made of brass."})
    [f] = contradictions(old, gone)
    assert (f.kind, f.old.rule, f.new, f.severity) == ("definition-removed", "6.1", None, "medium")
    reworded = edition(NEW, {"6.1": "No doohickey ever counts as a card, whatever it looks like."})
    assert contradictions(old, reworded) == []
    added = contradictions(gone, old)
    assert [(f.kind, f.severity, f.old, f.new.rule) for f in added] == [("definition-added", "low", None, "6.1")]


def test_an_exception_added():
    old = edition(OLD, {"1.1": "A gizmo's owner is the owner of the card that represents it."})
    new = edition(NEW, {"1.1": "A gizmo's owner is the owner of the card that represents it, unless it's a copy."})
    [f] = contradictions(old, new)
    assert (f.kind, f.severity, f.added) == ("exception-changed", "medium", ("unless-copy",))


# ---------------------------------------------------------------- invented editions: glossary


def test_glossary_obsolete_revived_removed_added_renamed():
    old = edition(OLD, {"1.1": "Wobbling happens twice. Wobbling is fun. Grinding is loud. Grinding stops.",
                        "1.2": "A tribal spell is rare."},
                  {"Wobbling": "A thing that happens.", "Grinding": "Noise.", "Whistling (Obsolete)": "Old.",
                   "Tribal": "A card type.", "Humming": "Quiet."})
    new = edition(NEW, {"1.1": "Juggling happens twice. Juggling is fun. Humming goes on.",
                        "1.2": "A kindred spell is rare."},
                  {"Wobbling (Obsolete)": "Gone.", "Whistling": "Back.", "Juggling": "New.",
                   "Kindred": "A card type.", "Humming": "Quiet."})
    found = contradictions(old, new)
    kinds = {(f.kind, f.concept) for f in found}
    assert ("concept-obsolete", "wobbling") in kinds
    assert ("concept-revived", "whistling") in kinds
    assert ("concept-removed", "grinding") in kinds
    assert ("concept-added", "juggling") in kinds
    assert ("renamed", "kindred") in kinds
    assert not find(found, "concept-added", "kindred") and not find(found, concept="humming")
    [obsolete] = find(found, "concept-obsolete")
    assert obsolete.old.term == "Wobbling" and obsolete.new.term == "Wobbling (Obsolete)"
    # the old rule that defined it is cited, with its text (it used to be null)
    assert obsolete.old.rule == "1.1" and obsolete.to_dict()["old"]["rule"] == "1.1"
    assert obsolete.to_dict()["old"]["text"].startswith("Wobbling happens twice")
    assert obsolete.to_dict()["old"]["glossary"] == "A thing that happens."


def test_a_truncated_glossary_says_nothing_past_its_end():
    old = edition(OLD, {"1.1": "Zapping and zapping and zapping."}, {"Alpha": "a", "Zapping": "z"})
    new = edition(NEW, {"1.1": "Alpha."}, {"Alpha": "a"})
    new.warnings.append(ParseWarning("truncated", "stops in the glossary"))
    assert not find(contradictions(old, new), "concept-removed")


# ---------------------------------------------------------------- JSON


def test_to_dict_follows_the_design_shape():
    old = edition(OLD, {"1.1": "A gizmo's owner is the player who built it."})
    new = edition(NEW, {"1.2": "A gizmo's owner is the player who last repaired it."})
    doc = json.loads(json.dumps(to_json(contradictions(old, new), OLD, NEW)))
    [item] = doc["items"]
    assert {"concept", "aspect", "kind", "old", "new", "severity", "explanation"} <= set(item)
    assert {"edition", "rule", "text"} <= set(item["old"]) and item["new"]["edition"] == NEW
    assert item["old"]["statement"]["value"] == "player who built it"
    assert doc["old"] == OLD and doc["new"] == NEW


def test_unknown_reasoner_is_refused():
    with pytest.raises(ValueError):
        contradictions(edition(OLD, {}), edition(NEW, {}), reasoner="pellet")


# ---------------------------------------------------------------- term changes (invented)


def _frob(eid: str, verb: str) -> Edition:
    return edition(eid, {f"{i}.1": f"Each player may {verb} a widget number {i} during their turn."
                         for i in range(1, 8)} | {"9.1": "Widgets are small.", "9.2": "A widget is not a card."})


def test_term_changes_find_a_replaced_term_and_nothing_in_an_unchanged_edition():
    old, new = _frob(OLD, "frobnicate"), _frob(NEW, "twiddle with")
    [change] = term_changes(old, new)
    assert (change.old_term, change.new_term, change.rules) == ("frobnicate", "twiddle with", 7)
    assert (change.old_count, change.old_count_after, change.new_count_before, change.new_count) == (7, 0, 0, 7)
    assert change.examples[0] == ("1.1", "1.1")
    assert change.to_dict()["old"] == "frobnicate"
    assert term_changes(old, _frob(NEW, "frobnicate")) == []


# ---------------------------------------------------------------- the reasoner (invented)

CLASHING = ({"6.1": "A doohickey is a card."}, {"6.1": "A doohickey is not a card."})


def test_owlrl_reports_the_axioms_that_clash():
    old, new = edition(OLD, CLASHING[0]), edition(NEW, CLASHING[1])
    found = contradictions(old, new, reasoner="owlrl")
    [clash] = find(found, "axiom-clash")
    assert clash.concept == "doohickey" and clash.severity == "high"
    assert (clash.old.edition, clash.new.edition) == (OLD, NEW)
    assert any("doohickey ⊑ card" in a for a in clash.axioms) and any("doohickey ⊥ card" in a for a in clash.axioms)
    assert find(found, "negation-reversed")  # the per-aspect comparison sees it too
    assert not find(contradictions(old, old, reasoner="owlrl"), "axiom-clash")


@pytest.fixture(scope="module")
def java() -> None:
    if not reasoning.java_available():
        need(reasoning.HERMIT_NEEDS_JAVA)


def test_hermit_reports_the_axioms_that_clash(java):
    found = contradictions(edition(OLD, CLASHING[0]), edition(NEW, CLASHING[1]), reasoner="hermit")
    [clash] = find(found, "axiom-clash")
    assert clash.concept == "doohickey" and clash.old.rule == clash.new.rule == "6.1"
    assert "disagree about doohickey" in clash.explanation


# ---------------------------------------------------------------- the corpus: the gold list


def _gold() -> list[dict]:
    with GOLD.open(encoding="utf-8") as handle:
        return list(csv.DictReader((line for line in handle if not line.startswith("#")), delimiter="\t"))


_EDITIONS: dict[str, Edition] = {}
_FINDINGS: dict[tuple[str, str], list[Finding]] = {}


def _edition(corpus: Path, eid: str) -> Edition:
    if eid not in _EDITIONS:
        from rulekb.ingest.parse import parse_many

        lang, date = eid.split("/")
        _EDITIONS[eid] = parse_many([str(corpus / lang / f"CR-{date}.txt")]).editions[0]
    return _EDITIONS[eid]


def _findings(corpus: Path, old: str, new: str) -> list[Finding]:
    if (old, new) not in _FINDINGS:
        _FINDINGS[(old, new)] = contradictions(_edition(corpus, old), _edition(corpus, new))
    return _FINDINGS[(old, new)]


def test_the_gold_list_is_hand_made_and_big_enough():
    rows = _gold()
    real = [r for r in rows if r["kind"] != "none"]
    assert len(real) >= 15 and len(rows) - len(real) >= 10
    assert {r["kind"] for r in real} >= {"owner-changed", "members-changed", "is-a-changed", "negation-reversed",
                                         "definition-removed", "concept-obsolete", "renamed"}
    for r in rows:  # our own short words, no quoted rules text
        assert len(r["expected"]) <= 120 and '"' not in r["expected"], r


@pytest.mark.corpus
def test_recall_on_the_real_changes(corpus):
    real = [r for r in _gold() if r["kind"] != "none"]
    missed = [r for r in real if not find(_findings(corpus, r["old"], r["new"]), r["kind"], r["concept"], r["aspect"])]
    assert not missed, f"recall {1 - len(missed) / len(real):.2f}; missed: " + "; ".join(
        f"{r['old']}->{r['new']} {r['concept']} {r['aspect']} {r['kind']}" for r in missed)


@pytest.mark.corpus
def test_no_finding_on_rewordings(corpus):
    quiet = [r for r in _gold() if r["kind"] == "none"]
    wrong = [(r, f) for r in quiet for f in serious(find(_findings(corpus, r["old"], r["new"]),
                                                         concept=r["concept"], aspect=r["aspect"]))]
    assert not wrong, "; ".join(f"{r['old']}->{r['new']} {f.kind} {f.concept}: {f.explanation}" for r, f in wrong)


@pytest.mark.corpus
def test_findings_cite_the_rules_of_their_editions(corpus):
    old, new = "en/2009-05-01", "en/2009-07-08"
    findings = _findings(corpus, old, new)
    texts = {eid: {r.number: r.text for r in _edition(corpus, eid).rules} for eid in (old, new)}
    for f in findings:
        for side, eid in ((f.old, old), (f.new, new)):
            if side is None:
                continue
            assert side.edition == eid
            if side.rule:
                assert side.text == texts[eid][side.rule], f
            else:
                assert side.term  # a glossary entry
    [token] = find(findings, "owner-changed", "token")
    assert "token" in token.old.text.lower() and "token" in token.new.text.lower()
    json.dumps(to_json(findings, old, new))


@pytest.mark.corpus
def test_an_ordinary_update_has_no_serious_finding(corpus):
    findings = _findings(corpus, "en/2025-11-14", "en/2026-01-16")
    assert [f for f in findings if f.severity in ("high", "medium")] == []


@pytest.mark.corpus
def test_owlrl_finds_the_meld_card_clash_of_2023(corpus):
    old, new = _edition(corpus, "en/2022-11-18"), _edition(corpus, "en/2023-04-14")
    clashes = find(contradictions(old, new, reasoner="owlrl"), "axiom-clash")
    meld = [f for f in clashes if "meld" in " ".join(f.axioms)]
    assert meld and meld[0].old.rule and meld[0].new.rule
    assert meld[0].concept == "meld-card"
    assert any(a.startswith("meld-card ⊥ double-faced-card (rule 713.1a, en/2022-11-18") for a in meld[0].axioms)
    assert any(a.startswith("meld-card ⊑ double-faced-card (rule 712.1, en/2023-04-14") for a in meld[0].axioms)


# ---------------------------------------------------------------- the corpus: term changes


@pytest.mark.corpus
def test_term_changes_of_the_2009_restructure(corpus):
    changes = term_changes(_edition(corpus, "en/2009-05-01"), _edition(corpus, "en/2009-07-08"))
    pairs = {(c.old_term, c.new_term): c for c in changes}
    assert ("in play", "on the battlefield") in pairs
    assert ("comes into play", "enters the battlefield") in pairs
    assert {n for o, n in pairs if o == "removed from the game"} >= {"exile", "exiled"}
    assert ("played", "cast") in pairs
    in_play = pairs[("in play", "on the battlefield")]
    assert in_play.rules >= 20 and in_play.old_count > 50 and in_play.old_count_after <= 5
    assert in_play.new_count_before == 0 and in_play.new_count > 50 and len(in_play.examples) == 5


@pytest.mark.corpus
def test_term_changes_of_the_2024_renaming_and_of_ordinary_updates(corpus):
    kindred = term_changes(_edition(corpus, "en/2024-03-08"), _edition(corpus, "en/2024-06-07"))
    assert [(c.old_term, c.new_term) for c in kindred] == [("tribal", "kindred")]
    for old, new in (("en/2015-01-23", "en/2015-03-27"), ("en/2019-01-25", "en/2019-05-03"),
                     ("en/2025-11-14", "en/2026-01-16")):
        assert term_changes(_edition(corpus, old), _edition(corpus, new)) == []

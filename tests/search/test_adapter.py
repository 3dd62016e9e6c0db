"""The query adapter (kb/search/adapter.py): a linear map learnt on the gold sets' tuning parts
that moves a question's embedding towards the rules that settle questions; learnt by
``rulekb bench adapter`` (kb/bench/adapter.py), shipped as package data, applied to every
question the dense arm ranks, compared without it by ``rulekb bench search``."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekb.kb.bench import adapter as learning
from rulekb.kb.bench import search as bench
from rulekb.kb.errors import KBError
from rulekb.kb.search import adapter, dense, precedents
from rulekb.kb.search.engine import Searcher
from rulekb.kb.search.home import index_dir


def _unit(rows):
    rows = np.asarray(rows, dtype=np.float32)
    return rows / np.linalg.norm(rows, axis=-1, keepdims=True)


def test_learning_moves_each_question_towards_its_targets():
    rng = np.random.default_rng(7)
    documents = _unit(rng.normal(size=(60, 16)))
    # each question lies near one document but is settled by another (as a player's words lie
    # nearer a glossary entry than the rule that settles their question)
    near, settled = rng.permutation(60)[:30], rng.permutation(60)[:30]
    questions = _unit(documents[near] + 0.1 * rng.normal(size=(30, 16)))
    targets = [[int(t)] for t in settled]

    def first(matrix):
        moved = _unit(questions + questions @ matrix.T)
        return np.argmax(moved @ documents.T, axis=1)

    before = np.mean(first(np.zeros((16, 16), np.float32)) == settled)
    learnt = adapter.train(questions, targets, documents, epochs=300, rate=0.01, penalty=0.001)
    after = np.mean(first(learnt) == settled)
    assert before < 0.2 and after > 0.8
    again = adapter.train(questions, targets, documents, epochs=300, rate=0.01, penalty=0.001)
    assert np.array_equal(learnt, again)  # deterministic: the same gold gives the same map


def test_a_written_adapter_loads_for_its_model_only(tmp_path):
    path = tmp_path / "adapter.npz"
    matrix = np.eye(4, dtype=np.float32) * 0.5
    adapter.write(path, matrix, {"model_version": "m-1"})
    found = adapter.load("m-1", path)
    assert found is not None and adapter.state("m-1", path) == "on"
    moved = found.apply(_unit([1.0, 0.0, 0.0, 0.0]))
    assert np.isclose(np.linalg.norm(moved), 1.0)
    assert adapter.load("m-2", path) is None and adapter.state("m-2", path) == "another model (m-1)"
    assert list(tmp_path.iterdir()) == [path]  # written whole, then renamed: no temporary left


@pytest.mark.parametrize("learnt", [adapter, precedents], ids=["adapter", "precedents"])
@pytest.mark.parametrize("content", [b"", b"not a numpy file at all", b"junk", b"PK\x03\x04 truncated zip"])
def test_an_unreadable_or_missing_file_leaves_search_as_it_was(tmp_path, content, learnt):
    path = tmp_path / "learnt.npz"
    assert learnt.state("m-1", path) == "absent"
    path.write_bytes(content)
    fresh = tmp_path / "other.npz"
    fresh.write_bytes(content)
    assert learnt.load("m-1", fresh) is None and learnt.state("m-1", fresh) == "unreadable"


def test_the_shipped_adapter_is_for_the_model_and_was_learnt_on_the_gold_as_it_stands():
    found = adapter.load(dense.MODEL_VERSION)
    assert found is not None, adapter.state(dense.MODEL_VERSION)
    assert found.matrix.shape == (dense.DIM, dense.DIM)
    meta = found.meta
    sets = bench.gold_sets(None)
    # a gold set's tuning part edited since: learn the adapter again (`rulekb bench adapter` on the
    # full corpus KB), so that what search ships is what the gold says
    assert meta["gold"] == {name: learning._digest(sets[name]) for name in meta["gold"]}
    assert set(meta["gold"]) == {name for name, qs in sets.items() if any(q.tuning for q in qs)}
    assert meta["recall@5_by_meaning"]["after"] > meta["recall@5_by_meaning"]["before"]


FIXTURE_GOLD = """# written for this test from the fixture's rules: not gold questions
id\tlang\tedition\tsplit\tcards\ttopic\tquestion\trules\tnote
t-001\ten\ten/2030-05-05\ttune\t\tother\twho does a gadget belong to?\t101.1\towner
t-002\ten\ten/2030-05-05\ttune\t\tturn\twhat comes after winding?\t200.1b\tsteps
t-003\ten\ten/2030-05-05\ttune\t\tturn\thow does a turn end?\t200.1c\tsteps
t-004\ten\ten/2030-05-05\theld\t\tother\thow many cards in a deck?\t100.2\tdeck
"""


@pytest.fixture()
def fixture_gold(tmp_path):
    path = tmp_path / "fixture_gold.tsv"
    path.write_text(FIXTURE_GOLD, encoding="utf-8")
    return bench.gold_sets([path])


def test_the_adapter_is_learnt_from_the_tuning_rows_against_a_store(fixture_kb, fixture_gold, tmp_path):
    store, _ = fixture_kb
    searcher = Searcher(index_dir(store))
    out = tmp_path / "learnt.npz"
    steps = []
    meta = learning.learn(searcher, fixture_gold, out=out, progress=lambda step, total: steps.append(step))
    assert meta["questions"] == 3 and meta["edition"] == "en/2030-05-05"  # the held-out row is not read
    assert meta["model_version"] == dense.MODEL_VERSION and steps[-1] == adapter.EPOCHS
    found = adapter.load(dense.MODEL_VERSION, out)
    assert found is not None and found.meta["sets"] == {"fixture_gold": 3}
    # the same questions are the precedents, beside it: their ids and rules, never the held-out row
    kept = precedents.load(dense.MODEL_VERSION, tmp_path / "learnt-precedents.npz")
    assert kept is not None and kept.vectors.shape == (3, dense.DIM)
    assert [(q["id"], q["rules"]) for q in kept.questions] == [("t-001", ["101.1"]), ("t-002", ["200.1b"]),
                                                                ("t-003", ["200.1c"])]


def test_learning_refuses_gold_the_store_cannot_answer(fixture_kb, tmp_path):
    store, _ = fixture_kb
    searcher = Searcher(index_dir(store))
    path = tmp_path / "elsewhere.tsv"
    path.write_text(FIXTURE_GOLD.replace("en/2030-05-05", "en/1999-04-23"), encoding="utf-8")
    with pytest.raises(KBError, match="dense arm holds 0 of the 0 documents of en/1999-04-23"):
        learning.learn(searcher, bench.gold_sets([path]), out=tmp_path / "never.npz")
    assert not (tmp_path / "never.npz").exists()


def test_search_moves_the_question_and_says_so(fixture_kb, fixture_gold, tmp_path, monkeypatch):
    store, _ = fixture_kb
    searcher = Searcher(index_dir(store))
    out = tmp_path / "learnt.npz"
    learning.learn(searcher, fixture_gold, out=out)
    monkeypatch.setattr(adapter, "PATH", out)
    monkeypatch.setattr(precedents, "PATH", tmp_path / "learnt-precedents.npz")
    found = searcher.search("what follows the winding step?")
    assert found["meaning"]["precedents"] == "on"
    settled = {hit["rule"]: hit for hit in found["results"] if "precedent" in hit}
    assert settled["200.1b"]["precedent"]["id"] == "t-002"  # the nearest question cites it
    assert any(w.startswith("settled a question like it: 'what comes after winding?'") for w in settled["200.1b"]["why"])
    assert searcher.search("what follows the winding step?", adapted=False)["meaning"]["precedents"] == "off"
    assert not any("precedent" in hit for hit in searcher.search("what follows the winding step?", adapted=False)["results"])
    adapted, plain = dense.embed_query("who does a gadget belong to?"), dense.embed_query(
        "who does a gadget belong to?", adapted=False)
    assert not np.allclose(adapted, plain)
    assert searcher.search("who does a gadget belong to?")["meaning"]["adapter"] == "on"
    assert searcher.search("who does a gadget belong to?", adapted=False)["meaning"]["adapter"] == "off"
    monkeypatch.setattr(adapter, "PATH", tmp_path / "none.npz")
    monkeypatch.setattr(precedents, "PATH", tmp_path / "none.npz")
    absent = searcher.search("who does a gadget belong to?")["meaning"]
    assert absent["adapter"] == "absent" and absent["precedents"] == "absent"
    assert np.allclose(dense.embed_query("who does a gadget belong to?"), plain)


def test_rulekb_bench_adapter_fails_in_one_line_on_a_store_without_the_gold_edition(fixture_kb, tmp_path):
    found = subprocess.run([sys.executable, "-m", "rulekb.kb.cli", "bench", "adapter", "--store", str(fixture_kb[0].root),
                            "--out", str(tmp_path / "never.npz"), "--format", "json"],
                           capture_output=True, text=True, timeout=300)
    assert found.returncode != 0 and "Traceback" not in found.stderr
    assert "dense arm holds" in found.stderr and len(found.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "never.npz").exists() and not found.stdout.strip()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=2000))
def test_any_bytes_as_the_adapter_file_are_read_or_refused_never_raised(tmp_path, content):
    path = tmp_path / f"fuzz-{abs(hash(content))}.npz"
    path.write_bytes(content)
    assert adapter.state("m-1", path) in ("unreadable", "on") or adapter.state("m-1", path).startswith("another model")


def test_the_nearest_precedents_vote_for_the_rules_that_settled_them(tmp_path):
    path = tmp_path / "precedents.npz"
    rows = _unit(np.eye(4)[[0, 0, 1, 2]] + 0.01)
    asked = [{"id": f"q{i}", "question": f"question {i}", "rules": rules}
             for i, rules in enumerate([["100.1"], ["100.1", "200.2"], ["300.3"], ["400.4"]])]
    precedents.write(path, rows, asked, {"model_version": "m-1", "edition": "en/2030-05-05"})
    found = precedents.load("m-1", path)
    assert found is not None and precedents.load("m-2", path) is None
    voted = found.votes(_unit([1.0, 0.05, 0.0, 0.0]))
    assert [number for number, _, _ in voted][:2] == ["100.1", "200.2"]  # two near questions cite 100.1
    assert voted[0][1] == 0 and voted[0][2] > 0.9  # with the nearest question citing it
    # moved by an adapter, both sides: a map that swaps the first two axes makes the third row nearest
    swap = np.zeros((4, 4), dtype=np.float32)
    swap[[0, 1], [1, 0]], swap[[0, 1], [0, 1]] = 1.0, -1.0
    moving = adapter.Adapter(swap, {})
    assert found.nearest(_unit([1.0, 0.05, 0.0, 0.0]))[0][0] in (0, 1)
    assert found.nearest(moving.apply(_unit([0.0, 1.0, 0.0, 0.0])), moving)[0][0] == 2
    assert found.nearest(_unit([0.0, 1.0, 0.0, 0.0]), adapter.Adapter(np.zeros((4, 4), np.float32), {}))[0][0] == 2
    assert list(tmp_path.iterdir()) == [path]


def test_the_shipped_precedents_are_the_tuning_rows_of_the_gold_as_it_stands():
    found = precedents.load(dense.MODEL_VERSION)
    assert found is not None, precedents.state(dense.MODEL_VERSION)
    sets = bench.gold_sets(None)
    tuning = {q.id: q for qs in sets.values() for q in qs if q.tuning}
    held = {q.id for qs in sets.values() for q in qs if not q.tuning}
    ids = [q["id"] for q in found.questions]
    assert not set(ids) & held  # a held-out row among them would make `rulekb bench search` lie
    assert all(tuning[q["id"]].question == q["question"] for q in found.questions)
    assert found.meta["gold"] == adapter.load(dense.MODEL_VERSION).meta["gold"]  # learnt with the adapter


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                    max_leaves=8))
def test_any_meta_in_a_precedents_file_is_read_or_refused_never_raised(tmp_path, meta):
    path = tmp_path / f"fuzz-{abs(hash(repr(meta)))}.npz"
    np.savez(path, vectors=np.ones((1, 4), dtype=np.float16), meta=np.array(json.dumps(meta)))
    assert precedents.state("m-1", path) in ("unreadable", "on") or precedents.state("m-1", path).startswith("another model")


def test_precedents_of_one_edition_name_the_same_rules_in_another_by_lineage(numbers_kb, tmp_path, monkeypatch):
    """Their numbers are of the edition they were asked about; a search of another English edition
    reads them through the rules' lineages, a search of the French texts takes none."""
    searcher = Searcher(index_dir(numbers_kb[0]))
    question = "which colour are the gadgets painted with the blue paint?"
    path = tmp_path / "precedents.npz"
    vector = dense.embed_query(question, adapted=False)
    precedents.write(path, vector[None, :], [{"id": "p-1", "question": question, "rules": ["101.1c"]}],
                     {"model_version": dense.MODEL_VERSION, "edition": "en/2021-04-01"})
    monkeypatch.setattr(precedents, "PATH", path)
    monkeypatch.setattr(adapter, "PATH", tmp_path / "no-adapter.npz")  # both sides as the model gives them
    for edition in ("en/2021-04-01", "en/2021-01-01"):
        found = searcher.search(question, edition=edition)
        settled = [hit for hit in found["results"] if "precedent" in hit]
        assert [(hit["rule"], hit["edition"], hit["precedent"]["id"]) for hit in settled] == [("101.1c", edition, "p-1")]
    assert not any("precedent" in hit for hit in searcher.search(question, edition="fr/2021-04-01")["results"])

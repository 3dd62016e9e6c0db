"""The learnt order of a card question's first results (kb.search.rerank) and how it is learnt
(kb.bench.reranker): the trees read as LightGBM scores them, features of the fusion's inputs,
learnt cross-fitted on a fixture store, the shipped model, any file read or refused."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekb.kb.bench import adapter as adapter_learning
from rulekb.kb.bench import reranker as learning
from rulekb.kb.bench import search as bench
from rulekb.kb.search import adapter, dense, learnt_files, precedents, rerank
from rulekb.kb.search.engine import Searcher
from rulekb.kb.search.home import index_dir
from rulekb.kb.search.understand import Understood

from ..helpers import invoke_cli


def test_the_flattened_trees_score_as_lightgbm_does(tmp_path):
    import lightgbm

    rng = np.random.default_rng(3)
    rows = rng.normal(size=(300, len(rerank.FEATURES)))
    rows[:, 3] = rows[:, 3] > 0  # a yes/no feature, as several are
    relevant = (rows[:, 1] + 0.5 * rows[:, 3] + 0.1 * rng.normal(size=300) > 0.8).astype(int)
    ranker = lightgbm.train(learning.PARAMS, lightgbm.Dataset(rows, relevant, group=[30] * 10), num_boost_round=50)
    trees = learning._flat(ranker.dump_model())
    path = tmp_path / "reranker.json"
    path.write_text(json.dumps({"meta": {"features": list(rerank.FEATURES), "depth": trees.pop("depth")},
                                "trees": trees}), encoding="utf-8")
    read = rerank.load(path)
    assert read is not None and rerank.state(path) == "on"
    assert np.allclose(read.score(rows), ranker.predict(rows), atol=1e-9)
    assert np.allclose(read.score(rows[:1]), ranker.predict(rows[:1]), atol=1e-9)


def test_the_features_are_what_the_fusion_knew():
    u = Understood("Does Brass Golem die to a rewound gadget?", "en", cards=[{"name": "Brass Golem"}])
    numbers = ["200.1b", "200.1a", "glossary:g1", "101.1"]
    lists = {"words": {"200.1b": 1, "101.1": 2}, "score": {"200.1b": 2.0, "101.1": 1.0},
             "meaning": {"200.1a": (1, 0.8), "200.1b": (3, 0.6)}, "met": {}, "brought": {"101.1": 1},
             "referred": {}, "precedent": {"200.1a": 2}}
    tally = {"200.1a": (1.2, 2, 0.7), "101.1": (0.6, 1, 0.6)}
    alone = {"200.1b": 3, "200.1a": 1}
    beside = {"200.1b": {"200.1a": 2}, "200.1a": {"200.1b": 1}}
    rows = rerank.features(u, numbers, lists, tally, 0.7, (alone, beside))
    named = [dict(zip(rerank.FEATURES, row)) for row in rows]
    assert all(len(row) == len(rerank.FEATURES) for row in rows)
    assert named[0]["position"] > named[1]["position"] > named[3]["position"]
    assert named[0]["words_score"] == 1.0 and named[3]["words_score"] == 0.5 and named[1]["in_words"] == 0.0
    assert named[1]["similarity_below_best"] == 0.0 and named[0]["similarity_below_best"] == pytest.approx(-0.2)
    assert named[1]["votes_of_best"] == 1.0 and named[3]["voters"] == 1 and named[0]["votes"] == 0.0
    assert named[2]["glossary"] == 1.0 and named[2]["chapter"] == -1.0 and named[3]["chapter"] == 1.0
    assert named[0]["subrule"] == 1.0 and named[3]["subrule"] == 0.0
    assert named[1]["cited_beside_first_5"] == pytest.approx(2 / 5)  # 200.1b, first, is cited beside it twice
    assert named[1]["family_in_first_15"] == 1.0 and named[1]["parent_in_first_10"] == 0.0
    assert named[0]["cards"] == 1.0 and named[0]["nearest_precedent"] == 0.7


GOLD = """# written for this test from the fixture's rules and invented cards: not gold questions
id\tlang\tedition\tsplit\tcards\ttopic\tquestion\trules\tnote
{rows}
"""
ASKED = [  # (question, rules): each names one of the fixture's invented cards
    ("Who owns Brass Golem once it is on the table?", "101.1"),
    ("Brass Golem is rewound in the wind step: which step comes next?", "200.1b 200.1a"),
    ("Can Tinker, Keeper of Springs untap in the rest step?", "200.1c"),
    ("Is Brass Golem a shiny gadget or a rusty one?", "101.2"),
    ("How many gadget cards must a deck with Brass Golem have?", "100.2"),
    ("If I play Tinker in a two-duelist game, who is the other duelist?", "100.1a"),
    ("With Tinker, Keeper of Springs, in which step do I wind?", "200.1a"),
    ("Brass Golem in a team game: which rules apply?", "100.1b"),
    ("When does the turn end if Tinker is tapped?", "200.1c 200.1"),
    ("Does Brass Golem belong to the duelist who brought it?", "101.1"),
    ("Tinker's owner left the duel: whose gadget is it?", "101.1"),
    ("What are the steps of a turn with Brass Golem out?", "200.1"),
    ("Is Tinker, Keeper of Springs basic?", "101.2"),
    ("How many duelists can play with Brass Golem?", "100.1"),
    ("Spin step with Tinker: what came before it?", "200.1b 200.1a"),
    ("Brass Golem in the rest step: is it the last one?", "200.1c"),
]


@pytest.fixture()
def card_gold(tmp_path):
    rows = "\n".join(f"t-{i:03d}\ten\ten/2030-05-05\ttune\t\tother\t{q}\t{rules}\tfixture"
                     for i, (q, rules) in enumerate(ASKED, start=1))
    path = tmp_path / "card_gold.tsv"
    path.write_text(GOLD.format(rows=rows) + "t-900\ten\ten/2030-05-05\theld\t\tother\tIs Brass Golem a gadget?\t101.1\tx\n",
                    encoding="utf-8")
    return bench.gold_sets([path])


def test_the_order_is_learnt_cross_fitted_and_search_follows_it(fixture_kb, card_gold, tmp_path, monkeypatch):
    searcher = Searcher(index_dir(fixture_kb[0]))
    saved = (adapter.PATH, precedents.PATH)
    parts = []
    meta = learning.learn(searcher, card_gold, out=tmp_path / "order.json", folds=2,
                          progress=parts.append)
    assert (adapter.PATH, precedents.PATH) == saved  # the package's paths are put back
    assert meta["folds"] == 2 and [m for m in parts if m.startswith("part 1/2: question")]
    assert f"part 2/2: the adapter and precedents without it, step 1/{adapter.EPOCHS}" in parts and parts[-1].startswith("part 2/2")
    assert 10 <= meta["questions"] <= len(ASKED)  # the held-out row is never read
    assert meta["cross_fitted"]["questions"] >= meta["questions"]
    assert set(meta["cross_fitted"]["learnt"]) == {"recall@5", "all@10"}
    assert meta["features"] == list(rerank.FEATURES) and rerank.load(tmp_path / "order.json") is not None

    adapter_learning.learn(searcher, card_gold, out=tmp_path / "adapter.npz")  # what search ships beside it
    monkeypatch.setattr(adapter, "PATH", tmp_path / "adapter.npz")
    monkeypatch.setattr(precedents, "PATH", tmp_path / "adapter-precedents.npz")
    monkeypatch.setattr(rerank, "PATH", tmp_path / "order.json")
    found = searcher.search("Brass Golem was rewound: which step comes after the wind step?")
    assert found["meaning"]["learnt_order"] == "on" and found["results"]
    assert meta["card_free"] is True and rerank.covers_card_free(tmp_path / "order.json")
    assert searcher.search("which step comes after the wind step?")["meaning"]["learnt_order"] == "on"  # card-free too
    cards_only = json.loads((tmp_path / "order.json").read_text(encoding="utf-8"))
    del cards_only["meta"]["card_free"]  # a model learnt on card questions alone orders only them
    (tmp_path / "cards-only.json").write_text(json.dumps(cards_only), encoding="utf-8")
    monkeypatch.setattr(rerank, "PATH", tmp_path / "cards-only.json")
    assert searcher.search("which step comes after the wind step?")["meaning"]["learnt_order"] == "off"
    assert searcher.search("Brass Golem was rewound: which step comes after the wind step?")["meaning"]["learnt_order"] == "on"
    monkeypatch.setattr(rerank, "PATH", tmp_path / "order.json")
    unadapted = searcher.search("Brass Golem was rewound: which step comes after the wind step?", adapted=False)
    assert unadapted["meaning"]["learnt_order"] == "off"
    fusion = [hit.get("rule") or hit.get("term") for hit in searcher.search(
        "Brass Golem was rewound: which step comes after the wind step?", limit=3)["results"]]

    class Backwards:  # a model that puts the fusion's last first: every hit it moves says so
        def score(self, rows):
            return np.asarray([-row[0] for row in rows])

    monkeypatch.setattr(rerank, "load", lambda path=None: Backwards())
    moved = searcher.search("Brass Golem was rewound: which step comes after the wind step?", limit=40)["results"]
    assert (moved[0].get("rule") or moved[0].get("term")) != fusion[0]
    said = [hit for hit in moved if "learnt_order" in hit]
    assert said and all(f"the learnt order (the fusion had it #{hit['learnt_order']['fusion_rank']})" in hit["why"]
                        for hit in said)
    monkeypatch.undo()
    monkeypatch.setattr(adapter, "PATH", tmp_path / "adapter.npz")
    monkeypatch.setattr(precedents, "PATH", tmp_path / "adapter-precedents.npz")
    monkeypatch.setattr(rerank, "PATH", tmp_path / "none.json")
    absent = searcher.search("Brass Golem was rewound: which step comes after the wind step?")
    assert absent["meaning"]["learnt_order"] == "absent" and absent["results"]


def test_rulekb_bench_reranker_fails_in_one_line_on_a_store_without_the_gold_edition(fixture_kb, tmp_path):
    found = subprocess.run([sys.executable, "-m", "rulekb.kb.cli", "bench", "reranker", "--store", str(fixture_kb[0].root),
                            "--out", str(tmp_path / "never.json")], capture_output=True, text=True, timeout=300)
    assert found.returncode != 0 and "Traceback" not in found.stderr
    assert len(found.stderr.strip().splitlines()) == 1 and not (tmp_path / "never.json").exists()


def test_the_shipped_order_was_learnt_on_the_gold_as_it_stands_with_the_shipped_adapter():
    found = rerank.load()
    assert found is not None, rerank.state()
    sets = bench.gold_sets(None)
    # a gold set's tuning part edited since: learn it again (`rulekb bench reranker` on the full corpus KB)
    assert found.meta["gold"] == {name: adapter_learning._digest(sets[name]) for name in found.meta["gold"]}
    assert found.meta["gold"] == adapter.load(dense.MODEL_VERSION).meta["gold"]
    fitted = found.meta["cross_fitted"]
    assert fitted["learnt"]["all@10"] > fitted["fusion"]["all@10"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=st.one_of(
    st.binary(max_size=300),
    st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                 lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                 max_leaves=20).map(lambda v: json.dumps(v).encode()),
    st.builds(lambda trees, depth: json.dumps({"meta": {"features": list(rerank.FEATURES), "depth": depth},
                                               "trees": trees}).encode(),
              st.dictionaries(st.sampled_from(["feature", "threshold", "left", "right", "value", "roots"]),
                              st.lists(st.integers(-3, 5), max_size=6), max_size=6),
              st.integers(-1, 4)),
))
def test_any_file_as_the_order_is_read_or_refused_never_raised(tmp_path, content):
    path = tmp_path / "order.json"
    path.write_bytes(content)
    learnt_files.forget(path)
    found = rerank.load(path)
    assert found is None or found.score(np.zeros((3, len(rerank.FEATURES)))).shape == (3,)
    assert rerank.state(path) in ("on", "unreadable", "other features")


def test_bench_reranker_says_each_kind_cross_fitted(fixture_kb, monkeypatch):
    figures = lambda five, ten: {"recall@5": five, "all@10": ten}  # noqa: E731
    meta = {"questions": 30, "card_free": True, "folds": 4, "lightgbm": "4.7.0", "path": "/tmp/order.json",
            "cross_fitted": {"questions": 32, "fusion": figures(70.0, 40.0), "learnt": figures(75.0, 45.0),
                             "cards": {"questions": 20, "fusion": figures(60.0, 30.0), "learnt": figures(65.0, 35.0)},
                             "card_free": {"questions": 12, "fusion": figures(80.0, 70.0), "learnt": figures(85.0, 75.0)}}}
    monkeypatch.setattr(learning, "learn", lambda *args, **kwargs: meta)
    said = invoke_cli("bench", "reranker", "--store", str(fixture_kb[0].root))
    assert said.returncode == 0, said.stderr
    lines = said.stdout.splitlines()
    assert lines[0].startswith("learnt order: 30 tuning questions, 4 parts")
    assert "cross-fitted, all (32): recall@5 70.0 -> 75.0 %, every cited rule in the first 10 40.0 -> 45.0 %" in lines
    assert "cross-fitted, naming a card (20): recall@5 60.0 -> 65.0 %, every cited rule in the first 10 30.0 -> 35.0 %" in lines
    assert "cross-fitted, card-free (12): recall@5 80.0 -> 85.0 %, every cited rule in the first 10 70.0 -> 75.0 %" in lines

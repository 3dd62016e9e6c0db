"""The dense (meaning) arm of search (kb/search/dense.py): embeddings cached by text and
model, written beside the index and swapped with it, completed by ``rulekb build --embed`` (bounded,
resumable), fused with the lexical ranking, and said in the results ("arms", the "why").

Mechanism on the fixture KB (a dozen documents: real model, real index, a few seconds);
on the corpus KB, a copy of its index with a bounded part embedded, so the suite does not
wait for the 18,000 texts a full corpus arm holds."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekb.kb.bench import search as bench
from rulekb.kb.search import dense, dense_build
from rulekb.kb.search.engine import SearchError, Searcher
from rulekb.kb.search.home import index_dir
from rulekb.kb.store.embedded import EmbeddedStore

PROJECT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def private_cache(tmp_path, monkeypatch):
    """An empty embedding cache of the test's own."""
    monkeypatch.setenv("RULEKB_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture()
def index_copy(fixture_kb, tmp_path):
    """A copy of the fixture KB's index without its dense arm."""
    store, _ = fixture_kb
    copy = tmp_path / "index"
    shutil.copytree(index_dir(store), copy, ignore=shutil.ignore_patterns("dense*"))
    return copy


def test_the_build_writes_the_dense_arm_beside_the_index(fixture_kb):
    store, report = fixture_kb
    figures = report.search["dense"]
    assert figures["rows"] == figures["documents"] == report.search["documents"]
    assert figures["missing"] == 0
    directory = index_dir(store)
    assert (directory / dense.LINK).is_symlink()
    manifest = dense.read_manifest(directory)
    assert manifest["model_version"] == dense.MODEL_VERSION and manifest["rows"] == figures["rows"]
    assert manifest["editions"]["en/2030-05-05"] == [figures["rows"], figures["rows"]]


def test_search_says_which_arms_answered(fixture_kb):
    store, _ = fixture_kb
    searcher = Searcher(index_dir(store))
    fused = searcher.search("what is a gadget?")
    assert fused["arms"] == ["words", "meaning"]
    assert fused["meaning"]["state"] == "complete"
    lexical = searcher.search("what is a gadget?", dense=False)
    assert lexical["arms"] == ["words"]
    assert "meaning" not in lexical["results"][0]
    assert fused["results"][0]["rule"] == lexical["results"][0]["rule"] == "101.1"
    assert any(w.startswith("close in meaning") for w in fused["results"][0]["why"])


def test_the_meaning_arm_answered_though_no_hit_shown_came_from_it(fixture_kb, monkeypatch):
    # its ranking was fused: "arms" says so even when the page holds only hits of the words
    store, _ = fixture_kb
    searcher = Searcher(index_dir(store))
    question = "what is a gadget?"
    by_words = {hit.get("rule") for hit in searcher.search(question, dense=False, limit=50)["results"]}
    nearest = dense.Arm.nearest

    def only_a_rule_no_word_finds(self, vector, edition, lang, n):
        for row, similarity in nearest(self, vector, edition, lang, 1000):
            doc = searcher._docs_by_key([str(self.keys[row])]).get(str(self.keys[row]))
            if doc and doc["kind"][0] == "rule" and doc["number"][0] not in by_words:
                return [(row, similarity)]
        return []

    monkeypatch.setattr(dense.Arm, "nearest", only_a_rule_no_word_finds)
    found = searcher.search(question, limit=1, adapted=False)  # (the two arms weighed alike: the words' first leads)
    assert found["results"][0]["rule"] == "101.1" and "meaning" not in found["results"][0]
    assert found["arms"] == ["words", "meaning"]


def test_a_question_sharing_no_word_is_answered_by_meaning_and_says_so(fixture_kb):
    store, _ = fixture_kb
    searcher = Searcher(index_dir(store))
    question = "how many players can take part?"
    assert searcher.search(question, dense=False)["results"] == []  # no word of it is in the rules
    found = searcher.search(question, limit=3)
    assert found["arms"] == ["words", "meaning"]
    assert "100.1" in [hit.get("rule") for hit in found["results"]]
    top = found["results"][0]
    assert top["meaning"]["only"] is True
    assert top["why"][0].startswith("found by meaning, not by its words")


def test_embeddings_are_cached_by_text_and_model(index_copy, private_cache):
    first = dense_build.write_from_cache(index_copy)
    assert first["embedded"] == first["rows"] == first["documents"] > 0
    again = dense_build.write_from_cache(index_copy)
    assert again["embedded"] == 0 and again["from_cache"] == again["rows"]
    assert list(private_cache.glob("embeddings/*.sqlite")) == [
        private_cache / "embeddings" / f"{dense.MODEL_VERSION}.sqlite"]


def test_a_build_leaves_many_texts_to_the_background_and_completing_is_resumable(index_copy, private_cache):
    # more texts missing than a build embeds itself: the arm is written from the cache alone
    left = dense_build.write_from_cache(index_copy, sync_limit=0)
    assert left["embedded"] == 0 and left["missing"] == left["documents"]
    searcher = Searcher(index_copy)
    assert searcher.search("what is a gadget?")["arms"] == ["words"]
    # bounded: a part embedded and swapped in, then the rest from where it stopped
    part = dense_build.complete(index_copy, max_new=5)
    assert part.embedded == 5 and part.stopped
    manifest = dense.read_manifest(index_copy)
    assert manifest["rows"] == 5 < manifest["documents"]
    partial = searcher.search("what is a gadget?")  # the same searcher sees the new arm
    assert partial["arms"] == ["words", "meaning"] and partial["meaning"]["state"] == "partial"
    before = os.readlink(index_copy / dense.LINK)
    rest = dense_build.complete(index_copy)
    assert rest.cached == 5 and rest.embedded == manifest["documents"] - 5 and not rest.stopped
    assert os.readlink(index_copy / dense.LINK) != before
    assert len(list(index_copy.glob(f"{dense.PREFIX}*"))) == 1  # the older arm removed
    assert searcher.search("what is a gadget?")["meaning"]["state"] == "complete"


def test_two_worker_processes_embed_what_one_would(index_copy, private_cache, monkeypatch):
    monkeypatch.setattr(dense_build, "BATCH", 2)  # a dozen documents: six chunks, shared by two workers
    state = dense_build.complete(index_copy, workers=2)
    assert state.embedded == state.total == dense.read_manifest(index_copy)["rows"] and not state.stopped
    cache = dense.Cache()
    try:
        entries = dense.entries(dense._Index(index_copy))
        stored = cache.get_many(e.digest for e in entries)
    finally:
        cache.close()
    alone = dense.embed_passages([entries[0].passage])[0]
    assert float(stored[entries[0].digest] @ alone) > 0.999  # the same vector as this process embeds


def test_the_newest_edition_of_each_language_is_embedded_first():
    rows = [{"edition": "en/1", "language": "en", "partial": False}, {"edition": "en/2", "language": "en", "partial": False},
            {"edition": "fr/a", "language": "fr", "partial": True}, {"edition": "fr/b", "language": "fr", "partial": True}]
    entries = [dense.Entry("old", "g1", "en", ["en/1"], "old text"), dense.Entry("new", "g2", "en", ["en/2"], "new"),
               dense.Entry("both", "g3", "en", ["en/1", "en/2"], "both"), dense.Entry("fr", "g4", "fr", ["fr/a"], "fr")]
    ordered = [e.key for e in dense_build.order(entries, rows)]
    assert ordered[-1] == "old" and set(ordered[:3]) == {"new", "both", "fr"}
    assert dense_build.first_phase(entries, rows) == 3


def test_only_one_process_completes_an_index(index_copy, private_cache):
    import fcntl

    with open(index_copy / dense.LOCK, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        assert dense.running(index_copy)
        state = dense_build.complete(index_copy)
    assert state.embedded == 0 and "another process" in state.stopped
    assert not dense.running(index_copy)


def test_rulekb_build_embed_completes_and_reports(fixture_kb, tmp_path, private_cache):
    store, _ = fixture_kb
    copy = tmp_path / "store"
    shutil.copytree(store.location, copy, symlinks=True)
    (index_dir(EmbeddedStore(copy)) / dense.LINK).unlink()  # the copy's index without its arm
    env = dict(os.environ, RULEKB_CACHE=str(private_cache))

    def run(*args):
        return subprocess.run([sys.executable, "-m", "rulekb.kb.cli", *args, "--store", str(copy), "--format", "json"],
                              capture_output=True, text=True, env=env, cwd=PROJECT)

    assert json.loads(run("search", "what is a gadget?").stdout)["meaning"]["state"] == "absent"
    done = run("build", "--embed", "now")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["to_embed"] >= 1
    assert "embeddings" in done.stderr  # progress on the terminal
    status = json.loads(run("build", "--embed", "status").stdout)
    assert status["rows"] == status["documents"] and status["running"] is False
    assert status["engine"] == "onnxruntime"  # which engine a search embeds with (its file derived by the embedding)
    assert json.loads(run("build", "--embed", "background").stdout) == {"complete": True}
    found = run("search", "how many players can take part?")
    assert found.returncode == 0 and json.loads(found.stdout)["arms"] == ["words", "meaning"]
    text = subprocess.run([sys.executable, "-m", "rulekb.kb.cli", "search", "what is a gadget?", "--store", str(copy)],
                          capture_output=True, text=True, env=env, cwd=PROJECT)
    assert text.stdout.startswith("arms: words + meaning")
    wrong = run("build", "--embed", "later")
    assert wrong.returncode == 2 and "--embed takes one of" in wrong.stderr and "Traceback" not in wrong.stderr


def test_the_background_job_completes_the_arm_detached_and_logs(index_copy, private_cache):
    started = dense_build.start_background(index_copy)
    deadline = time.monotonic() + 120
    def done() -> bool:
        manifest = dense.read_manifest(index_copy)
        return bool(manifest) and manifest["rows"] == manifest["documents"]

    while time.monotonic() < deadline and not done():
        time.sleep(0.5)
    while dense.running(index_copy) and time.monotonic() < deadline:
        time.sleep(0.2)
    manifest = dense.read_manifest(index_copy)
    assert manifest["rows"] == manifest["documents"]
    log = Path(started["log"]).read_text(encoding="utf-8")
    assert "embeddings" in log and "complete" in log


def test_build_add_embeds_only_the_new_editions_new_texts(fixtures, tmp_path, private_cache):
    from rulekb.kb.build import build

    from ..helpers import run_cli
    from ..test_new_edition import _later_edition

    first = build([str(fixtures / "invented-cr-2030-05-05.txt")], EmbeddedStore(tmp_path / "kb"), reasoner="none")
    assert first.search["dense"]["embedded"] == first.search["dense"]["rows"]  # a first, small build: all of it
    later = _later_edition(fixtures, tmp_path)
    env = dict(os.environ, RULEKB_CACHE=str(private_cache))
    result = run_cli("build", "--add", str(later), "--store", str(tmp_path / "kb"), "--reasoner", "none",
                     "--format", "json", env=env)
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)["search"]["dense"]
    # reworded 101.2, new 101.3 and its glossary entry, 200.1c's new text: a few, not the edition
    assert 1 <= figures["embedded"] <= 6 and figures["rows"] == figures["documents"] and figures["missing"] == 0
    assert figures["from_cache"] >= first.search["dense"]["rows"] - 2
    found = Searcher(index_dir(EmbeddedStore(tmp_path / "kb"))).search("which gadgets shine?", edition="en/2030-08-01")
    assert found["meaning"]["state"] == "complete" and found["results"][0]["rule"] == "101.3"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=60)
       | st.sampled_from(["[[", "]]", "\x00\x01\x1f", "*?:()\"'^~", "a" * 10_000, "[" * 999, "AND OR NOT"]))
def test_any_question_is_a_search_or_a_clear_refusal(fixture_kb, question):
    store, _ = fixture_kb
    searcher = Searcher(index_dir(store))
    try:
        found = searcher.search(question)
    except SearchError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 200
    else:
        assert isinstance(found["results"], list) and found["arms"][0] == "words"


GOLD_SAMPLE = """# a sample in the agreed format, written for this test: not gold questions
# written by reading the fixture's rules; split decided before any tuning
id\tlang\tedition\tsplit\tcards\ttopic\tquestion\trules\tnote
sc-en-001\ten\ten/2030-05-05\ttune\tSprocket | Gear\tother\tWho owns the [Sprocket] Bo borrowed?\t101.1\towner
sc-en-002\ten\ten/2030-05-05\theld\t\tturn\tin which order do the steps of a turn come?\t200.1 200.1a\tsteps
"""


def test_the_bench_reads_the_new_gold_format_and_measures_its_rankers(fixture_kb, tmp_path):
    store, _ = fixture_kb
    path = tmp_path / "search_scenarios.tsv"
    path.write_text(GOLD_SAMPLE, encoding="utf-8")
    questions = bench.load_gold(path)
    assert [q.split for q in questions] == ["tune", "held"] and questions[0].cards == ["Sprocket", "Gear"]
    assert [q.tuning for q in questions] == [True, False]
    figures = bench.run_sets(Searcher(index_dir(store)), bench.gold_sets([path]))["search_scenarios"]
    assert set(figures["held_out"]) == set(bench.RANKERS)
    assert figures["tuning"]["fused"]["questions"] == 1 and figures["held_out"]["bm25"]["questions"] == 1
    assert "all@10" in figures["held_out"]["fused"] and figures["latency_ms"]["one_edition_p95"] > 0
    assert figures["arms"] == {"words+meaning": 2}
    # card names: the gold's against what search recognised, per part
    assert figures["cards"]["tuning"]["named"] == 2 and figures["cards"]["held_out"]["named"] == len(questions[1].cards)
    assert 0 <= figures["cards"]["tuning"]["recognised"] <= 2
    bad = tmp_path / "bad.tsv"
    bad.write_text(GOLD_SAMPLE.replace("\theld\t", "\tlater\t"), encoding="utf-8")
    from rulekb.kb.errors import KBError

    with pytest.raises(KBError, match="split"):
        bench.load_gold(bad)


@pytest.mark.corpus
def test_the_dense_arm_on_the_corpus_index_a_bounded_part(corpus_kb, tmp_path, private_cache):
    """The first texts of the newest editions (the French texts, then en/2026-01-16) embedded
    into a copy of the corpus index: the arm answers where it has rows, and says it is partial."""
    store, _ = corpus_kb
    copy = tmp_path / "index"
    shutil.copytree(index_dir(store), copy, ignore=shutil.ignore_patterns("dense*"))
    done = dense_build.complete(copy, max_new=48)
    assert done.embedded == 48 and done.total > 10_000 and done.stopped
    manifest = dense.read_manifest(copy)
    assert manifest["rows"] >= 48 and manifest["documents"] > 20_000
    older = [ed for ed, (rows, _) in manifest["editions"].items() if ed.startswith("en/") and ed < "en/2020"]
    assert older and all(manifest["editions"][ed][0] <= manifest["editions"]["en/2026-01-16"][0] for ed in older)
    searcher = Searcher(copy)
    found = searcher.search("une créature qui vient d'arriver peut-elle attaquer ?", lang="fr")
    assert found["arms"] == ["words", "meaning"] and found["meaning"]["state"] == "partial"
    assert any("meaning" in hit for hit in found["results"])
    english = searcher.search("summoning sickness", edition="en/2010-07-01" if "en/2010-07-01" in manifest["editions"]
                              else older[0], limit=3)
    assert english["arms"] == ["words"] or english["meaning"]["state"] == "partial"


def test_numpy_gets_one_thread_before_it_is_first_imported():
    # the arm's vectors import numpy before the model does: the thread limits must already be set
    import subprocess
    import sys

    code = ("import os, sys\n"
            "import rulekb.kb.service, rulekb.kb.search.engine\n"
            "assert 'numpy' not in sys.modules, 'numpy imported before the search sets its threads'\n"
            "print(os.environ['OPENBLAS_NUM_THREADS'], os.environ['OMP_NUM_THREADS'])\n")
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0 and done.stdout.split() == ["1", "1"], done.stderr

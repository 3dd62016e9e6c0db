"""tests/corpus_build.py: the corpus KB of a run is built once, in the background, and a
build that fails fails the tests that wait for it, loudly, with the end of its log."""

from __future__ import annotations

import pytest

from . import corpus_build


def test_a_failed_build_fails_the_waiting_tests_with_its_log(tmp_path):
    corpus = tmp_path / "corpus"
    (corpus / "en").mkdir(parents=True)
    (corpus / "fr").mkdir()
    with pytest.raises(RuntimeError, match="the corpus build failed") as failed:
        corpus_build.wait(corpus, tmp_path / "run")
    assert "no rules documents" in str(failed.value)  # the end of the build's own message
    assert corpus_build.start(corpus, tmp_path / "run") is None  # started once per run, never twice

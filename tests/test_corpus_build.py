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


class _Config:
    """What ``_whole_suite_on_workers`` reads of a pytest config."""

    def __init__(self, args_source=pytest.Config.ArgsSource.TESTPATHS, worker=False, **options):
        self.args_source = args_source
        self.options = {"numprocesses": 3, **options}
        if worker:
            self.workerinput = {}

    def getoption(self, name, default=None):
        return self.options.get(name, default)


def test_the_whole_suite_on_workers_starts_the_build_before_they_collect():
    """``python -m pytest`` (the README's and CI's command) starts the corpus build in the
    process that starts the workers; a run of chosen tests, of selected names, in one process
    or in a worker leaves it to the first worker that collects a test needing it."""
    from .conftest import _whole_suite_on_workers

    assert _whole_suite_on_workers(_Config())
    assert not _whole_suite_on_workers(_Config(pytest.Config.ArgsSource.ARGS))  # pytest tests/web
    assert not _whole_suite_on_workers(_Config(keyword="page"))
    assert not _whole_suite_on_workers(_Config(lf=True))
    assert not _whole_suite_on_workers(_Config(collectonly=True))
    assert not _whole_suite_on_workers(_Config(numprocesses=0))
    assert not _whole_suite_on_workers(_Config(worker=True))


def test_a_listing_of_the_tests_starts_no_build():
    """``pytest --collect-only`` collects the corpus tests but runs none: no build is started."""
    from .conftest import _runs_tests

    assert _runs_tests(_Config()) and _runs_tests(_Config(numprocesses=0))
    assert not _runs_tests(_Config(collectonly=True))

"""Shared fixtures. The corpus is read from beside the project, never copied in.

Tests that need the real corpus use the ``corpus`` fixture: when the corpus is
missing they skip on a developer machine but FAIL in CI (``CI=true``), so a CI
run can never go green by skipping them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rulekb.kb.corpus import corpus_dir

from .helpers import need

FIXTURES = Path(__file__).parent / "fixtures"
# the builds of the tests read the invented card file unless told otherwise (kb.cards.build):
# not the corpus's 30,000 cards into every small fixture KB (the corpus build names its own)
os.environ.setdefault("RULEKB_CARDS", str(FIXTURES / "cards" / "invented-cards.json"))



@pytest.fixture(scope="session")
def corpus() -> Path:
    found = corpus_dir()
    if found is None or not (found / "en").is_dir():
        message = "the rules corpus is missing (set RULEKB_CORPUS or put it at ../shared/corpus)"
        need(message)
    return found


@pytest.fixture(scope="session")
def fixtures() -> Path:
    return FIXTURES


# the tests of the meaning arm itself, which set RULEKB_DENSE and the embedding cache as they need
_DENSE_TESTS = {"tests/search/test_dense.py"}


@pytest.fixture(autouse=True)
def _lexical_over_real_texts(request, monkeypatch):
    """A test over real rules texts builds with RULEKB_DENSE=off (unless it says otherwise),
    as the corpus KB is (tests/corpus_build.py). With the default, ``rulekb build`` of a few
    real editions into a test's own empty cache leaves a detached process embedding thousands
    of texts (minutes of both cores) that outlives the test and that no test reads; the dense
    arm is tested on the fixture KB and on a bounded part of the corpus index
    (tests/search/test_dense.py)."""
    if "corpus" in request.fixturenames and "RULEKB_DENSE" not in os.environ \
            and request.node.nodeid.split("::")[0] not in _DENSE_TESTS:
        monkeypatch.setenv("RULEKB_DENSE", "off")


@pytest.fixture(autouse=True)
def _private_data_home(request, monkeypatch, tmp_path_factory):
    """Nothing a test runs writes into the user's ``~/.local/share``: a KB read over a remote
    store keeps its local search index under ``$XDG_DATA_HOME/rulekb/search-remote``
    (kb.search.home), which a test gets in the run's own temporary directory (a test that
    sets its own keeps it)."""
    if "XDG_DATA_HOME" not in os.environ:
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.getbasetemp() / "data-home"))


def _shared_tmp(factory) -> Path:
    """The run's temporary directory all its processes share: under xdist each worker's
    own is a folder of it (``popen-gwN``)."""
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


_build = {}  # the corpus build this process started (tests.corpus_build), if any

# The modules of corpus-KB tests that take longest (a test of 10-30 s, or many of a few seconds)
# run first among those tests, longest first: the run ends on short tests on every worker,
# not with one worker alone on a long one while the others have nothing left to take.
_LONG_FIRST = {module: rank for rank, module in enumerate((
    "tests/rdf/test_kb_corpus.py",
    "tests/translate/test_report_lineages_corpus.py",
    "tests/translate/test_base_candidates_corpus.py",
    "tests/web/test_page_data.py",
    "tests/lineage/test_lineage_kb.py",
    "tests/translate/test_exchange_corpus.py",
    "tests/search/test_dense.py",
    "tests/timeline/test_timeline_corpus.py",
    "tests/store/test_kb_queries.py",  # (many short ones after the long: they fill the other workers' gaps)
    "tests/web/test_web_sparql.py",
))}


def pytest_xdist_auto_num_workers(config):
    """``-n auto`` (pyproject's addopts): one worker more than the cores this process may use.
    A worker often waits rather than computes (on a server it started, a subprocess's start,
    a timeout, the corpus build before its first corpus test); the extra worker's tests take
    the core meanwhile. Its cost is one more collection and one more set of session fixtures.
    ``PYTEST_XDIST_AUTO_NUM_WORKERS`` says how many instead."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS", "").isdigit():
        return int(os.environ["PYTEST_XDIST_AUTO_NUM_WORKERS"])
    return _cores() + 1


def _cores() -> int:
    """The cores this process may use: its CPU affinity, bounded by a cgroup's CPU quota (a
    container given 2 CPUs of a 64-core host runs 3 workers, not 65)."""
    import math

    cores = len(os.sched_getaffinity(0))
    try:
        quota, period = Path("/sys/fs/cgroup/cpu.max").read_text().split()
        if quota != "max":
            cores = min(cores, max(1, math.ceil(int(quota) / int(period))))
    except (OSError, ValueError):
        pass
    return cores


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    """The tests that need the corpus KB run last, and its build starts now, in the
    background, so the other tests run while it builds (one build for all workers)."""
    needing = [item for item in items if "corpus_kb" in getattr(item, "fixturenames", ())]
    if not needing:
        return
    others = [item for item in items if "corpus_kb" not in getattr(item, "fixturenames", ())]
    needing.sort(key=lambda item: _LONG_FIRST.get(item.nodeid.split("::")[0], len(_LONG_FIRST)))  # (stable)
    items[:] = others + needing
    found = corpus_dir()
    if found is not None and (found / "en").is_dir() and _runs_tests(config):
        from . import corpus_build

        child = corpus_build.start(found, _shared_tmp(config._tmp_path_factory))
        if child is not None:
            _build["child"] = child


@pytest.hookimpl(trylast=True)  # (after the tmp_path plugin's: the run's temporary directory)
def pytest_configure(config):
    """The whole suite on workers (the README's and CI's command): the process that starts the
    workers starts the corpus build now, before they start and collect (seconds of every
    core), as the corpus tests wait for it. Other runs start it when a worker collects a test
    that needs it (pytest_collection_modifyitems)."""
    if not _whole_suite_on_workers(config):
        return
    found = corpus_dir()
    if found is not None and (found / "en").is_dir():
        from . import corpus_build

        child = corpus_build.start(found, config._tmp_path_factory.getbasetemp())
        if child is not None:
            _build["child"] = child


def _runs_tests(config) -> bool:
    """Not ``--collect-only``: a listing of the tests starts no corpus build (it waited minutes at
    exit for a build nobody reads)."""
    return not config.getoption("collectonly", False)


def _whole_suite_on_workers(config) -> bool:
    return (not hasattr(config, "workerinput") and bool(config.getoption("numprocesses", None))
            and config.args_source == pytest.Config.ArgsSource.TESTPATHS
            and not any(config.getoption(name, None) for name in (
                "keyword", "markexpr", "collectonly", "lf", "failedfirst", "stepwise", "deselect")))


def pytest_unconfigure(config):
    child = _build.pop("child", None)
    if child is not None:  # another worker may still wait for it: let it finish
        child.wait()


@pytest.fixture(scope="session")
def corpus_kb(corpus, tmp_path_factory):
    """The whole corpus (English and French) built once per test run into an embedded
    store, shared by every test (and every xdist worker) that needs the real KB; the build
    runs in the background from collection on (tests/corpus_build.py)."""
    from . import corpus_build

    return corpus_build.wait(corpus, _shared_tmp(tmp_path_factory))


@pytest.fixture(scope="session")
def corpus_page_rows(corpus_kb, tmp_path_factory):
    """The rows of page-structure, page-lineages and page-flags the corpus build handed its page
    data writer from its memory instead of asking the store (tests/corpus_build.py keeps them)."""
    from . import corpus_build

    return corpus_build.page_rows(_shared_tmp(tmp_path_factory))


@pytest.fixture(scope="session")
def corpus_rows(corpus_kb, tmp_path_factory):
    """``corpus_rows(name)``: the rows of a whole-store query more than one test asks of the
    corpus KB (tests.corpus_build.SHARED_ROWS), asked once per run for every worker."""
    from . import corpus_build

    store, _ = corpus_kb
    shared = _shared_tmp(tmp_path_factory)
    return lambda name: corpus_build.rows(shared, store, name)


def _built(tmp_path_factory, name: str, source: Path, **options):
    """(store, build report) of ``source`` built into a fresh temporary store."""
    from rulekb.kb.build import build
    from rulekb.kb.store.embedded import EmbeddedStore

    store = EmbeddedStore(tmp_path_factory.mktemp(name) / "store")
    return store, build([str(source)], store, **options)


def _served(kb):
    """``rulekb serve``'s app over ``kb``'s store on a loopback port: yields its root URL."""
    from rulekb.kb.web.app import create_app

    from .helpers import WebServer

    store, _ = kb
    with WebServer(create_app(store)) as root:
        yield root


@pytest.fixture(scope="session")
def fixture_kb(tmp_path_factory):
    """A small store built from the invented edition in tests/fixtures."""
    return _built(tmp_path_factory, "fixture-kb", FIXTURES / "invented-cr-2030-05-05.txt")


@pytest.fixture(scope="session")
def numbers_kb(tmp_path_factory):
    """Three invented editions (tests/fixtures/numbers): en/2021-01-01 (rule 101.1 with subrules
    a .. z), en/2021-04-01 (the same with 101.1aa and 101.1ab, cited as "rules 101.1z-aa"), and
    its French translation fr/2021-04-01: (store, its directory)."""
    from rulekb.kb.build import build
    from rulekb.kb.store.embedded import EmbeddedStore

    location = tmp_path_factory.mktemp("numbers-kb") / "store"
    store = EmbeddedStore(location)
    build([str(FIXTURES / "numbers" / name) for name in (
        "invented-cr-2021-01-01.txt", "invented-cr-2021-04-01.txt", "invented-cr-fr-2021-04-01.txt")], store)
    return store, location


@pytest.fixture(scope="session")
def corpus_web(corpus_kb):
    """The app over the whole corpus KB: its root URL."""
    yield from _served(corpus_kb)


@pytest.fixture(scope="session")
def fixture_web(fixture_kb):
    """The app over the invented fixture edition (markup in its rule text): its root URL."""
    yield from _served(fixture_kb)


@pytest.fixture(scope="session")
def hostile_kb(tmp_path_factory):
    """A store built from an invented rules page whose rule text, examples and glossary hold
    markup (<script>, event handlers, javascript: links, template syntax) as literal text."""
    return _built(tmp_path_factory, "hostile-kb", FIXTURES / "web" / "invented-hostile-2031-01-01.html", reasoner="none")


@pytest.fixture(scope="session")
def hostile_web(hostile_kb):
    """The app over the hostile fixture: its root URL. Edition en/2031-01-01."""
    yield from _served(hostile_kb)


@pytest.fixture(scope="session")
def browser():
    """Headless Chromium driven by Selenium (Debian chromium + chromium-driver, which .ci/run
    installs): skipped on a machine without them, a failure in CI."""
    import shutil

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if not (chromium and driver_path):
        message = "headless Chromium is missing (apt-get install chromium chromium-driver)"
        need(message)
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1000"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(driver_path))
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()


TIMELINE_FILES = ("CR-2009-07-08.txt", "CR-2009-07-11.txt", "CR-2009-10-01.txt", "CR-2010-02-01.txt")


@pytest.fixture(scope="session")
def timeline_kb(corpus, tmp_path_factory):
    """Four real English editions (a tie of effective dates: en/2009-07-08 states 2009-07-11,
    as en/2009-07-11 does), without reasoning: (store, its directory)."""
    from rulekb.kb.build import build
    from rulekb.kb.store.embedded import EmbeddedStore

    location = tmp_path_factory.mktemp("timeline-kb") / "store"
    store = EmbeddedStore(location)
    build([str(corpus / "en" / name) for name in TIMELINE_FILES], store, reasoner="none")
    return store, location


@pytest.fixture(scope="session")
def timeline_web(timeline_kb):
    from rulekb.kb.web.app import create_app

    from .helpers import WebServer

    store, _ = timeline_kb
    with WebServer(create_app(store)) as root:
        yield root

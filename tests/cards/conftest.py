"""The cards tests' KB: invented rules (tests/fixtures/search) and invented cards (tests/fixtures/cards),
built once for the package's modules, and a web server over it."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..helpers import WebServer

FIXTURES = Path(__file__).parents[1] / "fixtures"
CARDS = FIXTURES / "cards" / "invented-cards.json"
ATOMIC = FIXTURES / "cards" / "invented-atomic.json"
RULES = FIXTURES / "search" / "invented-cr-2041-01-01.txt"
EDITION = "en/2041-01-01"


@pytest.fixture(scope="package")
def kb(tmp_path_factory):
    from rulekb.kb.build import build
    from rulekb.kb.store.embedded import EmbeddedStore

    store = EmbeddedStore(tmp_path_factory.mktemp("cards-kb") / "store")
    report = build([str(RULES)], store, reasoner="none", cards=str(CARDS))
    return store, report


@pytest.fixture(scope="package")
def web(kb):
    from rulekb.kb.web.app import create_app

    with WebServer(create_app(kb[0])) as root:
        yield root

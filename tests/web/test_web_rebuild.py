"""A server that outlives a rebuild serves the new KB: the store follows the swapped
``current`` symlink (the build deletes the old data), /sparql's worker processes too,
and the response cache starts afresh."""

from __future__ import annotations

import time
from pathlib import Path
from urllib.parse import quote

from ..helpers import WebServer, http

FIXTURES = Path(__file__).parents[1] / "fixtures"
OLD = FIXTURES / "invented-cr-2030-05-05.txt"
NEW = FIXTURES / "web" / "invented-hostile-2031-01-01.html"


def _edition_count(root: str) -> bytes:
    query = "SELECT (COUNT(*) AS ?n) WHERE { ?e <https://w3id.org/rulekb#editionId> ?id }"
    return http(root + "sparql?query=" + quote(query), headers={"Accept": "text/csv"})[2]


def test_a_running_server_serves_the_new_build(tmp_path):
    from rulekb.kb.build import build
    from rulekb.kb.cli.serve_commands import build_app
    from rulekb.kb.store.embedded import EmbeddedStore

    store = EmbeddedStore(tmp_path / "store")
    build([str(OLD)], store, reasoner="none")
    app = build_app(store, None, max_rows=1000, timeout=10, cache=100, query_workers=1)
    with WebServer(app) as root:
        old_rule = root + "edition/en/2030-05-05/rule/100.1"
        new_rule = root + "edition/en/2031-01-01/rule/100.1"
        assert http(old_rule, headers={"Accept": "text/turtle"})[0] == 200
        assert http(new_rule, headers={"Accept": "text/turtle"})[0] == 404
        before = _edition_count(root)
        assert b"2030-05-05" in http(root, headers={"Accept": "text/html"})[2]  # the editions list, now kept
        assert b"2030-05-05" in http(root + "void.ttl")[2]

        build([str(NEW)], EmbeddedStore(tmp_path / "store"), reasoner="none")  # another process's build
        time.sleep(EmbeddedStore.FOLLOW_EVERY + 0.2)

        assert http(new_rule, headers={"Accept": "text/turtle"})[0] == 200
        assert http(old_rule, headers={"Accept": "text/turtle"})[0] == 404  # not the cached 200
        status, _, page = http(new_rule, headers={"Accept": "text/html"})
        assert status == 200 and "&lt;script&gt;" in page.decode()
        after = _edition_count(root)
        assert before.splitlines()[1] == after.splitlines()[1] == b"1"  # one edition each time...
        rows = http(root + "sparql?query=" + quote("SELECT ?id WHERE { ?e <https://w3id.org/rulekb#editionId> ?id }"),
                    headers={"Accept": "text/csv"})[2]
        assert b"en/2031-01-01" in rows and b"en/2030-05-05" not in rows  # ...and the new one in the workers
        # what the pages keep (the editions list, VoID's statistics) is kept per build
        home = http(root, headers={"Accept": "text/html"})[2]
        assert b"2031-01-01" in home and b"2030-05-05" not in home
        dataset = http(root + "void.ttl")[2]
        assert b"2031-01-01" in dataset and b"2030-05-05" not in dataset

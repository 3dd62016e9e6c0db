"""A new edition arrives: ``rulekb fetch --check`` against a local HTTP server
standing in for the official rules page, and ``rulekb build --add``."""

from __future__ import annotations

import functools
import http.server
import json
import threading

import pytest

from rulekb.kb.build import build
from rulekb.kb.store.embedded import EmbeddedStore

from .helpers import free_port, invoke_cli, run_cli

ED = "en/2030-05-05"  # the invented fixture edition


class _Page(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 -- http.server's name
        body = self.server.pages.get(self.path)
        if body is None:
            self.send_error(404)
            return
        data = body.encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def site():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    server.pages = {
        "/rules-current": '<p><a href="https://media.example.org/2030/downloads/MagicCompRules%2020300505.txt">TXT</a>'
                          '<a href="/downloads/MagicCompRules 20300505.pdf">PDF</a>'
                          '<a href="/2029/MagicCompRules_20291101.txt">older</a></p>',
        "/rules-newer": '<a href="/downloads/MagicCompRules%2020300505.txt">old</a>'
                        '<a href="/downloads/MagicCompRules%2020300801.docx">DOCX</a>'
                        '<a href="/downloads/MagicCompRules%2020300801.txt">TXT</a>',
        "/no-rules": "<html><body>Maintenance</body></html>",
    }
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def kb_dir(tmp_path_factory, fixtures):
    root = tmp_path_factory.mktemp("kb") / "store"
    build([str(fixtures / "invented-cr-2030-05-05.txt")], EmbeddedStore(root), reasoner="none")
    return root



def test_fetch_check_says_up_to_date(site, kb_dir):
    result = run_cli("fetch", "--check", "--site", f"{site}/rules-current", "--store", str(kb_dir), "--format", "json")
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    assert found["up_to_date"] and found["newer"] == []
    assert found["listed_newest"]["date"] == "2030-05-05" and found["kb_newest"] == "2030-05-05"
    text = run_cli("fetch", "--check", "--site", f"{site}/rules-current", "--store", str(kb_dir))
    assert text.returncode == 0 and text.stdout.startswith("up to date")


def test_fetch_check_names_the_newer_edition_and_its_text(site, kb_dir):
    result = run_cli("fetch", "--check", "--site", f"{site}/rules-newer", "--store", str(kb_dir), "--format", "json")
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    assert not found["up_to_date"]
    assert found["newer"] == [{"date": "2030-08-01", "url": f"{site}/downloads/MagicCompRules%2020300801.txt"}]
    text = run_cli("fetch", "--check", "--site", f"{site}/rules-newer", "--store", str(kb_dir))
    assert "newer edition listed: 2030-08-01" in text.stdout and "build --add" in text.stdout


@pytest.mark.parametrize("path", ["/no-rules", "/missing"])
def test_fetch_check_on_a_page_without_rules_is_one_line_exit_2(site, kb_dir, path):
    result = run_cli("fetch", "--check", "--site", site + path, "--store", str(kb_dir))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("rulekb: error:")
    assert "Traceback" not in result.stderr


def test_fetch_check_offline_is_one_line_exit_2(kb_dir):
    result = run_cli("fetch", "--check", "--site", f"http://127.0.0.1:{free_port()}/rules", "--store", str(kb_dir))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "offline" in result.stderr


# ---------------------------------------------------------------- rulekb build --add

def _later_edition(fixtures, folder):
    """The fixture's next edition: a new date, rule 101.2 reworded, a rule and a
    glossary term added, rule 200.1c renumbered 200.1d."""
    text = (fixtures / "invented-cr-2030-05-05.txt").read_text(encoding="utf-8")
    text = text.replace("effective as of May 5, 2030", "effective as of August 1, 2030")
    text = text.replace("101.2. The supertypes are basic, shiny, and rusty.",
                        "101.2. The supertypes are basic, shiny, rusty, and golden.\n\n"
                        "101.3. A golden gadget is a gadget that shines. See rule 101.2.")
    text = text.replace("200.1c The rest step comes last.", "200.1c The nap step comes third.\n\n"
                        "200.1d The rest step comes last.")
    text = text.replace("Rusty\nA supertype.", "Golden\nA supertype of shiny gadgets. See rule 101.3.\n\nRusty\nA supertype.")
    path = folder / "invented-cr-2030-08-01.txt"
    path.write_text(text, encoding="utf-8")
    return path


def _quads(root) -> set[str]:
    import re

    return {re.sub(r"_:\S+", "_:b", str(q)) for q in EmbeddedStore(root).store()}


def _index(root) -> tuple[list, dict]:
    """Every document of a store's search index (its stored fields), and the index's editions and concepts."""
    import tantivy

    from rulekb.kb.search.home import index_dir
    from rulekb.kb.search.index import open_index

    index, meta = open_index(index_dir(EmbeddedStore(root)))
    searcher = index.searcher()
    hits = searcher.search(tantivy.Query.all_query(), searcher.num_docs + 1).hits
    docs = sorted(sorted((name, tuple(values) if name == "editions" else tuple(sorted(values)))
                         for name, values in searcher.doc(address).to_dict().items()) for _, address in hits)
    return docs, {"editions": meta["editions"], "concepts": meta["concepts"], "renames": meta["renames"]}


def test_build_add_gives_the_store_a_full_build_gives(fixtures, tmp_path):
    first = fixtures / "invented-cr-2030-05-05.txt"
    later = _later_edition(fixtures, tmp_path)
    build([str(first), str(later)], EmbeddedStore(tmp_path / "full"), reasoner="owlrl")
    build([str(first)], EmbeddedStore(tmp_path / "kb"), reasoner="owlrl")
    old_build = (tmp_path / "kb" / "current").resolve()
    result = run_cli("build", "--add", str(later), "--store", str(tmp_path / "kb"), "--reasoner", "owlrl",
                     "--format", "json")
    assert result.returncode == 0, result.stderr
    added = json.loads(result.stdout)
    assert added["edition"] == "en/2030-08-01" and added["predecessor"] == ED
    assert added["predecessor_from"] == "source" and added["changes"] >= 3 and added["new_concepts"] == 1
    assert "rulekb build --add: load 1/1 done in" in result.stderr  # stage lines, stderr not a terminal
    assert (tmp_path / "kb" / "current").resolve() != old_build and not old_build.exists()
    # the cards stay linked to the edition the last full build linked them to (docs/cards.md): a
    # full build links them to its newest English edition, so graph/cards is compared apart
    cards_graph = "<http://localhost:8000/graph/cards>"
    kb, full = _quads(tmp_path / "kb"), _quads(tmp_path / "full")
    assert {q for q in kb if not q.endswith(cards_graph)} == {q for q in full if not q.endswith(cards_graph)}
    assert any(q.endswith(cards_graph) for q in kb)  # still there, as the last full build wrote it
    assert added["search"]["added"] >= 3 and added["search"]["extended"] >= 10  # the edition is in the index
    assert not any("search index" in item for item in added["not_redone"])
    assert _index(tmp_path / "kb") == _index(tmp_path / "full")  # the same documents a full build indexes
    _the_same_page_data(EmbeddedStore(tmp_path / "kb"), EmbeddedStore(tmp_path / "full"), added)
    found = invoke_cli("search", "golden gadget", "--edition", "en/2030-08-01", "--store", str(tmp_path / "kb"),
                    "--format", "json")
    assert found.returncode == 0 and "101.3" in found.stdout, found.stdout + found.stderr
    history = invoke_cli("history", "200.1d", "--edition", "en/2030-08-01", "--store", str(tmp_path / "kb"), "--format", "json")
    assert history.returncode == 0 and "200.1c" in history.stdout


def test_build_add_refuses_what_it_cannot_add_and_leaves_the_kb_as_it_was(fixtures, tmp_path, kb_dir):
    before = (kb_dir / "current").resolve()
    again = run_cli("build", "--add", str(fixtures / "invented-cr-2030-05-05.txt"), "--store", str(kb_dir))
    errors = [line for line in again.stderr.splitlines() if line.startswith("rulekb: error:")]
    assert again.returncode == 2 and len(errors) == 1 and "already in the KB" in errors[0]
    assert "Traceback" not in again.stderr
    # (an older edition is inserted, a re-publication replaced with --replace: tests/test_update.py)
    nothing = run_cli("build", "--add", str(tmp_path / "missing.txt"), "--store", str(kb_dir))
    assert nothing.returncode == 2 and "Traceback" not in nothing.stderr
    empty = run_cli("build", "--add", str(fixtures / "invented-cr-2030-05-05.txt"), "--store", str(tmp_path / "none"))
    assert empty.returncode == 2 and "build it first" in empty.stderr
    assert (kb_dir / "current").resolve() == before


def _the_same_page_data(added_to: EmbeddedStore, full: EmbeddedStore, report: dict,
                        edition: str = "en/2030-08-01", incremental: bool = True) -> None:
    """--add brings the rule pages' data up to date itself (kb.pages.incremental; an inserted
    edition: the whole file, ``incremental=False``): every answer the file gives for every rule
    version, query and window is a full build's."""
    from rulekb.kb.pages import ANSWERED, PageData, companion
    from rulekb.kb.pages.changes import ALL

    assert not any("pages" in item for item in report["not_redone"])
    assert report["pages"]["file"] == str(companion(added_to.data_dir()))
    assert report["pages"].get("incremental", False) is incremental
    mine, theirs = PageData(companion(added_to.data_dir())), PageData(companion(full.data_dir()))
    try:
        # --add's file carries no digest of what it was written from (kb.pages.reuse): a copy's
        # would be the previous build's, letting a rebuild of the previous KB take it
        assert mine._db.execute("SELECT value FROM meta WHERE key = 'inputs'").fetchone() is None
        assert mine.answers == theirs.answers and mine.has_changes and theirs.has_changes
        keys = {key for data in (mine, theirs) for key in data._db.execute("SELECT edition, number FROM rules")}
        answered = 0
        for key_edition, number in sorted(keys):
            for name in sorted(ANSWERED):
                rows = mine.rows(name, key_edition, number)
                assert rows == theirs.rows(name, key_edition, number), (name, key_edition, number)
                answered += rows is not None and key_edition == edition
        assert answered > 50  # the new edition's rules are answered from the file, not left to the store
        assert mine.changes(ALL["from"], ALL["to"], None) == theirs.changes(ALL["from"], ALL["to"], None)
        # every rule's examples (what --base auto scores with), the new edition's added
        editions = sorted({key[0] for key in keys})
        assert mine.has_examples and mine.examples(editions) == theirs.examples(editions)
        assert any(key[0] == edition for key in mine.examples(editions))
        # and every English rule's scoring evidence (kb.translate.kept), the new edition's added
        assert mine.features_digest == theirs.features_digest is not None
        assert mine.features_held(editions) == theirs.features_held(editions) and edition in mine.features_held(editions)
        mine_rows, mine_sets = mine.feature_rows(editions)
        theirs_rows, theirs_sets = theirs.feature_rows(editions)
        assert [(e, n, mine_sets[i]) for e, rules in mine_rows for n, i in rules] == \
            [(e, n, theirs_sets[i]) for e, rules in theirs_rows for n, i in rules]
        assert any(e == edition for e, _ in mine_rows)
    finally:
        mine.close()
        theirs.close()

"""A new edition comes in: ``rulekb update`` against a real local HTTP server standing in for
the official rules page and its downloads, and ``build --add`` of an edition that is not the
newest (a gap filled) or of a re-publication (``--replace``)."""

from __future__ import annotations

import http.server
import json
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekb.kb.build import build
from rulekb.kb.store.embedded import EmbeddedStore

from .helpers import free_port, invoke_cli, run_cli
from .test_new_edition import _index, _later_edition, _quads, _the_same_page_data

FIRST = "en/2030-05-05"


class _Site(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 -- http.server's name
        body = self.server.pages.get(self.path.split("?")[0])
        if body is None:
            self.send_error(404)
            return
        data = body if isinstance(body, bytes) else body.encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8" if self.path.startswith("/rules")
                         else "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


def _link(name: str) -> str:
    return f'<a href="/downloads/{name.replace(" ", "%20")}">{name}</a>'


@pytest.fixture(scope="module")
def texts(fixtures, tmp_path_factory):
    """The fixture edition's next two editions (new dates, rules reworded, added, renumbered)."""
    folder = tmp_path_factory.mktemp("texts")
    later = _later_edition(fixtures, folder).read_text(encoding="utf-8")
    third = later.replace("effective as of August 1, 2030", "effective as of November 1, 2030").replace(
        "101.1. A gadget is a card on the table.", "101.1. A gadget is a card on the play table.").replace(
        "200.1a The wind step comes first.\n\n", "")  # a rule removed: its lineage ends
    assert third != later and "200.1a The wind" not in third
    return {"2030-08-01": later, "2030-11-01": third}


@pytest.fixture(scope="module")
def site(texts):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Site)
    later = texts["2030-08-01"]
    truncated = later[: later.index("200.1b")]  # stops in the rules: no glossary, no credits
    server.pages = {
        "/rules": "<p>" + _link("MagicCompRules 20300505.txt") + _link("MagicCompRules 20300801.txt") + "</p>",
        "/rules-two": "<p>" + _link("MagicCompRules 20300801.txt") + _link("MagicCompRules 20301101.txt") + "</p>",
        "/rules-truncated": _link("MagicCompRules 20300801.txt").replace("/downloads/", "/cut/"),
        "/rules-misdated": _link("MagicCompRules 20300901.txt"),
        "/rules-html": _link("MagicCompRules 20300801.txt").replace("/downloads/", "/html/"),
        "/rules-none": "<html><body>Maintenance</body></html>",
        "/downloads/MagicCompRules 20300801.txt": later,
        "/downloads/MagicCompRules 20301101.txt": texts["2030-11-01"],
        "/downloads/MagicCompRules 20300901.txt": later,  # listed as 09-01, effective 08-01
        "/cut/MagicCompRules 20300801.txt": truncated,
        "/html/MagicCompRules 20300801.txt": "<html><body>Not found</body></html>",
    }
    server.pages = {path.replace(" ", "%20"): body for path, body in server.pages.items()}
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture()
def one_edition_kb(fixtures, tmp_path):
    root = tmp_path / "store"
    build([str(fixtures / "invented-cr-2030-05-05.txt")], EmbeddedStore(root), reasoner="none")
    return root



def _update(site_page: str, store, cache, *more: str):
    return run_cli("update", "--site", site_page, "--store", str(store), "--cache", str(cache), "--reasoner", "none",
                   *more)


def _one_error_line(result) -> str:
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("rulekb: error:")]
    assert len(errors) == 1, result.stderr
    return errors[0]


def test_update_dry_run_says_what_it_would_add_and_changes_nothing(site, one_edition_kb, tmp_path):
    before = (one_edition_kb / "current").resolve()
    result = _update(f"{site}/rules-two", one_edition_kb, tmp_path / "cache", "--dry-run")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[:2] == [
        f"would add en/2030-08-01 from {site}/downloads/MagicCompRules%2020300801.txt",
        f"would add en/2030-11-01 from {site}/downloads/MagicCompRules%2020301101.txt"]
    assert (one_edition_kb / "current").resolve() == before and not (tmp_path / "cache").exists()


def test_update_adds_every_newer_edition_in_date_order_and_says_what_changed(site, one_edition_kb, tmp_path, fixtures):
    result = _update(f"{site}/rules-two", one_edition_kb, tmp_path / "cache", "--format", "json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert [a["edition"] for a in report["added"]] == ["en/2030-08-01", "en/2030-11-01"]
    first, second = report["added"]
    assert first["previous"] == FIRST and second["previous"] == "en/2030-08-01"
    # what the later fixture changed: 101.2 reworded, 101.3 added, 200.1c's text now 200.1d's
    assert {"101.3"} <= {i["new"] for i in first["changes"]["added"]}
    assert "101.2" in {i["new"] for i in first["changes"]["modified"]}
    assert ("200.1c", "200.1d") in {(i["old"], i["new"]) for i in first["changes"]["renumbered"]}
    assert second["counts"] == {"modified": 1, "removed": 1} and second["changes"]["modified"][0]["new"] == "101.1"
    assert second["changes"]["removed"][0]["old"] == "200.1a"
    # the invented card file's Tinker links to a rule the later fixture changed (test builds link it)
    assert first["cards"]["touched"] >= 1 and any("tinker" in iri for iri in first["cards"]["cards"])
    assert "<entry" in second["feed_xml"] and "en/2030-11-01, effective 2030-11-01" in second["feed_xml"]
    assert "1 removed, 1 reworded" in second["feed_entry"]["summary"]
    assert first["report"]["pages"]["incremental"] is True
    assert (tmp_path / "cache" / "MagicCompRules 20301101.txt").is_file()  # the KB's source from now on
    editions = invoke_cli("editions", "--store", str(one_edition_kb), "--format", "json")
    assert [e["edition"] for e in json.loads(editions.stdout)] == [FIRST, "en/2030-08-01", "en/2030-11-01"]
    latest = invoke_cli("rule", "en/latest", "101.1", "--store", str(one_edition_kb), "--format", "json")
    assert latest.returncode == 0 and "play table" in latest.stdout
    # two editions appended one after the other: the page data a full build of the three writes
    full = tmp_path / "full"
    build([str(fixtures / "invented-cr-2030-05-05.txt"), str(tmp_path / "cache" / "MagicCompRules 20300801.txt"),
           str(tmp_path / "cache" / "MagicCompRules 20301101.txt")], EmbeddedStore(full), reasoner="none")
    _the_same_page_data(EmbeddedStore(one_edition_kb), EmbeddedStore(full), second["report"], edition="en/2030-11-01")
    again = _update(f"{site}/rules-two", one_edition_kb, tmp_path / "cache")
    assert again.returncode == 0 and again.stdout.startswith("up to date: the newest edition listed is 2030-11-01")


def test_update_text_output_names_the_changes_and_the_feed_entry(site, one_edition_kb, tmp_path):
    result = _update(f"{site}/rules", one_edition_kb, tmp_path / "cache")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("added en/2030-08-01 (") and f"after {FIRST}" in out
    assert "  added: 101.3" in out and "200.1c -> 200.1d" in out and "  reworded: " in out
    assert "cards touched: " in out and "<entry" in out and "/effects/en/2030-08-01" in out


@pytest.mark.parametrize("page, says", [
    ("/rules-truncated", "not a whole edition (truncated"),
    ("/rules-misdated", "the page lists it as 2030-09-01, but the text is effective 2030-08-01"),
    ("/rules-html", "not a rules text"),
    ("/rules-none", "lists no rules text"),
])
def test_update_refuses_a_bad_text_in_one_line_and_leaves_the_kb_untouched(site, one_edition_kb, tmp_path, page, says):
    before = (one_edition_kb / "current").resolve()
    error = _one_error_line(_update(site + page, one_edition_kb, tmp_path / "cache"))
    assert says in error
    assert (one_edition_kb / "current").resolve() == before
    assert not list((tmp_path / "cache").glob("*.txt")) if (tmp_path / "cache").exists() else True


def test_update_offline_is_one_line_exit_2(one_edition_kb, tmp_path):
    error = _one_error_line(_update(f"http://127.0.0.1:{free_port()}/rules", one_edition_kb, tmp_path / "cache"))
    assert "offline" in error


# ---------------------------------------------------------------- an older edition, a re-publication


def _write(folder, name: str, text: str):
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_an_older_edition_is_inserted_with_the_answers_of_a_full_build(fixtures, texts, tmp_path, monkeypatch):
    # the words' answers compared: the meaning arm's near neighbours can differ between two builds
    # of the same texts (kb.search.dense), which is not what inserting an edition is about
    monkeypatch.setenv("RULEKB_DENSE", "off")
    first = fixtures / "invented-cr-2030-05-05.txt"
    middle = _write(tmp_path, "invented-cr-2030-08-01.txt", texts["2030-08-01"])
    last = _write(tmp_path, "invented-cr-2030-11-01.txt", texts["2030-11-01"])
    build([str(first), str(middle), str(last)], EmbeddedStore(tmp_path / "full"), reasoner="owlrl")
    build([str(first), str(last)], EmbeddedStore(tmp_path / "kb"), reasoner="owlrl")
    result = run_cli("build", "--add", str(middle), "--store", str(tmp_path / "kb"), "--reasoner", "owlrl",
                     "--format", "json")
    assert result.returncode == 0, result.stderr
    added = json.loads(result.stdout)
    assert added["how"] == "inserted" and added["edition"] == "en/2030-08-01" and added["predecessor"] == FIRST
    # written into the KB by difference (kb.build.splice), not by reloading every quad: the P -> N
    # changes removed, the P -> X and X -> N ones added, and the same store as the full build's
    assert "by difference" in added["not_redone"][0] and "not by difference" not in added["not_redone"][0]
    assert added["quads_removed"] > 0 and added["quads_added"] > added["quads_removed"]
    assert "splice" in added["stages"] and "store" not in added["stages"]
    assert _quads(tmp_path / "kb") == _quads(tmp_path / "full")
    _the_same_page_data(EmbeddedStore(tmp_path / "kb"), EmbeddedStore(tmp_path / "full"), added, incremental=False)
    assert _index(tmp_path / "kb") == _index(tmp_path / "full")  # the search index: every document, its editions and concepts
    for args in (("history", "200.1d", "--edition", "en/latest"), ("history", "101.1", "--edition", "en/latest"),
                 ("search", "golden gadget", "--edition", "en/2030-08-01"), ("diff", FIRST, "en/2030-08-01")):
        mine = invoke_cli(*args, "--store", str(tmp_path / "kb"), "--format", "json")
        theirs = invoke_cli(*args, "--store", str(tmp_path / "full"), "--format", "json")
        assert mine.returncode == 0 and _ties_unordered(mine.stdout) == _ties_unordered(theirs.stdout), args
    text = run_cli("build", "--add", str(middle), "--store", str(tmp_path / "kb"))
    assert "already in the KB with this text" in _one_error_line(text)


def _ties_unordered(output: str):
    """A command's JSON with the order of equally scored search results left aside (a build whose
    lineages came from the lineage cache indexes documents in another order than one that aligned
    them: the ranking's ties follow that order)."""
    found = json.loads(output)
    if isinstance(found, dict) and isinstance(found.get("results"), list):
        groups: dict = {}
        for hit in found["results"]:
            groups.setdefault(hit.get("score"), []).append(json.dumps(hit, sort_keys=True))
        found["results"] = sorted((str(score), sorted(hits)) for score, hits in groups.items())
    return found


def test_a_republication_is_named_and_replaced_only_with_replace(fixtures, texts, tmp_path):
    first = fixtures / "invented-cr-2030-05-05.txt"
    later = _write(tmp_path, "invented-cr-2030-08-01.txt", texts["2030-08-01"])
    fixed = texts["2030-08-01"].replace("101.3. A golden gadget is a gadget that shines.",
                                        "101.3. A golden gadget is a gadget that glows.")
    (tmp_path / "reissued").mkdir()
    reissued = _write(tmp_path / "reissued", "invented-cr-2030-08-01.txt", fixed)
    build([str(first), str(later)], EmbeddedStore(tmp_path / "kb"), reasoner="none")
    before = (tmp_path / "kb" / "current").resolve()
    refused = run_cli("build", "--add", str(reissued), "--store", str(tmp_path / "kb"), "--reasoner", "none")
    error = _one_error_line(refused)
    assert "already in the KB with other text" in error and "--replace" in error
    assert (tmp_path / "kb" / "current").resolve() == before
    same = run_cli("build", "--add", str(later), "--store", str(tmp_path / "kb"), "--replace")
    assert "already in the KB with this text" in _one_error_line(same)
    result = run_cli("build", "--add", str(reissued), "--replace", "--store", str(tmp_path / "kb"),
                     "--reasoner", "none", "--format", "json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["how"] == "replaced"
    build([str(first), str(reissued)], EmbeddedStore(tmp_path / "full"), reasoner="none")
    assert _quads(tmp_path / "kb") == _quads(tmp_path / "full")
    nothing = run_cli("build", "--add", str(first), "--replace", "--store", str(tmp_path / "kb"))
    assert "already in the KB with this text" in _one_error_line(nothing)


def test_replace_without_add_is_refused(tmp_path):
    result = run_cli("build", "--replace", "--store", str(tmp_path / "kb"))
    assert result.returncode == 2 and "--replace goes with --add" in result.stderr


def test_an_inserted_edition_aligns_only_the_pairs_it_changes(fixtures, texts, tmp_path, monkeypatch):
    """The lineage cache keeps each aligned pair: a set of editions one edition away from one
    chained before aligns only its new pairs, and chains them into what aligning all gives."""
    from rulekb.ingest.parse import parse_file
    from rulekb.kb.align import lineage as chaining
    from rulekb.kb.align import lineages
    from rulekb.kb.lineage.cache import cached_lineages, to_json

    first = parse_file(fixtures / "invented-cr-2030-05-05.txt")[0]
    middle = parse_file(_write(tmp_path, "invented-cr-2030-08-01.txt", texts["2030-08-01"]))[0]
    last = parse_file(_write(tmp_path, "invented-cr-2030-11-01.txt", texts["2030-11-01"]))[0]
    aligned: list[tuple[str, str]] = []
    real = chaining.align_profiles

    def counting(old, new):
        aligned.append((old.id, new.id))
        return real(old, new)

    monkeypatch.setattr(chaining, "align_profiles", counting)
    monkeypatch.setattr("rulekb.kb.align.align_profiles", counting)
    cache = tmp_path / "lineages"
    cached_lineages([first, middle], cache=cache)
    cached_lineages([middle, last], cache=cache)
    assert aligned == [(FIRST, "en/2030-08-01"), ("en/2030-08-01", "en/2030-11-01")]
    found, from_cache = cached_lineages([first, middle, last], cache=cache)
    assert not from_cache and len(aligned) == 2  # both pairs read back, none aligned again
    assert to_json(found) == to_json(lineages([first, middle, last]))
    assert len(aligned) == 4  # (the uncached comparison above aligned its two)


_DATES = st.sampled_from(["20300505", "20300801", "20301101", "20300230", "19990101", "20300801x"])
_BODIES = st.one_of(st.text(max_size=300), st.sampled_from(["", "<html>", "Widget Duel Comprehensive Rules\n\n"]),
                    st.just("HALF"))  # HALF: the first half of a real text (a truncated download)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(page=st.one_of(st.text(max_size=200), st.lists(_DATES, max_size=3).map(
           lambda dates: "".join(_link(f"MagicCompRules {d}.txt") for d in dates))),
       body=_BODIES)
def test_update_given_any_page_and_texts_adds_or_refuses_and_never_half_writes(site, texts, one_edition_kb, tmp_path,
                                                                               page, body):
    """Whatever the rules page and its links give: an edition added whole, or a RulekbError
    (one line, exit 2 at the command line) with the KB as it was."""
    from rulekb.ingest.errors import RulekbError
    from rulekb.kb.update import update

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Site)
    body = texts["2030-08-01"][: len(texts["2030-08-01"]) // 2] if body == "HALF" else body
    server.pages = {"/rules-fuzz": page, **{f"/downloads/MagicCompRules%20{d}.txt": body
                                            for d in ("20300505", "20300801", "20301101", "20300230", "19990101")}}
    threading.Thread(target=server.serve_forever, daemon=True).start()
    store = EmbeddedStore(one_edition_kb)
    before = (one_edition_kb / "current").resolve()
    try:
        report = update(store, f"http://127.0.0.1:{server.server_address[1]}/rules-fuzz",
                        cache=str(tmp_path / "fuzz-cache"), reasoner="none")
    except RulekbError as exc:
        assert str(exc) and "\n" not in str(exc).strip()
        assert (one_edition_kb / "current").resolve() == before
    else:
        assert report.added == [] and (one_edition_kb / "current").resolve() == before  # no whole newer text served
    finally:
        server.shutdown()
        server.server_close()


def test_the_kbs_newest_date_is_an_english_editions_effective_date():
    """An undated English page (``en/undated-...``, a glossary entry quoted on a forum) is no
    date: taken for one it sorted after every edition and hid every newer text."""
    from rulekb.kb.update import kb_dates

    rows = [{"edition": "en/2026-01-16", "language": "en", "effective_date": "2026-01-16"},
            {"edition": "en/undated-lexique_9910", "language": "en", "effective_date": None},
            {"edition": "fr/2026-03-01", "language": "fr", "effective_date": "2026-03-01"},
            {"edition": "en/1999-04-23", "language": "en", "effective_date": "1999-04-23"}]
    assert kb_dates(rows) == ["1999-04-23", "2026-01-16"]


# ---------------------------------------------------------------- real editions

def _added(source: str, store) -> dict:
    """``rulekb build --add SOURCE --reasoner none --format json``'s report, added in this process."""
    from rulekb.kb import service

    return json.loads(json.dumps(service.add_edition(source, str(store), reasoner="none").to_dict()))


_REAL = ("CR-2025-07-25.txt", "CR-2025-09-19.txt", "CR-2025-11-14.txt")  # three consecutive editions


@pytest.mark.corpus
def test_real_editions_appended_and_inserted_answer_as_a_full_build(corpus, tmp_path):
    """Three consecutive real editions: the last appended to a KB of the first two gives a full
    build's page data (every rule version, every query); the middle one inserted into a KB of
    the other two gives a full build's store."""
    first, middle, last = (str(corpus / "en" / name) for name in _REAL)
    build([first, middle, last], EmbeddedStore(tmp_path / "full"), reasoner="none")
    build([first, middle], EmbeddedStore(tmp_path / "appended"), reasoner="none")
    # (--add in this process, as `build --add --format json` reports it: the CLI's own path is the
    # fixture editions' above; a new interpreter re-read the three editions' definitions, 4 s of CPU each)
    report = _added(last, tmp_path / "appended")
    _the_same_page_data(EmbeddedStore(tmp_path / "appended"), EmbeddedStore(tmp_path / "full"), report,
                        edition="en/2025-11-14")
    build([first, last], EmbeddedStore(tmp_path / "inserted"), reasoner="none")
    report = _added(middle, tmp_path / "inserted")
    assert report["how"] == "inserted" and "by difference" in report["not_redone"][0], report["not_redone"]
    assert _quads(tmp_path / "inserted") == _quads(tmp_path / "full")

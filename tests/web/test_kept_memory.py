"""What a server process keeps is bounded in bytes, not only in entries (kb.web.kept), and the
slowest pages to render -- section pages, every rule under a heading -- are rendered once per
process and build, the newest edition's before the port opens (kb.web.edition_pages)."""

from __future__ import annotations

import gc

from rulekb.kb.web import edition_pages, html, rule_page
from rulekb.kb.web.context import WebContext
from rulekb.kb.web.kept import Kept, cost, digest, memoised


def test_the_kept_bytes_never_pass_the_bound_and_the_oldest_go_first():
    kept = Kept(max_entries=1000, max_bytes=20_000)
    for n in range(100):
        kept.put(digest(str(n)), "x" * 1000)
        assert kept.bytes <= 20_000
    assert kept.bytes == sum(cost("x" * 1000) for _ in range(len(kept)))
    assert kept.get(digest("99")) is not None and kept.get(digest("0")) is None  # least recently used went first
    kept.put(digest("huge"), "y" * 30_000)  # larger than the whole cache: not kept, nothing dropped for it
    assert kept.get(digest("huge")) is None and len(kept) > 1


def test_entries_are_bounded_too_and_a_digest_tells_its_parts_apart():
    kept = Kept(max_entries=3, max_bytes=10**9)
    for n in range(5):
        kept.put(digest(str(n)), str(n))
    assert len(kept) == 3
    assert digest("ab", "c") != digest("a", "bc") and len(digest("a")) == 16


def test_a_memoised_function_is_computed_once_and_its_key_holds_no_text():
    calls = []

    def shout(text: str) -> str:
        calls.append(text)
        return text.upper()

    kept = Kept(max_entries=10, max_bytes=10**6)
    memo = memoised(kept, shout)
    long_text = "word " * 10_000
    assert memo(long_text) == memo(long_text) == long_text.upper()
    assert calls == [long_text]
    assert kept.bytes < 2 * len(long_text) + 1000  # the value and a 16-byte key, not the text again
    memo.cache_clear()
    assert len(kept) == 0


def test_the_history_rows_and_diffs_are_kept_in_their_byte_bounds():
    html.ROWS_KEPT.clear()
    period = {"first": "en/2030-05-05", "last": "en/2030-05-05", "number": "100.1", "text": "A rule. " * 500,
              "current": True, "editions": 1, "kind": "reworded", "diff": "<ins>A</ins> rule."}
    row = html.history_row(period, WebContext(store=None, base="http://localhost:8000/"))
    assert len(html.ROWS_KEPT) == 1 and html.ROWS_KEPT.bytes < len(str(row)) + 1000
    assert html.ROWS_KEPT.bytes <= html.ROWS_KEPT.max_bytes and rule_page.DIFFS_KEPT.max_bytes > 0
    out = rule_page._diff("one two three", "one four three")
    assert type(out) is str and not gc.is_tracked(out) and rule_page.DIFFS_KEPT.bytes <= rule_page.DIFFS_KEPT.max_bytes


def test_a_section_page_is_rendered_once_per_build_and_the_newest_edition_ahead(fixture_kb, monkeypatch):
    store, _ = fixture_kb
    ctx = WebContext.create(store)
    edition_pages.SECTIONS_KEPT.clear()
    edition = "en/2030-05-05"
    rendered = edition_pages.render_sections_ahead(ctx, edition)
    assert rendered >= 2 and len(edition_pages.SECTIONS_KEPT) == rendered
    first = edition_pages.section_page(ctx, edition, "100").body

    def no_render(*_args, **_kwargs):
        raise AssertionError("a kept section page was rendered again")

    monkeypatch.setattr(edition_pages, "_section_page", no_render)
    assert edition_pages.section_page(ctx, edition, "100").body == first
    assert b"100" in first and b"</html>" in first
    monkeypatch.setattr(store, "build_id", lambda: "another build")  # a rebuild the server follows
    try:
        edition_pages.section_page(ctx, edition, "100")
    except AssertionError:
        pass
    else:
        raise AssertionError("a section page of another build came from what was kept")
    edition_pages.SECTIONS_KEPT.clear()


def test_bench_pages_newest_times_the_section_and_rule_pages_a_warm_server_renders(fixture_kb):
    from ..helpers import run_cli

    store, _ = fixture_kb
    result = run_cli("bench", "pages", "--store", str(store.root), "--newest", "--format", "json", timeout=600)
    assert result.returncode == 0, result.stderr
    figures = result.json
    assert figures["edition"] == "en/2030-05-05"
    for label in ("section pages rendered", "section pages kept", "rule pages, first pass", "rule pages, second pass"):
        assert figures[label]["pages"] > 0 and figures[label]["cpu_ms_max"] >= figures[label]["cpu_ms_median"] >= 0
        assert figures[label]["slowest"]
    text = run_cli("bench", "pages", "--store", str(store.root), "--newest", timeout=600)
    assert text.returncode == 0 and "section pages kept" in text.stdout and "load average" in text.stdout


def _asgi_get(app, path: str) -> tuple[int, dict, bytes]:
    """One GET through the ASGI app in this process: (status, headers, body)."""
    import asyncio

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
             "headers": [(b"host", b"localhost"), (b"accept", b"text/html")], "client": ("127.0.0.1", 1),
             "server": ("127.0.0.1", 80)}
    sent: list[dict] = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    headers = {k.decode().lower(): v.decode() for k, v in start["headers"]}
    return start["status"], headers, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


def test_a_kept_section_page_is_answered_without_a_query_or_a_thread(fixture_kb, monkeypatch):
    from rulekb.kb.web import resources
    from rulekb.kb.web.app import create_app

    store, _ = fixture_kb
    edition_pages.SECTIONS_KEPT.clear()
    app = create_app(store, workers=1)
    status, headers, body = _asgi_get(app, "/edition/en/2030-05-05/section/100")
    assert status == 200 and len(edition_pages.SECTIONS_KEPT) == 1

    def no_describe(*_args, **_kwargs):
        raise AssertionError("a kept section page asked the store")

    monkeypatch.setattr(resources.descriptions, "describe", no_describe)
    again_status, again_headers, again = _asgi_get(app, "/edition/en/2030-05-05/section/100")
    assert again_status == 200 and again == body
    for name in ("vary", "content-type", "x-content-type-options", "content-security-policy"):
        assert again_headers.get(name) == headers.get(name), name
    assert headers["vary"] == "Accept"
    edition_pages.SECTIONS_KEPT.clear()

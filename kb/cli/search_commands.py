"""``rulekb search``: ranked rules for a question (kb.search through kb.service)."""

from __future__ import annotations

import typer

from .app import Format, FormatOption, StoreOption, _store, app, edition_name
from .output import emit_json, errors_as_exit_codes, fail, stdout


@app.command()
def search(
    query: str = typer.Argument(..., help='Words, a question or a rule number, e.g. "can a creature with summoning sickness block?"'),
    edition: str = typer.Option(None, "--edition", help="Search one edition: id, alias (en/latest) or date (en@2010-03-15) (default: the newest English one)."),
    all_editions: bool = typer.Option(False, "--all-editions", help="Every edition of the language: one hit per rule lineage, with the editions it holds in."),
    lang: str = typer.Option(None, "--lang", help="en (default) or fr (the French texts)."),
    limit: int = typer.Option(10, "--limit", min=1, max=100, help="Results to show (1-100)."),
    offset: int = typer.Option(0, "--offset", min=0, help="Skip this many results (the next page)."),
    store: str = StoreOption,
    format: Format = FormatOption,
) -> None:
    """Find the rules about a question: BM25 over every rule and glossary entry, fused with what the KB knows."""
    from .. import service

    if edition and all_editions:
        fail("--edition and --all-editions exclude each other")
    with errors_as_exit_codes():
        opened = _store(store)
        resolution = edition_name(opened, edition, default_none=True)  # en/latest, en@2010-03-15: said on stderr
        data = service.search(opened, query, edition=resolution.edition if resolution else None, lang=lang,
                              all_editions=all_editions,
                              limit=limit, offset=offset)
    if format is Format.json:
        emit_json(data)
        return
    print_results(data)


def unknown_cards_line(names: list[str], note: str | None) -> str:
    """The bracketed names of a question that are no card (search and ask), and why when search says."""
    return "no card is named " + ", ".join(repr(u) for u in names) + (f" ({note})" if note else "")


def print_results(data: dict) -> None:
    from rich.text import Text

    from ..service import snippet_segments as segments

    meaning = data.get("meaning")
    if meaning is not None:
        arms = " + ".join(data.get("arms", ["words"]))
        note = {"complete": "", "partial": f", meaning arm partial ({meaning.get('embedded', 0):,} documents)",
                "building": f", meaning arm being built ({meaning.get('embedded', 0):,} documents so far: rulekb build --embed status)",
                "absent": ", no meaning arm (rulekb build --embed now builds it)",
                "unavailable": f", meaning arm unavailable ({meaning.get('note', '')})"}.get(meaning.get("state"), "")
        order = ", in the learnt order" if meaning.get("learnt_order") == "on" else ""  # (kb.search.rerank)
        stdout.print(Text(f"arms: {arms}{note}{order}", style="dim"))
    for card in data.get("cards", []):  # the cards the question names (kb.cards), what each brought
        brought = card["brought"]
        what = ", ".join([*brought["keywords"], *brought["shapes"], *brought["types"]]) or "nothing"
        how = "" if card["how"] in ("text", "brackets", "double brackets") else f", matched by {card['how']}: {card['asked']!r}"
        stdout.print(Text(f"card: {card['name']} ({card['type_line']}{how}) brought: {what}", style="dim"))
    for met in data.get("understood", {}).get("interactions", []):
        stdout.print(Text(f"cards {' and '.join(met['cards'])} meet in section {met['section']}: {met['title']}", style="dim"))
    if data.get("understood", {}).get("quoted_kinds"):  # card text the question quotes, read as a card's
        stdout.print(Text("quoted card text has: " + ", ".join(data["understood"]["quoted_kinds"]), style="dim"))
    if data.get("understood", {}).get("meaning_leads"):  # kb.search.rank.RRF_CROSS
        from ..service import language_name as name

        asked, texts = data["understood"]["asked_in"], data["lang"]
        stdout.print(Text(f"asked in {name(asked)}, the texts are in {name(texts)}: the meaning leads", style="dim"))
    if data.get("understood", {}).get("shorthand"):  # players' words read as the rules'
        stdout.print(Text("read as: " + "; ".join(data["understood"]["shorthand"]), style="dim"))
    if data.get("understood", {}).get("quoted"):  # phrases the question quotes, matched as phrases
        stdout.print(Text("matched as phrases: " + "; ".join(repr(q) for q in data["understood"]["quoted"]), style="dim"))
    if data.get("unknown_cards"):
        stdout.print(Text(unknown_cards_line(data["unknown_cards"], data.get("understood", {}).get("cards_note")), style="dim"))
    if not data["results"]:
        stdout.print(f"no rules found for {data['query']!r} in {data['edition']}", markup=False, highlight=False)
        return
    for i, hit in enumerate(data["results"], start=data.get("offset", 0) + 1):
        name = hit.get("rule") or f"glossary: {hit.get('term')}"
        where = hit["edition"]
        if hit.get("editions"):
            held = hit["editions"]
            where = held[0] if len(held) == 1 else f"{held[0]} … {held[-1]}, {len(held)} editions"
        line = Text(f"{i:>2}. ")
        line.append(name, style="bold")
        line.append(f"  ({where})  {hit['score']:.2f}")
        stdout.print(line)
        text = Text("    ")
        for piece, marked in segments(hit["snippet"]):
            text.append(piece, style="bold yellow" if marked else None)
        stdout.print(text)
        if hit.get("why"):
            stdout.print(Text("    why: " + "; ".join(hit["why"]), style="dim"))
    if data.get("more"):
        stdout.print(Text(f"more: --offset {data['offset'] + data['limit']}", style="dim"))


EMBED_MODES = ("now", "background", "status")


def embed_command(store: str | None, mode: str, max_new: int | None, format: Format) -> None:
    """``rulekb build --embed now|background|status [--embed-max N]``: complete the dense (meaning)
    arm of the built KB's search index, without rebuilding: embed the texts the cache lacks,
    newest editions first, swapping in what is done as it goes; resumable (the cache keeps every
    text embedded). ``background``: a detached, niced process (log: <index>/dense.log)."""
    import sys
    import time

    from .. import service

    if mode not in EMBED_MODES:
        fail(f"--embed takes one of {', '.join(EMBED_MODES)} (not {mode!r})")
    with errors_as_exit_codes():
        target = _store(store)
        if mode == "status":
            data = service.embed(target, "status")
        elif mode == "background":
            data = service.embed(target, "background") or {"complete": True}
        else:
            def say(line: str) -> None:
                print(f"{time.strftime('%H:%M:%S')} {line}", file=sys.stderr, flush=True)

            done = service.embed(target, "now", max_new=max_new, say=say)
            data = {"embedded": done.embedded, "to_embed": done.total, "cached": done.cached, "seconds": done.seconds,
                    "swaps": len(done.swaps), "stopped": done.stopped or None}
    if format is Format.json:
        emit_json(data)
        return
    if mode == "status":
        stdout.print(f"meaning arm: {data['rows']:,} of {data['documents'] or 0:,} documents embedded ({data['model']}, on {data.get('engine')}); "
                     + ("a process is completing it" if data["running"] else "no process completing it")
                     + (f"\nlast: {data['last']}" if data.get("last") else ""), highlight=False, markup=False)
    elif mode == "background":
        if data.get("complete"):
            stdout.print("meaning arm: complete (nothing to embed)", highlight=False)
        elif data.get("already"):
            stdout.print(f"meaning arm: a process is already completing it, log {data['log']}", highlight=False, markup=False)
        else:
            stdout.print(f"meaning arm: completing in the background (pid {data.get('pid')}), log {data['log']}",
                         highlight=False, markup=False)
    else:
        stdout.print(f"embedded {data['embedded']:,} of {data['to_embed']:,} texts in {data['seconds']:.0f} s "
                     f"({data['cached']:,} already cached)" + (f"; {data['stopped']}" if data["stopped"] else ""),
                     highlight=False, markup=False)


def complete_dense(store) -> None:
    """After ``rulekb build`` (and ``--add``) swapped the store: the texts the dense arm still
    lacks are embedded by a detached process (``RULEKB_DENSE=background``, the default), here
    with progress (``wait``), or not at all (``off``); one line on stderr says which."""
    import sys
    import time

    from .. import service
    from ..errors import KBError
    from .output import stderr

    def say(line: str) -> None:
        print(f"{time.strftime('%H:%M:%S')} {line}", file=sys.stderr, flush=True)

    try:
        started = service.embed(store, "after-build", say=say)
    except (KBError, OSError) as exc:
        stderr.print(f"rulekb: the meaning arm of search was not completed ({exc}); run `rulekb build --embed now`",
                     markup=False, highlight=False)
        return
    if not isinstance(started, dict):  # off, or completed here (RULEKB_DENSE=wait)
        return
    if started and not started.get("already"):
        stderr.print(f"rulekb: lexical search answers now; the meaning arm is completed in the background "
                     f"(pid {started['pid']}, log {started['log']}; rulekb build --embed status)", markup=False, highlight=False)

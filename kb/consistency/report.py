"""``rulekb consistency --report md|html``: the findings for an editor to read, most
severe first, each with the texts it cites."""

from __future__ import annotations

from html import escape


def render(results: list[dict], kind: str) -> str:
    return _html(results) if kind == "html" else _markdown(results)


def _markdown(results: list[dict]) -> str:
    out = []
    for data in results:
        out.append(f"# {data['edition']}: {len(data['findings'])} findings\n")
        for note in data.get("notes", ()):
            out.append(f"> {note}\n")
        for item in data["findings"]:
            out.append(f"## [{item['severity']}] {item['kind']}: {item['detail']}\n")
            out.append(f"{item['why']}\n")
            for place, text in zip(item["rules"], item["texts"]):
                if text:
                    out.append(f"- **{place}**: {' '.join(text.split())}")
            out.append("")
    return "\n".join(out) + "\n"


def _html(results: list[dict]) -> str:
    out = ["<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Consistency</title>",
           "<style>body{font-family:sans-serif;max-width:60em;margin:auto}.contradiction{color:#a00}"
           ".inconsistency{color:#a60}.notice{color:#666}blockquote{margin:.3em 0 .3em 1em;color:#333}</style>"
           "</head><body>"]
    for data in results:
        out.append(f"<h1>{escape(data['edition'])}: {len(data['findings'])} findings</h1>")
        for note in data.get("notes", ()):
            out.append(f"<p><em>{escape(note)}</em></p>")
        for item in data["findings"]:
            out.append(f"<h2 class=\"{escape(item['severity'])}\">[{escape(item['severity'])}] "
                       f"{escape(item['kind'])}: {escape(item['detail'])}</h2><p>{escape(item['why'])}</p>")
            for place, text in zip(item["rules"], item["texts"]):
                if text:
                    out.append(f"<blockquote><strong>{escape(place)}</strong>: {escape(text)}</blockquote>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"

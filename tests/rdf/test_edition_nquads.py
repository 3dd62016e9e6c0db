"""kb.rdf.edition writes an edition's quads as N-Quads text: every literal, whatever it holds
(quotes, backslashes, line breaks, control characters, any script), reads back as it was."""

from __future__ import annotations

import copy
from pathlib import Path

import pyoxigraph as ox
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekb.ingest.model import GlossaryEntry, ParseWarning
from rulekb.ingest.parse import parse_file
from rulekb.kb.rdf.edition import edition_nquads, edition_quads
from rulekb.kb.rdf.iris import Minter
from rulekb.kb.rdf.vocab import RK

FIXTURE = Path(__file__).parents[1] / "fixtures" / "invented-cr-2030-05-05.txt"
EDITION = parse_file(FIXTURE)[0]
MINT = Minter.for_base(None)
HOSTILE = ['say "hi"', "back\\slash \\n \\u0041", "two\nlines\r\n", "tab\there \x00 \x07 \x1f \x7f",
           "\u2028 \u2029 \ufeff é ü 漢字 🂡", "\"\"\" '''", "> <http://x/> . _:b", ""]

# any text but lone surrogates (which no UTF-8 document holds)
texts = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=80)


def _literals(quads, predicate) -> list[str]:
    return [q.object.value for q in quads if q.predicate == ox.NamedNode(str(predicate))]


def _with(text: str):
    edition = copy.deepcopy(EDITION)
    edition.title = text
    edition.rules[0].text = text
    edition.rules[0].examples = [text]
    edition.glossary = [GlossaryEntry(term=text, definition=text, order=1)]
    edition.warnings = [ParseWarning("odd", text, 1)]
    return edition


def _check(text: str) -> None:
    quads = list(edition_quads(_with(text), MINT))
    assert text in _literals(quads, RK.text) or not text  # (a rule with no text has no rk:text)
    for predicate in ("http://purl.org/dc/terms/title", RK.definition, RK.term):
        assert text in _literals(quads, predicate)
    assert any(text in value for value in _literals(quads, RK.warning))


def test_hostile_literals_read_back_as_written():
    for text in HOSTILE:
        _check(text)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts)
def test_any_text_reads_back_as_written(text):
    _check(text)


def test_the_text_is_one_quad_a_line_in_the_editions_graph():
    text = edition_nquads(EDITION, MINT)
    graph = f"<{MINT.edition(EDITION.id)}> .\n"
    lines = text.splitlines(keepends=True)
    assert lines and all(line.endswith(graph) for line in lines)
    assert len(lines) == len(list(edition_quads(EDITION, MINT)))

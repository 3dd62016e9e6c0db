"""Hypothesis throws garbage and mutated editions at the parser: it either
returns editions or raises IngestError -- never another exception, never hangs.
Whatever it accepts in the official layout still round-trips word for word."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekb.ingest.decode import decode
from rulekb.ingest.errors import IngestError
from rulekb.ingest.parse import parse_bytes
from rulekb.ingest.render import round_trip

FIXTURE = Path(__file__).parents[1] / "fixtures" / "invented-cr-2030-05-05.txt"
LINES = FIXTURE.read_text(encoding="ascii").split("\n")
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _parse_or_refuse(data: bytes, name: str = "fuzz-2030-01-01.txt"):
    try:
        return parse_bytes(data, name)
    except IngestError as exc:
        assert str(exc)  # a message, never empty
        return None


@FUZZ
@given(st.binary(max_size=4096))
def test_random_bytes_are_parsed_or_refused(data):
    _parse_or_refuse(data)


@FUZZ
@given(st.text(max_size=3000))
def test_random_text_is_parsed_or_refused(text):
    for encoding in ("utf-8", "utf-16"):
        _parse_or_refuse(text.encode(encoding, "surrogatepass"))


_rule_like = st.from_regex(r"\A(\d{1,3}\.( ?\d{1,3}[a-z]?\.?)?|Example:|Glossary|Credits|[A-Z][a-z]+)?[ \t]?[A-Za-z ,.\"“”()-]{0,60}\Z")


@st.composite
def mutated_edition(draw):
    lines = list(LINES)
    for _ in range(draw(st.integers(1, 8))):
        op = draw(st.sampled_from(["delete", "duplicate", "swap", "insert", "indent", "truncate", "join"]))
        i = draw(st.integers(0, len(lines) - 1))
        if op == "delete" and len(lines) > 1:
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "insert":
            lines.insert(i, draw(_rule_like))
        elif op == "indent":
            lines[i] = "     " + lines[i]
        elif op == "truncate":
            lines = lines[: max(i, 1)]
        elif op == "join" and i + 1 < len(lines):
            lines[i : i + 2] = [lines[i] + " " + lines[i + 1]]
    newline = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    return newline.join(lines)


@FUZZ
@given(mutated_edition())
def test_mutated_editions_never_crash_and_round_trip_when_accepted(text):
    editions = _parse_or_refuse(text.encode("utf-8"))
    if not editions:
        return
    for edition in editions:
        assert edition.id.startswith("en/")
        if edition.source.layout == "official":
            result = round_trip(edition, decode(text.encode("utf-8")).text)
            assert result.ok, str(result)

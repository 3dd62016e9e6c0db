"""kb.cli.coercion gives typer's own answers without pydantic: for every value it
answers itself, typer's pydantic path answers the same; every other value (and so every
error message) is left to typer."""

from __future__ import annotations

import enum

from hypothesis import given, settings, strategies as st
from typer._coercion import build_runtime_param, resolve_type_descriptor
from typer._click import Context
from typer.core import TyperCommand
from typer.models import ArgumentInfo, OptionInfo

from rulekb.kb.cli.coercion import _NO, PlainFirst, _build, plain


class Colour(str, enum.Enum):
    red = "red"
    green = "Green"


CTX = Context(TyperCommand("x"))
INFOS = {
    str: [OptionInfo(), ArgumentInfo()],
    bool: [OptionInfo()],
    int: [OptionInfo(), OptionInfo(min=1, max=100), OptionInfo(min=0), OptionInfo(min=1, max=5, clamp=True)],
    Colour: [OptionInfo(), OptionInfo(case_sensitive=False)],
}
VALUES = st.one_of(st.text(max_size=6), st.integers(-5, 200), st.booleans(), st.sampled_from(list(Colour)),
                   st.sampled_from(["red", "RED", "Green", "green", "10", "007", "٣", "1_0", " 4", "-1", "101"]))


def typer_answer(annotation, info, value):
    runtime = build_runtime_param(resolve_type_descriptor(annotation, info))
    try:
        return ("ok", runtime._coerce_value(value, param=None, ctx=CTX))
    except Exception as exc:  # noqa: BLE001  (the error itself is typer's business)
        return ("error", type(exc).__name__)


@settings(max_examples=300, deadline=None)
@given(annotation=st.sampled_from(list(INFOS)), which=st.integers(0, 3), value=VALUES)
def test_plain_answers_are_typer_answers(annotation, which, value):
    info = INFOS[annotation][which % len(INFOS[annotation])]
    mine = plain(annotation, info, value, CTX)
    if mine is _NO:
        return  # typer's own path answers it (below)
    kind, theirs = typer_answer(annotation, info, value)
    assert kind == "ok" and theirs == mine and type(theirs) is type(mine), (annotation, info, value, theirs, mine)


def test_the_rest_goes_to_typer_with_its_messages():
    runtime = _build(resolve_type_descriptor(int, OptionInfo(min=1, max=100)))
    assert isinstance(runtime, PlainFirst)
    assert runtime._coerce_value("7", param=None, ctx=CTX) == 7
    for bad in ("0", "abc", "1000"):
        try:
            runtime._coerce_value(bad, param=None, ctx=CTX)
        except Exception as exc:  # noqa: BLE001
            assert typer_answer(int, OptionInfo(min=1, max=100), bad) == ("error", type(exc).__name__)
        else:
            raise AssertionError(f"{bad!r} accepted")
    # a type it does not know is typer's from the start
    from pathlib import Path

    assert not isinstance(_build(resolve_type_descriptor(Path, OptionInfo())), PlainFirst)


def test_search_runs_without_pydantic(tmp_path):
    """The point of it: `rulekb search --help` (and a search's option handling) loads no pydantic."""
    import subprocess
    import sys

    code = ("import sys\nfrom rulekb.kb.cli import app\n"
            "try:\n    app(['search', '--help'])\nexcept SystemExit:\n    pass\n"
            "print('pydantic' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().endswith("False"), out

"""Typer's parameter coercion without pydantic where the answer is plain.

typer 0.29 coerces every parameter value -- a default left as it is included --
through a pydantic ``TypeAdapter`` built on first use, so any command with a
``str`` or ``int`` option imports pydantic (about 0.4 s of CPU: half of
``rulekb search``'s cold start). For the values whose result is
known without it, this gives typer's own answer directly:

- ``str``: a ``str`` value is returned as it is (what ``_parse_cli_str`` and
  pydantic's ``str`` do with one); ``bool``: a ``bool`` likewise (``--help``);
- ``int``: an ``int`` (not a bool), or a string of ASCII digits, inside the
  option's ``min``/``max`` (no ``clamp``);
- an ``Enum``: a member, or a value typer's own ``coerce_cli_choice`` maps to one.

Anything else -- another type, a ``parser``, an out-of-range number, a bad
choice (so every error message) -- goes to typer's own pydantic path, unchanged.
``tests/cli/test_coercion.py`` checks both give the same answers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from typer import core
from typer._coercion import RuntimeParam, build_runtime_param
from typer._param_types import coerce_cli_choice

_NO = object()  # "not plain: ask typer"


def plain(annotation: Any, info: Any, value: Any, ctx: Any) -> Any:
    """Typer's coercion of ``value`` when it is plain, else :data:`_NO`."""
    if info.parser is not None:
        return _NO
    if annotation is str:
        return value if type(value) is str else _NO
    if annotation is bool:
        return value if type(value) is bool else _NO
    if annotation is int:
        if info.clamp:
            return _NO
        if type(value) is int:
            number = value
        elif type(value) is str and value.isascii() and value.isdigit():
            number = int(value)
        else:
            return _NO
        if (info.min is not None and number < info.min) or (info.max is not None and number > info.max):
            return _NO
        return number
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        try:
            return coerce_cli_choice(value, choices=list(annotation), case_sensitive=info.case_sensitive, ctx=ctx)
        except ValueError:
            return _NO
    return _NO


def _eligible(descriptor) -> bool:
    annotation = descriptor.annotation
    return descriptor.file_annotation is None and descriptor.parameter_info.parser is None and (
        annotation in (str, bool, int) or (isinstance(annotation, type) and issubclass(annotation, Enum)))


@dataclass(frozen=True)
class PlainFirst(RuntimeParam):
    """Plain values answered here; the rest by typer's runtime parameter, built on first need."""

    descriptor: Any = None
    _typer: list = field(default_factory=list)

    def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
        found = plain(self.annotation, self.parameter_info, value, ctx)
        if found is not _NO:
            return found
        if not self._typer:
            self._typer.append(build_runtime_param(self.descriptor))
        return self._typer[0]._coerce_value(value, param=param, ctx=ctx)


def _build(descriptor) -> RuntimeParam:
    if _eligible(descriptor):
        return PlainFirst(parameter_info=descriptor.parameter_info, annotation=descriptor.annotation,
                          descriptor=descriptor)
    return build_runtime_param(descriptor)


def install() -> None:
    """Route typer's runtime parameters through :class:`PlainFirst` (idempotent)."""
    core.build_runtime_param = _build

"""One exception root: every error rulekb raises on purpose is a RulekbError with a
status and a message, mapped to an exit code in one place (kb.cli.output.exit_code)
and to an HTTP status in one place (kb.web.errors.status_and_message)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import typer
from starlette.exceptions import HTTPException

from rulekb.ingest.errors import BinaryInputError, FetchError, IngestError, NotRulesError
from rulekb.kb.bench.kb import _TooSlow
from rulekb.kb.cli.output import errors_as_exit_codes, exit_code
from rulekb.kb.errors import BuildError, KBError, NotFound, QueryError, RulekbError, StoreError
from rulekb.kb.reason.backends import JavaMissingError, ReasonerError
from rulekb.kb.rdf.vocabgen import VocabularyError
from rulekb.kb.web.errors import WebError, status_and_message
from rulekb.kb.web.query_pool import WorkerGone
from rulekb.kb.web.sparql import ProtocolError, QueryTimeout

ROOT = Path(__file__).resolve().parents[1]

# (the error, its HTTP status, its exit code)
PINNED = [
    (IngestError("bad input", source="x.txt", line=3), 400, 2),
    (NotRulesError("not rules"), 400, 2),
    (BinaryInputError("binary"), 400, 2),
    (FetchError("offline"), 400, 2),
    (KBError("refused"), 400, 2),
    (QueryError("bad query"), 400, 2),
    (BuildError("nothing to build"), 400, 2),
    (NotFound("no such rule"), 404, 2),
    (StoreError("no store"), 503, 2),
    (ReasonerError("HermiT failed"), 503, 2),
    (JavaMissingError("no java"), 503, 2),
    (VocabularyError("undeclared term"), 400, 2),
    (WebError(410, "gone", [("x", "/x")]), 410, 2),
    (ProtocolError(413, "too big"), 413, 2),
    (QueryTimeout(2.0), 503, 2),
    (WorkerGone("the worker died"), 503, 2),
    (_TooSlow(), 504, 2),
]


@pytest.mark.parametrize(("error", "status", "code"), PINNED, ids=lambda v: type(v).__name__ if isinstance(v, Exception) else str(v))
def test_every_error_maps_to_its_status_and_exit_code(error, status, code):
    assert isinstance(error, RulekbError)
    got_status, message, _ = status_and_message(error)
    assert (got_status, message) == (status, error.message)
    assert exit_code(error) == code
    with pytest.raises(typer.Exit) as exited, errors_as_exit_codes():
        raise error
    assert exited.value.exit_code == code


def test_an_ingest_error_reaching_the_web_is_a_400_not_a_500():
    assert status_and_message(NotRulesError("no rules in this text"))[:2] == (400, "no rules in this text")


def test_errors_keep_the_builtin_bases_their_callers_catch():
    assert isinstance(ReasonerError("x"), RuntimeError)
    assert isinstance(VocabularyError("x"), ValueError)


def test_anything_else_is_a_500_and_an_internal_error_exit():
    assert status_and_message(ZeroDivisionError("boom"))[0] == 500
    assert status_and_message(HTTPException(405, "no"))[:2] == (405, "no")
    assert exit_code(ZeroDivisionError("boom")) == 1
    assert exit_code(KeyboardInterrupt()) == 130


def test_the_web_error_keeps_its_suggestions():
    assert status_and_message(WebError(404, "no rule", [("rule 100.1", "/rule/100.1")]))[2] == [("rule 100.1", "/rule/100.1")]


def test_no_second_exception_root_in_the_code():
    """A class that derives straight from Exception (or a builtin error) is a second
    root: derive it from RulekbError (or a subclass) instead."""
    builtins = {"Exception", "RuntimeError", "ValueError", "TypeError", "KeyError", "OSError", "LookupError"}
    roots = []
    for path in sorted([*ROOT.joinpath("kb").rglob("*.py"), *ROOT.joinpath("ingest").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases = [b.id for b in node.bases if isinstance(b, ast.Name)]
                if bases and all(b in builtins for b in bases):
                    roots.append(f"{path.relative_to(ROOT)}:{node.name}")
    assert roots == ["ingest/errors.py:RulekbError"]

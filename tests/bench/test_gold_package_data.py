"""The gold sets are package data: every file under kb/bench/gold is matched by the
package-data patterns of pyproject.toml (so a wheel carries it), the benches read them
from the package (importlib.resources), and nothing reads gold from tests/data any more."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOLD = ROOT / "kb" / "bench" / "gold"


def test_every_gold_file_is_package_data():
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["rulekb.kb.bench"]
    files = [p.relative_to(GOLD.parent).as_posix() for p in GOLD.rglob("*") if p.is_file()]
    assert len(files) >= 9
    assert [f for f in files if not any(fnmatch.fnmatch(f, pattern) for pattern in patterns)] == []


def test_the_benches_read_their_gold_from_the_package():
    from rulekb.kb.bench import align_eval, consistency, definitions, search

    for path in (align_eval.GOLD, align_eval.INDEPENDENT_GOLD, definitions.GOLD, search.GOLD,
                 consistency.DATA / "consistency_gold.tsv", consistency.DATA / "consistency_judged.tsv"):
        assert Path(str(path)).is_file() and GOLD in Path(str(path)).parents, path
    assert len(search.load_gold()) >= 120
    assert consistency.read_tsv(consistency.DATA / "consistency_gold.tsv")


def test_nothing_reads_gold_from_tests_data():
    readers = [p for p in (ROOT / "kb").rglob("*.py") if '"tests" / "data"' in p.read_text(encoding="utf-8")]
    assert readers == []
    assert not (ROOT / "tests" / "data").exists() or not any((ROOT / "tests" / "data").glob("*gold*"))

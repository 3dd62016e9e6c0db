"""The Java programs rulekb ships as sources (HermiT's batch driver, Pellet's explainer):
compiled once into ``$RULEKB_CACHE/java``, else run by the JDK's source launcher.

Both reasoners' callers want the same thing -- the command line that runs a program
named ``name`` with ``source`` on ``classpath`` -- so the compile-or-launch choice and
the cache's naming live here once.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path


def compiled(java: str, name: str, source: str, classpath: list[str]) -> str | None:
    """The folder holding ``name``'s classes, compiled once into the cache; None when no
    ``javac`` sits beside ``java`` or on PATH, or when it fails."""
    from ..json_cache import cache_dir

    javac = Path(java).with_name("javac")
    javac = str(javac) if javac.is_file() else shutil.which("javac")
    if not javac:
        return None
    digest = hashlib.sha256("\0".join([source, java, *classpath]).encode("utf-8")).hexdigest()[:16]
    target = cache_dir() / "java" / f"{name}-{digest}"
    if (target / f"{name}.class").is_file():
        return str(target)
    with tempfile.TemporaryDirectory(prefix="rulekb-javac-") as tmp:
        program = Path(tmp) / f"{name}.java"
        program.write_text(source, encoding="utf-8")
        out = Path(tmp) / "classes"
        out.mkdir()
        # -implicit:none and no sourcepath: owlready2's hermit folder holds .java files
        # beside its classes, which javac would otherwise recompile into ours
        done = subprocess.run([javac, "-nowarn", "-implicit:none", "-sourcepath", "", "-cp", os.pathsep.join(classpath),
                               "-d", str(out), str(program)], capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            return None
        target.mkdir(parents=True, exist_ok=True)
        for built in out.glob(f"{name}*.class"):  # the program and its inner classes
            shutil.move(str(built), target / built.name)
    return str(target)


def command(java: str, name: str, source: str, classpath: list[str], jvm_options: list[str] | tuple[str, ...],
            scratch: str) -> list[str]:
    """The command line running ``name``: its compiled classes when :func:`compiled` has
    them, else the source written into ``scratch`` (a folder the caller keeps while the
    JVM runs) for the JDK's source launcher."""
    classes = compiled(java, name, source, classpath)
    if classes:
        return [java, *jvm_options, "-cp", os.pathsep.join([classes, *classpath]), name]
    program = Path(scratch) / f"{name}.java"
    program.write_text(source, encoding="utf-8")
    return [java, *jvm_options, "-cp", os.pathsep.join(classpath), str(program)]

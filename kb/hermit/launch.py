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
    target = cache_dir() / "java" / f"{name}-{_key(java, source, classpath)}"
    if (target / f"{name}.class").is_file():
        return str(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    # compiled beside the target, then renamed into place whole: another process compiling the
    # same program at the same moment (two builds, the workers of one) sees all of it or none
    with tempfile.TemporaryDirectory(prefix=f".{name}-", dir=target.parent) as tmp:
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
        try:
            out.rename(target)
        except OSError:  # another process put its own there first: the same classes
            if not (target / f"{name}.class").is_file():
                return None
    return str(target)


def _key(java: str, source: str, classpath: list[str]) -> str:
    """What the classes depend on: the program, the JDK, and each library by its file's name
    and size, not by where it is installed -- a digest of the paths compiled the drivers again
    for every virtual environment (each clone of the project: ninety folders in one cache)."""
    def identity(entry: str) -> str:
        path = Path(entry)
        return f"{path.name}:{path.stat().st_size}" if path.is_file() else path.name

    return hashlib.sha256("\0".join([source, java, *map(identity, classpath)]).encode("utf-8")).hexdigest()[:16]


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

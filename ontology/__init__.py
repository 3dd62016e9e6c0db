"""The rulekb OWL ontology (``rulekb.ttl``) and SHACL shapes (``shapes.ttl``), as package data.

Always load them through these helpers (``importlib.resources``), never by a path
relative to the working directory: the package may be installed anywhere, even zipped.

    >>> from rulekb import ontology
    >>> ontology.turtle().startswith("# rulekb ontology")
    True
    >>> len(ontology.graph()) > 1000
    True
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # rdflib is imported lazily: `from rulekb import ontology` stays cheap
    from rdflib import Graph

ONTOLOGY_FILE = "rulekb.ttl"
SHAPES_FILE = "shapes.ttl"


def resource(name: str = ONTOLOGY_FILE) -> Traversable:
    """The packaged file ``name`` (``rulekb.ttl`` or ``shapes.ttl``)."""
    return resources.files(__name__).joinpath(name)


@contextmanager
def path(name: str = ONTOLOGY_FILE) -> Iterator[Path]:
    """A real file system path to a packaged file, valid inside the ``with`` block."""
    with resources.as_file(resource(name)) as real:
        yield real


def turtle() -> str:
    """The ontology, as Turtle text."""
    return resource(ONTOLOGY_FILE).read_text(encoding="utf-8")


def shapes() -> str:
    """The SHACL shapes, as Turtle text."""
    return resource(SHAPES_FILE).read_text(encoding="utf-8")


def graph() -> Graph:
    """The ontology parsed into a new rdflib graph (the caller may modify it)."""
    from rdflib import Graph

    return Graph().parse(data=turtle(), format="turtle")


def shapes_graph() -> Graph:
    """The SHACL shapes parsed into a new rdflib graph."""
    from rdflib import Graph

    return Graph().parse(data=shapes(), format="turtle")

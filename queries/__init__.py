"""Named SPARQL queries: one ``NAME.rq`` per query, QC checks in ``checks/``.

This package only holds the files (loaded with importlib.resources); the
registry that reads their headers and runs them is :mod:`kb.store.queries`.
"""

from importlib import resources


def files():
    return resources.files(__name__)

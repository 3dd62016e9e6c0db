"""``python -m kb.cli`` runs the ``rulekb`` command."""

from . import main

main()

"""``python -m rulekb.kb.cli`` runs the ``rulekb`` command."""

from . import main

main()

"""Edition comparison: pair each rule with its successor across editions.

- :func:`align` (old, new) -> :class:`Alignment` of :class:`Pair` (kinds:
  unchanged, renumbered, modified, added, removed, split, merged);
- :func:`lineages` (editions) -> :class:`Lineages`: each rule through every
  edition, with the numbers it had;
- :mod:`kb.align.baseline`: the greedy difflib matcher, for comparison;
- :mod:`kb.bench.align_eval`, :mod:`kb.bench.align`: accuracy and speed.
"""

from .lineage import Lineage, Lineages, lineages
from .matcher import align, align_profiles
from .model import Alignment, Pair

__all__ = ["Alignment", "Lineage", "Lineages", "Pair", "align", "align_profiles", "lineages"]

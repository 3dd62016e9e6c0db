"""A rule's text cut into its sentences, as printed (a leaf: the definition readers and
:mod:`.defining` share it without importing the package)."""

from __future__ import annotations

import re
from functools import lru_cache


# a sentence ends at . ! ? (and any closing quotes or brackets, French ones
# after a space) when a capital, an opening quote or bracket follows
_END = re.compile(r"""[.!?](?:\s?[»"”’')\]])*(?=\s+[A-ZÀ-ÖØ-Þ"“«(\[?])""")
_ABBREV = re.compile(r"(?:\b(?:e\.g|i\.e|cf|Cf|vs|St)\.)$")


@lru_cache(maxsize=1 << 16)  # most rule texts recur in the next edition
def sentences(text: str) -> tuple[str, ...]:
    """The sentences of a rule's text, as printed; a line break ends one."""
    out: list[str] = []
    for paragraph in text.split("\n"):
        start = 0
        for m in _END.finditer(paragraph):
            if _ABBREV.search(paragraph[start : m.start() + 1]):
                continue
            piece = paragraph[start : m.end()].strip()
            if piece:
                out.append(piece)
            start = m.end()
        tail = paragraph[start:].strip()
        if tail:
            out.append(tail)
    return tuple(out)

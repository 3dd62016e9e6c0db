"""Text XML 1.0 cannot carry: control characters (an old web page's stray ``\\x0b``),
lone surrogates, U+FFFE/U+FFFF. They are dropped and counted: the writers report the
count, so a translator is told rather than handed a file no tool opens."""

from __future__ import annotations

import re

# XML 1.0 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]
_INVALID = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


class Cleaner:
    """Cleans text for XML and counts what it dropped."""

    def __init__(self) -> None:
        self.dropped = 0
        self._seen: set[str] = set()  # a text written twice (target and alt-trans) is counted once

    def __call__(self, text: str | None) -> str:
        if not text:
            return ""
        cleaned, count = _INVALID.subn("", text)
        if count and text not in self._seen:
            self._seen.add(text)
            self.dropped += count
        return cleaned

    def warning(self) -> str | None:
        if not self.dropped:
            return None
        n = self.dropped
        return f"{n} character{'s' if n != 1 else ''} XML 1.0 cannot carry (control characters) dropped"

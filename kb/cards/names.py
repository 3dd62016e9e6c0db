"""The card name index: written by the build beside the search index, read by every
search that might name a card -- without loading the cards' JSON.

Two files in the search index's directory:

- ``cards.json`` (small, read whole by a search): the names a question may use for a card
  -- its name, each face's name, and a legendary card's short name ("Keranos" for
  "Keranos, God of Storms", "Tymna" for "Tymna the Weaver") when no other card answers
  to it or has a name that starts with it ("Sundial": "Sundial of the Infinite") --
  normalised (:func:`norm`: case, accents, apostrophes and punctuation folded),
  each to the card's byte offset in ``cards.jsonl`` (negative, ``-1 - offset``: by a short name);
  and, apart (``french``), the card's and its faces' French names where the card file has them
  (an English name of another card is that card first);
- ``cards.jsonl``: one line of JSON per card (name, slug, Oracle text, faces, types,
  keywords, shapes, mentions, governing rules), read by offset for the cards a question names;
- ``cards-slugs.json``: slug -> offset, read by the card pages only.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

NAMES = "cards.json"
DETAILS = "cards.jsonl"
SLUGS = "cards-slugs.json"
FIRSTS = "cards-firsts.json"  # a legend's short name, a name's first word -> every card it may mean
MAX_MEANINGS = 40  # a first word more cards share than this ("lightning", "goblin") is kept for none
STEM = 5  # words compared by their first letters: "proliferates" is "proliferate"
_FUNCTION_WORDS = frozenset("""about after again also another because been before being both cannot could does
doing either from have having here into just like make makes more most much must only other over same
should some still such than that their them then there these they this those through under until upon very
what when where whether which while will with would your dans avec pour mais elle elles sont cette quand
quel quelle comme peut""".split())
FORMAT = 2
_APOSTROPHES = re.compile(r"['’‘`´]")
_NON_WORD = re.compile(r"[^0-9a-z]+")
MIN_SHORT = 4  # a short name shorter than this is no name ("Ob")
POSSESSIVE_FIRST = re.compile(r"^[^\s'’]+['’]s\s")  # a name whose first word is a possessive ("Angel's Tomb")


# letters Unicode does not decompose, written out as players type them: "Æther Vial" is Aether Vial
# (Oracle's spelling since the ligature went), "Cœur" is "Coeur"; dropped, they made "ther vial", "cur"
_LIGATURES = str.maketrans({"Æ": "AE", "æ": "ae", "Œ": "OE", "œ": "oe", "ß": "ss", "Ø": "O", "ø": "o",
                            "Ð": "D", "ð": "d", "Þ": "Th", "þ": "th", "Ł": "L", "ł": "l", "Đ": "D", "đ": "d"})


def norm(text: str) -> str:
    """A name as the index keys it: "Obyra’s Attendants" -> "obyras attendants", "Æther" -> "aether"."""
    folded = unicodedata.normalize("NFKD", str(text).translate(_LIGATURES)).encode("ascii", "ignore").decode("ascii").lower()
    return " ".join(_NON_WORD.sub(" ", _APOSTROPHES.sub("", folded)).split())


def stems(text: str) -> set[str]:
    """The words of ``text`` that can tell two cards apart, each by its first :data:`STEM` letters."""
    return {w[:STEM] for w in norm(text).split() if len(w) >= 4 and w not in _FUNCTION_WORDS}


def card_text(row: dict) -> str:
    """A card's type line and Oracle text, its faces' too."""
    faces = " ".join(f"{f.get('type_line') or ''} {f.get('text') or ''}" for f in row.get("faces", []))
    return f"{row.get('type_line') or ''} {row.get('text') or ''} {faces}"


def short_names(name: str, type_line: str) -> list[str]:
    """The names a player shortens a legendary card to: "Keranos, God of Storms" -> "Keranos";
    "Tymna the Weaver" -> "Tymna"."""
    if "legendary" not in (type_line or "").lower():
        return []
    out = []
    for face in name.split(" // "):
        if "," in face:
            out.append(face.split(",")[0].strip())
        m = re.match(r"^(\S+) (?:the|of) \S", face)
        if m:
            out.append(m.group(1))
    return [n for n in out if len(norm(n)) >= MIN_SHORT]


def write(directory: Path, rows: list[dict], meta: dict) -> dict:
    """Write the card files of ``rows`` (:func:`kb.cards.build.rows`) into ``directory``."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    names: dict[str, int] = {}
    french: dict[str, int] = {}  # a card's or a face's French name -> the card (where the file has them)
    slugs: dict[str, int] = {}
    shorts: dict[str, set[int]] = {}
    starts: dict[str, set[int]] = {}  # the first words of a name -> the cards whose name starts so
    firsts: dict[str, set[int]] = {}  # a short name, or the first word of a name -> the cards so shortened
    df: dict[str, int] = {}  # a word of the cards' text (stems) -> how many cards use it
    with open(directory / DETAILS, "wb") as out:
        for row in rows:
            offset = out.tell()
            for stem in stems(card_text(row)):
                df[stem] = df.get(stem, 0) + 1
            out.write(json.dumps(row, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n")
            slugs[row["slug"]] = offset
            for name in [row["name"], *(f["name"] for f in row.get("faces", []))]:
                key = norm(name)
                if key:
                    names.setdefault(key, offset)
                    words = key.split()
                    for n in range(1, len(words)):
                        starts.setdefault(" ".join(words[:n]), set()).add(offset)
                    if len(words) > 1:
                        firsts.setdefault(words[0], set()).add(offset)
            for name in [row.get("name_fr"), *(f.get("name_fr") for f in row.get("faces", []))]:
                key = norm(name or "")
                if key:
                    french.setdefault(key, offset)
            for short in short_names(row["name"], row.get("type_line", "")):
                shorts.setdefault(norm(short), set()).add(offset)
                firsts.setdefault(norm(short), set()).add(offset)
    # a short name two legends share, a card's full name, or the first words of another card's name
    # ("Sundial" for "Sundial, Dawn Tyrant" and "Sundial of the Infinite") names none
    for key, found in shorts.items():
        if len(found) == 1 and key not in names and not starts.get(key, set()) - found:
            names[key] = -1 - next(iter(found))  # negative: reached by a short name
    french = {key: offset for key, offset in french.items() if key not in names}  # an English name first
    data = {"format": FORMAT, "cards": len(rows), "names": names, "french": french, **meta}
    (directory / NAMES).write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    (directory / SLUGS).write_text(json.dumps(slugs, separators=(",", ":")), encoding="utf-8")
    # what a name's first word or a shared short name may mean ("Thalia": three legends, "Snapcaster":
    # one card): read by the recognition only for a capitalised word that names nothing else
    meanings = {key: sorted(found) for key, found in firsts.items()
                if key not in names and len(key) >= MIN_SHORT and len(found) <= MAX_MEANINGS}
    firsts_data = {"meanings": meanings, "cards": len(rows), "df": {k: n for k, n in df.items() if n > 1}}
    (directory / FIRSTS).write_text(json.dumps(firsts_data, separators=(",", ":")), encoding="utf-8")
    return {"cards": len(rows), "names": len(names)}


@dataclass
class Found:
    """A card a question names: where and how."""

    index: int
    name: str
    slug: str
    how: str  # brackets | double brackets | text | face | short name | spelling | plural | French name
    asked: str  # the words of the question that named it
    span: tuple[int, int] = (0, 0)
    details: dict = field(default_factory=dict)


class NameIndex:
    """The names of one build's cards (``cards.json``), and their details on demand. A card is
    known by its offset in ``cards.jsonl``."""

    def __init__(self, directory: Path):
        self.directory = Path(directory)
        data = json.loads((self.directory / NAMES).read_text(encoding="utf-8"))
        if data.get("format") != FORMAT:
            raise ValueError(f"card name index format {data.get('format')} (this rulekb reads {FORMAT})")
        self.count: int = data["cards"]
        self.names: dict[str, int] = data["names"]
        self.french: dict[str, int] = data.get("french") or {}  # (none in an index written before French names)
        self.meta = {k: v for k, v in data.items() if k not in ("cards", "names", "french")}
        self._by_length: dict[int, list[str]] | None = None
        self._details: dict[int, dict] = {}
        self._firsts: dict | None = None

    @classmethod
    def open(cls, directory: Path) -> "NameIndex | None":
        """The index in ``directory``, or None when the build had no cards."""
        if not (Path(directory) / NAMES).is_file():
            return None
        return cls(directory)

    def __len__(self) -> int:
        return self.count

    def details(self, card: int) -> dict:
        """The card at offset ``card`` of ``cards.jsonl`` (name, slug, text, links ...)."""
        found = self._details.get(card)
        if found is None:
            with open(self.directory / DETAILS, "rb") as f:
                f.seek(card)
                found = json.loads(f.readline())
            if len(self._details) > 500:
                self._details.clear()
            self._details[card] = found
        return found

    def by_slug(self, slug: str) -> dict | None:
        try:
            slugs = json.loads((self.directory / SLUGS).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        offset = slugs.get(slug)
        return None if offset is None else self.details(offset)

    def lookup(self, name: str, french: bool = True) -> tuple[int, str] | None:
        """(card, how) for a name as written: exact (folded), a face, a short name, a French name
        (``french``: whether one counts)."""
        found = self.names.get(norm(name))
        if found is None:
            found = self.french.get(norm(name)) if french else None
            return None if found is None else (found, "French name")
        if found < 0:
            return -1 - found, "short name"
        return found, "name" if norm(self.details(found)["name"]) == norm(name) else "face"

    def _read_firsts(self) -> dict:
        if self._firsts is None:
            try:
                self._firsts = json.loads((self.directory / FIRSTS).read_text(encoding="utf-8"))
            except (OSError, ValueError):
                self._firsts = {}  # an index written before this file existed: no such reading
        return self._firsts

    def meanings(self, word: str) -> list[int]:
        """The cards a legend's short name or a name's first word may mean ("Thalia", "Snapcaster"),
        when it is no card's name itself (read on first use)."""
        return self._read_firsts().get("meanings", {}).get(norm(word), [])

    def specificity(self, stem: str) -> float:
        """How rare a word (:func:`stems`) is in the cards' text: log(cards / cards using it)."""
        firsts = self._read_firsts()
        return math.log(max(1, firsts.get("cards", 1)) / firsts.get("df", {}).get(stem, 1))

    def beginning(self, words: str) -> list[int]:
        """The cards whose name (or a face's) begins with ``words`` as whole words ("Lightning":
        Lightning Bolt, Lightning Helix ...), in the order of their names."""
        key = norm(words)
        if not key:
            return []
        found = {}
        for name, offset in self.names.items():
            if offset >= 0 and name.startswith(key + " "):
                found.setdefault(offset, name)
        return sorted(found, key=found.get)

    def near(self, name: str, cutoff: float = 0.84) -> int | None:
        """The card whose name is nearest a misspelt ``name`` (difflib's ratio >= ``cutoff``)."""
        from difflib import SequenceMatcher

        key = norm(name)
        if len(key) < 5:
            return None
        if self._by_length is None:
            by_length: dict[int, list[str]] = {}
            for k in [*self.names, *self.french]:
                by_length.setdefault(len(k), []).append(k)
            self._by_length = by_length
        best, best_key = cutoff, None
        matcher = SequenceMatcher(autojunk=False)
        matcher.set_seq2(key)
        for length in range(len(key) - 2, len(key) + 3):
            for candidate in self._by_length.get(length, ()):
                if candidate[0] != key[0] and candidate[-3:] != key[-3:]:
                    continue
                matcher.set_seq1(candidate)
                if matcher.real_quick_ratio() < best or matcher.quick_ratio() < best:
                    continue
                ratio = matcher.ratio()
                if ratio > best:
                    best, best_key = ratio, candidate
        if best_key is None:
            return None
        found = self.names.get(best_key, self.french.get(best_key, 0))
        return -1 - found if found < 0 else found

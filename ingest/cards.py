"""Oracle card files -> cards (name, faces, type line, Oracle text): a pure reader.

Three shapes are read, told apart by their content, not their name:

- Scryfall's ``oracle_cards`` bulk file: a JSON array of card objects (``name``,
  ``type_line``, ``oracle_text``, ``mana_cost``, ``keywords``, ``card_faces`` ...);
- the trimmed Scryfall file of the shared corpus (``cards/*.json.gz``): the same array,
  gzipped, without ``keywords`` (and without layout, loyalty, set fields);
- MTGJSON's ``AtomicCards``: ``{"meta": {...}, "data": {name: [face, ...]}}``, one
  object per face (``faceName``, ``type``, ``text``, ``manaCost``, ``keywords``).

A card's French name, and its faces', are read where the file has them: MTGJSON's ``foreignData``
(its ``French`` entry's ``name`` and ``faceName``), or a Scryfall printing in French (an object of
``"lang": "fr"``, its ``printed_name`` and its faces'), which names the card of its English
``name`` and is no card of its own. Scryfall's ``oracle_cards`` has no French printing, the corpus
file neither; MTGJSON's AtomicCards and Scryfall's ``lang:fr`` searches have them.

Gzip, xz and bzip2 are recognised by their magic bytes. What is read is kept whole: Oracle text as
printed, faces in order; a card's ``keywords`` are the file's own when it has them,
else empty (:mod:`rulekb.kb.cards` derives them from the text by the rules' own
keyword list). Anything else -- truncated gzip or JSON, not JSON, another JSON shape,
no card in it -- raises :class:`CardFileError`, one line naming the file and what is
wrong; nothing is returned half-read.
"""

from __future__ import annotations

import gzip
import json
import zlib
from dataclasses import dataclass, field, replace
from pathlib import Path

from .errors import IngestError

MAX_BYTES = 1 << 30  # a card file larger than this (uncompressed) is not an Oracle file


class CardFileError(IngestError):
    """A card file rulekb cannot read (truncated, not JSON, not an Oracle card file)."""


@dataclass(frozen=True, slots=True)
class Face:
    name: str
    type_line: str = ""
    oracle_text: str = ""
    mana_cost: str = ""
    power: str | None = None
    toughness: str | None = None
    name_fr: str = ""  # the face's name on French printings, where the file says


@dataclass(slots=True)
class Card:
    name: str  # the full name ("Fire // Ice" for a split card)
    type_line: str = ""
    oracle_text: str = ""  # the whole card's text; the faces' texts joined for a card with faces
    mana_cost: str = ""
    faces: list[Face] = field(default_factory=list)  # empty for a one-faced card
    keywords: list[str] = field(default_factory=list)  # as the file gives them (Scryfall, MTGJSON)
    power: str | None = None
    toughness: str | None = None
    name_fr: str = ""  # the card's name on French printings, where the file says

    def face_names(self) -> list[str]:
        return [f.name for f in self.faces if f.name and f.name != self.name]


@dataclass(slots=True)
class CardFile:
    cards: list[Card]
    shape: str  # scryfall | mtgjson
    source: str


def read(path: str | Path) -> CardFile:
    """The cards of the file at ``path`` (gzipped or not)."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CardFileError(f"cannot read the card file: {exc.strerror or exc}", source=str(path)) from None
    return parse_bytes(data, str(path))


def parse_bytes(data: bytes, source: str = "card file") -> CardFile:
    """The cards of one file's bytes; :class:`CardFileError` (naming ``source``) when they are none."""
    for magic, kind in ((b"\x1f\x8b", "gzip"), (b"\xfd7zXZ\x00", "xz"), (b"BZh", "bzip2")):
        if data.startswith(magic):
            try:
                data = _decompress(data, kind)
            except (OSError, EOFError, zlib.error, ValueError) as exc:
                raise CardFileError(f"not a complete {kind} file ({_short(exc)})", source=source) from None
            break
    if not data.strip():
        raise CardFileError("empty: no cards", source=source)
    try:
        value = json.loads(data)
    except UnicodeDecodeError:
        raise CardFileError("not UTF-8 JSON (a card file is Scryfall's or MTGJSON's JSON)", source=source) from None
    except json.JSONDecodeError as exc:
        what = "truncated JSON" if exc.pos >= len(data.rstrip()) - 2 or exc.msg.startswith("Unterminated") else "not JSON"
        raise CardFileError(f"{what} (line {exc.lineno}, column {exc.colno}: {exc.msg})", source=source) from None
    except RecursionError:
        raise CardFileError("not a card file (JSON nested too deep)", source=source) from None
    if isinstance(value, list):
        cards, shape = _scryfall(value, source), "scryfall"
    elif isinstance(value, dict) and isinstance(value.get("data"), dict):
        cards, shape = _mtgjson(value["data"], source), "mtgjson"
    elif isinstance(value, dict) and value.get("object") == "list" and isinstance(value.get("data"), list):
        cards, shape = _scryfall(value["data"], source), "scryfall"  # a page of Scryfall's search API
    else:
        raise CardFileError(
            f"not an Oracle card file: a JSON {type(value).__name__} that is neither a Scryfall card array "
            "nor MTGJSON AtomicCards ({\"meta\", \"data\": {name: [faces]}})", source=source)
    if not cards:
        raise CardFileError(f"no cards in this {shape} file", source=source)
    return CardFile(cards, shape, source)


def _decompress(data: bytes, kind: str) -> bytes:
    import bz2
    import io
    import lzma

    raw = io.BytesIO(data)
    opened = gzip.GzipFile(fileobj=raw) if kind == "gzip" else lzma.LZMAFile(raw) if kind == "xz" else bz2.BZ2File(raw)
    out = opened.read(MAX_BYTES + 1)
    if len(out) > MAX_BYTES:
        raise OSError("larger than 1 GiB uncompressed")
    return out


def _short(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:100]


def _text(value) -> str:
    return value if isinstance(value, str) else ""


def _opt(value) -> str | None:
    return value if isinstance(value, str) else None


def _scryfall(items: list, source: str) -> list[Card]:
    seen: dict[str, Card] = {}  # English name -> its card, in the file's order
    others: dict[str, tuple] = {}  # English name -> its first printing in another language, and its faces
    french: dict[str, dict] = {}  # English name -> a French printing of it
    for i, item in enumerate(items):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str) or not item["name"].strip():
            raise CardFileError(f"not a Scryfall card array: item {i} is not a card object with a name", source=source)
        if item.get("object") not in (None, "card"):
            raise CardFileError(f"not a Scryfall card array: item {i} is a {str(item.get('object'))[:30]!r}",
                                source=source)
        name = item["name"].strip()
        faces_raw = item.get("card_faces") if isinstance(item.get("card_faces"), list) else []
        faces = [Face(_text(f.get("name")).strip(), _text(f.get("type_line")), _text(f.get("oracle_text")),
                      _text(f.get("mana_cost")), _opt(f.get("power")), _opt(f.get("toughness")))
                 for f in faces_raw if isinstance(f, dict)]
        if len(faces) > 1 and len({f.name for f in faces}) == 1 and name == " // ".join(f.name for f in faces):
            # a reversible printing ("Ghalta, Primal Hunger // Ghalta, Primal Hunger": one card on both
            # sides) is the card of that name, not a double-faced card: the corpus file holds 61
            name, faces = faces[0].name, faces[:1]
            item = {**item, "oracle_text": item.get("oracle_text") or faces[0].oracle_text,
                    "type_line": item.get("type_line") or faces[0].type_line,
                    "mana_cost": item.get("mana_cost") or faces[0].mana_cost,
                    "power": item.get("power") or faces[0].power, "toughness": item.get("toughness") or faces[0].toughness}
        if item.get("lang") not in (None, "en"):
            # a printing in another language (all_cards): its name says how French players call the card;
            # it is the card itself only when the file has no English printing of it
            if item.get("lang") == "fr":
                french.setdefault(name, item)
            others.setdefault(name, (item, faces))
            continue
        if name not in seen:  # one card per name (a default_cards file has a printing per set)
            seen[name] = _card(name, item, faces)
    for name, (item, faces) in others.items():
        if name not in seen:
            seen[name] = _card(name, item, faces)
    for name, item in french.items():
        card = seen[name]
        printed = [_text(f.get("printed_name")).strip() if isinstance(f, dict) else ""
                   for f in (item.get("card_faces") if isinstance(item.get("card_faces"), list) else [])]
        card.name_fr = _text(item.get("printed_name")).strip() or (" // ".join(printed) if all(printed) else "")
        if card.faces and len(printed) == len(card.faces):
            card.faces = [replace(f, name_fr=p) for f, p in zip(card.faces, printed)]
    return list(seen.values())


def _card(name: str, item: dict, faces: list[Face]) -> Card:
    """A Scryfall card object as a card (its faces read already)."""
    text = _text(item.get("oracle_text")) or "\n".join(f.oracle_text for f in faces if f.oracle_text)
    type_line = _text(item.get("type_line")) or " // ".join(f.type_line for f in faces if f.type_line)
    keywords = [k for k in item.get("keywords") or [] if isinstance(k, str)] if isinstance(
        item.get("keywords"), list) else []
    return Card(name, type_line, text, _text(item.get("mana_cost")), faces if len(faces) > 1 else [],
                keywords, _opt(item.get("power")), _opt(item.get("toughness")))


def _mtgjson(data: dict, source: str) -> list[Card]:
    cards = []
    for name, faces_raw in data.items():
        if not isinstance(name, str) or not name.strip() or not isinstance(faces_raw, list) or not faces_raw \
                or not all(isinstance(f, dict) for f in faces_raw):
            raise CardFileError(f"not MTGJSON AtomicCards: {str(name)[:40]!r} is not a list of card faces",
                                source=source)
        first = faces_raw[0]
        faces = [Face(_text(f.get("faceName") or f.get("name")).strip(), _text(f.get("type")), _text(f.get("text")),
                      _text(f.get("manaCost")), _opt(f.get("power")), _opt(f.get("toughness")),
                      _french(f, "faceName") or _french(f, "name"))
                 for f in faces_raw]
        if len(faces) > 1 or first.get("faceName"):
            # an AtomicCards entry lists a card's faces (and, for a few names, printings of one face): keep faces
            distinct = list({f.name: f for f in faces}.values())
            faces = distinct if len(distinct) > 1 else []
        else:
            faces = []
        keywords = sorted({k for f in faces_raw for k in (f.get("keywords") or []) if isinstance(k, str)})
        text = "\n".join(f.oracle_text for f in faces if f.oracle_text) if faces else _text(first.get("text"))
        type_line = " // ".join(f.type_line for f in faces if f.type_line) if faces else _text(first.get("type"))
        mana = " // ".join(f.mana_cost for f in faces if f.mana_cost) if faces else _text(first.get("manaCost"))
        cards.append(Card(name.strip(), type_line, text, mana, faces, keywords,
                          _opt(first.get("power")), _opt(first.get("toughness")), _french(first, "name")))
    return cards


def _french(face: dict, key: str) -> str:
    """``key`` of a MTGJSON face's French ``foreignData`` entry ("" when it has none)."""
    entries = face.get("foreignData")
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, dict) and entry.get("language") == "French":
            return _text(entry.get(key)).strip()
    return ""


def to_json(cards: list[Card]) -> list[dict]:
    """The cards as a trimmed Scryfall array (what ``rulekb fetch --cards`` keeps in the cache), a
    card's French names as a French printing after it: :func:`parse_bytes` reads it back to the same
    cards."""
    out = []
    for c in cards:
        item = {"name": c.name, "mana_cost": c.mana_cost, "type_line": c.type_line,
                "oracle_text": c.oracle_text, "power": c.power, "toughness": c.toughness,
                "keywords": list(c.keywords)}
        if c.faces:
            item["card_faces"] = [{"name": f.name, "mana_cost": f.mana_cost, "type_line": f.type_line,
                                   "oracle_text": f.oracle_text, "power": f.power, "toughness": f.toughness}
                                  for f in c.faces]
        out.append(item)
        if c.name_fr or any(f.name_fr for f in c.faces):  # its French names, as a French printing
            french = {"name": c.name, "lang": "fr", "printed_name": c.name_fr}
            if c.faces:
                french["card_faces"] = [{"name": f.name, "printed_name": f.name_fr} for f in c.faces]
            out.append(french)
    return out

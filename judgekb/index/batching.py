"""One encoder thread for every query: concurrent queries batched, grouped by length, on time.

Under load (the web service runs searches on a thread pool) many small forward passes at once
oversubscribe the two cores; one worker encoding whatever queued up while it was busy gives the
same single-query latency and several times the throughput. Three rules keep that fair:

- what queued is split into groups of similar token length (:func:`length_groups`), and the
  group of the shortest is encoded first, so a 1,000-character query neither pads short ones
  to its length nor delays the ones that keep arriving (and a pass holds at most 1,024
  tokens);
- a query carries a deadline (``time.monotonic()``) by which its encoding must start; a query
  still queued past it fails with :class:`~judgekb.errors.Overloaded` instead of waiting on,
  so under overload the queue sheds load rather than growing;
- after a busy period, once the queue has been idle for a second, freed C heap goes back to
  the operating system (:func:`judgekb.index.memory.release_memory`).
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import TYPE_CHECKING

import numpy as np

from judgekb.errors import Overloaded
from judgekb.index.memory import release_memory

if TYPE_CHECKING:
    from judgekb.index.embedder import Embedder

log = logging.getLogger(__name__)

IDLE_SECONDS = 1.0  # queue idle this long after work: give freed memory back
QUERY_PAD_RATIO = 1.5  # queries: padded tokens at most 1.5 x real tokens per group
GROUP_TOKENS = 1024  # and at most this many per forward pass, so no pass blocks for long


def length_groups(
    lengths: Sequence[int], max_batch: int, max_pad_ratio: float, max_tokens: int = 0
) -> list[list[int]]:
    """Indexes of ``lengths`` in groups of similar length, shortest group first.

    Sorted by length, a group grows while it has fewer than ``max_batch`` members, padding
    every member to the longest keeps the group's tokens within ``max_pad_ratio`` times their
    real count and (when ``max_tokens``) within ``max_tokens``. Each index appears once.
    """
    order = sorted(range(len(lengths)), key=lambda i: (lengths[i], i))
    groups: list[list[int]] = []
    real = 0
    for i in order:
        n = max(lengths[i], 1)
        group = groups[-1] if groups else None
        if group is not None and len(group) < max_batch:
            padded = (len(group) + 1) * n
            if padded <= max_pad_ratio * (real + n) and (not max_tokens or padded <= max_tokens):
                group.append(i)
                real += n
                continue
        groups.append([i])
        real = n
    return groups


class _Item:
    __slots__ = ("deadline", "future", "queued_at", "text", "tokens")

    def __init__(self, text: str, deadline: float | None) -> None:
        self.text = text
        self.deadline = deadline
        self.queued_at = time.monotonic()
        self.future: Future[np.ndarray] = Future()
        self.tokens = 0  # counted by the worker


class BatchingEmbedder:
    """Serialises query encoding on one worker thread and batches concurrent queries."""

    def __init__(self, inner: Embedder, max_batch: int = 32) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.max_batch = max_batch
        self._queue: queue.Queue[_Item] = queue.Queue()
        self._worker = threading.Thread(target=self._run, name="query-encoder", daemon=True)
        self._worker.start()

    # worker -----------------------------------------------------------------------------
    def _run(self) -> None:
        """Encode the group of the shortest pending queries, then look at the queue again.

        Shortest first: a query that arrives while long ones wait goes before them, and a
        long one waits only while shorter work keeps coming, until its deadline.
        """
        pending: list[_Item] = []
        dirty = False
        while True:
            if not pending:
                try:
                    pending.append(self._queue.get(timeout=IDLE_SECONDS if dirty else None))
                except queue.Empty:
                    release_memory()
                    dirty = False
                    continue
            with contextlib.suppress(queue.Empty):
                while True:
                    pending.append(self._queue.get_nowait())
            for it in pending:
                it.tokens = it.tokens or self.inner.query_tokens(it.text)
            groups = length_groups(
                [it.tokens for it in pending], self.max_batch, QUERY_PAD_RATIO, GROUP_TOKENS
            )
            chosen = set(groups[0])
            self._encode([pending[i] for i in groups[0]])
            pending = [it for i, it in enumerate(pending) if i not in chosen]
            dirty = True

    def _encode(self, items: list[_Item]) -> None:
        now = time.monotonic()
        live = []
        for it in items:
            if it.deadline is not None and now > it.deadline:
                waited = (now - it.queued_at) * 1000
                it.future.set_exception(
                    Overloaded(f"the search service is busy: this query waited {waited:.0f} ms")
                )
            else:
                live.append(it)
        if not live:
            return
        try:
            vecs = self.inner.encode_queries([it.text for it in live])
        except Exception as exc:  # hand the failure to every waiting caller
            for it in live:
                it.future.set_exception(exc)
            return
        for it, vec in zip(live, vecs, strict=True):
            it.future.set_result(vec)

    # Embedder ---------------------------------------------------------------------------
    def query_tokens(self, text: str) -> int:
        return self.inner.query_tokens(text)

    def encode_queries(self, texts: Sequence[str], deadline: float | None = None) -> np.ndarray:
        """Vectors for ``texts``; :class:`Overloaded` when encoding cannot start by ``deadline``."""
        items = [_Item(t, deadline) for t in texts]
        for it in items:
            self._queue.put(it)
        return np.vstack([it.future.result() for it in items])

    def encode_passages(
        self, texts: Sequence[str], progress: Callable[[int], None] | None = None
    ) -> np.ndarray:
        return self.inner.encode_passages(texts, progress)

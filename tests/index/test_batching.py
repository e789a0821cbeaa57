"""The query-encoder thread: length groups, deadlines, and the order groups are encoded in."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from judgekb.errors import Overloaded
from judgekb.index.batching import BatchingEmbedder, length_groups
from judgekb.index.memory import limit_malloc_arenas, release_memory
from tests.fakes import FakeEmbedder


def test_length_groups_keep_padding_bounded():
    # 4 short queries pad to 12 tokens (48 <= 1.5 x 42); the 300-token one is alone.
    assert length_groups([12, 300, 10, 11, 9], 32, 1.5) == [[4, 2, 3, 0], [1]]


def test_length_groups_respect_the_batch_size_and_keep_every_index():
    groups = length_groups([5] * 7, 3, 1.5)
    assert groups == [[0, 1, 2], [3, 4, 5], [6]]
    assert length_groups([], 8, 1.5) == []


def test_length_groups_split_where_padding_would_exceed_the_ratio():
    # 10 + 14 padded to 14 each = 28 <= 1.3 x 24; a third of 20 would pad to 60 > 1.3 x 44.
    assert length_groups([10, 14, 20], 8, 1.3) == [[0, 1], [2]]


def test_length_groups_cap_the_tokens_of_one_pass():
    # four 236-token queries: 944 tokens fit in one pass of 1,024; a fifth would not
    assert length_groups([236] * 5, 32, 1.5, 1024) == [[0, 1, 2, 3], [4]]
    assert length_groups([2000], 32, 1.5, 1024) == [[0]]  # a single one always runs


class GatedEmbedder(FakeEmbedder):
    """Blocks its first call until released and records every batch it encodes."""

    def __init__(self) -> None:
        super().__init__()
        self.batches: list[list[str]] = []
        self.entered = threading.Event()
        self.release = threading.Event()

    def encode_queries(self, texts, deadline=None):  # type: ignore[no-untyped-def]
        if not self.batches:
            self.entered.set()
            self.release.wait(10)
        self.batches.append(list(texts))
        return super().encode_queries(texts)


def _in_thread(fn):  # type: ignore[no-untyped-def]
    out: dict[str, object] = {}

    def run() -> None:
        try:
            out["value"] = fn()
        except Exception as exc:
            out["error"] = exc

    thread = threading.Thread(target=run)
    thread.start()
    return thread, out


def _wait_queued(embedder: BatchingEmbedder, n: int) -> None:
    for _ in range(1000):
        if embedder._queue.qsize() >= n:
            return
        time.sleep(0.005)
    raise AssertionError(f"{n} queries never queued")


def test_queued_queries_are_encoded_shortest_group_first():
    inner = GatedEmbedder()
    emb = BatchingEmbedder(inner, max_batch=32)
    first, _ = _in_thread(lambda: emb.encode_queries(["busy"]))
    assert inner.entered.wait(5)
    long_text = " ".join(["kalah"] * 200)
    waiting = [_in_thread(lambda t=t: emb.encode_queries([t])) for t in (long_text, "seri", "kad")]
    _wait_queued(emb, 3)
    inner.release.set()
    for thread, out in [(first, {}), *waiting]:
        thread.join(5)
        assert "error" not in out
    assert inner.batches[0] == ["busy"]
    assert sorted(inner.batches[1]) == ["kad", "seri"]  # the short ones together, first
    assert inner.batches[2] == [long_text]  # the long one alone, last


def test_a_query_queued_past_its_deadline_is_refused_not_encoded():
    inner = GatedEmbedder()
    emb = BatchingEmbedder(inner)
    first, _ = _in_thread(lambda: emb.encode_queries(["busy"]))
    assert inner.entered.wait(5)
    late, late_out = _in_thread(lambda: emb.encode_queries(["late"], time.monotonic() - 1))
    timely, timely_out = _in_thread(lambda: emb.encode_queries(["kad"], time.monotonic() + 60))
    _wait_queued(emb, 2)
    inner.release.set()
    for thread in (first, late, timely):
        thread.join(5)
    assert isinstance(late_out["error"], Overloaded)
    assert late_out["error"].status == 503
    assert isinstance(timely_out["value"], np.ndarray)
    assert ["late"] not in inner.batches and ["kad"] in inner.batches


def test_encoder_errors_reach_every_caller():
    class Broken(FakeEmbedder):
        def encode_queries(self, texts, deadline=None):  # type: ignore[no-untyped-def]
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        BatchingEmbedder(Broken()).encode_queries(["kad"])


def test_memory_helpers_are_safe_to_call():
    assert limit_malloc_arenas(0) is False  # 0 = leave glibc's default
    assert isinstance(release_memory(), bool)


def test_a_loaded_index_is_out_of_the_collectors_reach(real_searcher) -> None:
    """load_searcher freezes what it loaded: a full collection over it (about 155 ms) would
    outlast a search's 150 ms deadline at random. A later freeze first collects what an earlier
    one kept, so a dropped generation does not stay for good."""
    import gc
    import weakref

    from judgekb.index.memory import freeze_loaded

    assert real_searcher is not None and gc.get_freeze_count() > 100_000

    class Cycle:
        me: object = None

    c = Cycle()
    c.me = c
    alive = weakref.ref(c)
    freeze_loaded()  # frozen with everything else
    del c
    gc.collect()
    assert alive() is not None  # the collector no longer looks at it
    freeze_loaded()  # unfrozen, collected, not frozen again
    assert alive() is None

"""`judgekb` with the keyword encoder instead of a model, and a pause at one build phase, for
the fault-injection tests: ``python -m tests.faultrunner build`` (any judgekb arguments).

``JUDGEKB_TEST_PAUSE=<phase>`` makes the process write the phase name to the file named by
``JUDGEKB_TEST_MARK`` at that point and wait there until the test removes the file (or kills
the process). Phases, in build order:

    corpus     the clause store is half-written (rows inserted, not committed)
    embedding  one batch of passages is encoded and committed to the cache
    indexing   dense.faiss is written, BM25 is not
    commit     the generation is complete and renamed, but not yet current
    prune      the new generation is current, the old ones are not removed yet
"""

from __future__ import annotations

import functools
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

PAUSE = os.environ.get("JUDGEKB_TEST_PAUSE", "")
MARK = Path(os.environ.get("JUDGEKB_TEST_MARK", "pause.mark"))


def pause(phase: str) -> None:
    if phase != PAUSE:
        return
    MARK.write_text(phase, encoding="utf-8")
    while MARK.exists():
        time.sleep(0.05)


def pausing(phase: str, func: Callable[..., Any], after: bool) -> Callable[..., Any]:
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not after:
            pause(phase)
        out = func(*args, **kwargs)
        if after:
            pause(phase)
        return out

    return wrapper


def install() -> None:
    import faiss

    import judgekb.corpus.store as store
    import judgekb.index.embedder as embedder
    import judgekb.index.generation as generation
    from tests.fakes import FakeEmbedder

    class PausingEmbedder(FakeEmbedder):
        calls = 0

        def encode_passages(self, texts, progress=None):  # type: ignore[no-untyped-def]
            PausingEmbedder.calls += 1
            if PausingEmbedder.calls == 2:
                pause("embedding")
            return super().encode_passages(texts, progress)

    embedder.load_embedder = lambda *args, **kwargs: PausingEmbedder()  # type: ignore[assignment]
    store._insert_all = pausing("corpus", store._insert_all, after=True)  # type: ignore[assignment]
    faiss.write_index = pausing("indexing", faiss.write_index, after=True)
    generation.switch = pausing("commit", generation.switch, after=False)  # type: ignore[assignment]
    generation.prune = pausing("prune", generation.prune, after=False)  # type: ignore[assignment]


if __name__ == "__main__":
    install()
    from judgekb.cli import app

    sys.argv[0] = "judgekb"
    app()

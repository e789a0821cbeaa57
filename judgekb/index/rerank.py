"""Re-ranking the fused top-N with a second dense view: each clause's own text.

Most near misses are siblings or a parent and its child at rank 2 ("max 15 resources" 4-4-2
against "EX resource max 5" 4-4-2-1). A child's passage repeats its parents' headings, so it
matches whatever its parent matches, and siblings share their headings: the passage vector ties
them. The *text view* (each clause's own words, embedded at build, ``text_view.npy``) tells them
apart. A linear model orders the fused top-N by four features of each candidate, each relative
to the best candidate so that a model fitted on some questions transfers to others:

- ``fused``: the fused score minus the top one (what :func:`fusion.fuse` said);
- ``dense``: the passage cosine minus the best candidate's;
- ``bm25``: the BM25 score over the best candidate's;
- ``text``: the text-view cosine minus the best candidate's.

The weights are small data (``data/rerank.toml``), fitted on the dev questions by
``scripts/train_rerank.py`` (pairwise logistic regression, k-fold cross-validated; figures in
docs/benchmarks.md). Re-ranked scores stay on the fused scale: the model's score divided by its
``fused`` weight, anchored at the fused top score, so a score margin still reads as fusion's.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from judgekb.config import DATA_DIR
from judgekb.errors import ConfigError

if TYPE_CHECKING:
    from judgekb.index.loaded import LoadedIndex

FEATURES = ("fused", "dense", "bm25", "text")


def features(
    fused: np.ndarray, dense: np.ndarray, bm25: np.ndarray, text: np.ndarray
) -> np.ndarray:
    """One row per candidate (in fused order), one column per :data:`FEATURES`."""
    top_bm = float(bm25.max()) if bm25.size and bm25.max() > 0 else 1.0
    return np.stack(
        [
            fused - fused.max(),
            dense - dense.max(),
            bm25 / top_bm,
            text - text.max(),
        ],
        axis=1,
    ).astype(np.float32)


@dataclass(frozen=True)
class Reranker:
    """Linear weights over :data:`FEATURES`, applied to the fused top ``top_n``."""

    weights: tuple[float, ...]
    top_n: int = 20

    def scores(self, x: np.ndarray) -> np.ndarray:
        """Re-ranked scores on the fused scale (0 for the best candidate, negative below)."""
        s = x @ np.asarray(self.weights, dtype=np.float32)
        return (s - s.max()) / self.weights[0]

    def rerank(
        self,
        fused: np.ndarray,
        rows: np.ndarray,
        dense: np.ndarray,
        bm25: np.ndarray,
        text: np.ndarray,
    ) -> np.ndarray:
        """``fused`` with its ``rows`` (the top candidates, best first) re-scored: each keeps
        the fused top score plus its re-ranked score, and all stay above the rows after them."""
        if rows.size < 2:
            return fused
        out = fused.copy()
        new = float(fused[rows[0]]) + self.scores(
            features(fused[rows], dense[rows], bm25[rows], text)
        )
        rest = np.delete(fused, rows)
        floor = float(rest[np.isfinite(rest)].max()) if np.isfinite(rest).any() else -np.inf
        # Never below the first row outside the candidates; keep their new order when clipped.
        order = np.argsort(-new, kind="stable")
        step = 1e-6
        for k, i in enumerate(order):
            new[i] = max(new[i], floor + step * (len(order) - k))
        out[rows] = new
        return out


def rerank_top(
    reranker: Reranker | None,
    index: LoadedIndex,
    fused: np.ndarray,
    dense: np.ndarray,
    bm25: np.ndarray,
    qv: np.ndarray | None,
) -> np.ndarray:
    """The search hook: ``fused`` with its top ``reranker.top_n`` rows re-scored (unchanged
    without a model, or without a query vector: BM25-only search)."""
    if reranker is None or qv is None:
        return fused
    top = np.argsort(-fused, kind="stable")[: reranker.top_n]
    top = top[np.isfinite(fused[top])]
    return reranker.rerank(fused, top, dense, bm25, index.text_view_scores(qv, top))


def load_reranker(path: Path = DATA_DIR / "rerank.toml") -> Reranker | None:
    """The shipped model; None when the file is absent (search then keeps the fused order)."""
    if not path.exists():
        return None
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        model = data["model"]
        weights = tuple(float(model["weights"][f]) for f in FEATURES)
        reranker = Reranker(weights, int(model["top_n"]))
    except (OSError, KeyError, TypeError, ValueError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(
            f"{path}: re-ranker unreadable ({exc}); rerun scripts/train_rerank.py"
        ) from exc
    if reranker.weights[0] <= 0 or reranker.top_n < 2:
        raise ConfigError(f"{path}: the 'fused' weight must be > 0 and top_n >= 2")
    return reranker

"""Ranking metrics for one question: a ranked list of hit flags against a gold set.

Every function takes ``relevant``: one bool per returned result in rank order (True when that
result is a gold clause), plus ``n_gold`` where the ideal ranking matters. Relevance is binary:
any gold clause fully answers the question.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def first_hit_rank(relevant: Sequence[bool]) -> int | None:
    """1-based rank of the first relevant result, or None when there is none."""
    for i, rel in enumerate(relevant, 1):
        if rel:
            return i
    return None


def recall_at_k(relevant: Sequence[bool], k: int) -> float:
    """1.0 when any of the first ``k`` results is gold, else 0.0 (hit rate, not set recall)."""
    return 1.0 if any(relevant[:k]) else 0.0


def mrr_at_k(relevant: Sequence[bool], k: int = 10) -> float:
    """Reciprocal rank of the first gold result within the first ``k``; 0.0 when none."""
    rank = first_hit_rank(relevant[:k])
    return 0.0 if rank is None else 1.0 / rank


def dcg_at_k(relevant: Sequence[bool], k: int) -> float:
    """Discounted cumulative gain with binary gains: sum of 1/log2(rank+1) over gold results."""
    return sum(1.0 / math.log2(i + 1) for i, rel in enumerate(relevant[:k], 1) if rel)


def ndcg_at_k(relevant: Sequence[bool], n_gold: int, k: int = 10) -> float:
    """DCG normalised by the ideal DCG of ``min(n_gold, k)`` gold results ranked first.

    Duplicate hits of one gold clause would count twice; the runner de-duplicates first.
    """
    ideal = sum(1.0 / math.log2(i + 1) for i in range(1, min(n_gold, k) + 1))
    if ideal == 0.0:
        return 0.0
    return min(1.0, dcg_at_k(relevant, k) / ideal)


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile (``q`` in 0..100), as numpy's default; 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = math.ceil(pos)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)

"""Ranking metrics on hand-made rankings with known answers."""

from __future__ import annotations

import math

from judgekb.eval.metrics import (
    dcg_at_k,
    first_hit_rank,
    mrr_at_k,
    ndcg_at_k,
    percentile,
    recall_at_k,
)


def test_first_hit_rank() -> None:
    assert first_hit_rank([False, False, True, True]) == 3
    assert first_hit_rank([False, False]) is None
    assert first_hit_rank([]) is None


def test_recall_at_k_is_hit_rate() -> None:
    ranking = [False, False, True]
    assert recall_at_k(ranking, 1) == 0.0
    assert recall_at_k(ranking, 2) == 0.0
    assert recall_at_k(ranking, 3) == 1.0
    assert recall_at_k(ranking, 10) == 1.0
    assert recall_at_k([], 10) == 0.0


def test_mrr_at_k() -> None:
    assert mrr_at_k([True]) == 1.0
    assert mrr_at_k([False, True]) == 0.5
    assert mrr_at_k([False, False, False, True]) == 0.25
    # a hit beyond k does not count
    assert mrr_at_k([False] * 10 + [True], 10) == 0.0


def test_dcg_binary_gains() -> None:
    # gains at ranks 1 and 3: 1/log2(2) + 1/log2(4) = 1 + 0.5
    assert dcg_at_k([True, False, True], 10) == 1.5


def test_ndcg_single_gold_at_rank_3() -> None:
    # DCG = 1/log2(4) = 0.5, ideal DCG for one gold = 1
    assert ndcg_at_k([False, False, True], n_gold=1) == 0.5


def test_ndcg_two_golds() -> None:
    # golds at ranks 1 and 3; ideal puts them at ranks 1 and 2
    ideal = 1.0 + 1.0 / math.log2(3)
    assert ndcg_at_k([True, False, True], n_gold=2) == 1.5 / ideal
    assert round(ndcg_at_k([True, False, True], n_gold=2), 6) == 0.919721


def test_ndcg_one_of_two_golds_found_first() -> None:
    # only one of two gold clauses retrieved, at rank 1: 1 / (1 + 1/log2 3)
    assert round(ndcg_at_k([True], n_gold=2), 6) == 0.613147


def test_ndcg_perfect_and_empty() -> None:
    assert ndcg_at_k([True, True], n_gold=2) == 1.0
    assert ndcg_at_k([False, False], n_gold=1) == 0.0
    assert ndcg_at_k([True], n_gold=0) == 0.0


def test_ndcg_ideal_capped_at_k() -> None:
    # 12 gold clauses but k = 10: the ideal ranking fills all 10 places
    assert ndcg_at_k([True] * 10, n_gold=12, k=10) == 1.0


def test_percentile_linear_interpolation() -> None:
    values = [10.0, 20.0, 30.0, 40.0]
    assert percentile(values, 50) == 25.0
    assert percentile(values, 95) == 38.5
    assert percentile(values, 0) == 10.0
    assert percentile(values, 100) == 40.0
    assert percentile([], 50) == 0.0

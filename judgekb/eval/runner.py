"""Run the benchmark: ask every question in each mode, score the ranking, collect misses.

``search_fn(question, game, k, mode) -> [(doc_id, clause_id), ...]`` is any ranked search; the CLI
adapts ``judgekb.search``. A result matches a question when its clause id is in ``gold`` and,
when the question names a ``doc``, its doc id equals that doc.
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from judgekb.errors import QueryError
from judgekb.eval.metrics import first_hit_rank, mrr_at_k, ndcg_at_k, percentile, recall_at_k

log = logging.getLogger(__name__)

SearchFn = Callable[[str, str | None, int, str], Sequence[tuple[str, str]]]
METRIC_KEYS = ("recall@1", "recall@5", "recall@10", "mrr@10", "ndcg@10")
GROUPS = (("by_game", "game"), ("by_kind", "kind"), ("by_lang", "lang"))
MISS_TOP = 3


def relevance(question: dict[str, Any], ranked: Sequence[tuple[str, str]]) -> list[bool]:
    """One flag per result: True the first time a gold clause (of the named doc) appears.

    Later repeats of the same gold clause (e.g. the same id in two documents of a game) count
    as misses, so nDCG never exceeds 1 and one clause cannot fill the ideal ranking twice.
    """
    gold = set(question["gold"])
    doc = question.get("doc")
    seen: set[str] = set()
    flags: list[bool] = []
    for doc_id, clause_id in ranked:
        hit = clause_id in gold and clause_id not in seen and (doc is None or doc_id == doc)
        if hit:
            seen.add(clause_id)
        flags.append(hit)
    return flags


def score_question(question: dict[str, Any], ranked: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """Metrics of one question (only the first 10 results count for @10 metrics)."""
    flags = relevance(question, ranked)
    return {
        "recall@1": recall_at_k(flags, 1),
        "recall@5": recall_at_k(flags, 5),
        "recall@10": recall_at_k(flags, 10),
        "mrr@10": mrr_at_k(flags, 10),
        "ndcg@10": ndcg_at_k(flags, len(question["gold"]), 10),
        "rank": first_hit_rank(flags),
    }


def aggregate(scores: Iterable[dict[str, Any]]) -> dict[str, float | int]:
    """Mean of each metric over ``scores`` plus ``n``; zeros when there are none."""
    rows = list(scores)
    out: dict[str, float | int] = {
        key: (sum(r[key] for r in rows) / len(rows) if rows else 0.0) for key in METRIC_KEYS
    }
    out["n"] = len(rows)
    return out


def _timed_search(
    search_fn: SearchFn, question: dict[str, Any], k: int, mode: str
) -> tuple[list[tuple[str, str]], float]:
    """Call ``search_fn`` once; an unusable query (QueryError) scores as an empty ranking."""
    start = time.perf_counter()
    try:
        ranked = [
            (str(d), str(c)) for d, c in search_fn(question["question"], question["game"], k, mode)
        ]
    except QueryError as exc:
        log.warning("question %s rejected by search: %s", question["qid"], exc)
        ranked = []
    return ranked[:k], (time.perf_counter() - start) * 1000.0


def _latency(values: Sequence[float]) -> dict[str, float]:
    return {"p50": percentile(values, 50), "p95": percentile(values, 95)}


def _miss(
    mode: str, question: dict[str, Any], ranked: Sequence[tuple[str, str]], rank: int | None
) -> dict[str, Any]:
    return {
        "mode": mode,
        "qid": question["qid"],
        "question": question["question"],
        "gold": list(question["gold"]),
        "got": [clause_id for _, clause_id in ranked[:MISS_TOP]],
        "rank": rank,
    }


def evaluate_mode(
    questions: Sequence[dict[str, Any]], search_fn: SearchFn, mode: str, k: int
) -> tuple[dict[str, Any], list[dict[str, Any]], list[float]]:
    """Scores of one mode (overall and per group), its misses and per-question latencies."""
    scored: list[tuple[dict[str, Any], dict[str, Any]]] = []
    misses: list[dict[str, Any]] = []
    latencies: list[float] = []
    for question in questions:
        ranked, took_ms = _timed_search(search_fn, question, k, mode)
        latencies.append(took_ms)
        score = score_question(question, ranked)
        scored.append((question, score))
        if score["rank"] != 1:
            misses.append(_miss(mode, question, ranked, score["rank"]))
    summary: dict[str, Any] = {"overall": aggregate(s for _, s in scored)}
    for group, field in GROUPS:
        buckets: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for question, score in scored:
            buckets[question[field]].append(score)
        summary[group] = {name: aggregate(buckets[name]) for name in sorted(buckets)}
    summary["latency_ms"] = _latency(latencies)
    return summary, misses, latencies


def run_eval(
    questions: Sequence[dict[str, Any]],
    search_fn: SearchFn,
    modes: Sequence[str] = ("hybrid",),
    k: int = 10,
) -> dict[str, Any]:
    """Ask every question in every mode (searching within the question's game) and score it.

    Returns ``{"modes": {mode: {"overall", "by_game", "by_kind", "by_lang", "latency_ms"}},
    "latency_ms": {"p50", "p95"}, "misses": [...]}``; a miss is any question whose first gold
    result is not at rank 1 (``rank`` is its rank within ``k``, or None when not found).
    """
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    result: dict[str, Any] = {"modes": {}, "latency_ms": {}, "misses": []}
    all_latencies: list[float] = []
    for mode in modes:
        summary, misses, latencies = evaluate_mode(questions, search_fn, mode, k)
        result["modes"][mode] = summary
        result["misses"].extend(misses)
        all_latencies.extend(latencies)
        log.info(
            "mode %s: recall@10 %.3f over %d questions",
            mode,
            summary["overall"]["recall@10"],
            len(questions),
        )
    result["latency_ms"] = _latency(all_latencies)
    return result

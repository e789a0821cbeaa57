"""Run the benchmark: ask every question in each mode, score the ranking, collect misses.

``search_fn(question, game, k, mode) -> Outcome`` is any ranked search (the CLI adapts
:class:`judgekb.index.search.Searcher`). A result matches a question when its clause id is in
``gold``, its game is the question's (``game`` or ``gold_game``) and, when the question names a
``doc``, its doc id equals that doc.

Besides the ranking metrics of the questions with gold clauses, each mode reports the issue-11
cases (:mod:`judgekb.eval.cases`): Multi-HR@5, ambiguous numbers, numbers printed elsewhere,
off-topic queries, confidence precision and coverage, and a second pass over all games (no game
filter, the page's default) scored on the clause and on the top hit's game.
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any

from judgekb.errors import QueryError
from judgekb.eval.cases import Outcome, case_report, gold_flags, top_right
from judgekb.eval.dataset import scope_game
from judgekb.eval.metrics import first_hit_rank, mrr_at_k, ndcg_at_k, percentile, recall_at_k

log = logging.getLogger(__name__)

SearchFn = Callable[[str, str | None, int, str], Outcome]
METRIC_KEYS = ("recall@1", "recall@5", "recall@10", "mrr@10", "ndcg@10")
GROUPS = (("by_game", "game"), ("by_kind", "kind"), ("by_lang", "lang"))
MISS_TOP = 3

__all__ = ["METRIC_KEYS", "Outcome", "SearchFn", "run_eval", "score_question"]


def score_question(question: dict[str, Any], ranked: Sequence[tuple[str, str, str]]) -> dict:
    """Metrics of one question with gold clauses (only the first 10 results count for @10)."""
    flags = gold_flags(question, ranked)
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
    search_fn: SearchFn, question: dict[str, Any], game: str | None, k: int, mode: str
) -> tuple[Outcome, float]:
    """Call ``search_fn`` once; an unusable query (QueryError) scores as an empty outcome."""
    start = time.perf_counter()
    try:
        outcome = search_fn(question["question"], game, k, mode)
    except QueryError as exc:
        log.warning("question %s rejected by search: %s", question["qid"], exc)
        outcome = Outcome((), "none")
    took = (time.perf_counter() - start) * 1000.0
    return replace(outcome, ranked=tuple(outcome.ranked[:k])), took


def _latency(values: Sequence[float]) -> dict[str, float]:
    return {"p50": percentile(values, 50), "p95": percentile(values, 95)}


def _miss(mode: str, question: dict[str, Any], outcome: Outcome, rank: int | None) -> dict:
    return {
        "mode": mode,
        "qid": question["qid"],
        "question": question["question"],
        "gold": list(question["gold"]),
        "got": [clause_id for _, _, clause_id in outcome.ranked[:MISS_TOP]],
        "rank": rank,
    }


def _grouped(scored: list[tuple[dict[str, Any], dict[str, Any]]]) -> dict[str, Any]:
    """Overall and per game / kind / language means of the scored questions."""
    summary: dict[str, Any] = {"overall": aggregate(s for _, s in scored)}
    for group, field in GROUPS:
        buckets: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for question, score in scored:
            key = scope_game(question) if field == "game" else question[field]
            buckets[str(key)].append(score)
        summary[group] = {name: aggregate(buckets[name]) for name in sorted(buckets)}
    return summary


def evaluate_mode(
    questions: Sequence[dict[str, Any]], search_fn: SearchFn, mode: str, k: int
) -> tuple[dict[str, Any], list[dict[str, Any]], list[float]]:
    """Scores of one mode (overall, per group, the issue-11 cases), its misses and latencies."""
    scored: list[tuple[dict[str, Any], dict[str, Any]]] = []
    outcomes: list[tuple[dict[str, Any], Outcome]] = []
    misses: list[dict[str, Any]] = []
    latencies: list[float] = []
    for question in questions:
        outcome, took_ms = _timed_search(search_fn, question, question["game"], k, mode)
        latencies.append(took_ms)
        outcomes.append((question, outcome))
        if not question["gold"]:
            continue
        score = score_question(question, outcome.ranked)
        scored.append((question, score))
        if score["rank"] != 1:
            misses.append(_miss(mode, question, outcome, score["rank"]))
    summary = _grouped(scored)
    summary["cases"] = case_report(outcomes)
    summary["all_games"] = _all_games(questions, search_fn, mode, k)
    summary["latency_ms"] = _latency(latencies)
    return summary, misses, latencies


def _all_games(
    questions: Sequence[dict[str, Any]], search_fn: SearchFn, mode: str, k: int
) -> dict[str, Any]:
    """Every question with gold clauses searched over all games (the page's default)."""
    scored: list[tuple[dict[str, Any], dict[str, Any]]] = []
    games_right = []
    for question in questions:
        if not question["gold"]:
            continue
        outcome, _ = _timed_search(search_fn, question, None, k, mode)
        scored.append((question, score_question(question, outcome.ranked)))
        games_right.append(top_right(outcome, scope_game(question)))
    summary = _grouped(scored)
    summary["top_game_right"] = sum(games_right) / len(games_right) if games_right else 0.0
    return summary


def run_eval(
    questions: Sequence[dict[str, Any]],
    search_fn: SearchFn,
    modes: Sequence[str] = ("hybrid",),
    k: int = 10,
) -> dict[str, Any]:
    """Ask every question in every mode (within the question's game, then over all games).

    Returns ``{"modes": {mode: {"overall", "by_game", "by_kind", "by_lang", "cases",
    "all_games", "latency_ms"}}, "latency_ms": {"p50", "p95"}, "misses": [...]}``; a miss is a
    question with gold whose first gold result is not at rank 1 (``rank`` within ``k``, or None).
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
        log.info("mode %s: recall@5 %.3f", mode, summary["overall"]["recall@5"])
    result["latency_ms"] = _latency(all_latencies)
    return result

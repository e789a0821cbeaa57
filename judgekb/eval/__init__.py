"""Benchmark of judge questions: dataset loading, ranking metrics, runner and report.

Typical use (the CLI ``judgekb eval`` does exactly this)::

    questions = load_dataset(path)
    result = run_eval(questions, search_fn, modes=("bm25", "dense", "hybrid"), k=10)
    text = render_report(result)
"""

from __future__ import annotations

from judgekb.eval.dataset import load_dataset, validate_question
from judgekb.eval.metrics import mrr_at_k, ndcg_at_k, recall_at_k
from judgekb.eval.report import render_report, save_chart
from judgekb.eval.runner import run_eval

__all__ = [
    "load_dataset",
    "mrr_at_k",
    "ndcg_at_k",
    "recall_at_k",
    "render_report",
    "run_eval",
    "save_chart",
    "validate_question",
]

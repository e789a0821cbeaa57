"""`judgekb eval`: run the benchmark runner against the real built index."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from judgekb.errors import ConfigError
from judgekb.eval.cases import Outcome
from judgekb.index.request import SearchRequest

if TYPE_CHECKING:
    from judgekb.config import Settings
    from judgekb.index.search import Searcher

MODES = ("bm25", "dense", "hybrid")


def search_fn_for(searcher: Searcher) -> Callable[[str, str | None, int, str], Outcome]:
    """Adapt :meth:`Searcher.search` to the runner's :class:`Outcome`."""

    def search_fn(question: str, game: str | None, k: int, mode: str) -> Outcome:
        result = searcher.search(SearchRequest.of(question, game=game, k=k, mode=mode))
        return Outcome(
            tuple((h.game, h.doc_id, h.clause_id) for h in result.hits),
            result.confidence,
            tuple(result.ambiguous_games),
            tuple((e.game, e.clause_id) for e in result.elsewhere),
        )

    return search_fn


def run_eval_command(
    settings: Settings,
    dataset: Path,
    mode: str,
    k: int,
    as_json: bool,
    write: Callable[[str], object],
    searcher: Searcher | None = None,
) -> dict:
    from judgekb.eval.dataset import load_dataset
    from judgekb.eval.report import render_report
    from judgekb.eval.runner import run_eval

    modes = MODES if mode == "all" else (mode,)
    if any(m not in MODES for m in modes):
        raise ConfigError(f"unknown mode {mode!r}; choose one of {', '.join(MODES)}, all")
    questions = load_dataset(dataset)
    if searcher is None:
        from judgekb.index.search import load_searcher

        searcher = load_searcher(settings, with_model=modes != ("bm25",))
    searcher.set_query_cache(0)  # latency figures must include encoding every query
    result = run_eval(questions, search_fn_for(searcher), modes=modes, k=k)
    write(
        json.dumps(result, ensure_ascii=False, indent=1) + "\n"
        if as_json
        else render_report(result) + "\n"
    )
    return result

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


def run_card_command(
    settings: Settings, dataset: Path, as_json: bool, write: Callable[[str], object]
) -> dict:
    """`judgekb eval --card`: the answer card's figures (judgekb.eval.card) on ``dataset``."""
    from judgekb.eval.card import evaluate_cards
    from judgekb.eval.dataset import load_dataset
    from judgekb.index.search import load_searcher
    from judgekb.service.site import Site

    searcher = load_searcher(settings)
    searcher.set_query_cache(0)  # latency figures must include encoding every query
    result = evaluate_cards(Site(settings, searcher), load_dataset(dataset))
    write(
        json.dumps(result, ensure_ascii=False, indent=1) + "\n" if as_json else render_card(result)
    )
    return result


def render_card(r: dict) -> str:
    c, lat = r["completeness"], r["latency_ms"]
    lines = [
        f"card recall (answer, context, refs, first 3 alternatives): {r['card_recall']['rate']:.3f}"
        f" of {r['card_recall']['n']}",
        f"gold anywhere on the card (also definitions, other wordings; not the bar): "
        f"{r['on_card']['rate']:.3f}",
        f"answer precision when high: {r['high_precision']['rate']:.3f} of {r['high_precision']['n']}",
        f"off-topic said high: {r['offtopic_high']}",
        f"refs with text: {c['refs_with_text']['rate']:.3f} of {c['refs_with_text']['n']}",
        f"SM answers with decree wording shown: {c['sm_decree_shown']['rate']:.3f}"
        f" of {c['sm_decree_shown']['n']}",
        f"Vanguard misprints noted: {c['vanguard_misprint_noted']['rate']:.3f}"
        f" of {c['vanguard_misprint_noted']['n']}",
        f"search p50 {lat['search_p50']:.1f} ms, p95 {lat['search_p95']:.1f} ms; card p50 "
        f"{lat['card_p50']:.1f} ms, p95 {lat['card_p95']:.1f} ms "
        f"({lat['card_over_search_p95']:.2f} x the search p95)",
    ]
    return "\n".join(lines) + "\n"

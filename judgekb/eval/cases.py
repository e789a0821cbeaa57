"""Scoring of one search outcome against a benchmark row, including the issue-11 cases.

- gold rows: flags per result (:func:`gold_flags`), the top hit right (:func:`top_right`);
- ``gold_all`` rows: Multi-HR@5, every gold clause among the first five results;
- ``ambiguous`` rows: each game's clause among the first n results (n = games listed) and
  every listed game named in ``ambiguous_games``;
- ``elsewhere`` rows: every listed game named in the result's ``elsewhere``;
- ``expect_confidence`` rows (off-topic, nonsense): the confidence said, never ``high``;
- confidence over the gold rows: precision of ``high`` (its top hit is gold) and coverage.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from judgekb.eval.dataset import scope_game

MULTI_K = 5


@dataclass(frozen=True)
class Outcome:
    """What the benchmark needs of one search: ranked (game, doc_id, clause_id) and signals."""

    ranked: tuple[tuple[str, str, str], ...]
    confidence: str = "low"
    ambiguous_games: tuple[str, ...] = ()
    elsewhere: tuple[tuple[str, str], ...] = ()  # (game, clause_id)


def gold_flags(question: dict[str, Any], ranked: Sequence[tuple[str, str, str]]) -> list[bool]:
    """One flag per result: True the first time a gold clause (of the question's game and
    named doc) appears. Later repeats of the same gold id count as misses, so nDCG never
    exceeds 1 and one clause cannot fill the ideal ranking twice."""
    gold = set(question["gold"])
    doc, game = question.get("doc"), scope_game(question)
    seen: set[str] = set()
    flags: list[bool] = []
    for hit_game, doc_id, clause_id in ranked:
        hit = (
            clause_id in gold
            and clause_id not in seen
            and (doc is None or doc_id == doc)
            and (game is None or hit_game == game)
        )
        if hit:
            seen.add(clause_id)
        flags.append(hit)
    return flags


def top_right(outcome: Outcome, game: str | None) -> bool:
    """The top hit is in ``game``."""
    return bool(outcome.ranked) and outcome.ranked[0][0] == game


def _rate(flags: list[bool]) -> float:
    return sum(flags) / len(flags) if flags else 0.0


def _ambiguous_ok(q: dict[str, Any], o: Outcome) -> bool:
    want = q["ambiguous"]
    first = {(g, c) for g, _, c in o.ranked[: len(want)]}
    named = {p["game"] for p in want} <= set(o.ambiguous_games)
    return named and all((p["game"], p["clause_id"]) in first for p in want)


def _elsewhere_ok(q: dict[str, Any], o: Outcome) -> bool:
    return {p["game"] for p in q["elsewhere"]} <= {g for g, _ in o.elsewhere}


def _confidence(gold_rows: list[tuple[dict[str, Any], Outcome]]) -> dict[str, Any]:
    said = [o.confidence for _, o in gold_rows]
    right = [gold_flags(q, o.ranked[:1]) == [True] for q, o in gold_rows]
    high = [r for r, c in zip(right, said, strict=True) if c == "high"]
    return {
        "n": len(gold_rows),
        "high": said.count("high"),
        "low": said.count("low"),
        "none": said.count("none"),
        "high_precision": _rate(high),
        "high_coverage": len(high) / len(said) if said else 0.0,
        "top1_right": _rate(right),
    }


def case_report(outcomes: Sequence[tuple[dict[str, Any], Outcome]]) -> dict[str, Any]:
    """The issue-11 figures of one mode over every row of the dataset."""
    gold_rows = [(q, o) for q, o in outcomes if q["gold"]]
    multi = [
        gold_flags(q, o.ranked[:MULTI_K]).count(True) == len(q["gold"])
        for q, o in gold_rows
        if q.get("gold_all")
    ]
    ambiguous = [_ambiguous_ok(q, o) for q, o in outcomes if "ambiguous" in q]
    elsewhere = [_elsewhere_ok(q, o) for q, o in outcomes if "elsewhere" in q]
    offtopic = [o.confidence for q, o in outcomes if "expect_confidence" in q]
    nogame = [top_right(o, scope_game(q)) for q, o in gold_rows if q["game"] is None]
    return {
        "multi_hr@5": {"n": len(multi), "rate": _rate(multi)},
        "ambiguous": {"n": len(ambiguous), "rate": _rate(ambiguous)},
        "elsewhere": {"n": len(elsewhere), "rate": _rate(elsewhere)},
        "offtopic": {
            "n": len(offtopic),
            "high": offtopic.count("high"),
            "none": offtopic.count("none"),
        },
        "nogame_top_game_right": {"n": len(nogame), "rate": _rate(nogame)},
        "confidence": _confidence(gold_rows),
    }

"""Human-readable benchmark report (rich tables as plain text) and an optional PNG chart.

matplotlib is optional: :func:`save_chart` returns None and logs when it is not installed.
"""

from __future__ import annotations

import io
import logging
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from judgekb.eval.runner import GROUPS, METRIC_KEYS

log = logging.getLogger(__name__)

REPORT_WIDTH = 120
MAX_MISSES = 60


def _metric_cells(row: dict[str, Any]) -> list[str]:
    return [f"{row[key]:.3f}" for key in METRIC_KEYS] + [str(row["n"])]


def mode_table(mode: str, summary: dict[str, Any]) -> Table:
    """One table per mode: the overall row, then one row per game, kind and language."""
    latency = summary.get("latency_ms", {})
    caption = f"latency p50 {latency.get('p50', 0.0):.1f} ms, p95 {latency.get('p95', 0.0):.1f} ms"
    table = Table(title=f"mode: {mode}", caption=caption, show_lines=False)
    table.add_column("slice")
    for key in (*METRIC_KEYS, "n"):
        table.add_column(key, justify="right")
    table.add_row("overall", *_metric_cells(summary["overall"]), end_section=True)
    if "all_games" in summary:
        every = summary["all_games"]
        table.add_row("all games, no filter", *_metric_cells(every["overall"]), end_section=True)
    for group, field in GROUPS:
        rows = summary.get(group, {})
        for i, (name, row) in enumerate(rows.items()):
            table.add_row(f"{field}={name}", *_metric_cells(row), end_section=i == len(rows) - 1)
    return table


def cases_table(mode: str, summary: dict[str, Any]) -> Table:
    """The issue-11 cases of one mode: multi-clause, ambiguous, elsewhere, off-topic, games,
    confidence."""
    cases = summary["cases"]
    conf = cases["confidence"]
    off = cases["offtopic"]
    table = Table(title=f"cases: {mode}")
    table.add_column("case")
    table.add_column("figure", justify="right")
    table.add_column("n", justify="right")
    rows = [
        ("Multi-HR@5 (all gold clauses in the top 5)", cases["multi_hr@5"]),
        ("ambiguous numbers: each game's clause first", cases["ambiguous"]),
        ("numbers elsewhere: the game named", cases["elsewhere"]),
        ("no game given: top hit's game right", cases["nogame_top_game_right"]),
    ]
    for name, row in rows:
        table.add_row(name, f"{row['rate']:.3f}", str(row["n"]))
    if "all_games" in summary:
        every = summary["all_games"]
        table.add_row(
            "all games: top hit's game right",
            f"{every['top_game_right']:.3f}",
            str(every["overall"]["n"]),
        )
    table.add_row("off-topic said high (bar: 0)", str(off["high"]), str(off["n"]))
    table.add_row("off-topic said none", str(off["none"]), str(off["n"]))
    table.add_row("confidence high: precision", f"{conf['high_precision']:.3f}", str(conf["high"]))
    table.add_row("confidence high: coverage", f"{conf['high_coverage']:.3f}", str(conf["n"]))
    return table


def misses_table(misses: list[dict[str, Any]], limit: int = MAX_MISSES) -> Table:
    """Questions whose gold was not ranked first, not-found (rank None) before low ranks."""
    ordered = sorted(misses, key=lambda m: (m["mode"], m["rank"] is not None, m["rank"] or 0))
    shown = ordered[:limit]
    caption = f"{len(shown)} of {len(misses)} shown" if len(misses) > limit else None
    table = Table(title="misses (gold not at rank 1)", caption=caption)
    for name in ("mode", "qid", "rank", "gold", "got (top 3)", "question"):
        table.add_column(name, overflow="fold")
    for miss in shown:
        rank = "-" if miss["rank"] is None else str(miss["rank"])
        table.add_row(
            miss["mode"],
            miss["qid"],
            rank,
            ", ".join(miss["gold"]),
            ", ".join(miss["got"]),
            miss["question"],
        )
    return table


def render_report(result: dict[str, Any], max_misses: int = MAX_MISSES) -> str:
    """Plain-text report of a :func:`run_eval` result: a table per mode, then the misses."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=REPORT_WIDTH, color_system=None, force_terminal=False)
    for mode, summary in result["modes"].items():
        console.print(mode_table(mode, summary))
        if "cases" in summary:
            console.print(cases_table(mode, summary))
        console.print()
    latency = result.get("latency_ms", {})
    console.print(
        f"all modes latency p50 {latency.get('p50', 0.0):.1f} ms, "
        f"p95 {latency.get('p95', 0.0):.1f} ms"
    )
    if result.get("misses"):
        console.print()
        console.print(misses_table(result["misses"], max_misses))
    return buffer.getvalue()


def save_chart(result: dict[str, Any], path: str | Path, metric: str = "recall@10") -> Path | None:
    """Bar chart of ``metric`` per game for each mode, as PNG; None when matplotlib is absent."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log.warning("matplotlib is not installed; skipping chart %s", path)
        return None
    modes = list(result["modes"])
    games = sorted({g for s in result["modes"].values() for g in s["by_game"]})
    width = 0.8 / max(len(modes), 1)
    fig, ax = plt.subplots(figsize=(8, 4))
    for i, mode in enumerate(modes):
        by_game = result["modes"][mode]["by_game"]
        values = [by_game.get(g, {}).get(metric, 0.0) for g in games]
        ax.bar([x + i * width for x in range(len(games))], values, width, label=mode)
    ax.set_xticks([x + width * (len(modes) - 1) / 2 for x in range(len(games))], games)
    ax.set_ylim(0, 1)
    ax.set_ylabel(metric)
    ax.legend()
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out)
    plt.close(fig)
    return out

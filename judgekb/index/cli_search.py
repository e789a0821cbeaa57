"""`judgekb search`: one query (text or JSON) or a JSON Lines batch with one model load."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from judgekb.corpus.jsonl import json_lines
from judgekb.errors import ConfigError, JudgeKBError
from judgekb.index.request import Scope, SearchRequest

if TYPE_CHECKING:
    from rich.console import Console

    from judgekb.config import Settings


def run_single(settings: Settings, request: SearchRequest, as_json: bool, console: Console) -> None:
    from judgekb.index.search import load_searcher

    searcher = load_searcher(settings, with_model=request.mode != "bm25")
    result = searcher.search(request)
    if as_json:
        console.print_json(json.dumps(result.to_json(), ensure_ascii=False))
        return
    console.print(
        f"{len(result.hits)} results in {result.took_ms:.1f} ms; confidence {result.confidence}",
        style="dim",
    )
    if result.ambiguous_games:
        console.print(f"clause number printed by: {', '.join(result.ambiguous_games)}")
    for e in result.elsewhere:
        console.print(f"not in {request.scope.game}; {e.game} has {e.clause_id}")
    if result.inferred:
        console.print(f"searched {result.inferred.game} ({result.inferred.reason})", style="dim")
    for n, hit in enumerate(result.hits, 1):
        console.print(
            f"\n[bold]{n}. {hit.citation}[/]  [dim]{hit.score:.3f} {hit.via}[/]", highlight=False
        )
        if hit.heading_path:
            console.print(" > ".join(hit.heading_path), style="dim", highlight=False)
        console.print(hit.text, highlight=False)


def read_batch(path: Path) -> list[dict]:
    """Queries of a batch file; a malformed line is an error naming the file and line."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read batch file ({exc})") from exc
    out = []
    for line in json_lines(lines):
        n, item = line.lineno, line.value
        if line.error is not None:
            raise ConfigError(f"{path}:{n}: {line.error}")
        if not isinstance(item, dict) or not isinstance(item.get("question"), str):
            raise ConfigError(f"{path}:{n}: each line needs a string 'question' (and 'qid')")
        out.append(item)
    return out


def run_batch(
    settings: Settings,
    path: Path,
    template: SearchRequest,
    write: Callable[[str], object],
) -> None:
    """One JSON line per query; a bad query yields an error line, the others still run.

    A row's ``game`` narrows the search; a row without one searches the template's scope
    (``--game`` and the other options), i.e. all games when none was given.
    """
    from judgekb.index.search import load_searcher

    items = read_batch(path)
    searcher = load_searcher(settings, with_model=template.mode != "bm25")
    for item in items:
        qid = item.get("qid")
        try:
            game = item.get("game") or template.scope.game
            scope: Scope = template.scope.with_game(game)
            result = searcher.search(
                SearchRequest(item["question"], scope, template.k, template.mode)
            )
            line = {"qid": qid, **result.to_json()}
            line.pop("query", None)
        except JudgeKBError as exc:
            line = {
                "qid": qid,
                "took_ms": 0,
                "confidence": "none",
                "ambiguous_games": [],
                "elsewhere": [],
                "results": [],
                "error": str(exc),
            }
        write(json.dumps(line, ensure_ascii=False) + "\n")

"""The top hit's game over all games, split by what the question itself says about its game.

    python scripts/game_split.py [--dataset judgekb/eval/datasets/test.jsonl] [--prefix t4-]

Every question with gold (not an ambiguous or elsewhere number) is searched with no game, as
the page's default does, and counted in one of three groups: ``evidence`` (the result's
``inferred`` game: the question names a game or prints a word only one game's books print),
``sure`` (no such evidence, the game model's likeliest game at least ``GAME_SURE``) and ``unsure`` (the rest: what the page asks "which
game?" for). ``judgekb eval`` reports the overall figure; this says where it is lost.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from judgekb.config import Settings  # noqa: E402
from judgekb.eval.dataset import load_dataset, scope_game  # noqa: E402
from judgekb.index.request import SearchRequest  # noqa: E402
from judgekb.index.search import load_searcher  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dataset", default=str(REPO / "judgekb/eval/datasets/test.jsonl"))
    ap.add_argument("--prefix", default="", help="only the questions whose qid starts so")
    args = ap.parse_args()
    searcher = load_searcher(Settings())
    searcher.set_query_cache(0)
    groups: dict[str, list[bool]] = {"evidence": [], "sure": [], "unsure": []}
    for q in load_dataset(args.dataset):
        if not q["gold"] or q.get("ambiguous") or q.get("elsewhere"):
            continue
        if not q["qid"].startswith(args.prefix):
            continue
        result = searcher.search(SearchRequest.of(q["question"], game=None, k=5))
        right = bool(result.hits) and result.hits[0].game == scope_game(q)
        if result.inferred is not None:
            groups["evidence"].append(right)
        else:
            groups["unsure" if result.game_unsure else "sure"].append(right)
    total = sum(len(v) for v in groups.values())
    if not total:
        sys.exit(f"no question with gold in {args.dataset} (prefix {args.prefix!r})")
    for name, oks in groups.items():
        rate = f"{sum(oks) / len(oks):.3f}" if oks else "-"
        print(f"{name:9s} {len(oks):5d} ({len(oks) / total:4.0%})  top hit's game right {rate}")
    right = sum(sum(v) for v in groups.values())
    print(f"{'all':9s} {total:5d}         top hit's game right {right / total:.3f}")


if __name__ == "__main__":
    main()

"""Fit the re-ranker (judgekb/index/rerank.py) on the DEV questions only; write data/rerank.toml.

    .venv/bin/python scripts/train_rerank.py [--dataset judgekb/eval/datasets/dev.jsonl]
        [--top-n 20] [--c 0.01 0.1 1] [--folds 5] [--repeats 3] [--dry-run]

Every dev question with gold clauses is searched as the page does (within its game, and over
all games), through the searcher's own plan and :func:`fusion.fuse`, without a re-ranker;
questions answered by a clause-number lookup are left out (search puts the named clause first
whatever the ranking says). The :data:`rerank.FEATURES` of the fused top-N are the inputs; each
pair (gold candidate, other candidate) of one search is a training example of a logistic
regression without intercept (pairwise ranking, features scaled by their spread), with L2
strength ``1/C``.

Reported before anything is written, per C: k-fold cross-validated R@1, R@5 and MRR@10 of the
re-ranked top-N (folds split by question, so a question's two searches stay together; averaged
over ``--repeats`` shuffles) against the fused order on the same searches. The C with the best
cross-validated within-game MRR@10 (or, within ``SLACK`` of it, the smallest C: the strongest
regularisation) is then fitted on all dev searches and written (C is chosen on the same folds,
so its figures are a little optimistic). ``--cv-eval`` also runs the whole `judgekb eval` with
each fold's questions searched by a model fitted on the other folds: the figures reported in
docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from judgekb.config import DATA_DIR, Settings  # noqa: E402
from judgekb.eval.dataset import load_dataset, scope_game  # noqa: E402
from judgekb.index.request import SearchRequest  # noqa: E402
from judgekb.index.rerank import FEATURES, Reranker, features  # noqa: E402
from judgekb.index.search import Searcher, load_searcher  # noqa: E402

OUT = DATA_DIR / "rerank.toml"
SLACK = 0.01  # CV MRR@10 differences below this are one or two dev questions


@dataclass
class Search:
    """The fused top-N of one dev search: features, gold flags, and which search it was."""

    qid: str
    within: bool  # searched within the question's game (else over all games)
    x: np.ndarray
    gold: np.ndarray


def collect(s: Searcher, dataset: Path, top_n: int) -> list[Search]:
    s.reranker = None
    out = []
    for q in load_dataset(dataset):
        if not q["gold"]:
            continue
        games = [q["game"]] + ([None] if q["game"] is not None else [])
        for game in games:
            plan = s.planner.plan(SearchRequest.of(q["question"], game=game))
            if plan.lookups:
                continue
            dense, bm, qv = s._scores(plan, "hybrid")
            fused = s.rank(plan, dense, bm)
            top = np.argsort(-fused, kind="stable")[:top_n]
            top = top[np.isfinite(fused[top])]
            assert qv is not None
            x = features(fused[top], dense[top], bm[top], s.index.text_view_scores(qv, top))
            gold = np.array([_is_gold(q, s.index.clauses[i], s.index.game_of_row[i]) for i in top])
            out.append(Search(q["qid"], game == q["game"], x, gold))
    return out


def _is_gold(q: dict, clause, game: str) -> bool:
    return (
        clause.clause_id in q["gold"]
        and str(game) == scope_game(q)
        and (not q.get("doc") or clause.doc_id == q["doc"])
    )


def pairs(searches: list[Search]) -> tuple[np.ndarray, np.ndarray]:
    """(gold - other, 1) and (other - gold, 0) for every gold/other pair of each search."""
    xs, ys = [], []
    for s in searches:
        for g in s.x[s.gold]:
            for o in s.x[~s.gold]:
                xs += [g - o, o - g]
                ys += [1, 0]
    return np.array(xs, dtype=np.float64).reshape(-1, len(FEATURES)), np.array(ys)


def fit(searches: list[Search], c: float) -> np.ndarray:
    """Weights over FEATURES, on the features' own scale."""
    from sklearn.linear_model import LogisticRegression

    x, y = pairs(searches)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    model = LogisticRegression(C=c, fit_intercept=False, max_iter=5000).fit(x / scale, y)
    return model.coef_[0] / scale


def metrics(ranked_gold: list[np.ndarray]) -> tuple[float, float, float]:
    """R@1, R@5, MRR@10 over searches, each a gold flag array in ranked order."""
    r1 = np.mean([g[:1].any() for g in ranked_gold])
    r5 = np.mean([g[:5].any() for g in ranked_gold])
    mrr = np.mean(
        [1.0 / (np.flatnonzero(g[:10])[0] + 1) if g[:10].any() else 0.0 for g in ranked_gold]
    )
    return float(r1), float(r5), float(mrr)


def cross_validate(
    searches: list[Search], c: float, folds: int, repeats: int
) -> dict[bool, tuple[float, float, float]]:
    """Cross-validated (R@1, R@5, MRR@10), within game (True) and over all games (False)."""
    qids = sorted({s.qid for s in searches})
    runs: dict[bool, list[tuple[float, float, float]]] = {True: [], False: []}
    for rep in range(repeats):
        fold_of = fold_map(qids, folds, rep)
        ranked: dict[bool, list[np.ndarray]] = {True: [], False: []}
        for k in range(folds):
            train = [s for s in searches if fold_of[s.qid] != k and s.gold.any()]
            w = fit(train, c)
            for s in (s for s in searches if fold_of[s.qid] == k):
                ranked[s.within].append(s.gold[np.argsort(-(s.x @ w), kind="stable")])
        for within in (True, False):
            if ranked[within]:
                runs[within].append(metrics(ranked[within]))
    return {
        w: tuple(np.mean(runs[w], axis=0)) if runs[w] else (0.0, 0.0, 0.0)  # type: ignore[misc]
        for w in (True, False)
    }


def fold_map(qids: list[str], folds: int, seed: int) -> dict[str, int]:
    perm = np.random.RandomState(seed).permutation(len(qids))
    return {qids[j]: k % folds for k, j in enumerate(perm)}


def cross_validate_eval(
    s: Searcher, dataset: Path, searches: list[Search], c: float, folds: int, top_n: int
) -> dict:
    """`judgekb eval` of the whole pipeline, each fold's questions searched with a re-ranker
    fitted on the other folds' searches; per-slice figures averaged over folds by count."""
    from judgekb.eval.cli_eval import search_fn_for
    from judgekb.eval.runner import run_eval

    questions = load_dataset(dataset)
    fold_of = fold_map(sorted(q["qid"] for q in questions), folds, 0)
    parts = []
    for k in range(folds):
        w = fit([t for t in searches if fold_of[t.qid] != k and t.gold.any()], c)
        s.reranker = Reranker(tuple(float(v) for v in w), top_n)
        part = [q for q in questions if fold_of[q["qid"]] == k]
        parts.append(run_eval(part, search_fn_for(s))["modes"]["hybrid"])
    s.reranker = None
    return {
        "within": _pooled([p["overall"] for p in parts]),
        "all_games": _pooled([p["all_games"]["overall"] for p in parts]),
        **{
            f"lang={lang}": _pooled([p["by_lang"].get(lang, {"n": 0}) for p in parts])
            for lang in ("th", "ms", "en")
        },
        **{
            f"kind={kind}": _pooled([p["by_kind"].get(kind, {"n": 0}) for p in parts])
            for kind in ("colloquial", "paraphrase", "english")
        },
    }


def _pooled(slices: list[dict]) -> dict[str, float]:
    n = sum(int(x["n"]) for x in slices)
    keys = ("recall@1", "recall@5", "mrr@10")
    return {
        "n": n,
        **{key: sum(x.get(key, 0.0) * x["n"] for x in slices) / (n or 1) for key in keys},
    }


def write(path: Path, w: np.ndarray, top_n: int, c: float, note: str) -> None:
    lines = [
        f"# Written by scripts/train_rerank.py on {date.today().isoformat()} from the dev questions.",
        *(f"# {line}" for line in note.splitlines()),
        "[model]",
        f"top_n = {top_n}",
        f"c = {c}",
        "",
        "[model.weights]",
        *(f"{name} = {value:.6g}" for name, value in zip(FEATURES, w, strict=True)),
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dataset", type=Path, default=DATA_DIR.parent / "eval/datasets/dev.jsonl")
    ap.add_argument("--top-n", type=int, default=20)
    ap.add_argument("--c", type=float, nargs="+", default=[0.01, 0.1, 1.0])
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument(
        "--cv-eval", action="store_true", help="also cross-validate the whole `judgekb eval`"
    )
    args = ap.parse_args()
    s = load_searcher(Settings())
    searches = collect(s, args.dataset, args.top_n)
    fused = {w: metrics([s.gold for s in searches if s.within == w]) for w in (True, False)}
    n = {w: sum(s.within == w for s in searches) for w in (True, False)}
    report = [
        f"{n[True]} within-game and {n[False]} all-games searches (no lookups), top {args.top_n}"
    ]
    report.append(
        "fused order:        within R@1 {:.3f} R@5 {:.3f} MRR {:.3f} | all games {:.3f} {:.3f} {:.3f}".format(
            *fused[True], *fused[False]
        )
    )
    mrr = {}
    for c in args.c:
        cv = cross_validate(searches, c, args.folds, args.repeats)
        mrr[c] = cv[True][2]
        report.append(
            f"C={c:<5} {args.folds}-fold CV: within R@1 {cv[True][0]:.3f} R@5 {cv[True][1]:.3f} "
            f"MRR {cv[True][2]:.3f} | all games {cv[False][0]:.3f} {cv[False][1]:.3f} {cv[False][2]:.3f}"
        )
    # The strongest regularisation whose CV MRR is within SLACK of the best: ~200 questions
    # cannot tell those apart, and the smaller weights transfer better.
    chosen = min(c for c in args.c if mrr[c] >= max(mrr.values()) - SLACK)
    best = (chosen, mrr[chosen])
    weights = fit([s for s in searches if s.gold.any()], best[0])
    report.append(
        f"chosen C={best[0]}; weights "
        + ", ".join(f"{f} {v:.4g}" for f, v in zip(FEATURES, weights, strict=True))
    )
    if args.cv_eval:
        for name, m in cross_validate_eval(
            s, args.dataset, searches, best[0], args.folds, args.top_n
        ).items():
            report.append(
                f"whole eval, {args.folds}-fold CV, {name}: R@1 {m['recall@1']:.3f} "
                f"R@5 {m['recall@5']:.3f} MRR {m['mrr@10']:.3f} (n {m['n']})"
            )
    text = "\n".join(report)
    sys.stdout.write(text + "\n")
    if not args.dry_run:
        write(OUT, weights, args.top_n, best[0], text)
        sys.stdout.write(f"wrote {OUT}\n")


if __name__ == "__main__":
    main()

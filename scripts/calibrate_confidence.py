"""Fit the search confidence model on the DEV part only; write judgekb/data/confidence.toml.

    .venv/bin/python scripts/calibrate_confidence.py [--dataset judgekb/eval/datasets/dev.jsonl]
        [--coverage 0.6] [--none-quantile 0.01] [--dry-run] [--reuse]

Each dev question is searched as the page would (within its game; questions without a game
over all games); a logistic model over the search's own signals (top cosine, fused score and
margin, share of known words, length, the question view's cosines), standardised, learns
whether the top hit is a gold clause; its weights are written on the raw features. Off-topic
and nonsense rows are negatives. ``high`` is the highest probability at which ``high`` covers ``--coverage`` of the dev
questions with gold (clause-number lookups, always ``high``, included as the eval counts
them), chosen on 5-fold cross-validated probabilities so the printed precision is what unseen
questions can expect; ``none`` the probability below which at most 1 % of real dev questions
fall (``--none-quantile``).
Lookups (clause numbers) are not part of the fit: they are ``high`` by construction.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from judgekb.config import DATA_DIR, Settings  # noqa: E402
from judgekb.eval.dataset import load_dataset  # noqa: E402
from judgekb.index.confidence import FEATURES, ConfidenceModel  # noqa: E402
from judgekb.index.request import SearchRequest  # noqa: E402
from judgekb.index.search import load_searcher  # noqa: E402

NOT_FITTED = ("lookup", "cited", "ambiguous", "elsewhere")


def collect(dataset: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str]]:
    s = load_searcher(Settings())
    s.set_query_cache(0)
    xs, ys, offtopic, kinds = [], [], [], []
    for q in load_dataset(dataset):
        if q["kind"] in NOT_FITTED:
            continue
        result = s.search(SearchRequest.of(q["question"], game=q.get("game")))
        if result.signals is None or not result.hits:
            continue
        top = result.hits[0]
        gold = set(q["gold"])
        right = top.clause_id in gold and (not q.get("doc") or top.doc_id == q["doc"])
        if q.get("gold_game") and top.game != q["gold_game"]:
            right = False
        xs.append(result.signals.vector())
        ys.append(bool(right))
        offtopic.append(q["kind"] == "offtopic")
        kinds.append(q["kind"])
    return np.array(xs), np.array(ys), np.array(offtopic), kinds


def choose_high(p: np.ndarray, y: np.ndarray, real: np.ndarray, sure: int, coverage: float):
    """The highest threshold at which ``high`` covers ``coverage`` of the dev questions with
    gold, counting the ``sure`` clause-number lookups (always high) as the eval does; with
    the precision it then has (lookups counted right, as they are on dev)."""
    n = sure + int(real.sum())
    for t in sorted(set(np.round(p[real], 4)), reverse=True):
        chosen = real & (p >= t)
        if (sure + chosen.sum()) / n >= coverage:
            return float(t), (sure + y[chosen].sum()) / (sure + chosen.sum())
    return 0.0, (sure + y[real].sum()) / n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dataset", type=Path, default=DATA_DIR.parent / "eval/datasets/dev.jsonl")
    ap.add_argument(
        "--coverage",
        type=float,
        default=0.6,
        help="share of questions with gold said high (lookups included), bar 0.5",
    )
    ap.add_argument(
        "--none-quantile",
        type=float,
        default=0.01,
        help="share of real dev questions allowed below the 'none' threshold",
    )
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument(
        "--reuse", action="store_true", help="refit on var/calibration.npz from the last run"
    )
    args = ap.parse_args()
    if "test" in args.dataset.name:
        sys.exit("calibrate on dev questions only, never on the test part")
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_predict
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    cache = REPO / "var" / "calibration.npz"
    if args.reuse:
        data = np.load(cache)
        x, y, off = data["x"], data["y"], data["off"]
    else:
        x, y, off, _ = collect(args.dataset)
        np.savez(cache, x=x, y=y, off=off)
    sure = sum(1 for q in load_dataset(args.dataset) if q["kind"] in NOT_FITTED and q["gold"])
    real = ~off
    # Standardised features: a cosine that moves by 0.05 weighs as much as a margin that
    # moves by its own spread (unscaled, the question view's cosines barely counted).
    clf = make_pipeline(StandardScaler(), LogisticRegression(C=1.0, max_iter=2000))
    folds = StratifiedKFold(5, shuffle=True, random_state=0)
    p_cv = cross_val_predict(clf, x, y, cv=folds, method="predict_proba")[:, 1]
    high, cv_precision = choose_high(p_cv, y, real, sure, args.coverage)
    clf.fit(x, y)
    p = clf.predict_proba(x)[:, 1]
    none_prob = float(np.quantile(p[real], args.none_quantile))
    scaler, logit = clf[0], clf[1]
    weights = logit.coef_[0] / scaler.scale_  # the same model on the raw features
    bias = float(logit.intercept_[0] - np.sum(logit.coef_[0] * scaler.mean_ / scaler.scale_))
    model = ConfidenceModel(tuple(float(w) for w in weights), bias, high, none_prob)
    chosen = real & (p >= high)
    print(
        f"{real.sum()} dev questions fitted, {sure} lookups (always high), {off.sum()} "
        f"off-topic; top-1 right {y[real].mean():.3f}"
    )
    print(
        f"high >= {high:.3f}: 5-fold CV precision {cv_precision:.3f} at coverage "
        f"{args.coverage:.2f} (lookups included); in-sample precision "
        f"{(sure + y[chosen].sum()) / (sure + chosen.sum()):.3f}, coverage "
        f"{(sure + chosen.sum()) / (sure + real.sum()):.3f}"
    )
    print(
        f"none < {none_prob:.3f}: real {np.mean(p[real] < none_prob):.3f}, "
        f"off-topic {np.mean(p[off] < none_prob):.3f}"
    )
    print(
        f"off-topic judged high: {int((off & (p >= high)).sum())} (CV: {int((off & (p_cv >= high)).sum())})"
    )
    if args.dry_run:
        return
    weights = "\n".join(f"{f} = {w:.6f}" for f, w in zip(FEATURES, model.weights, strict=True))
    (DATA_DIR / "confidence.toml").write_text(
        "# Written by scripts/calibrate_confidence.py on the dev questions; rerun it after a\n"
        "# ranking change. Features: judgekb/index/confidence.py.\n"
        f"[model]\nbias = {model.bias:.6f}\nhigh = {model.high:.6f}\nnone_prob = {model.none_prob:.6f}\n\n"
        f"[model.weights]\n{weights}\n",
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()

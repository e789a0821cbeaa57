"""Grid-search the hybrid fusion on the DEV questions only (never on test).

    .venv/bin/python scripts/tune_fusion.py [--dataset judgekb/eval/datasets/dev.jsonl]

Scores of both retrievers are computed once per question; each fusion setting is then
re-ranked in memory and scored with the same metrics as `judgekb eval`.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from judgekb.config import Settings  # noqa: E402
from judgekb.eval.dataset import load_dataset  # noqa: E402
from judgekb.eval.metrics import mrr_at_k, recall_at_k  # noqa: E402
from judgekb.index.query import parse_query  # noqa: E402
from judgekb.index.search import load_searcher  # noqa: E402
from judgekb.index.tokenize import tokenize  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dataset", default=str(REPO / "judgekb/eval/datasets/dev.jsonl"))
    args = ap.parse_args()
    s = load_searcher(Settings())
    qs = [q for q in load_dataset(args.dataset) if q["kind"] != "lookup"]
    cache = []
    for q in qs:
        pq = parse_query(q["question"])
        mask = s._mask(q["game"], None, None, None)
        exp = s.lexicon.expand(pq.text, q["game"]) if pq.lang == "latin" else []
        terms = tokenize(pq.text) + [t for e in exp for t in tokenize(e)]
        bm = s._bm25_scores(terms)
        dn = s._dense_scores(pq.text, mask)
        dx = s._dense_scores(pq.text + " " + " ".join(exp), mask) if exp else dn
        gold = set(q["gold"])
        rel = np.array(
            [c.clause_id in gold and (not q.get("doc") or c.doc_id == q["doc"]) for c in s.clauses]
        )
        cache.append((q, pq.lang, mask, bm, dn, dx, rel))
    print(f"{len(cache)} non-lookup dev questions")
    grid = itertools.product(
        [0.3, 0.4, 0.5, 0.6, 0.7], [0.3, 0.5, 0.6, 0.7], [10, 30, 50, 200], [False, True]
    )
    rows = []
    for w, we, top, expd in grid:
        r5, mrr, r5en = [], [], []
        for q, lang, mask, bm, dn, dx, rel in cache:
            s.fusion = s.fusion.__class__(w, we, expd, top)
            d = dx if expd else dn
            ww = we if lang == "latin" else w
            f = ww * s._normalise(d, mask) + (1 - ww) * s._normalise(bm, mask)
            f = np.where(mask, f, -np.inf)
            order = np.argsort(-f, kind="stable")[:10]
            relv = [bool(rel[i]) for i in order]
            r5.append(recall_at_k(relv, 5))
            mrr.append(mrr_at_k(relv, 10))
            if q["lang"] == "en":
                r5en.append(recall_at_k(relv, 5))
        rows.append((np.mean(r5), np.mean(mrr), np.mean(r5en), w, we, top, expd))
    rows.sort(reverse=True)
    for r in rows[:15]:
        r5, mrr, r5en, w, we, top, expd = r
        print(
            f"R@5 {r5:.3f} MRR {mrr:.3f} R@5en {r5en:.3f} | w={w:.1f} w_latin={we:.1f} "
            f"top={top} expand_dense={expd}"
        )


if __name__ == "__main__":
    main()

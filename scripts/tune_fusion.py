"""Grid-search the hybrid fusion, or BM25's k1/b, on the DEV questions only (never on test).

    .venv/bin/python scripts/tune_fusion.py [--dataset judgekb/eval/datasets/dev.jsonl]
    .venv/bin/python scripts/tune_fusion.py --bm25      # k1 x b x method, fusion as configured

Scores of both retrievers are computed once per question (the query expansion is the
searcher's own: lexicon for Latin script, Thai synonyms for Thai); each setting is then
re-ranked in memory and scored with the same metrics as `judgekb eval`.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from judgekb.config import Settings  # noqa: E402
from judgekb.eval.dataset import load_dataset  # noqa: E402
from judgekb.eval.metrics import mrr_at_k, recall_at_k  # noqa: E402
from judgekb.index.fusion import Fusion, fuse  # noqa: E402
from judgekb.index.plan import QueryPlan  # noqa: E402
from judgekb.index.request import SearchRequest  # noqa: E402
from judgekb.index.search import Searcher, load_searcher  # noqa: E402
from judgekb.index.tokenize import tokenize  # noqa: E402


@dataclass
class Case:
    question: dict
    plan: QueryPlan
    relevant: np.ndarray
    bm25: np.ndarray
    dense: np.ndarray  # the query as typed
    dense_expanded: np.ndarray  # expanded or rewritten in the book's wording
    questions: np.ndarray  # question view (of the expanded/rewritten query vector)


def prepare(s: Searcher, dataset: str) -> list[Case]:
    """Raw scores of both retrievers per dev question, through the searcher's own plan."""
    cases = []
    for q in load_dataset(dataset):
        if q["kind"] == "lookup" or not q.get("game"):
            continue
        plan = s.planner.plan(SearchRequest.of(q["question"], game=q["game"]))
        raw = s.scores(plan, "hybrid")
        dx, bm = raw.dense, raw.bm25
        plain = s.planner.dense_text(plan, expand=False)
        text = s.planner.dense_text(plan, expand=True)
        dense = s.index.dense_scores(plain) if text != plain else dx
        gold = set(q["gold"])
        rel = np.array(
            [
                c.clause_id in gold and (not q.get("doc") or c.doc_id == q["doc"])
                for c in s.index.clauses
            ]
        )
        cases.append(Case(q, plan, rel, bm, dense, dx, raw.questions))
    return cases


def score(s: Searcher, cases: list[Case], fusion: Fusion) -> tuple[float, float, float]:
    """(R@5, MRR@10, English R@5) of ``fusion`` over ``cases``, ranked by ``fuse()``."""
    r5, mrr, r5en = [], [], []
    for c in cases:
        d = c.dense_expanded if fusion.expand_dense else c.dense
        latin = c.plan.pq.lang == "latin"
        f = fuse(d, c.bm25, c.plan.mask, fusion, latin, s.index.is_glossary_row, c.questions)
        order = np.argsort(-f, kind="stable")[:10]
        relv = [bool(c.relevant[i]) for i in order]
        r5.append(recall_at_k(relv, 5))
        mrr.append(mrr_at_k(relv, 10))
        if c.question["lang"] == "en":
            r5en.append(recall_at_k(relv, 5))
    return float(np.mean(r5)), float(np.mean(mrr)), float(np.mean(r5en)) if r5en else 0.0


def tune_fusion(s: Searcher, cases: list[Case]) -> None:
    grid = itertools.product(
        [0.3, 0.4, 0.5, 0.6, 0.7],
        [0.3, 0.5, 0.6, 0.7],
        [50, 200],
        [True],
        [0.0, 0.1],
        [0.0, 0.25, 0.5, 0.75, 1.0, 1.5],
    )
    rows = [
        (*score(s, cases, Fusion(w, we, expd, top, gp, qw)), w, we, top, expd, gp, qw)
        for w, we, top, expd, gp, qw in grid
    ]
    rows.sort(reverse=True)
    for r5, mrr, r5en, w, we, top, expd, gp, qw in rows[:15]:
        print(
            f"R@5 {r5:.3f} MRR {mrr:.3f} R@5en {r5en:.3f} | w={w:.1f} w_latin={we:.1f} "
            f"top={top} expand_dense={expd} glossary_penalty={gp} question_weight={qw}"
        )


def tune_bm25(s: Searcher, cases: list[Case]) -> None:
    import bm25s

    from judgekb.index.passages import heading_paths, passage_text

    clauses = s.index.clauses
    paths = heading_paths(clauses)
    tokens = [tokenize(passage_text(c, paths[(c.doc_id, c.clause_id)])) or ["∅"] for c in clauses]
    fusion = s.fusion
    rows = []
    for method, k1, b in itertools.product(
        ["lucene", "bm25+", "bm25l"], [0.6, 0.9, 1.2, 1.5, 2.0], [0.5, 0.75, 0.9]
    ):
        bm = bm25s.BM25(k1=k1, b=b, method=method)
        bm.index(tokens, show_progress=False)
        for c in cases:
            c.bm25 = np.asarray(bm.get_scores(c.plan.terms), dtype=np.float32)
        rows.append((*score(s, cases, fusion), method, k1, b))
    rows.sort(reverse=True)
    for r5, mrr, r5en, method, k1, b in rows[:15]:
        print(f"R@5 {r5:.3f} MRR {mrr:.3f} R@5en {r5en:.3f} | {method} k1={k1} b={b}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dataset", default=str(REPO / "judgekb/eval/datasets/dev.jsonl"))
    ap.add_argument("--bm25", action="store_true", help="tune BM25 k1/b/method instead")
    args = ap.parse_args()
    s = load_searcher(Settings())
    s.set_query_cache(0)
    cases = prepare(s, args.dataset)
    print(f"{len(cases)} non-lookup questions from {args.dataset}")
    (tune_bm25 if args.bm25 else tune_fusion)(s, cases)


if __name__ == "__main__":
    main()

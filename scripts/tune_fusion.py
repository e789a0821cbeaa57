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
from judgekb.index.query import parse_query  # noqa: E402
from judgekb.index.search import Fusion, Searcher, load_searcher  # noqa: E402
from judgekb.index.tokenize import tokenize  # noqa: E402


@dataclass
class Case:
    question: dict
    lang: str
    mask: np.ndarray
    terms: list[str]
    bm25: np.ndarray
    dense: np.ndarray
    dense_expanded: np.ndarray
    relevant: np.ndarray


def prepare(s: Searcher, dataset: str) -> list[Case]:
    cases = []
    for q in load_dataset(dataset):
        if q["kind"] == "lookup":
            continue
        pq = parse_query(q["question"])
        mask = s._mask(q["game"], None, None, None)
        exp = s.expansion(pq, q["game"])
        terms = tokenize(pq.text) + [t for e in exp for t in tokenize(e)]
        dense = s._dense_scores(pq.text, mask)
        s.fusion = Fusion(expand_dense=True)
        text = s.dense_text(pq, exp, mask, q["game"])  # expanded or rewritten in book wording
        dx = s._dense_scores(text, mask) if text != pq.text else dense
        gold = set(q["gold"])
        rel = np.array(
            [c.clause_id in gold and (not q.get("doc") or c.doc_id == q["doc"]) for c in s.clauses]
        )
        cases.append(Case(q, pq.lang, mask, terms, s._bm25_scores(terms), dense, dx, rel))
    return cases


def score(s: Searcher, cases: list[Case], fusion: Fusion) -> tuple[float, float, float]:
    """(R@5, MRR@10, English R@5) of ``fusion`` over ``cases``."""
    s.fusion = fusion
    r5, mrr, r5en = [], [], []
    for c in cases:
        d = c.dense_expanded if fusion.expand_dense else c.dense
        w = fusion.english_dense_weight if c.lang == "latin" else fusion.dense_weight
        f = w * s._normalise(d, c.mask) + (1 - w) * s._normalise(c.bm25, c.mask)
        f = f - fusion.glossary_penalty * s.is_glossary_row
        order = np.argsort(-np.where(c.mask, f, -np.inf), kind="stable")[:10]
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
        [10, 30, 50, 200],
        [False, True],
        [0.0, 0.05, 0.1, 0.15],
    )
    rows = [
        (*score(s, cases, Fusion(w, we, expd, top, gp)), w, we, top, expd, gp)
        for w, we, top, expd, gp in grid
    ]
    rows.sort(reverse=True)
    for r5, mrr, r5en, w, we, top, expd, gp in rows[:15]:
        print(
            f"R@5 {r5:.3f} MRR {mrr:.3f} R@5en {r5en:.3f} | w={w:.1f} w_latin={we:.1f} "
            f"top={top} expand_dense={expd} glossary_penalty={gp}"
        )


def tune_bm25(s: Searcher, cases: list[Case]) -> None:
    import bm25s

    from judgekb.index.passages import heading_paths, passage_text

    paths = heading_paths(s.clauses)
    tokens = [tokenize(passage_text(c, paths[(c.doc_id, c.clause_id)])) or ["∅"] for c in s.clauses]
    fusion = s.fusion
    rows = []
    for method, k1, b in itertools.product(
        ["lucene", "bm25+", "bm25l"], [0.6, 0.9, 1.2, 1.5, 2.0], [0.5, 0.75, 0.9]
    ):
        bm = bm25s.BM25(k1=k1, b=b, method=method)
        bm.index(tokens, show_progress=False)
        for c in cases:
            c.bm25 = np.asarray(bm.get_scores(c.terms), dtype=np.float32)
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

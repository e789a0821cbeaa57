"""Grid-search the hybrid fusion, or BM25's k1/b, on the DEV questions only (never on test).

    .venv/bin/python scripts/tune_fusion.py [--dataset judgekb/eval/datasets/dev.jsonl]
    .venv/bin/python scripts/tune_fusion.py --bm25      # k1 x b x method, fusion as configured
    .venv/bin/python scripts/tune_fusion.py --games     # the game prior's weights, all games

Scores of both retrievers are computed once per question (the query expansion is the
searcher's own: lexicon for Latin script, Thai synonyms for Thai); each setting is then
re-ranked in memory and scored with the same metrics as `judgekb eval`. ``--games`` searches
every question over all games instead and grids the game prior's weight in the list and for
the first hit (``Fusion.game_prior_weight``, ``lead_prior_weight``) over the searches the
prior decides (no game named, implied or numbered), reported for the earlier dev questions
and the ``d2-`` ones apart.
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
from judgekb.index.fusion import Fusion, fuse, lead_first  # noqa: E402
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
    chars: np.ndarray | None  # character-gram BM25
    asked: np.ndarray | None  # ... over the judges' questions
    question_mean: np.ndarray | None  # question view: mean cosine over each clause's questions


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
        cases.append(
            Case(
                q, plan, rel, bm, dense, dx, raw.questions, raw.chars, raw.asked, raw.question_mean
            )
        )
    return cases


def score(s: Searcher, cases: list[Case], fusion: Fusion) -> tuple[float, float, float]:
    """(R@5, MRR@10, English R@5) of ``fusion`` over ``cases``, ranked by ``fuse()``."""
    r5, mrr, r5en = [], [], []
    for c in cases:
        d = c.dense_expanded if fusion.expand_dense else c.dense
        latin = c.plan.pq.lang == "latin"
        glossary = s.index.is_glossary_row
        f = fuse(
            d,
            c.bm25,
            c.plan.mask,
            fusion,
            latin,
            glossary,
            c.questions,
            None,
            c.chars,
            None,
            c.asked,
            s.index.unasked,
            c.question_mean,
        )
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
        [0.0, 0.2],
    )
    rows = [
        (
            *score(s, cases, Fusion(w, we, expd, top, gp, qw, char_weight=cw)),
            w,
            we,
            top,
            expd,
            gp,
            qw,
            cw,
        )
        for w, we, top, expd, gp, qw, cw in grid
    ]
    rows.sort(reverse=True)
    for r5, mrr, r5en, w, we, top, expd, gp, qw, cw in rows[:15]:
        print(
            f"R@5 {r5:.3f} MRR {mrr:.3f} R@5en {r5en:.3f} | w={w:.1f} w_latin={we:.1f} "
            f"top={top} expand_dense={expd} glossary_penalty={gp} question_weight={qw} "
            f"char_weight={cw}"
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


def tune_games(s: Searcher, dataset: str) -> None:
    from dataclasses import replace

    cases = []
    for q in load_dataset(dataset):
        if not q["gold"]:
            continue
        plan = s.planner.plan(SearchRequest.of(q["question"], game=None))
        if plan.pq.mentions or plan.game_probs is None:
            continue  # a game named, implied or numbered: the prior decides nothing
        game = q["game"] or q.get("gold_game")
        rel = np.array([c.clause_id in set(q["gold"]) for c in s.index.clauses])
        rel &= s.index.game_of_row == game
        cases.append((q["qid"].startswith("d2-"), plan, s.scores(plan, "hybrid"), rel, game))
    print(f"{len(cases)} searches over all games that the game prior decides")
    base = s.fusion
    for weight, lead in itertools.product([0.6, 0.8, 1.0, 1.2, 1.5], [0.0, 1.5, 1.8, 2.2, 3.0]):
        if lead and lead <= weight:
            continue
        s.fusion = replace(base, game_prior_weight=weight, lead_prior_weight=lead)
        rows = []
        for d2, plan, raw, rel, game in cases:
            fused = s.rank(plan, raw)
            order = [int(i) for i in np.argsort(-fused, kind="stable")[:10]]
            prior = plan.game_prior
            order = lead_first(order, fused, prior, s.fusion)[:10]  # as search orders it
            relv = [bool(rel[i]) for i in order]
            rows.append((d2, s.index.game_of_row[order[0]] == game, relv[0], any(relv[:5])))
        a = np.array(rows, dtype=float)
        halves = "  ".join(
            f"{name} top {a[a[:, 0] == v, 1].mean():.3f} R@5 {a[a[:, 0] == v, 3].mean():.3f}"
            for name, v in (("earlier", 0), ("d2", 1))
            if (a[:, 0] == v).any()
        )
        print(
            f"prior {weight:.1f} first hit {lead or weight:.1f}: top game {a[:, 1].mean():.3f} "
            f"R@1 {a[:, 2].mean():.3f} R@5 {a[:, 3].mean():.3f} | {halves}"
        )
    s.fusion = base


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dataset", default=str(REPO / "judgekb/eval/datasets/dev.jsonl"))
    ap.add_argument("--bm25", action="store_true", help="tune BM25 k1/b/method instead")
    ap.add_argument("--games", action="store_true", help="the game prior's weights instead")
    args = ap.parse_args()
    s = load_searcher(Settings())
    s.set_query_cache(0)
    if args.games:
        tune_games(s, args.dataset)
        return
    cases = prepare(s, args.dataset)
    print(f"{len(cases)} non-lookup questions from {args.dataset}")
    (tune_bm25 if args.bm25 else tune_fusion)(s, cases)


if __name__ == "__main__":
    main()

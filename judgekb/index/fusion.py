"""Fusion of dense, BM25 and question-view scores: a pure function of arrays and parameters.

``scripts/tune_fusion.py`` grids :class:`Fusion` through :func:`fuse` exactly as search uses it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class RawScores:
    """Every row's raw scores for one query: what fusion combines and confidence reads."""

    dense: np.ndarray  # cosine of the query to each clause's passage
    bm25: np.ndarray
    questions: np.ndarray  # question view: cosine to the closest judges' question (0: none)
    qv: np.ndarray | None  # the encoded query, (1, dim); None when dense was not run
    chars: np.ndarray | None = None  # character-gram BM25 (hybrid searches only)
    asked: np.ndarray | None = None  # ... over the judges' questions, each row's best
    question_mean: np.ndarray | None = None  # question view: mean cosine over each row's questions


@dataclass(frozen=True)
class Fusion:
    """How dense and BM25 scores are combined (tuned on the dev questions only)."""

    dense_weight: float = 0.5  # weight of the min-max normalised dense score
    english_dense_weight: float = 0.5  # the same for Latin-script (Malay/English) queries
    expand_dense: bool = True  # cross-lingual queries: the encoder sees the expansion terms too
    norm_top: int = 50  # min-max normalisation over the top-N of each score in scope
    # Subtracted from glossary entries' fused score: a question wants the rule, not the
    # definition, and a query that *is* a glossary term reaches its entry by alias lookup.
    glossary_penalty: float = 0.1
    # Weight of the min-max normalised question view (index/question_view.py): the cosine of
    # the query to the closest judges' question each clause answers, added on top.
    question_weight: float = 1.0
    # A search over several games adds this much of each clause's game probability as the
    # question reads (index/games.py GameModel): a soft prior, never a filter.
    game_prior_weight: float = 1.2
    # The first hit of such a search is the best clause once the prior weighs this much: what a
    # judge reads first comes from the game the question most likely is about, while the rest
    # of the list, weighed as above, keeps the other games' close candidates in view.
    lead_prior_weight: float = 1.8
    # The question-view term blends the closest question's cosine with this share of the mean
    # cosine over all the clause's questions before it is normalised: a clause several of whose
    # questions come close is likelier than one a single question happens to match. Dev
    # within-game R@1 0.791 -> 0.808, MRR 0.864 -> 0.874, R@5 unchanged, card recall 0.970 ->
    # 0.974; leave-one-out over 600 judges' questions (each searched with itself taken out of
    # the view) R@1 0.475 -> 0.485, R@5 0.797 -> 0.815. 0.3 gave the same within a question.
    question_mean_share: float = 0.2
    # Weight of the min-max normalised character-gram BM25 (index/tokenize.py char_grams),
    # added on top: spellings the word BM25 misses (dev within-game R@5 0.948 -> 0.956, card
    # recall 0.954 -> 0.959; weights 0.1-0.3 all gain, 0.5 loses R@1).
    char_weight: float = 0.2
    # Weight of the min-max normalised character-gram BM25 over the judges' questions (each
    # clause scored by its best question; index/question_view.py), added on top.
    asked_weight: float = 0.7


def normalise(s: np.ndarray, mask: np.ndarray, top: int) -> np.ndarray:
    """Min-max over the best ``top`` scores inside ``mask`` (scores below clip to 0)."""
    vals = s[mask]
    if vals.size == 0:
        return np.zeros_like(s)
    best = np.sort(vals)[::-1][:top]
    hi, lo = float(best[0]), float(best[-1])
    if hi - lo < 1e-9:
        return np.where(s >= hi, 1.0, 0.0).astype(np.float32) if hi > 0 else np.zeros_like(s)
    return np.clip((s - lo) / (hi - lo), 0.0, None).astype(np.float32)


def normalise_within(
    s: np.ndarray, mask: np.ndarray, groups: np.ndarray | None, top: int
) -> np.ndarray:
    """:func:`normalise` inside each group of rows (``groups``: a group number per row)."""
    if groups is None:
        return normalise(s, mask, top)
    out = np.zeros_like(s, dtype=np.float32)
    for g in np.unique(groups[mask]):
        rows = groups == g
        out[rows] = normalise(s, mask & rows, top)[rows]
    return out


def fuse(
    dense: np.ndarray,
    bm25: np.ndarray,
    mask: np.ndarray,
    fusion: Fusion,
    latin: bool,
    glossary_rows: np.ndarray,
    questions: np.ndarray | None = None,
    game_prior: np.ndarray | None = None,
    chars: np.ndarray | None = None,
    games: np.ndarray | None = None,
    asked: np.ndarray | None = None,
    unasked: np.ndarray | None = None,
    question_mean: np.ndarray | None = None,
) -> np.ndarray:
    """Weighted sum of the normalised scores, glossary entries lowered; -inf outside ``mask``.
    ``questions`` (the question view's per-row scores) adds ``fusion.question_weight`` of its
    normalised score; ``game_prior`` (each row's game probability, for a search over several
    games) ``fusion.game_prior_weight`` of it; ``chars`` (the character-gram BM25's scores)
    ``fusion.char_weight`` of its score normalised within each game (``games``, each row's
    game number, for a search over several: a Latin-script question shares far more letters
    with the one Malay book than with the Thai ones, which says nothing about its game);
    ``asked`` (the same over the judges' questions) ``fusion.asked_weight`` of it, likewise.
    ``unasked`` marks rows no judges' question is about yet (a clause new in an edition; see
    ``LoadedIndex.unasked``): their question-view term is their passage's normalised dense
    score instead of 0, so that they are weighed by their text, not sunk below every clause
    that has questions. ``question_mean`` (the mean cosine over each row's questions)
    takes ``fusion.question_mean_share`` of the question-view term."""
    w = fusion.english_dense_weight if latin else fusion.dense_weight
    dense_n = normalise(dense, mask, fusion.norm_top)
    fused = w * dense_n + (1 - w) * normalise(bm25, mask, fusion.norm_top)
    if questions is not None and fusion.question_weight:
        if question_mean is not None and fusion.question_mean_share:
            share = fusion.question_mean_share
            questions = (1 - share) * questions + share * question_mean
        questions_n = normalise(questions, mask, fusion.norm_top)
        if unasked is not None:
            questions_n = np.where(unasked, dense_n, questions_n)
        fused = fused + fusion.question_weight * questions_n
    if game_prior is not None and fusion.game_prior_weight:
        fused = fused + fusion.game_prior_weight * game_prior
    if chars is not None and fusion.char_weight:
        fused = fused + fusion.char_weight * normalise_within(chars, mask, games, fusion.norm_top)
    if asked is not None and fusion.asked_weight:
        fused = fused + fusion.asked_weight * normalise_within(asked, mask, games, fusion.norm_top)
    fused = fused - fusion.glossary_penalty * glossary_rows
    return np.where(mask, fused, -np.inf)


def lead_row(fused: np.ndarray, game_prior: np.ndarray | None, fusion: Fusion) -> int | None:
    """The row to show first over several games (``game_prior`` given): the best of ``fused``
    once the prior weighs ``fusion.lead_prior_weight`` instead of ``game_prior_weight``.
    None when there is no prior or no row in scope."""
    extra = fusion.lead_prior_weight - fusion.game_prior_weight
    if game_prior is None or extra <= 0:
        return None
    lead = np.where(np.isfinite(fused), fused + extra * game_prior, -np.inf)
    row = int(np.argmax(lead))
    return row if np.isfinite(lead[row]) else None


def lead_first(
    order: list[int], fused: np.ndarray, game_prior: np.ndarray | None, fusion: Fusion
) -> list[int]:
    """``order`` with :func:`lead_row` moved (or added) to the front; unchanged without one."""
    lead = lead_row(fused, game_prior, fusion)
    return order if lead is None else [lead, *(i for i in order if i != lead)]

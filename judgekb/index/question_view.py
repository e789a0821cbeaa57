"""The question view: a judge's question compared with the questions each clause answers.

The books answer in formal words; judges ask in everyday ones. The judges' questions kept as
data beside the books (:mod:`judgekb.corpus.questions`) are encoded at build as *queries*
("query: …", e5's symmetric form), so that a judge's question meets questions worded the way
judges word them. A clause's score is the cosine of the judge's question to the closest of its
questions, and beside it the mean cosine over all its questions (a clause several of whose
questions come close is likelier than one a single question happens to match); a clause with
none scores 0. Fusion (:func:`judgekb.index.fusion.fuse`) takes them as a third signal beside
the passage cosine and BM25; confidence reads the closest.

Artifacts in the index directory:

- ``questions.npy``: one unit vector per question (float32, n_questions x dim; loaded in
  pair order, so that a scoped search scores only the questions of its span of rows);
- ``question_rows.npy``: (question, row) pairs sorted by row: a question belongs to the row of
  its clause and, through the clause's stable key, to the same clause in other editions;
- ``questions_bm25/``: a BM25 over each question's character 4-grams
  (:func:`judgekb.index.tokenize.char_grams`): a clause's lexical score is its best question's,
  a fourth signal (a judge's words met in another judge's words, spelling slips included).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from judgekb.corpus.model import Clause
from judgekb.corpus.normalize import normalize_text
from judgekb.corpus.questions import Question
from judgekb.corpus.store import ClauseStore
from judgekb.index.tokenize import CHAR_BM25_PARAMS, char_gram_scores, char_grams

QUESTION_VIEW_VERSION = "3"  # bump when question_texts, the pairing or the BM25 changes
VECTORS = "questions.npy"
PAIRS = "question_rows.npy"
LEXICAL = "questions_bm25"


def question_texts(questions: Sequence[Question]) -> list[str]:
    """What the encoder reads for each question (normalised as queries are)."""
    return [normalize_text(q.text) for q in questions]


def question_pairs(
    questions: Sequence[Question],
    row: Mapping[tuple[str, str], int],
    same_clause: Mapping[int, Sequence[int]],
) -> np.ndarray:
    """(question, row) pairs sorted by row: each question's clause and, through
    ``same_clause`` (row -> the rows of the same stable key), its other editions."""
    pairs: set[tuple[int, int]] = set()
    for i, q in enumerate(questions):
        r = row.get((q.doc_id, q.clause_id))
        if r is None:
            continue
        for target in (r, *same_clause.get(r, ())):
            pairs.add((i, target))
    out = np.array(sorted(pairs, key=lambda p: (p[1], p[0])), dtype=np.int32)
    return out.reshape(-1, 2)


def clause_question_pairs(
    store: ClauseStore, clauses: Sequence[Clause], questions: Sequence[Question]
) -> np.ndarray:
    """The (question, row) pairs of ``clauses`` (rows are positions in it): a question's
    clause in every edition. The index's question view and the offline bundle both use it."""
    from judgekb.corpus.edition_store import Editions

    row = {(c.doc_id, c.clause_id): i for i, c in enumerate(clauses)}
    editions = Editions(store)
    rows_of_key = editions.rows_by_key(clauses)
    same = {
        i: rows_of_key.get(editions.key.get((c.doc_id, c.clause_id), ""), [])
        for i, c in enumerate(clauses)
    }
    return question_pairs(questions, row, same)


def write_question_view(
    directory: Path, vectors: np.ndarray, pairs: np.ndarray, texts: Sequence[str] = ()
) -> None:
    """The view's vectors, pairs and the BM25 over ``texts`` (the questions, in vector order)."""
    import bm25s

    np.save(directory / VECTORS, np.ascontiguousarray(vectors, dtype=np.float32))
    np.save(directory / PAIRS, np.ascontiguousarray(pairs, dtype=np.int32))
    lexical = bm25s.BM25(**CHAR_BM25_PARAMS)
    lexical.index([char_grams(t) or ["∅"] for t in texts] or [["∅"]], show_progress=False)
    lexical.save(str(directory / LEXICAL), show_progress=False)


class QuestionView:
    """The loaded question view of an index directory (empty when the corpus has none).

    Vectors are kept in pair order (sorted by row), so a search scoped to some rows scores
    only the questions of the span of rows it searches."""

    def __init__(self, directory: Path, n_rows: int) -> None:
        import bm25s

        vectors = np.load(directory / VECTORS)
        pairs = np.load(directory / PAIRS)
        self.lexical = bm25s.BM25.load(str(directory / LEXICAL), show_progress=False)
        self.pair_questions = pairs[:, 0].astype(np.int64)
        self.n_rows = n_rows
        self.n_questions = int(vectors.shape[0])
        self.vectors = np.ascontiguousarray(vectors[pairs[:, 0]], dtype=np.float32)
        self.pair_rows = pairs[:, 1].astype(np.int64)
        rows = self.pair_rows
        # Segments of equal rows: one maximum per segment.
        self.starts = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]]) if rows.size else rows
        self.rows = rows[self.starts]
        self.has_questions = np.zeros(n_rows, dtype=bool)
        self.has_questions[self.rows] = True

    def __len__(self) -> int:
        return self.n_questions

    def lexical_scores(self, text: str) -> np.ndarray:
        """Per row, the character-gram BM25 score of ``text`` against the best of its
        questions (0: none, or no gram of ``text`` in any question)."""
        out = np.zeros(self.n_rows, dtype=np.float32)
        if not self.rows.size:
            return out
        per_question = char_gram_scores(self.lexical, text, self.n_questions)
        out[self.rows] = np.maximum.reduceat(per_question[self.pair_questions], self.starts)
        return out

    def closest_and_mean(
        self, qv: np.ndarray, mask: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Per row, the cosine of ``qv`` (shape (1, dim)) to the closest of its questions and
        the mean cosine over all of them (0 and 0: none); with ``mask``, only rows between its
        first and last searched row are scored."""
        closest = np.zeros(self.n_rows, dtype=np.float32)
        mean = np.zeros(self.n_rows, dtype=np.float32)
        if not self.rows.size:
            return closest, mean
        lo, hi = 0, self.n_rows
        if mask is not None:
            searched = np.flatnonzero(mask)
            if not searched.size:
                return closest, mean
            lo, hi = int(searched[0]), int(searched[-1]) + 1
        first, last = np.searchsorted(self.rows, [lo, hi])
        if first == last:
            return closest, mean
        begin = int(self.starts[first])
        end = int(self.starts[last]) if last < self.starts.size else self.pair_rows.size
        sims = np.einsum("ij,j->i", self.vectors[begin:end], qv[0].astype(np.float32))
        starts = self.starts[first:last] - begin
        rows = self.rows[first:last]
        closest[rows] = np.maximum.reduceat(sims, starts)
        mean[rows] = np.add.reduceat(sims, starts) / np.diff(np.append(starts, sims.size))
        return closest, mean

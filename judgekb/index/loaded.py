"""A loaded index: the clause rows, FAISS and BM25 over them, and raw scores per row.

Nothing here ranks: :mod:`judgekb.index.plan` decides what to score, :func:`fusion.fuse`
combines scores, :mod:`judgekb.index.search` orders the hits.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from judgekb.corpus.edition_store import Editions
from judgekb.corpus.editions import parse_day, visible_docs
from judgekb.corpus.model import Clause, Document
from judgekb.corpus.store import ClauseStore
from judgekb.errors import QueryError, UnknownDocument
from judgekb.index.artifacts import check_manifest, read_manifest
from judgekb.index.build import expected_manifest
from judgekb.index.e5convert import MAX_SEQ_LENGTH
from judgekb.index.games import GameModel, read_asked_words
from judgekb.index.question_view import QuestionView
from judgekb.index.request import Scope
from judgekb.index.sentences import SentenceIndex
from judgekb.index.tokenize import char_gram_scores

if TYPE_CHECKING:
    from judgekb.index.embedder import Embedder

QUERY_CACHE_SIZE = 2048
QUERY_PREFIX_ROOM = 32  # "query: ", the leading "▁" and <s> </s>, with room to spare


class LoadedIndex:
    """Rows of both indexes in one order, with per-row game/doc/kind arrays for scoping."""

    def __init__(
        self,
        store: ClauseStore,
        index_dir: Path,
        embedder: Embedder | None,
        model_name: str,
        faiss_kind: str | None = None,
        encoder: str | None = None,
    ) -> None:
        import bm25s
        import faiss

        self.store = store
        self.manifest: dict[str, Any] = read_manifest(index_dir)
        expected = expected_manifest(model_name, store.meta.get("corpus_hash", ""))
        if faiss_kind is not None:
            expected["faiss"] = faiss_kind
        if encoder is not None:
            expected["encoder"] = encoder
        if embedder is not None:
            expected["dim"] = embedder.dim
        check_manifest(self.manifest, expected, index_dir)
        self.embedder = embedder
        ids = json.loads((index_dir / "ids.json").read_text(encoding="utf-8"))
        by_key = {(c.doc_id, c.clause_id): c for c in store.clauses()}
        self.clauses: list[Clause] = [by_key[(d, c)] for d, c in ids]
        self.row = {(c.doc_id, c.clause_id): i for i, c in enumerate(self.clauses)}
        # One query scans 3k-100k vectors: a single thread is fast enough, and faiss's own
        # OpenMP team would otherwise spin against torch's on the two cores (p95 24 -> 19 ms).
        faiss.omp_set_num_threads(1)
        self.dense = faiss.read_index(str(index_dir / "dense.faiss"))
        self.sentences = SentenceIndex(index_dir)
        self.questions = QuestionView(index_dir, len(self.clauses))
        self.game_model = GameModel.load(index_dir)
        self.asked_words = read_asked_words(index_dir)
        # A flat index is scored by one matrix-vector product: asking FAISS for all n results
        # sorts them (0.4 ms); numpy's own loop takes 0.2 ms and, unlike BLAS, never wakes a
        # thread team that would contend with the encoder's.
        self.vectors: np.ndarray | None = None
        if self.manifest.get("faiss") == "flat":
            self.vectors = self.dense.reconstruct_n(0, self.dense.ntotal)
        self.bm25 = bm25s.BM25.load(str(index_dir / "bm25"), show_progress=False)
        self.bm25_chars = bm25s.BM25.load(str(index_dir / "bm25_chars"), show_progress=False)
        self.docs: dict[str, Document] = {d.doc_id: d for d in store.documents()}
        self.games = store.games()
        docs = self.docs
        self.game_of_row = np.array([docs[c.doc_id].game for c in self.clauses])
        names, self.game_number = np.unique(self.game_of_row, return_inverse=True)
        self._game_names = [str(g) for g in names]  # game_number -> its slug
        self.doc_of_row = np.array([c.doc_id for c in self.clauses])
        # The clause tree as the corpus stores it (parent_id), by row: what "under" means.
        self._child_rows: dict[int, list[int]] = {}
        for i, c in enumerate(self.clauses):
            parent = self.row.get((c.doc_id, c.parent_id)) if c.parent_id else None
            if parent is not None:
                self._child_rows.setdefault(parent, []).append(i)
        self.lang_of_row = np.array([c.lang for c in self.clauses])
        self.kind_of_row = np.array([c.kind for c in self.clauses])
        self.doc_kind_of_row = np.array([docs[c.doc_id].kind for c in self.clauses])
        # rule clauses no judges' question is about (a clause new in an edition): fusion
        # weighs their text instead; an amendment's clauses (the 2009 decree) stay below
        # the current ones they amend. None when there are none.
        unasked = ~self.questions.has_questions & (self.doc_kind_of_row != "amendment")
        self.unasked = unasked if len(self.questions) and unasked.any() else None
        self.is_glossary_row = (self.kind_of_row == "glossary").astype(np.float32)
        self.editions = Editions(store)
        self._doc_masks: dict[frozenset[str], np.ndarray] = {}
        self._rows_of_key = self.editions.rows_by_key(self.clauses)
        self.query_cache_size = QUERY_CACHE_SIZE  # 0 disables it (benchmarks do)
        self._qcache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.clauses)

    # scope ------------------------------------------------------------------------------
    def mask(self, scope: Scope) -> np.ndarray:
        """Rows inside ``scope``; an unknown game or document is an error naming the valid ones."""
        mask = np.ones(len(self.clauses), dtype=bool)
        if scope.game is not None:
            self.store.check_game(scope.game)
            mask &= self.game_of_row == scope.game
        if scope.doc is not None:
            if scope.doc not in self.docs:
                raise UnknownDocument(scope.doc, list(self.docs))
            mask &= self.doc_of_row == scope.doc
        if scope.lang is not None:
            mask &= self.lang_of_row == scope.lang
        if scope.doc_kind is not None:
            mask &= self.doc_kind_of_row == scope.doc_kind
        if scope.clause_kind is not None:
            mask &= self.kind_of_row == scope.clause_kind
        return mask & self.edition_mask(scope)

    def edition_mask(self, scope: Scope) -> np.ndarray:
        """Rows of the editions in force on ``scope.date`` (today when None), or of the
        edition ``scope.edition`` names (:func:`judgekb.corpus.editions.visible_docs`).
        A document named by ``scope.doc`` is searched whatever its date."""
        if scope.doc is not None and scope.edition is None:
            return np.ones(len(self.clauses), dtype=bool)
        docs = visible_docs(self.docs.values(), parse_day(scope.date), scope.edition, scope.game)
        key = frozenset(docs)
        mask = self._doc_masks.get(key)
        if mask is None:  # a handful of document sets ever: each computed once
            mask = np.isin(self.doc_of_row, sorted(docs))
            mask.setflags(write=False)
            self._doc_masks[key] = mask
        return mask

    def same_clause(self, row: int) -> list[int]:
        """The other rows holding this clause in other editions (same stable key)."""
        c = self.clauses[row]
        key = self.editions.key.get((c.doc_id, c.clause_id))
        return [r for r in self._rows_of_key.get(key or "", []) if r != row]

    # raw scores -------------------------------------------------------------------------
    def bm25_scores(self, tokens: list[str]) -> np.ndarray:
        if not tokens:
            return np.zeros(len(self.clauses), dtype=np.float32)
        return np.asarray(self.bm25.get_scores(tokens), dtype=np.float32)

    def rows_under(self, row: int) -> list[int]:
        """The rows of every clause under the clause at ``row`` (its children, theirs …)."""
        out, todo = [], list(self._child_rows.get(row, ()))
        while todo:
            i = todo.pop()
            out.append(i)
            todo.extend(self._child_rows.get(i, ()))
        return out

    def char_scores(self, text: str) -> np.ndarray:
        """The character-gram BM25's score of every row for ``text`` (index/tokenize.py)."""
        return char_gram_scores(self.bm25_chars, text, len(self.clauses))

    def dense_scores(self, text: str, deadline: float | None = None) -> np.ndarray:
        """Cosine of every row to the encoded ``text`` (-1 where an approximate index skips).

        ``deadline`` (``time.monotonic()``) is when encoding must have started at the latest
        (:class:`~judgekb.errors.Overloaded` otherwise).
        """
        return self.dense_scores_of(self.query_vector(text, deadline))

    def dense_scores_of(self, qv: np.ndarray) -> np.ndarray:
        """Cosine of every row's passage to the query vector ``qv`` (shape (1, dim))."""
        if self.vectors is not None:
            return np.einsum("ij,j->i", self.vectors, qv[0].astype(np.float32))
        n = self.dense.ntotal
        k = min(n, 1000)
        scores, idx = self.dense.search(np.ascontiguousarray(qv, dtype=np.float32), k)
        out = np.full(n, -1.0, dtype=np.float32)
        valid = idx[0] >= 0
        out[idx[0][valid]] = scores[0][valid]
        return out

    def game_prior(self, probs: Mapping[str, float] | None, mask: np.ndarray) -> np.ndarray | None:
        """Each row's game probability (``probs``, the game model's for the question), when
        ``mask`` spans several games (None when it holds one game or none: nothing to weigh)."""
        if not probs or np.unique(self.game_number[mask]).size < 2:
            return None
        return np.array([probs.get(g, 0.0) for g in self._game_names], np.float32)[self.game_number]

    def question_scores(
        self, qv: np.ndarray, mask: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Per row, the cosine of ``qv`` to the closest judges' question it answers and the
        mean over them (0: none; with ``mask``, rows outside the span it searches are not
        scored)."""
        return self.questions.closest_and_mean(qv, mask)

    def query_truncated(self, text: str) -> bool:
        """Whether the encoder reads only the first 512 tokens of ``text``.

        A token nearly always covers a character or more, so a short text is not tokenised.
        """
        if self.embedder is None or len(text) + QUERY_PREFIX_ROOM < MAX_SEQ_LENGTH:
            return False
        return self.embedder.query_tokens(text) > MAX_SEQ_LENGTH

    def set_query_cache(self, size: int) -> None:
        """Resize (0 disables) the query-vector cache and empty it."""
        with self._cache_lock:
            self.query_cache_size = size
            self._qcache.clear()

    def query_vector(self, text: str, deadline: float | None = None) -> np.ndarray:
        """Encoded query, from a small LRU cache: judges at one event repeat searches."""
        if self.embedder is None:
            raise QueryError("dense search needs an embedding model, none is loaded")
        with self._cache_lock:
            hit = self._qcache.get(text)
            if hit is not None:
                self._qcache.move_to_end(text)
                return hit
        vec = self.embedder.encode_queries([text], deadline)
        with self._cache_lock:
            self._qcache[text] = vec
            while len(self._qcache) > self.query_cache_size:
                self._qcache.popitem(last=False)
        return vec

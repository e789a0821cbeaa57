"""Hybrid search: a :class:`SearchRequest` in, a ranked :class:`SearchResult` out.

Order of a result: clause numbers the query names (one per game when ambiguous), the clauses
a named clause refers to, then dense + BM25 fusion over the rest of the sentence; a clause of
an amendment never stands above the current clause it corresponds to.
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from judgekb.corpus.store import ClauseStore
from judgekb.errors import Overloaded
from judgekb.index.artifacts import read_manifest
from judgekb.index.confidence import ConfidenceModel, SearchSignals, load_confidence
from judgekb.index.fusion import Fusion, RawScores, fuse, lead_first
from judgekb.index.games import GameNames
from judgekb.index.hits import HitFactory
from judgekb.index.language import content_words
from judgekb.index.loaded import LoadedIndex
from judgekb.index.plan import Planner, QueryPlan
from judgekb.index.request import Confidence, SearchRequest
from judgekb.index.results import SearchHit, SearchResult
from judgekb.index.terms import Lexicon, add_glossary_pairs
from judgekb.index.tokenize import tokenize

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from judgekb.config import Settings
    from judgekb.index.embedder import Embedder
    from judgekb.index.generation import Generation

log = logging.getLogger(__name__)

__all__ = ["Fusion", "RawScores", "Searcher", "load_searcher"]

WARM_UP_QUESTION = "ผู้เล่นแพ้เมื่อไหร่ ถ้าการ์ดในเด็คหมดและโจมตีไม่ได้ "
# A section named in a sentence: this many of its own clauses the sentence fits best, next
WITHIN_NAMED = 2
TRUNCATED_NOTE = "the query is longer than the encoder's 512 tokens: only its start was read"


class Searcher:
    """A loaded index with its query planner: call :meth:`search` from any thread."""

    generation: str | None = None  # the generation id it was loaded from (load_searcher)

    def __init__(
        self,
        store: ClauseStore,
        index_dir: Path,
        embedder: Embedder | None,
        model_name: str,
        lexicon: Lexicon | None = None,
        max_query_chars: int = 1000,
        fusion: Fusion | None = None,
        game_aliases: Mapping[str, Iterable[str]] | None = None,
        faiss_kind: str | None = None,
        confidence: ConfidenceModel | None = None,
        doc_aliases: Mapping[str, Iterable[str]] | None = None,
        encoder: str | None = None,
    ) -> None:
        self.index = LoadedIndex(store, index_dir, embedder, model_name, faiss_kind, encoder)
        self.fusion = fusion or Fusion()
        lexicon = lexicon or Lexicon()
        game_of = {d: doc.game for d, doc in self.index.docs.items()}
        add_glossary_pairs(lexicon, self.index.clauses, game_of)
        names = GameNames(game_aliases or {g: (n,) for g, n in self.index.games.items()})
        self.planner = Planner(
            self.index, lexicon, names, max_query_chars, GameNames(doc_aliases or {})
        )
        self.hits = HitFactory(store, self.index.clauses)
        self.confidence = confidence or load_confidence()
        self._vocab = self.index.bm25.vocab_dict

    @property
    def store(self) -> ClauseStore:
        return self.index.store

    @property
    def manifest(self) -> dict[str, Any]:
        return self.index.manifest

    @property
    def embedder(self) -> Embedder | None:
        return self.index.embedder

    def set_query_cache(self, size: int) -> None:
        self.index.set_query_cache(size)

    # scoring ----------------------------------------------------------------------------
    def scores(self, plan: QueryPlan, mode: str) -> RawScores:
        """Raw scores of every row for the plan (zeros for a mode's unused parts) and the
        encoded query (None when dense was not run)."""
        n = len(self.index)
        zeros = np.zeros(n, np.float32)
        bm = self.index.bm25_scores(plan.terms) if mode != "dense" else zeros
        if mode == "bm25":
            return RawScores(zeros, bm, zeros, None)
        text = self.planner.dense_text(plan, self.fusion.expand_dense)
        plan.query_truncated = self.index.query_truncated(text)
        qv = self.index.query_vector(text, plan.request.deadline)
        questions, question_mean = self.index.question_scores(qv, plan.mask)
        words = " ".join([plan.search_text, *plan.expansion])
        hybrid = mode == "hybrid"
        chars = self.index.char_scores(words) if hybrid else None
        asked = self.index.questions.lexical_scores(words) if hybrid else None
        dense = self.index.dense_scores_of(qv)
        return RawScores(dense, bm, questions, qv, chars, asked, question_mean)

    def _near(self, plan: QueryPlan) -> QueryPlan:
        """The plan of a bare clause number's related clauses: the named clause's game."""
        game = self.index.game_of_row[plan.lookups[0][0]]
        return replace(plan, mask=plan.mask & (self.index.game_of_row == game))

    def _related(self, plan: QueryPlan) -> RawScores:
        """A query that is only a clause number: the rest of the page is the clauses closest
        in meaning to the one it names (its passage vector as the query), not clauses whose
        words happen to look like the number."""
        row = plan.lookups[0][0]
        qv = np.asarray(self.index.dense.reconstruct(row), np.float32)[None]
        zeros = np.zeros(len(self.index), np.float32)
        return RawScores(self.index.dense_scores_of(qv), zeros, zeros, qv)

    def _lead_first(self, plan: QueryPlan, fused: np.ndarray, order: list[int]) -> list[int]:
        """Over several games, the clause of the game the question most likely is about first
        (:func:`judgekb.index.fusion.lead_first`); a number's lookups stay first."""
        if plan.lookups or plan.request.mode != "hybrid":
            return order
        return lead_first(order, fused, plan.game_prior, self.fusion)

    def _scored(self, plan: QueryPlan) -> tuple[RawScores, np.ndarray]:
        """The plan's raw scores and their fusion."""
        raw = self.scores(plan, plan.request.mode)
        return raw, self.rank(plan, raw)

    def rank(self, plan: QueryPlan, raw: RawScores) -> np.ndarray:
        mode = plan.request.mode
        if mode == "bm25":
            return np.where(plan.mask, raw.bm25, -np.inf)
        if mode == "dense":
            return np.where(plan.mask, raw.dense, -np.inf)
        latin = plan.pq.lang == "latin"
        return fuse(
            raw.dense,
            raw.bm25,
            plan.mask,
            self.fusion,
            latin,
            self.index.is_glossary_row,
            raw.questions,
            plan.game_prior,
            raw.chars,
            None if plan.game_prior is None else self.index.game_number,
            raw.asked,
            self.index.unasked,
            raw.question_mean,
        )

    # public -----------------------------------------------------------------------------
    def search(self, request: SearchRequest) -> SearchResult:
        t0 = time.perf_counter()
        if request.deadline is not None and time.monotonic() > request.deadline:
            raise Overloaded("the search service is busy: this search waited too long to start")
        plan = self.planner.plan(request)
        k = request.k
        hits: list[SearchHit] = []
        seen: set[int] = set()

        # Folding amendments into their current clauses may merge hits: gather until k hits
        # that no fold can merge away (at most 2 k).
        limit = 2 * k
        firm = 0

        def add(row: int, score: float, via: str, terms: tuple[str, ...] | list[str] = ()) -> None:
            nonlocal firm
            if row not in seen and len(hits) < limit and firm < k:
                seen.add(row)
                hits.append(self.hits.make(row, score, via, terms))
                firm += not (via == "search" and self.index.doc_kind_of_row[row] == "amendment")

        scored: tuple[RawScores, np.ndarray] | None = None
        if plan.ambiguous_games and not plan.bare:
            # A number several games print, asked about in a sentence ("Bahagian 11.1.1.1 CR —
            # kalau loop tu tak ada sape boleh stop, game jadi seri"): each game's clause is
            # still listed first, the one the sentence is about before the others.
            scored = first = self._scored(plan)
            plan.lookups.sort(key=lambda lookup: -float(first[1][lookup[0]]))
        for row, via in plan.lookups:
            add(row, 1.0, via)
        if plan.lookups and not plan.ambiguous_games:
            for target in self._refs_of(plan.lookups[0][0], plan.mask):
                add(target, 1.0, "ref")
            if not plan.bare and request.mode == "hybrid":
                # "Bahagian 13 cakap apa pasal kad yang masih tertinggal dalam zon trigger?":
                # a section asked about in a sentence, then the parts of it the sentence is about
                scored = now = scored or self._scored(plan)
                fused = now[1]
                for row in self._within(plan.lookups[0][0], fused)[:WITHIN_NAMED]:
                    add(row, float(fused[row]), "search", plan.terms)
        signals = SearchSignals(0.0, 0.0, 0.0, 0.0, 0)
        qv: np.ndarray | None = None
        # A bare number the chosen game does not print: nothing else to show. One printed by
        # several games: each game's clause first, then the usual look-alikes of the number.
        nothing_else = plan.bare and bool(plan.elsewhere) and not plan.lookups
        if len(hits) < k and not nothing_else:
            if plan.bare and plan.lookups and request.mode != "bm25":
                near = self._near(plan)
                raw = self._related(near)
                fused = self.rank(near, raw)
            else:
                raw, fused = scored or self._scored(plan)
            qv = raw.qv
            best = np.argsort(-fused, kind="stable")[: limit + len(seen) + 1]
            order = [int(i) for i in best if np.isfinite(fused[i])]
            order = self._lead_first(plan, fused, order)
            signals = self._signals(plan, raw, fused, order)
            for i in order:
                add(i, float(fused[i]), "search", plan.terms)
        hits = self._fold_older(hits, plan)
        took = (time.perf_counter() - t0) * 1000
        return SearchResult(
            request.text,
            took,
            tuple(hits[:k]),
            plan.game if plan.inferred is None else request.scope.game,
            request.mode,
            confidence=self._confidence(plan, signals),
            ambiguous_games=plan.ambiguous_games,
            elsewhere=plan.elsewhere,
            inferred=plan.inferred,
            other_games_named=plan.other_games_named,
            signals=signals,
            lookup=_lookup_outcome(plan),
            bare=plan.bare,
            renumbered=tuple(plan.renumbered),
            query_vector=qv,
            terms=tuple(plan.terms),
            query_truncated=plan.query_truncated,
            notes=(TRUNCATED_NOTE,) if plan.query_truncated else (),
            game_unsure=plan.game_unsure,
        )

    def answering(self, result: SearchResult, hit: SearchHit) -> list[tuple[int, int]]:
        """The spans of ``hit``'s text that answer ``result``'s question best (the answer
        card marks them): scored with the search's own query vector and terms."""
        row = self.index.row[(hit.doc_id, hit.clause_id)]
        qv = None if hit.via in ("lookup", "alias") else result.query_vector
        return self.index.sentences.answering(row, hit.text, qv, result.terms)

    # ordering ---------------------------------------------------------------------------
    def _within(self, row: int, fused: np.ndarray) -> list[int]:
        """The rows under the clause at ``row`` in the corpus's clause tree, best ``fused``
        first; none outside the search's scope."""
        under = [i for i in self.index.rows_under(row) if np.isfinite(fused[i])]
        return sorted(under, key=lambda i: (-float(fused[i]), i))

    def _refs_of(self, row: int, mask: np.ndarray) -> list[int]:
        c = self.index.clauses[row]
        out = []
        for ref in self.hits.refs_out.get((c.doc_id, c.clause_id), ()):
            i = self.index.row.get((ref.doc, ref.clause_id or ""))
            if i is not None and mask[i]:
                out.append(i)
        return out

    def _fold_older(self, hits: list[SearchHit], plan: QueryPlan) -> list[SearchHit]:
        """An amendment's clause found by search stands for the current clause that replaced
        it: that clause takes its place (or keeps its own higher rank) and carries the older
        wording in ``amendments``. A search of the amendment itself (its document chosen or
        named, or amendments only) keeps the amendment's clauses as they are."""
        scope = plan.request.scope
        if plan.doc is not None or scope.doc is not None or scope.doc_kind == "amendment":
            return hits
        out: list[SearchHit] = []
        keys: set[tuple[str, str]] = set()
        for hit in hits:
            if hit.doc_kind == "amendment" and hit.via == "search":
                current = self._current_of(hit, plan.mask)
                if current is not None:
                    key = (current.doc_id, current.clause_id)
                    ranked = [h for h in hits if (h.doc_id, h.clause_id) == key]
                    hit = ranked[0] if ranked else replace(current, score=hit.score)
            key = (hit.doc_id, hit.clause_id)
            if key not in keys:
                keys.add(key)
                out.append(hit)
        return out

    def _current_of(self, hit: SearchHit, mask: np.ndarray) -> SearchHit | None:
        links = [
            a
            for a in hit.amendments
            if a["amend_doc"] == hit.doc_id and a["amend_id"] == hit.clause_id and a["target_id"]
        ]
        if not links:
            return None
        best = max(links, key=lambda a: a["score"])
        row = self.index.row.get((best["target_doc"], best["target_id"]))
        if row is None or not mask[row]:
            return None
        return self.hits.make(row, 0.0, "current", ())

    # confidence -------------------------------------------------------------------------
    def _signals(
        self, plan: QueryPlan, raw: RawScores, fused: np.ndarray, order: list[int]
    ) -> SearchSignals:
        words = content_words(plan.search_text)
        share = len(words) or 1
        # a word is known when a rulebook prints it or the term tables map it to one's wording
        mapped = [bool(self.planner.expansion(w, plan.pq.lang, None)) for w in words]
        known = sum(m or w in self._vocab for w, m in zip(words, mapped, strict=True)) / share
        terms = sum(mapped) / share
        if not order:
            return SearchSignals(0.0, 0.0, 0.0, known, len(words), term_share=terms)
        dense, bm = raw.dense, raw.bm25
        top = order[0]
        second = float(fused[order[1]]) if len(order) > 1 else 0.0
        d = np.where(plan.mask, dense, -np.inf)
        d_top = np.argpartition(-d, 1)[:2] if d.size > 1 else np.array([top, top])
        d_sorted = sorted((float(d[i]) for i in d_top), reverse=True)
        dense_margin = d_sorted[0] - d_sorted[1] if np.isfinite(d_sorted[1]) else 0.0
        b = np.where(plan.mask, bm, -np.inf)
        agree = float(int(np.argmax(d)) == top) + float(int(np.argmax(b)) == top)
        q = np.where(plan.mask, raw.questions, -np.inf)
        return SearchSignals(
            float(dense[top]),
            float(fused[top]),
            float(fused[top]) - second,
            known,
            len(words),
            dense_margin,
            agree / 2,
            float(raw.questions[top]),
            float(q.max()) if q.size else 0.0,
            terms,
        )

    def _confidence(self, plan: QueryPlan, signals: SearchSignals) -> Confidence:
        if plan.ambiguous_games:
            return "low"
        if plan.lookups and plan.lookups[0][1] in ("lookup", "alias"):
            return "high"
        if plan.bare and plan.elsewhere:
            return "none"
        judged = self.confidence.judge(signals)
        # a question that reads like no one game in particular: its top hit is one game's
        # answer among several, never "the" answer
        return "low" if judged == "high" and plan.game_unsure else judged


def _lookup_outcome(plan: QueryPlan) -> str:
    if not plan.pq.mentions:
        return ""
    if plan.ambiguous_games:
        return "ambiguous"
    if any(via in ("lookup", "alias") for _, via in plan.lookups):
        return "found"
    return "elsewhere" if plan.elsewhere else "missing"


def load_searcher(
    settings: Settings,
    with_model: bool = True,
    generation: Generation | None = None,
    embedder: Embedder | None = None,
) -> Searcher:
    """Open the current generation (or ``generation``) after checking every file's checksum,
    then load the embedding model (or reuse ``embedder``, as a live reload does)."""
    from judgekb.corpus.manifest import load_manifest
    from judgekb.index.batching import BatchingEmbedder
    from judgekb.index.embedder import configured_embedder
    from judgekb.index.generation import require_current, verify
    from judgekb.index.memory import freeze_loaded
    from judgekb.index.terms import load_default_lexicon

    gen = generation or require_current(settings.data_dir)
    verify(gen)  # a damaged file is named before a model is loaded
    store = ClauseStore(gen.store_path)
    read_manifest(gen.index_dir)
    manifest = load_manifest(settings.manifest)
    if with_model and embedder is None:
        embedder = BatchingEmbedder(configured_embedder(settings))
        # The first forward pass, and the first of a long query, are slow: pay them now (a
        # fresh server refused the first long queries of a load test past their deadline).
        embedder.encode_queries(["warm-up"])
        embedder.encode_queries([WARM_UP_QUESTION * 20])  # ~270 tokens, a 1,000-char question
    # pythainlp loads its dictionary on the first Thai word (0.6 s): not in a judge's query.
    tokenize(WARM_UP_QUESTION)
    searcher = Searcher(
        store,
        gen.index_dir,
        embedder if with_model else None,
        settings.model,
        load_default_lexicon(),
        settings.max_query_chars,
        game_aliases=manifest.game_aliases,
        faiss_kind=settings.faiss_index,
        doc_aliases=manifest.doc_aliases,
        encoder=settings.encoder,
    )
    searcher.generation = gen.id
    freeze_loaded()  # a full collection over the index outlasted a search's deadline
    return searcher

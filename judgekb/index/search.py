"""Hybrid search over the clause store: clause-id lookups first, then dense + BM25 fusion."""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from judgekb.corpus.model import Clause
from judgekb.corpus.store import ClauseStore
from judgekb.errors import QueryError, UnknownDocument
from judgekb.index.artifacts import check_manifest, read_manifest
from judgekb.index.build import expected_manifest
from judgekb.index.hits import HitFactory
from judgekb.index.language import LanguageGuesser
from judgekb.index.query import ParsedQuery, parse_query
from judgekb.index.results import SearchHit, SearchResult
from judgekb.index.terms import BookText, Lexicon, add_glossary_pairs
from judgekb.index.tokenize import tokenize

if TYPE_CHECKING:
    from judgekb.config import Settings
    from judgekb.index.embedder import Embedder

log = logging.getLogger(__name__)

MODES = ("hybrid", "bm25", "dense")
QUERY_CACHE_SIZE = 2048


@dataclass(frozen=True)
class Fusion:
    """How dense and BM25 scores are combined (tuned on the dev questions only)."""

    dense_weight: float = 0.5  # weight of the min-max normalised dense score
    english_dense_weight: float = 0.5  # the same for Latin-script (Malay/English) queries
    expand_dense: bool = True  # cross-lingual queries: the encoder sees the expansion terms too
    norm_top: int = 200  # min-max normalisation over the top-N of each score in scope
    # Subtracted from glossary entries' fused score: a question wants the rule, not the
    # definition, and a query that *is* a glossary term reaches its entry by alias lookup.
    glossary_penalty: float = 0.1


class Searcher:
    """A loaded index: call :meth:`search` from any thread."""

    def __init__(
        self,
        store: ClauseStore,
        index_dir: Path,
        embedder: Embedder | None,
        model_name: str,
        lexicon: Lexicon | None = None,
        max_query_chars: int = 1000,
        fusion: Fusion | None = None,
    ) -> None:
        import bm25s
        import faiss

        self.store = store
        self.manifest = read_manifest(index_dir)
        check_manifest(
            self.manifest,
            expected_manifest(model_name, store.meta.get("corpus_hash", "")),
            index_dir,
        )
        self.embedder = embedder
        self.max_query_chars = max_query_chars
        self.fusion = fusion or Fusion()
        ids = json.loads((index_dir / "ids.json").read_text(encoding="utf-8"))
        by_key = {(c.doc_id, c.clause_id): c for c in store.clauses()}
        self.clauses: list[Clause] = [by_key[(d, c)] for d, c in ids]
        self.row = {(c.doc_id, c.clause_id): i for i, c in enumerate(self.clauses)}
        # One query scans 3k-100k vectors: a single thread is fast enough, and faiss's own
        # OpenMP team would otherwise spin against torch's on the two cores (p95 24 -> 19 ms).
        faiss.omp_set_num_threads(1)
        self.dense = faiss.read_index(str(index_dir / "dense.faiss"))
        self.bm25 = bm25s.BM25.load(str(index_dir / "bm25"), show_progress=False)
        docs = {d.doc_id: d for d in store.documents()}
        self.docs = docs
        self.game_of_row = np.array([docs[c.doc_id].game for c in self.clauses])
        self.doc_of_row = np.array([c.doc_id for c in self.clauses])
        self.lang_of_row = np.array([c.lang for c in self.clauses])
        self.kind_of_row = np.array([c.kind for c in self.clauses])
        self.is_glossary_row = (self.kind_of_row == "glossary").astype(np.float32)
        self.rows_of_lang = {lang: self.lang_of_row == lang for lang in set(self.lang_of_row)}
        self.languages = LanguageGuesser(self.clauses)
        self.doc_kind_of_row = np.array([docs[c.doc_id].kind for c in self.clauses])
        self.lexicon = lexicon or Lexicon()
        game_of = {d: docs[d].game for d in docs}
        add_glossary_pairs(self.lexicon, self.clauses, game_of)
        self.book_text = BookText(self.clauses, game_of)
        self.aliases = self._alias_rows()
        self.hits = HitFactory(store, self.clauses)
        self.query_cache_size = QUERY_CACHE_SIZE  # 0 disables it (benchmarks do)
        self._qcache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_lock = threading.Lock()

    def _alias_rows(self) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        for i, c in enumerate(self.clauses):
            names = list(c.aliases) + ([c.title] if c.kind == "glossary" else [])
            for name in names:
                out.setdefault(name.strip().lower(), []).append(i)
        return out

    # scope ------------------------------------------------------------------------------
    def _mask(self, game: str | None, doc: str | None, lang: str | None, kind: str | None):  # type: ignore[no-untyped-def]
        mask = np.ones(len(self.clauses), dtype=bool)
        if game is not None:
            self.store.check_game(game)
            mask &= self.game_of_row == game
        if doc is not None:
            if doc not in self.docs:
                raise UnknownDocument(doc, list(self.docs))
            mask &= self.doc_of_row == doc
        if lang is not None:
            mask &= self.lang_of_row == lang
        if kind is not None:
            mask &= self.doc_kind_of_row == kind
        return mask

    # lookups ----------------------------------------------------------------------------
    def _lookup_rows(self, pq: ParsedQuery, mask: np.ndarray) -> list[tuple[int, str]]:
        rows: list[tuple[int, str]] = []
        # Rule books before amendments; a lookup word's language ("Bahagian") first of all.
        order = sorted(
            self.docs.values(),
            key=lambda d: (
                pq.lookup_lang is not None and d.lang != pq.lookup_lang,
                d.kind != "rules",
            ),
        )
        if pq.doc_kind:
            order = [d for d in order if d.kind == pq.doc_kind]
        for cid in pq.id_candidates:
            for d in order:
                for key in ((d.doc_id, cid), (d.doc_id, cid.rstrip("."))):
                    i = self.row.get(key)
                    if i is not None and mask[i] and all(r != i for r, _ in rows):
                        rows.append((i, "lookup"))
            if rows:
                break
        text = pq.text.strip().lower()
        if not rows and text.startswith("glossary/"):
            rows += [
                (i, "lookup") for i, c in enumerate(self.clauses) if c.clause_id == text and mask[i]
            ]
        for i in self.aliases.get(text, []):
            if mask[i] and all(r != i for r, _ in rows):
                rows.append((i, "alias"))
        return rows

    # scoring ----------------------------------------------------------------------------
    def _bm25_scores(self, tokens: list[str]) -> np.ndarray:
        if not tokens:
            return np.zeros(len(self.clauses), dtype=np.float32)
        return np.asarray(self.bm25.get_scores(tokens), dtype=np.float32)

    def _dense_scores(self, text: str, mask: np.ndarray) -> np.ndarray:
        if self.embedder is None:
            raise QueryError("dense search needs an embedding model, none is loaded")
        qv = self._query_vector(text)
        n = self.dense.ntotal
        k = n if self.manifest.get("faiss") == "flat" else min(n, 1000)
        scores, idx = self.dense.search(np.ascontiguousarray(qv, dtype=np.float32), k)
        out = np.full(n, -1.0, dtype=np.float32)
        valid = idx[0] >= 0
        out[idx[0][valid]] = scores[0][valid]
        return out

    def set_query_cache(self, size: int) -> None:
        """Resize (0 disables) the query-vector cache and empty it."""
        with self._cache_lock:
            self.query_cache_size = size
            self._qcache.clear()

    def _query_vector(self, text: str) -> np.ndarray:
        """Encoded query, from a small LRU cache: judges at one event repeat searches."""
        with self._cache_lock:
            hit = self._qcache.get(text)
            if hit is not None:
                self._qcache.move_to_end(text)
                return hit
        assert self.embedder is not None
        vec = self.embedder.encode_queries([text])
        with self._cache_lock:
            self._qcache[text] = vec
            while len(self._qcache) > self.query_cache_size:
                self._qcache.popitem(last=False)
        return vec

    def _normalise(self, s: np.ndarray, mask: np.ndarray) -> np.ndarray:
        vals = s[mask]
        if vals.size == 0:
            return np.zeros_like(s)
        top = np.sort(vals)[::-1][: self.fusion.norm_top]
        hi, lo = float(top[0]), float(top[-1])
        if hi - lo < 1e-9:
            return np.where(s >= hi, 1.0, 0.0).astype(np.float32) if hi > 0 else np.zeros_like(s)
        return np.clip((s - lo) / (hi - lo), 0.0, None).astype(np.float32)

    def expansion(self, pq: ParsedQuery, game: str | None) -> list[str]:
        """Rulebook terms added to the query: English/Malay lexicon or Thai synonyms, kept
        only where the searched game's books print them."""
        if pq.lang == "latin":
            forms = self.lexicon.expand(pq.text, game)
        else:
            forms = self.lexicon.expand_thai(pq.text, game)
        return [f for f in forms if self.book_text.occurs(f, game)]

    def dense_text(
        self, pq: ParsedQuery, expansion: list[str], mask: np.ndarray, game: str | None = None
    ) -> str:
        """What the encoder sees. A cross-lingual query (English about a Thai book …) gets
        the book's own terms appended; a Thai one has its everyday phrases rewritten in the
        book's wording ("ตาแรก" -> "เทิร์นแรก"); any other query stays as typed."""
        if not self.fusion.expand_dense:
            return pq.text
        langs = [lang for lang, rows in self.rows_of_lang.items() if (rows & mask).any()]
        if expansion and self.languages.is_cross_lingual(pq.text, pq.lang, langs):
            return pq.text + " " + " ".join(expansion)
        if pq.lang == "th" and expansion:
            return self.lexicon.rewrite_thai(
                pq.text, game, lambda form: self.book_text.occurs(form, game)
            )
        return pq.text

    def scores(self, pq: ParsedQuery, mode: str, game: str | None, mask: np.ndarray):  # type: ignore[no-untyped-def]
        """Fused scores for every row plus the query terms used (for highlighting)."""
        expansion = self.expansion(pq, game)
        terms = tokenize(pq.text) + [t for e in expansion for t in tokenize(e)]
        if mode == "bm25":
            return self._bm25_scores(terms), terms
        dense = self._dense_scores(self.dense_text(pq, expansion, mask, game), mask)
        if mode == "dense":
            return dense, terms
        w = self.fusion.english_dense_weight if pq.lang == "latin" else self.fusion.dense_weight
        bm = self._normalise(self._bm25_scores(terms), mask)
        fused = w * self._normalise(dense, mask) + (1 - w) * bm
        return fused - self.fusion.glossary_penalty * self.is_glossary_row, terms

    # public -----------------------------------------------------------------------------
    def search(
        self,
        query: str,
        game: str | None = None,
        k: int = 10,
        mode: str = "hybrid",
        doc: str | None = None,
        lang: str | None = None,
        kind: str | None = None,
    ) -> SearchResult:
        t0 = time.perf_counter()
        if mode not in MODES:
            raise QueryError(f"unknown mode {mode!r}; choose one of {', '.join(MODES)}")
        if not 1 <= k <= 100:
            raise QueryError("k must be between 1 and 100")
        pq = parse_query(query, self.max_query_chars)
        mask = self._mask(game, doc, lang, kind)
        hits: list[SearchHit] = []
        seen: set[int] = set()
        for i, via in self._lookup_rows(pq, mask):
            hits.append(self.hits.make(i, 1.0, via, ()))
            seen.add(i)
        if len(hits) < k:
            fused, terms = self.scores(pq, mode, game, mask)
            fused = np.where(mask, fused, -np.inf)
            order = np.argsort(-fused, kind="stable")
            for i in order[: k + len(seen)]:
                if len(hits) >= k or not np.isfinite(fused[i]):
                    break
                if int(i) not in seen:
                    hits.append(self.hits.make(int(i), float(fused[i]), "search", terms))
        took = (time.perf_counter() - t0) * 1000
        return SearchResult(query, took, tuple(hits[:k]), game, mode)


def load_searcher(settings: Settings, with_model: bool = True) -> Searcher:
    """Open the store and index named by ``settings``; load the embedding model."""
    from judgekb.config import DATA_DIR
    from judgekb.index.embedder import BatchingEmbedder, load_embedder
    from judgekb.index.terms import load_lexicon, load_thai_synonyms

    store = ClauseStore(settings.store_path)
    read_manifest(settings.index_dir)  # fail fast, before loading a model
    embedder = None
    if with_model:
        embedder = BatchingEmbedder(
            load_embedder(
                settings.model,
                settings.models_dir,
                settings.torch_threads,
                settings.query_prefix,
                settings.passage_prefix,
            )
        )
        embedder.encode_queries(["warm-up"])  # the first forward pass is slow: pay it now
    # pythainlp loads its dictionary on the first Thai word (0.6 s): not in a judge's query.
    tokenize("ผู้เล่นแพ้เมื่อไหร่")
    return Searcher(
        store,
        settings.index_dir,
        embedder,
        settings.model,
        load_thai_synonyms(load_lexicon(DATA_DIR / "terms.toml"), DATA_DIR / "thai_synonyms.toml"),
        settings.max_query_chars,
    )


def hit_json(hit: SearchHit) -> dict[str, Any]:
    return hit.to_json()

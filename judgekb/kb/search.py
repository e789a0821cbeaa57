"""Search of published rulings: BM25 over their words, plus the rulings that cite the rule
clauses the rules search found. The service shows these *under* the rule hits: a ruling never
takes a clause's place.

The in-memory index is a cache with an expiry: at most every ``refresh_seconds`` a search asks
the database whether any ruling changed (one cheap query) and rebuilds when one did, so a
replica sees another replica's rulings within seconds. Tokens are kept per ruling revision, so
a rebuild tokenises only what changed.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from judgekb.index.tokenize import tokenize
from judgekb.kb.model import Ruling
from judgekb.kb.repo import RulingRepo

log = logging.getLogger(__name__)

CITES_BONUS = 0.5  # a ruling on a clause the rules search found outranks a word match
BM25_PARAMS = {"k1": 0.9, "b": 0.75}  # short texts, as for the clauses (index/build.py)


@dataclass(frozen=True)
class RulingHit:
    """One published ruling found by a search; ``via`` is ``words`` or ``cites``."""

    ruling: Ruling
    score: float
    via: str

    def to_json(self) -> dict[str, Any]:
        r = self.ruling
        return {
            "kind": "ruling",
            "id": r.id,
            "url": r.url,
            "game": r.game,
            "question": r.question,
            "answer": r.answer,
            "lang": r.lang,
            "source": r.source.to_json(),
            "cites": [{"doc": c.doc_id, "clause_id": c.clause_id} for c in r.cites],
            "needs_review": r.needs_review,
            "score": round(self.score, 4),
            "via": self.via,
        }


def ruling_text(r: Ruling) -> str:
    """What a ruling is searched as: question, answer, the event. Not the ids it cites: a
    number names another clause in each edition, so citations match through ``cited``."""
    return "\n".join([r.question, r.answer, r.source.event])


@dataclass(frozen=True)
class _Snapshot:
    signature: tuple[int, str]
    rulings: tuple[Ruling, ...]
    bm25: Any  # bm25s.BM25 or None when there is nothing to search
    by_clause: dict[tuple[str, str], tuple[int, ...]]  # (doc_id, clause_id) -> row numbers


class RulingSearch:
    """Thread-safe; ``search`` may be called from any worker thread."""

    def __init__(self, repo: RulingRepo, refresh_seconds: float = 2.0) -> None:
        self.repo = repo
        self.refresh_seconds = refresh_seconds
        self._snap = _Snapshot((-1, ""), (), None, {})
        self._checked = 0.0
        self._lock = threading.Lock()
        self._tokens: dict[tuple[int, int], list[str]] = {}

    def refresh(self, force: bool = False) -> None:
        """Rebuild when the database changed since the last look (at most every few seconds)."""
        if not force and time.monotonic() - self._checked < self.refresh_seconds:
            return
        # One thread rebuilds; the others search the previous snapshot meanwhile.
        if not self._lock.acquire(blocking=force):
            return
        try:
            if not force and time.monotonic() - self._checked < self.refresh_seconds:
                return
            sig = self.repo.signature()
            if sig != self._snap.signature:
                self._snap = self._build(sig)
            self._checked = time.monotonic()
        finally:
            self._lock.release()

    def _build(self, sig: tuple[int, str]) -> _Snapshot:
        import bm25s

        t0 = time.perf_counter()
        found = self.repo.find(status="published", limit=None)
        tokens = {}
        for r in found:
            key = (r.id, r.revision)
            tokens[key] = self._tokens.get(key) or tokenize(ruling_text(r)) or ["∅"]
        self._tokens = tokens
        bm25 = None
        if found:
            bm25 = bm25s.BM25(**BM25_PARAMS)
            bm25.index([tokens[(r.id, r.revision)] for r in found], show_progress=False)
        by_clause: dict[tuple[str, str], list[int]] = {}
        for i, r in enumerate(found):
            for c in r.cites:  # by document too: a number means another clause in each edition
                by_clause.setdefault((c.doc_id, c.clause_id), []).append(i)
        log.info(
            "ruling index: %d published, %.0f ms", len(found), 1000 * (time.perf_counter() - t0)
        )
        return _Snapshot(sig, tuple(found), bm25, {k: tuple(v) for k, v in by_clause.items()})

    def search(
        self,
        text: str,
        game: str | None = None,
        k: int = 5,
        cited: Sequence[Sequence[tuple[str, str]]] = (),
    ) -> list[RulingHit]:
        """Up to ``k`` published rulings for ``text`` in ``game`` (all games when None);
        ``cited`` = the rule hits, best first, each as its (doc_id, clause_id) in every
        edition (``Editions.everywhere``)."""
        self.refresh()
        snap = self._snap
        if not snap.rulings:
            return []
        scores = np.zeros(len(snap.rulings), dtype=np.float32)
        words = [w for w in tokenize(text) if w in snap.bm25.vocab_dict]
        if words:
            raw = np.asarray(snap.bm25.get_scores(words), dtype=np.float32)
            top = float(raw.max())
            if top > 0:
                scores = raw / top
        via = ["words"] * len(scores)
        for rank, clause in enumerate(cited):
            for i in {i for key in clause for i in snap.by_clause.get(key, ())}:
                bonus = CITES_BONUS / (1 + rank)
                if scores[i] + bonus > scores[i]:
                    via[i] = "cites" if scores[i] == 0 else via[i]
                scores[i] += bonus
        order = [
            int(i)
            for i in np.argsort(-scores, kind="stable")
            if scores[i] > 0 and (game is None or snap.rulings[i].game == game)
        ]
        hits = [RulingHit(snap.rulings[i], float(scores[i]), via[i]) for i in order[: k * 4]]
        hits.sort(key=lambda h: (-round(h.score, 6), h.ruling.tier, -h.ruling.id))
        return hits[:k]

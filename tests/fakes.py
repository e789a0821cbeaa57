"""Test doubles: a keyword one-hot encoder (as sentence-transformers' own evaluator tests use)
and a tiny hand-made corpus written to a real SQLite store."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from judgekb.corpus.model import AmendmentLink, Clause, CrossRef, Document

KEYWORDS = ("แพ้", "เสมอ", "จั่ว", "kalah", "seri", "kad", "lose", "draw", "ร่าย", "การ์ด")


class FakeEmbedder:
    """Vector = which KEYWORDS occur in the text (then L2-normalised); a bias dim avoids zeros."""

    name = "fake-onehot"
    dim = len(KEYWORDS) + 1

    def __init__(self) -> None:
        self.encoded: list[str] = []

    def _vec(self, text: str) -> np.ndarray:
        v = np.array([1.0 if k in text.lower() else 0.0 for k in KEYWORDS] + [0.1], np.float32)
        return v / np.linalg.norm(v)

    def encode_queries(self, texts: Sequence[str], deadline: float | None = None) -> np.ndarray:
        return np.vstack([self._vec(t) for t in texts])

    def query_tokens(self, text: str) -> int:
        return len(text) + 2  # one token a character, plus <s> and </s>

    def encode_passages(
        self, texts: Sequence[str], progress: Callable[[int], None] | None = None
    ) -> np.ndarray:
        self.encoded.extend(texts)
        if progress:
            progress(len(texts))
        return np.vstack([self._vec(t) for t in texts])


def _doc(doc_id: str, game: str, lang: str, kind: str = "rules", amends: str | None = None):
    return Document(
        doc_id,
        game,
        game.title(),
        f"{game} rules",
        lang,
        "v1",
        "2020-01-01",
        kind,
        f"{doc_id}.txt",
        amends,
    )


def tiny_corpus():
    """Two games, a section tree, a reference, a glossary entry and an amendment."""
    th = _doc("th-doc", "summoner-master", "th")
    am = _doc("th-decree", "summoner-master", "th", "amendment", "th-doc")
    ms = _doc("ms-doc", "vanguard", "ms")

    def c(doc, cid, parent, text, kind="clause", title="", aliases=(), line=1, seq=0):
        return Clause(
            doc.doc_id,
            cid,
            parent,
            kind,
            title,
            text,
            text,
            doc.lang,
            line,
            seq,
            aliases=tuple(aliases),
        )

    clauses = [
        c(th, "100", None, "กฎทั่วไป", "section", "กฎทั่วไป", seq=0),
        c(th, "100.1", "100", "ผู้เล่นที่แพ้ทั้งสองฝ่ายพร้อมกัน เกมจะเสมอ", seq=1),
        c(th, "100.2", "100", "ผู้เล่นจั่วการ์ดหนึ่งใบ ดู 100.1", seq=2),
        c(th, "glossary", None, "Glossary", "chapter", "Glossary", seq=3),
        c(
            th,
            "glossary/cast",
            "glossary",
            "การร่ายการ์ด",
            "glossary",
            "Cast / ร่าย",
            aliases=("Cast", "ร่าย"),
            seq=4,
        ),
        c(am, "100.1", None, "แก้ไข: ผู้เล่นที่แพ้พร้อมกัน เสมอ", seq=0),
        c(ms, "1", None, "Gambaran", "section", "Gambaran", seq=0),
        c(ms, "1.1", "1", "Jika kedua-dua pemain kalah serentak, permainan seri.", seq=1),
        c(ms, "1.2", "1", "Pemain tarik satu kad (1.1).", seq=2),
        # 100.2 is printed by both games: a lookup of it with no game is ambiguous.
        c(ms, "100.2", "1", "Kad dalam dek tidak boleh dilihat.", seq=3),
    ]
    refs = [
        CrossRef("th-doc", "100.2", "100.1", "ดู 100.1", "100.1"),
        CrossRef("ms-doc", "1.2", "1.1", "(1.1)", "1.1"),
    ]
    amends = [AmendmentLink("th-decree", "100.1", "th-doc", "100.1", 0.9, "same number")]
    return [th, am, ms], clauses, refs, amends


def write_tiny_store(path: Path) -> str:
    from judgekb.corpus.store import write_store

    docs, clauses, refs, amends = tiny_corpus()
    return write_store(path, docs, clauses, refs, amends)

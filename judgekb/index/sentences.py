"""The sentences of a clause, and which of them answer a question.

The answer card marks, in the governing clause's verbatim text, the sentence or sentences that
answer the question. A clause is cut into sentences by :func:`split_sentences` (spans that
cover the text exactly, so marking never alters it); each sentence of a clause with more than
one is embedded at build time with the search's own encoder (``sentences.npy``, in clause-row
order, spans in ``sentences.json``). :class:`SentenceIndex` scores them against the search's
own query vector and BM25 terms.

Sentence rules, in order:

1. Latin script (Malay, English): a ``.``, ``!`` or ``?`` after a word, followed by a space
   and a capital, a digit, a bracket or a quote, ends a sentence;
2. Thai writes no full stop: a space between two Thai letters ends one, unless the word
   before or after it joins the two (หรือ "or", และ "and", ซึ่ง "which", โดย "by", …);
3. a piece shorter than :data:`MIN_CHARS` joins the next (the last one joins the one before).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from judgekb.corpus.model import Clause
from judgekb.corpus.normalize import normalize_text

SENTENCE_VERSION = "1"  # bump when split_sentences changes: the index manifest records it
MIN_CHARS = 30
# A sentence scores its cosine to the question plus this share of the question's terms it
# prints; those within MARGIN of the best are marked too.
TERM_WEIGHT = 0.1
MARGIN = 0.02

# A full stop after a word (not after a number: "(Bahagian 7. Tindakan Khusus)").
_LATIN_END = re.compile(r"(?<=[a-z)\]\"'”’][.!?])\s+(?=[A-Z0-9(\"'“‘\[])")
# Words that join the words before and after a space (or, and, which, by, such as, namely,
# but, both, including): no sentence ends next to them.
_THAI_JOINERS = ("หรือ", "และ", "ซึ่ง", "โดย", "เช่น", "ได้แก่", "แต่", "ทั้ง", "รวมถึง")
_THAI_END = re.compile(
    "".join(f"(?<!{w})" for w in _THAI_JOINERS)
    + rf"(?<=[\u0e01-\u0e4e])\s+(?=[\u0e01-\u0e4e])(?!{'|'.join(_THAI_JOINERS)})"
)


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Spans ``(start, end)`` of ``text``'s sentences, covering it exactly (rules above)."""
    cuts = sorted({m.end() for m in _LATIN_END.finditer(text)} | _thai_cuts(text))
    spans, start = [], 0
    for cut in [*cuts, len(text)]:
        if cut - start >= MIN_CHARS or cut == len(text):
            spans.append((start, cut))
            start = cut
    if len(spans) > 1 and spans[-1][1] - spans[-1][0] < MIN_CHARS:
        (a, _), (_, b) = spans[-2], spans[-1]
        spans[-2:] = [(a, b)]
    return spans or [(0, len(text))]


def _thai_cuts(text: str) -> set[int]:
    return {m.end() for m in _THAI_END.finditer(text)}


def sentence_texts(clauses: Sequence[Clause]) -> tuple[dict[int, list[list[int]]], list[str]]:
    """For each clause row with two or more sentences: its spans; and every such sentence's
    normalised text, in row order (what ``judgekb build`` embeds)."""
    spans: dict[int, list[list[int]]] = {}
    texts: list[str] = []
    for row, c in enumerate(clauses):
        cut = split_sentences(c.text)
        if len(cut) > 1:
            spans[row] = [list(s) for s in cut]
            texts += [normalize_text(c.text[a:b]) or "∅" for a, b in cut]
    return spans, texts


def write_sentences(index_dir: Path, spans: dict[int, list[list[int]]], vecs: np.ndarray) -> None:
    (index_dir / "sentences.json").write_text(json.dumps(spans), encoding="utf-8")
    np.save(index_dir / "sentences.npy", vecs.astype(np.float32))


class SentenceIndex:
    """The embedded sentences of every multi-sentence clause of a loaded index."""

    def __init__(self, index_dir: Path) -> None:
        raw = json.loads((index_dir / "sentences.json").read_text(encoding="utf-8"))
        self.vecs: np.ndarray = np.load(index_dir / "sentences.npy")
        self.spans: dict[int, list[tuple[int, int]]] = {}
        self.first: dict[int, int] = {}
        n = 0
        for row in sorted(raw, key=int):
            self.first[int(row)] = n
            self.spans[int(row)] = [(a, b) for a, b in raw[row]]
            n += len(raw[row])

    def answering(
        self, row: int, text: str, qv: np.ndarray | None, terms: Iterable[str]
    ) -> list[tuple[int, int]]:
        """The spans of the clause at ``row`` that answer best: every sentence of a clause of
        one sentence (or when there is no query vector: a clause number was asked), else the
        best-scoring sentence and those within :data:`MARGIN` of it."""
        spans = self.spans.get(row)
        if not spans or qv is None:
            return spans or [(0, len(text))]
        start = self.first[row]
        cos = self.vecs[start : start + len(spans)] @ np.asarray(qv, dtype=np.float32).ravel()
        words = [t.lower() for t in terms if len(t) >= 2]
        scores = [
            float(c) + TERM_WEIGHT * _share(words, normalize_text(text[a:b]).lower())
            for c, (a, b) in zip(cos, spans, strict=True)
        ]
        best = max(scores)
        return [s for s, score in zip(spans, scores, strict=True) if score >= best - MARGIN]


def _share(words: list[str], sentence: str) -> float:
    return sum(w in sentence for w in words) / len(words) if words else 0.0

"""Align the clauses of two consecutive editions of one rulebook.

Numbers cannot be trusted across editions (a clause inserted mid-chapter shifts every later
sibling; a new chapter 3 renumbers chapters 3-12), and text alone cannot either (headings
repeat, short clauses look alike). Rules, in the order applied:

1. anchors: a clause printed with the same number and the same text in both editions is
   ``unchanged``;
2. content: every other old clause is scored against every other new clause by the cosine of
   TF-IDF character 3-grams (Thai has no spaces; tone marks are dropped for this score only,
   so a tone-mark-only change still pairs with its clause);
3. structure: a pair gains :data:`SAME_NUMBER` when the number is the same, :data:`PARENT`
   when the two parents are paired, :data:`NEIGHBOUR` when the previous siblings are, and up to
   :data:`CHILDREN` for the share of their children paired with each other;
4. admissible pairs: the same kind, and content at least :data:`MIN_SAME_NUMBER` (same number)
   or :data:`MIN_MOVED` (other number), or a heading whose children mostly pair;
5. one global assignment (``scipy.optimize.linear_sum_assignment``) maximises the total
   score over admissible pairs -- not first-fit, so a moved clause cannot steal the partner of a
   better pair; rules 3-5 run :data:`ROUNDS` times, each round seeing the pairs of the last;
6. kinds: same number -> ``unchanged`` / ``changed``; another number -> ``moved`` (``changed``
   says whether the text changed too); an old clause left over -> ``removed``, a new one ->
   ``added``. Text is compared after :func:`normalize_text`, tone marks included.

The changelog appendix is not aligned: it describes the change, it is not a rule.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from judgekb.corpus.gundam import CHANGELOG_ID
from judgekb.corpus.model import Clause
from judgekb.corpus.normalize import THAI_MARKS, normalize_text

PairKind = Literal["unchanged", "changed", "moved", "added", "removed"]
PAIR_KINDS: tuple[str, ...] = ("unchanged", "changed", "moved", "added", "removed")

SAME_NUMBER = 0.3
PARENT = 0.15
NEIGHBOUR = 0.1
CHILDREN = 0.4
MIN_SAME_NUMBER = 0.45
MIN_MOVED = 0.6
MIN_CHILD_SHARE = 0.5
ROUNDS = 3
NGRAM = 3
_MARKS_RE = re.compile(f"[{THAI_MARKS}]")
_BLOCKED = -1e6


@dataclass(frozen=True)
class AlignedPair:
    """One clause across two editions: its numbers there (None where absent) and the kind."""

    old_id: str | None
    new_id: str | None
    kind: PairKind
    changed: bool  # the text differs (always True for added/removed)
    score: float  # content similarity of the pair (1.0 for unchanged, 0.0 when unpaired)


def wording(clause: Clause) -> str:
    """What "the text of a clause" means when comparing editions: title and text, normalised,
    line breaks as spaces (two printings break lines in different places)."""
    text = clause.text
    if clause.title and clause.title not in clause.text:
        text = f"{clause.title} {clause.text}"
    return " ".join(normalize_text(text).split())


def comparable(clauses: Sequence[Clause]) -> list[Clause]:
    """The clauses that are aligned (rule: not the changelog appendix)."""
    return [c for c in clauses if c.clause_id != CHANGELOG_ID]


def _content_scores(old: Sequence[Clause], new: Sequence[Clause]) -> np.ndarray:
    """Rule 2: cosine of TF-IDF character n-grams, tone and vowel marks dropped."""
    if not old or not new:
        return np.zeros((len(old), len(new)))
    m = _tfidf([_MARKS_RE.sub("", wording(c).lower()) for c in (*old, *new)])
    return np.asarray((m[: len(old)] @ m[len(old) :].T).todense())


def _tfidf(texts: Sequence[str]) -> Any:
    """Rows of L2-normalised TF-IDF weights (sublinear tf, smoothed idf) of character n-grams."""
    from scipy.sparse import csr_matrix

    vocab: dict[str, int] = {}
    rows: list[int] = []
    cols: list[int] = []
    vals: list[float] = []
    for r, text in enumerate(texts):
        grams = Counter(text[i : i + NGRAM] for i in range(len(text) - NGRAM + 1))
        for g, count in grams.items():
            rows.append(r)
            cols.append(vocab.setdefault(g, len(vocab)))
            vals.append(1.0 + math.log(count))
    df = np.bincount(np.asarray(cols, dtype=np.int64), minlength=len(vocab))
    idf = np.log((1 + len(texts)) / (1 + df)) + 1.0
    weights = np.asarray(vals) * idf[np.asarray(cols, dtype=np.int64)]
    m = csr_matrix((weights, (rows, cols)), shape=(len(texts), len(vocab)))
    norms = np.sqrt(np.asarray(m.multiply(m).sum(axis=1)).ravel())
    norms[norms == 0] = 1.0
    return csr_matrix(m.multiply(1.0 / norms[:, None]))


class _Aligner:
    """State of one alignment: the unpaired clauses on each side and the current pairs."""

    def __init__(self, old: Sequence[Clause], new: Sequence[Clause]) -> None:
        self.old, self.new = list(old), list(new)
        new_by_id = {c.clause_id: c for c in self.new}
        self.pairs: dict[str, str] = {
            c.clause_id: c.clause_id
            for c in self.old
            if c.clause_id in new_by_id and wording(c) == wording(new_by_id[c.clause_id])
        }
        self.anchors = dict(self.pairs)
        self.rest_old = [c for c in self.old if c.clause_id not in self.pairs]
        paired_new = set(self.pairs.values())
        self.rest_new = [c for c in self.new if c.clause_id not in paired_new]
        self.content = _content_scores(self.rest_old, self.rest_new)
        self.prev_old = _previous_siblings(self.old)
        self.prev_new = _previous_siblings(self.new)
        self.kids_old = _children(self.old)
        self.kids_new = _children(self.new)

    def run(self) -> dict[str, str]:
        for _ in range(ROUNDS):
            self._round()
        return self.pairs

    def _round(self) -> None:
        from scipy.optimize import linear_sum_assignment

        if not self.rest_old or not self.rest_new:
            return
        score, ok = self._scores()
        rows, cols = linear_sum_assignment(np.where(ok, score, _BLOCKED), maximize=True)
        pairs = dict(self.anchors)
        for i, j in zip(rows, cols, strict=True):
            if ok[i, j]:
                pairs[self.rest_old[i].clause_id] = self.rest_new[j].clause_id
        self.pairs = pairs

    def _scores(self) -> tuple[np.ndarray, np.ndarray]:
        """Rules 3-4: content plus structure, and which pairs are admissible."""
        o, n = self.rest_old, self.rest_new
        same = np.equal.outer([c.clause_id for c in o], [c.clause_id for c in n])
        parent = self._paired_matrix([c.parent_id for c in o], [c.parent_id for c in n])
        prev = self._paired_matrix(
            [self.prev_old.get(c.clause_id) for c in o],
            [self.prev_new.get(c.clause_id) for c in n],
        )
        share = self._child_shares()
        score = self.content + SAME_NUMBER * same + PARENT * parent + NEIGHBOUR * prev
        score += CHILDREN * share
        floor = np.where(same, MIN_SAME_NUMBER, MIN_MOVED)
        kind = np.equal.outer([c.kind for c in o], [c.kind for c in n])
        ok = kind & ((self.content >= floor) | (share >= MIN_CHILD_SHARE))
        return score, ok

    def _paired_matrix(self, old_ids: list[str | None], new_ids: list[str | None]) -> np.ndarray:
        """[i, j] True when old_ids[i] is paired with new_ids[j] (or both are None)."""
        mapped = ["\x00none" if i is None else self.pairs.get(i, "\x00unpaired") for i in old_ids]
        return np.equal.outer(mapped, ["\x00none" if j is None else j for j in new_ids])

    def _child_shares(self) -> np.ndarray:
        """[i, j] share of the children of old i paired with children of new j."""
        out = np.zeros(self.content.shape)
        col = {c.clause_id: j for j, c in enumerate(self.rest_new)}
        parent_new = {c.clause_id: c.parent_id for c in self.new}
        for i, o in enumerate(self.rest_old):
            kids = self.kids_old.get(o.clause_id, [])
            votes: dict[str, int] = {}
            for k in kids:
                p = parent_new.get(self.pairs.get(k, ""))
                if p is not None and p in col:
                    votes[p] = votes.get(p, 0) + 1
            for p, v in votes.items():
                out[i, col[p]] = v / max(len(kids), len(self.kids_new.get(p, [])))
        return out


def _children(clauses: Sequence[Clause]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for c in clauses:
        if c.parent_id is not None:
            out.setdefault(c.parent_id, []).append(c.clause_id)
    return out


def _previous_siblings(clauses: Sequence[Clause]) -> dict[str, str]:
    out: dict[str, str] = {}
    last: dict[str | None, str] = {}
    for c in sorted(clauses, key=lambda c: c.seq):
        if c.parent_id in last:
            out[c.clause_id] = last[c.parent_id]
        last[c.parent_id] = c.clause_id
    return out


def align_editions(old: Sequence[Clause], new: Sequence[Clause]) -> list[AlignedPair]:
    """Every clause of both editions in one :class:`AlignedPair` (rule 6): the new edition's
    order, each removed clause after the pair of its old predecessor."""
    old, new = comparable(old), comparable(new)
    aligner = _Aligner(old, new)
    pairs = aligner.run()
    old_by_id = {c.clause_id: c for c in old}
    back = {n: o for o, n in pairs.items()}
    scores = _pair_scores(aligner, pairs)
    out: list[AlignedPair] = []
    for c in new:
        o = back.get(c.clause_id)
        if o is None:
            out.append(AlignedPair(None, c.clause_id, "added", True, 0.0))
            continue
        changed = wording(old_by_id[o]) != wording(c)
        kind: PairKind = "moved" if o != c.clause_id else ("changed" if changed else "unchanged")
        out.append(AlignedPair(o, c.clause_id, kind, changed, scores.get(o, 1.0)))
    return _insert_removed(out, [c for c in old if c.clause_id not in pairs], old_by_id)


def _pair_scores(aligner: _Aligner, pairs: dict[str, str]) -> dict[str, float]:
    i_of = {c.clause_id: i for i, c in enumerate(aligner.rest_old)}
    j_of = {c.clause_id: j for j, c in enumerate(aligner.rest_new)}
    return {
        o: round(float(aligner.content[i_of[o], j_of[n]]), 4)
        for o, n in pairs.items()
        if o in i_of and n in j_of
    }


def _insert_removed(
    out: list[AlignedPair], removed: list[Clause], old_by_id: dict[str, Clause]
) -> list[AlignedPair]:
    """Place each removed clause after the pair holding the old clause printed before it."""
    order = sorted(old_by_id.values(), key=lambda c: c.seq)
    prev = {c.clause_id: order[i - 1].clause_id if i else None for i, c in enumerate(order)}
    for c in sorted(removed, key=lambda c: c.seq):
        at = 0
        p = prev[c.clause_id]
        for k, pair in enumerate(out):
            if p is not None and pair.old_id == p:
                at = k + 1
                break
        out.insert(at, AlignedPair(c.clause_id, None, "removed", True, 0.0))
    return out

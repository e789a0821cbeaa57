"""Repair Thai whose marks a PDF extraction emitted one character late.

The damage (see :mod:`judgekb.corpus.thai_damage`): "ผูเ้ลน่" for "ผู้เล่น", "การด์" for
"การ์ด", "คร ัง้" for "ครั้ง", "จํานวน" for "จำนวน", "แพ ้" for "แพ้". Repair runs in this order:

1. :func:`drop_spaces_before_marks` -- a mark never starts a word, so a space in front of
   one is an extraction artefact ("คร ัง้"), or the mark was pushed past a real space
   before a digit or Latin word ("ได ้1" -> "ได้ 1"); between two Thai letters
   :func:`place_spaces` asks the model which. Such marks are pinned to the consonant
   before the space (:data:`PIN`).
2. :func:`restore_marks` -- cut the text into cells, one per consonant with everything up
   to the next consonant. A mark in cell *j* belongs to consonant *j*, or -- when it
   leads the cell and cell *j-1* holds nothing but marks -- to consonant *j-1*. A beam
   search picks the assignment a character n-gram model of clean Thai
   (:mod:`judgekb.corpus.thai_ngram`) likes best; marks are then written straight after
   their consonant in spelling order (vowel, tone, THANTHAKHAT, NIKHAHIT), which also
   undoes marks pushed past punctuation or SARA AA ("ก】์" -> "ก์】", "ดาํ" -> "ดํา").
3. :func:`judgekb.corpus.normalize.compose_sara_am` -- NIKHAHIT + SARA AA -> SARA AM.

Run on clean Thai the search alters a few per cent of lines, so :func:`repair_lines` only
repairs lines that the block detector (:func:`thai_damage.damaged_line_mask`) labels damaged,
with each block's edges moved to the first and last line that :func:`looks_damaged`.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from itertools import combinations, pairwise

from judgekb.corpus.normalize import compose_sara_am
from judgekb.corpus.thai_damage import (
    CONSONANTS,
    MAITAIKHU,
    MARKS,
    NIKHAHIT,
    SARA_I,
    SARA_U,
    THANTHAKHAT,
    TONES,
    VOWEL_MARKS,
    damage_score,
    damaged_line_mask,
    impossible_positions,
    is_damaged,
    is_thai,
    thai_char_count,
)
from judgekb.corpus.thai_ngram import BOUNDARY, CharNgramModel, default_model, fold_text

__all__ = ["damage_score", "damaged_lines", "is_damaged", "repair_lines", "repair_thai"]

logger = logging.getLogger(__name__)

BEAM_WIDTH = 12
PULL_BONUS = 1.0  # nats: prior for the damage hypothesis (the mark was emitted late)
EDGE_MIN_GAIN = 10.0  # nats; see looks_damaged
EDGE_MIN_GAIN_PER_CHAR = 0.3  # nats per Thai character; see looks_damaged
MAX_SPACE_CHOICES = 8  # ambiguous spaces decided per string; bounds the decoding work
BAD_CLUSTER_COST = 30.0  # nats: two tones or two vowels on one consonant
PIN = "\ue000"  # private use: the marks after it stay with their consonant, never pulled back
_MARK_CLASS = "".join(sorted(MARKS))
_SPACE_BEFORE_MARK_RE = re.compile(f"(?<=[\u0e00-\u0e7f])[ \t]+([{_MARK_CLASS}]+)(.?)")
_AMBIGUOUS_SPACE_RE = re.compile(f"(?<=[\u0e00-\u0e7f])[ \t]+([{_MARK_CLASS}]+)(?=[\u0e00-\u0e7f])")
_BEFORE_CONSONANT_RE = re.compile(f"(?=[{''.join(sorted(CONSONANTS))}])")
_ORDER = {m: 0 for m in VOWEL_MARKS} | {t: 1 for t in TONES} | {THANTHAKHAT: 2, NIKHAHIT: 3}


def drop_spaces_before_marks(text: str) -> str:
    """Remove the space an extraction put before a mark ("คร ัง้" -> "ครัง้", "แพ ้" -> "แพ้").

    When a digit, Latin letter or punctuation follows the mark, the mark had been pushed
    past a real space: swap them instead ("ได ้1" -> "ได้ 1"). Between two Thai letters
    either may be true ("คร ัง้" but "ได ้โดย" for "ได้ โดย"): this rule drops the space,
    :func:`repair_thai` lets the n-gram model choose (:func:`place_spaces`).
    """
    return _SPACE_BEFORE_MARK_RE.sub(_fix_space, text).replace(PIN, "")


def _fix_space(m: re.Match[str], *, leave_ambiguous: bool = False) -> str:
    """One space-before-mark fix; the marks get a :data:`PIN`: they belong before the space."""
    marks, after = m.group(1), m.group(2)
    if leave_ambiguous and is_thai(after):
        return m.group(0)
    if after and not after.isspace() and not is_thai(after):
        return PIN + marks + " " + after
    return PIN + marks + after


def place_spaces(text: str, model: CharNgramModel) -> tuple[str, float]:
    """Repair ``text``, choosing per "Thai, space, mark, Thai" whether the space was real.

    A real space had the mark pushed past it ("ได ้โดย" -> "ได้ โดย"); an artefact space is
    dropped ("คร ัง้" -> "ครั้ง"). Greedy left to right, each choice by the model's score of
    the whole repaired text. Returns the repaired text and its score.
    """
    parts = _AMBIGUOUS_SPACE_RE.split(text)  # text, marks, text, marks, ..., text
    n = len(parts) // 2
    keep = [False] * n

    def build() -> str:
        out = [parts[0]]
        for i in range(n):
            out.append(PIN + parts[2 * i + 1] + (" " if keep[i] else "") + parts[2 * i + 2])
        return "".join(out)

    best = _decode(build(), model)
    for i in range(min(n, MAX_SPACE_CHOICES)):
        keep[i] = True
        trial = _decode(build(), model)
        if trial[1] > best[1]:
            best = trial
        else:
            keep[i] = False
    return best


def order_marks(marks: Sequence[str]) -> str:
    """Marks of one consonant in spelling order: vowel, tone, THANTHAKHAT, NIKHAHIT."""
    return "".join(sorted(marks, key=lambda m: _ORDER.get(m, 4)))


def cluster_ok(marks: Sequence[str]) -> bool:
    """Whether one consonant may carry all of ``marks`` (at most one of each kind)."""
    vowels = [m for m in marks if m in VOWEL_MARKS]
    tones = [m for m in marks if m in TONES]
    if len(vowels) > 1 or len(tones) > 1 or len(marks) != len(set(marks)):
        return False
    if vowels and vowels[0] == MAITAIKHU and tones:
        return False
    return not (THANTHAKHAT in marks and (tones or any(v not in (SARA_I, SARA_U) for v in vowels)))


@dataclass(frozen=True)
class Cell:
    """A consonant (or "" for text before the first one), the marks leading its tail, the
    marks later in its tail, and the tail's other characters in order."""

    base: str
    lead: tuple[str, ...]
    late: tuple[str, ...]
    rest: str


def split_cells(text: str) -> list[Cell]:
    """Cut ``text`` before every Thai consonant; the first cell holds any leading text."""
    cells: list[Cell] = []
    chunks = _BEFORE_CONSONANT_RE.split(text)
    for chunk in chunks:
        if not chunk and cells:
            continue
        base = chunk[0] if chunk and chunk[0] in CONSONANTS else ""
        tail = chunk[len(base) :]
        n_lead = len(tail) - len(tail.lstrip(_MARK_CLASS))
        rest = tail[n_lead:]
        late = tuple(ch for ch in rest if ch in MARKS)
        cells.append(
            Cell(base, tuple(tail[:n_lead]), late, "".join(c for c in rest if c not in MARKS))
        )
    return cells


@dataclass(frozen=True)
class _Hyp:
    score: float
    out: str  # finished text
    history: str  # folded last characters, for the model
    marks: tuple[str, ...]  # marks of the pending cell's consonant so far


def _render(cell: Cell, marks: Sequence[str]) -> str:
    return compose_sara_am(cell.base + order_marks(marks) + cell.rest.replace(PIN, ""))


def _pull_options(prev: Cell, cell: Cell) -> list[tuple[str, ...]]:
    """Subsets of ``cell.lead`` that may move back to the previous consonant."""
    if not prev.base or prev.rest.replace(PIN, ""):
        return [()]
    lead = range(len(cell.lead))
    return [
        tuple(cell.lead[i] for i in subset)
        for size in range(len(cell.lead) + 1)
        for subset in combinations(lead, size)
    ]


def _advance(hyp: _Hyp, prev: Cell, pulled: Sequence[str], model: CharNgramModel) -> _Hyp:
    """Finish the pending cell ``prev`` with its own marks plus ``pulled`` and score it."""
    marks = (*hyp.marks, *pulled)
    text = _render(prev, marks)
    score = hyp.score + PULL_BONUS * len(pulled)
    if prev.base and not cluster_ok(marks):
        score -= BAD_CLUSTER_COST
    history = hyp.history
    for ch in fold_text(text):
        score += model.logprob(history, ch)
        history = (history + ch)[-(model.order - 1) :]
    return _Hyp(score, hyp.out + text, history, ())


def _without(marks: Sequence[str], pulled: Sequence[str]) -> tuple[str, ...]:
    left = list(marks)
    for m in pulled:
        left.remove(m)
    return tuple(left)


def restore_marks(text: str, model: CharNgramModel | None = None) -> str:
    """Give every mark the consonant the n-gram model prefers (step 2 of the module doc)."""
    return _decode(text, model or default_model())[0]


def _decode(text: str, model: CharNgramModel) -> tuple[str, float]:
    """Beam search over mark assignments; the best text and its log-probability."""
    cells = split_cells(text)
    beam = [_Hyp(0.0, "", BOUNDARY * (model.order - 1), cells[0].lead + cells[0].late)]
    for prev, cell in pairwise(cells):
        best: dict[tuple[str, tuple[str, ...]], _Hyp] = {}
        for hyp in beam:
            for pulled in _pull_options(prev, cell):
                done = _advance(hyp, prev, pulled, model)
                own = _without(cell.lead, pulled) + cell.late
                key = (done.history, own)
                if key not in best or best[key].score < done.score:
                    best[key] = _Hyp(done.score, done.out, done.history, own)
        beam = sorted(best.values(), key=lambda h: -h.score)[:BEAM_WIDTH]
    final = max((_advance(h, cells[-1], (), model) for h in beam), key=lambda h: h.score)
    return final.out, final.score


def repair_thai(text: str, model: CharNgramModel | None = None) -> str:
    """Repair one damaged string, ungated: "ผูเ้ลน่" -> "ผู้เล่น", "คร ัง้" -> "ครั้ง"."""
    if not any(ch in MARKS for ch in text):
        return compose_sara_am(text)
    fixed = _SPACE_BEFORE_MARK_RE.sub(partial(_fix_space, leave_ambiguous=True), text)
    repaired, _ = place_spaces(fixed, model or default_model())
    return compose_sara_am(repaired)


def repair_gain(line: str, model: CharNgramModel) -> float:
    """How much likelier the model finds the repaired line than the line as given (nats)."""
    repaired = repair_thai(line, model)
    return 0.0 if repaired == line else model.score(repaired) - model.score(line)


def looks_damaged(line: str, model: CharNgramModel) -> bool:
    """Line-level check used only at block edges: an impossible sequence, or a repair the
    model prefers by at least :data:`EDGE_MIN_GAIN` nats and :data:`EDGE_MIN_GAIN_PER_CHAR`
    per Thai character (clean Gundam lines stay below both; damaged ones mostly pass)."""
    if impossible_positions(line):
        return True
    thai = thai_char_count(line)
    gain = repair_gain(line, model) if thai else 0.0
    return gain >= EDGE_MIN_GAIN and gain >= EDGE_MIN_GAIN_PER_CHAR * thai


def refine_edges(lines: Sequence[str], mask: list[bool], model: CharNgramModel) -> list[bool]:
    """Move each damaged block's edges to the first/last line that :func:`looks_damaged`.

    The detector's blocks can overshoot into a short clean stretch, or stop early where
    damaged lines happen to contain no impossible sequence; lines without Thai never decide.
    """
    mask = list(mask)
    n = len(lines)
    i = 0
    while i < n:
        if not mask[i]:
            i += 1
            continue
        j = i
        while j < n and mask[j]:
            j += 1
        a, b = _shrink(lines, i, j, model)
        a, b = _grow(lines, mask, a, b, model)
        mask[i:j] = [False] * (j - i)
        mask[a:b] = [True] * (b - a)
        i = max(j, b)
    return mask


def _shrink(lines: Sequence[str], a: int, b: int, model: CharNgramModel) -> tuple[int, int]:
    while a < b and not looks_damaged(lines[a], model):
        a += 1
    while b > a and not looks_damaged(lines[b - 1], model):
        b -= 1
    return a, b


def _grow(
    lines: Sequence[str], mask: list[bool], a: int, b: int, model: CharNgramModel
) -> tuple[int, int]:
    if a == b:
        return a, b
    k = a - 1
    while (
        k >= 0 and not mask[k] and (not thai_char_count(lines[k]) or looks_damaged(lines[k], model))
    ):
        if thai_char_count(lines[k]):
            a = k
        k -= 1
    k = b
    while (
        k < len(lines)
        and not mask[k]
        and (not thai_char_count(lines[k]) or looks_damaged(lines[k], model))
    ):
        if thai_char_count(lines[k]):
            b = k + 1
        k += 1
    return a, b


def damaged_lines(lines: Sequence[str], model: CharNgramModel | None = None) -> list[bool]:
    """Which lines :func:`repair_lines` repairs: detector blocks, edges refined."""
    mask = damaged_line_mask(lines)
    if not any(mask):
        return mask
    return refine_edges(lines, mask, model or default_model())


def repair_lines(lines: Sequence[str], model: CharNgramModel | None = None) -> list[str]:
    """Repair the lines of the damaged blocks; return every line, in order.

    Blocks come from :func:`thai_damage.damaged_line_mask` with edges refined by
    :func:`refine_edges`. Lines outside them come back identical; the count never changes.
    """
    mask = damaged_lines(lines, model)
    if not any(mask):
        return list(lines)
    model = model or default_model()
    repaired = [
        repair_thai(line, model) if bad else line for line, bad in zip(lines, mask, strict=True)
    ]
    changed = sum(1 for old, new in zip(lines, repaired, strict=True) if old != new)
    logger.info("repaired %d of %d damaged lines (%d lines in all)", changed, sum(mask), len(lines))
    return repaired

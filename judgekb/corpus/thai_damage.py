"""Detect the PDF "marks one character late" damage in Thai text, over blocks of lines.

Some PDF extractions emit every above/below vowel, tone mark, THANTHAKHAT and NIKHAHIT one
character late ("ผูเ้ลน่" for "ผู้เล่น"). Many displaced marks land where Thai spelling
forbids a mark -- after a leading vowel, SARA AA, a space or punctuation, or after a tone
mark. :func:`impossible_positions` finds those; the damaged Gundam rendering shows ~45 per
1,000 Thai characters, clean rulebooks ~0.02.

Single lines are weak evidence (a typo makes one impossible sequence), so
:func:`damaged_line_mask` labels lines with a two-state (clean/damaged) hidden Markov model:
each line's count of impossible sequences is Poisson in its number of Thai characters, and
switching state costs more than one or two typos can pay for.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

CONSONANTS = frozenset(chr(c) for c in range(0x0E01, 0x0E2F))  # ก..ฮ (incl. ฤ ฦ)
VOWEL_MARKS = frozenset("\u0e31\u0e34\u0e35\u0e36\u0e37\u0e38\u0e39\u0e3a\u0e47")  # ั ิ ี ึ ื ุ ู ฺ ็
TONES = frozenset("\u0e48\u0e49\u0e4a\u0e4b")  # ่ ้ ๊ ๋
THANTHAKHAT = "\u0e4c"  # ์
NIKHAHIT = "\u0e4d"  # ํ
YAMAKKAN = "\u0e4e"  # ๎
MARKS = VOWEL_MARKS | TONES | {THANTHAKHAT, NIKHAHIT, YAMAKKAN}
MAITAIKHU = "\u0e47"  # ็
SARA_I, SARA_U = "\u0e34", "\u0e38"

CLEAN_RATE = 0.5 / 1000  # impossible sequences per Thai character in clean text (typos)
DAMAGED_RATE = 10 / 1000  # conservative: the damaged Gundam rendering shows ~45 / 1000
SWITCH_COST = 12.0  # nats to change state between two lines
START_DAMAGED_COST = 5.0  # nats to start a text in the damaged state


def is_thai(ch: str) -> bool:
    """True for a character of the Thai Unicode block."""
    return "\u0e00" <= ch <= "\u0e7f"


def mark_fits(prev: str, mark: str) -> bool:
    """Whether Thai spelling allows ``mark`` right after ``prev`` (a consonant or a mark)."""
    if prev in CONSONANTS:
        return True
    if prev in VOWEL_MARKS:
        if prev == MAITAIKHU:
            return False
        if mark == THANTHAKHAT:
            return prev in (SARA_I, SARA_U)
        return mark in TONES or mark == NIKHAHIT
    if prev in TONES:
        return mark == NIKHAHIT  # tone + NIKHAHIT + SARA AA spells tone + SARA AM
    if prev == NIKHAHIT:
        return mark in TONES
    return False


def impossible_positions(text: str) -> list[int]:
    """Indexes of marks that follow something no Thai mark may follow."""
    return [
        i for i, ch in enumerate(text) if ch in MARKS and not (i > 0 and mark_fits(text[i - 1], ch))
    ]


def thai_char_count(text: str) -> int:
    """Number of Thai-block characters in ``text``."""
    return sum(1 for ch in text if is_thai(ch))


def damage_score(text: str) -> float:
    """Impossible mark sequences per 1,000 Thai characters (0.0 when there is no Thai)."""
    thai = thai_char_count(text)
    return 1000.0 * len(impossible_positions(text)) / thai if thai else 0.0


def _line_cost(impossible: int, thai: int, rate: float) -> float:
    """Negative Poisson log-likelihood of ``impossible`` events over ``thai`` characters."""
    expected = rate * thai
    return expected - impossible * math.log(expected) if impossible else expected


def damaged_line_mask(lines: Sequence[str]) -> list[bool]:
    """Viterbi labels of a clean/damaged HMM over ``lines``; True marks a damaged line.

    Lines without Thai carry no evidence and take the state of their block.
    """
    if not lines:
        return []
    inf = math.inf
    cost = [0.0, START_DAMAGED_COST]  # running best cost per state: 0 clean, 1 damaged
    back: list[tuple[int, int]] = []
    for line in lines:
        thai = thai_char_count(line)
        bad = len(impossible_positions(line)) if thai else 0
        emit = [_line_cost(bad, thai, CLEAN_RATE), _line_cost(bad, thai, DAMAGED_RATE)]
        step = []
        new = [inf, inf]
        for state in (0, 1):
            stay, switch = cost[state], cost[1 - state] + SWITCH_COST
            step.append(state if stay <= switch else 1 - state)
            new[state] = min(stay, switch) + emit[state]
        back.append((step[0], step[1]))
        cost = new
    state = 0 if cost[0] <= cost[1] else 1
    mask = [False] * len(lines)
    for i in range(len(lines) - 1, -1, -1):
        mask[i] = state == 1
        state = back[i][state]
    return mask


def is_damaged(lines: Sequence[str]) -> bool:
    """Whether any block of ``lines`` shows the displaced-mark damage."""
    return any(damaged_line_mask(lines))

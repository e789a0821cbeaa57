"""List candidate OCR-damaged terms in a rulebook, for a human to review (not used at runtime).

For each Thai token (pythainlp newmm) that is not in the Thai dictionary, print how often it
occurs and the frequent tokens it is one or two edits away from — OCR damage in these books
is mostly a one-letter confusion (ด/ต, ล/ส, ่/้) of a frequent game term.

Usage: python scripts/find_ocr_terms.py judgekb/data/rulebooks/002_*.txt [min_count]
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from difflib import SequenceMatcher
from pathlib import Path

from pythainlp.corpus import thai_words
from pythainlp.tokenize import word_tokenize

THAI = re.compile(r"[\u0e00-\u0e7f]+")


def candidates(text: str, min_count: int = 2) -> list[tuple[str, int, list[str]]]:
    tokens = Counter(
        tok for run in THAI.findall(text) for tok in word_tokenize(run, engine="newmm")
    )
    known = thai_words()
    frequent = [t for t, c in tokens.most_common(400) if len(t) >= 3]
    out = []
    for tok, count in tokens.most_common():
        if count < min_count or tok in known or len(tok) < 3:
            continue
        near = [f for f in frequent if f != tok and SequenceMatcher(None, f, tok).ratio() >= 0.7]
        out.append((tok, count, near[:4]))
    return out


def main(argv: list[str]) -> None:
    text = Path(argv[1]).read_text(encoding="utf-8")
    min_count = int(argv[2]) if len(argv) > 2 else 2
    for tok, count, near in candidates(text, min_count):
        sys.stdout.write(f"{count:5d} {tok}\t{' '.join(near)}\n")


if __name__ == "__main__":
    main(sys.argv)

"""Text a book prints under one clause that belongs to another (lint code ``misplaced-text``).

The parser joins every unnumbered line to the clause printed before it, which is right for a
wrapped sentence or a clause's own example, and wrong when the book (or its conversion) put a
block in the wrong place. Two shapes are found, both shown as printed, with a note:

* an example paragraph ("Contoh: …", "ตัวอย่าง …", "Example: …") that shares almost nothing
  with its clause and its parent, but much with a clause elsewhere: Vanguard prints the loop
  example of 17.1.1.2 ("dipilih untuk dihentikan selepas 200 kali") under 16.5.3 (Scout);
* a figure legend (three or more lines starting with circled numbers ①②③ …) continuing a
  clause that does not introduce a list: Vanguard prints the legend of its card diagram
  (① Nama … ⑯ Maklumat Koleksi) under 1.3.7.4, just before "Bahagian 2. Maklumat Kad"; its
  home is the next chapter or section printed after it.

Overlap is measured on character 4-grams (any script, no tokenizer), each weighted by its
rarity among the document's clauses, as the share of the paragraph's weight found in the other
text.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

from judgekb.corpus.model import Clause, LintFinding

EXAMPLE_RE = re.compile(r"^\s*(?:Contoh|ตัวอย่าง|Example)\b", re.IGNORECASE)
LEGEND_RE = re.compile(r"^\s*[\u2460-\u2473]")  # ① … ⑳
LIST_INTRO_RE = re.compile(r"(?::|berikut\.?|ดังนี้|ได้แก่)\s*$")
MIN_LEGEND_LINES = 3
OWN_AT_MOST = 0.05  # the example shares at most this much with its own clause and parent …
ELSEWHERE_TIMES = 5.0  # … and another clause at least this many times as much
ELSEWHERE_AT_LEAST = 0.2
QUOTE_CHARS = 60


def _grams(text: str, n: int = 4) -> set[str]:
    s = " ".join(re.sub(r"[\d\W_]+", " ", text.casefold()).split())
    return {s[i : i + n] for i in range(len(s) - n + 1)}


class _Overlap:
    """Rarity-weighted 4-gram containment of a paragraph in other texts of one document."""

    def __init__(self, clauses: Sequence[Clause]) -> None:
        self.own = {c.clause_id: _grams(f"{c.title} {c.text.split(chr(10))[0]}") for c in clauses}
        df = Counter(g for grams in self.own.values() for g in grams)
        self.n = max(len(clauses), 1)
        self.idf = {g: math.log(self.n / (1 + k)) for g, k in df.items()}

    def share(self, para: set[str], other: set[str]) -> float:
        default = math.log(self.n)
        total = sum(self.idf.get(g, default) for g in para)
        found = sum(self.idf.get(g, default) for g in para & other)
        return found / total if total > 0 else 0.0


def find_misplaced(doc_id: str, clauses: Sequence[Clause]) -> list[LintFinding]:
    """Example paragraphs and figure legends printed under a clause they do not belong to."""
    by_id = {c.clause_id: c for c in clauses}
    overlap = _Overlap(clauses)
    heads = sorted((c.line, c.clause_id) for c in clauses if c.kind in ("chapter", "section"))
    out = []
    for c in clauses:
        lines = c.text.split("\n")
        legend = [x for x in lines[1:] if LEGEND_RE.match(x)]
        if len(legend) >= MIN_LEGEND_LINES and not LIST_INTRO_RE.search(lines[0]):
            after = next((cid for line, cid in heads if line > c.line), "")
            out.append(_finding(doc_id, c, legend[0], after, by_id))
        for para in (x for x in lines[1:] if EXAMPLE_RE.match(x)):
            home = _home_of_example(c, para, by_id, overlap)
            if home:
                out.append(_finding(doc_id, c, para, home, by_id))
    return out


def _home_of_example(
    c: Clause, para: str, by_id: dict[str, Clause], overlap: _Overlap
) -> str | None:
    grams = _grams(para)
    own = overlap.own[c.clause_id] | overlap.own.get(c.parent_id or "", set())
    mine = overlap.share(grams, own)
    best, home = max(
        (overlap.share(grams, g), cid)
        for cid, g in overlap.own.items()
        if not _related(cid, c.clause_id)
    )
    fits_elsewhere = best >= ELSEWHERE_AT_LEAST and best >= ELSEWHERE_TIMES * mine
    return home if mine <= OWN_AT_MOST and fits_elsewhere and home in by_id else None


def _related(a: str, b: str) -> bool:
    """One clause is the other, or stands above it (11.8 and 11.8.5.1; 6-6 and 6-6-1)."""
    short, long = sorted((a, b), key=len)
    return long == short or (long.startswith(short) and long[len(short)] in ".-")


def _finding(
    doc_id: str, c: Clause, first_line: str, home: str, by_id: dict[str, Clause]
) -> LintFinding:
    words = first_line.split()
    quote = " ".join(words)
    while len(quote) > QUOTE_CHARS and len(words) > 1:  # cut between words, never inside one
        words.pop()
        quote = " ".join(words)
    title = by_id[home].title if home in by_id else ""
    return LintFinding(
        doc_id,
        "misplaced-text",
        c.clause_id,
        c.line,
        f"{c.clause_id} is followed by text that probably belongs to {home or '?'} "
        f"({title}): {quote!r}",
        (("home", home), ("home_named", f"§{home} {title}".strip()), ("start", quote)),
    )

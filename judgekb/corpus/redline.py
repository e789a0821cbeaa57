"""A redline of two wordings of a clause: the words deleted and inserted, in order.

Rules:

1. words: Thai is segmented with pythainlp's ``newmm`` (dictionary words over Thai character
   clusters, so a vowel or tone mark always stays with its consonant); other text splits into
   runs of letters/digits, single punctuation and whitespace. The words join back to the text;
2. a token that still starts with a combining Thai mark (a word the dictionary splits oddly)
   is glued to the token before it, so no span ever starts with a mark;
3. the two word lists are matched by :class:`difflib.SequenceMatcher` (no junk heuristic);
   a replaced run becomes its deleted words then its inserted words;
4. neighbouring spans of one kind are merged.

A tone-mark-only change therefore shows the whole word deleted and the whole word inserted.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Literal

from judgekb.corpus.normalize import THAI_MARKS

Op = Literal["equal", "delete", "insert"]
_THAI_RE = re.compile("[\u0e00-\u0e7f]")
_LATIN_TOKENS_RE = re.compile(r"\s+|\w+|[^\w\s]", re.UNICODE)


@dataclass(frozen=True)
class Span:
    """A run of words kept, deleted or inserted."""

    op: Op
    text: str


def words(text: str) -> list[str]:
    """Rule 1-2: the words of ``text`` (they join back to it)."""
    if _THAI_RE.search(text):
        from pythainlp.tokenize import word_tokenize

        tokens = word_tokenize(text, engine="newmm", keep_whitespace=True)
    else:
        tokens = _LATIN_TOKENS_RE.findall(text)
    out: list[str] = []
    for t in tokens:
        if out and t and t[0] in THAI_MARKS:
            out[-1] += t
        elif t:
            out.append(t)
    return out


def redline(old: str, new: str) -> list[Span]:
    """Rules 3-4: spans that read as ``new`` when deletions are dropped, ``old`` when
    insertions are."""
    a, b = words(old), words(new)
    spans: list[Span] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            spans.append(Span("equal", "".join(a[i1:i2])))
            continue
        if i2 > i1:
            spans.append(Span("delete", "".join(a[i1:i2])))
        if j2 > j1:
            spans.append(Span("insert", "".join(b[j1:j2])))
    return merge(spans)


def merge(spans: Sequence[Span]) -> list[Span]:
    out: list[Span] = []
    for s in spans:
        if out and out[-1].op == s.op:
            out[-1] = Span(s.op, out[-1].text + s.text)
        elif s.text:
            out.append(s)
    return out


def side(spans: Sequence[Span], op: Op) -> str:
    """The text of one side: ``"delete"`` gives the old wording, ``"insert"`` the new."""
    return "".join(s.text for s in spans if s.op in ("equal", op))

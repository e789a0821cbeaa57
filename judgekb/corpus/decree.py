"""Parse the 2009 Summoner Master decree (a forum post) into clauses.

The source is a forum thread flattened onto very few lines: a ``Title: … Post by: …`` header,
then each amendment topic introduced by a ``•`` bullet, followed by the amended clauses with
their numbers inline (``602. Effect 602.1. เรื่องทั่วไป 602.1.4. Effect ที่เกิดจาก …``).
A reply post (``Title: Re: …``) can appear in the middle of a line.

Rules, in the order applied:

1. post headers (``Title: … Post by: NAME on DATE, TIME AM|PM``) are boundaries, never text;
2. each ``•`` bullet starts a topic node ``topic/<n>`` (kind ``section``, title = bullet text);
   a topic without numbered clauses (glossary, card errata) keeps its whole text;
3. a number ``602.1.4.`` preceded by whitespace starts a clause, unless it was already seen or
   follows a referring word (``Phase 610.1.6. ใหม่`` is a reference back, not a new clause);
4. a clause directly followed by its own descendant is a heading (kind ``section``, title = text);
5. the parent is the nearest ancestor number that exists, else the topic.
"""

from __future__ import annotations

import bisect
import logging
import re
from dataclasses import dataclass

from judgekb.corpus.model import Clause, Document, ParsedDocument

logger = logging.getLogger(__name__)

POST_HEADER = re.compile(r"Title:\s.*?Post by:\s.*?\d{1,2}:\d{2}(?::\d{2})?\s*[AP]M")
BULLET = "•"
CLAUSE_NUMBER = re.compile(r"(?<!\S)(\d{3}(?:\.\d+)*)\.(?=\s|$)")
REFERRING_WORD = re.compile(r"(?:Phase|ดู|ข้อ)\s*$")
TITLE_MAX = 120


@dataclass(frozen=True)
class _Piece:
    """A stretch of body text: a topic bullet or a numbered clause."""

    key: str  # clause id, or "" for a topic bullet
    start: int  # offset of the marker in the text
    body_start: int
    end: int


def parse_decree(doc: Document, text: str) -> ParsedDocument:
    """Split the decree ``text`` into topic nodes and numbered clauses of ``doc``."""
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
    holes = [(m.start(), m.end()) for m in POST_HEADER.finditer(text)]
    pieces = _pieces(text, holes)
    clauses = _preamble(doc, text, pieces, holes, line_starts)
    clauses += _build(doc, text, pieces, holes, line_starts, len(clauses))
    logger.info("decree %s: %d clauses", doc.doc_id, len(clauses))
    return ParsedDocument(document=doc, clauses=tuple(clauses))


def _markers(text: str, holes: list[tuple[int, int]]) -> list[tuple[int, int, str]]:
    """(start, body_start, key) of every bullet and clause number, in text order (rules 2-3)."""
    found: list[tuple[int, int, str]] = []
    for m in re.finditer(re.escape(BULLET), text):
        found.append((m.start(), m.end(), ""))
    seen: set[str] = set()
    for m in CLAUSE_NUMBER.finditer(text):
        number = m.group(1)
        if _inside(m.start(), holes) or number in seen:
            continue
        if REFERRING_WORD.search(text[max(0, m.start() - 12) : m.start()]):
            continue
        seen.add(number)
        found.append((m.start(), m.end(), number))
    return sorted(found)


def _inside(pos: int, holes: list[tuple[int, int]]) -> bool:
    return any(a <= pos < b for a, b in holes)


def _pieces(text: str, holes: list[tuple[int, int]]) -> list[_Piece]:
    markers = _markers(text, holes)
    pieces = []
    for i, (start, body_start, key) in enumerate(markers):
        end = markers[i + 1][0] if i + 1 < len(markers) else len(text)
        pieces.append(_Piece(key, start, body_start, end))
    return pieces


def _body(text: str, start: int, end: int, holes: list[tuple[int, int]]) -> str:
    """Text between ``start`` and ``end`` without post headers, whitespace collapsed."""
    parts, pos = [], start
    for a, b in holes:
        if b <= pos or a >= end:
            continue
        parts.append(text[pos:a])
        pos = b
    parts.append(text[pos:end])
    return " ".join(" ".join(parts).split())


def _short(body: str) -> str:
    """A topic title: the bullet text, cut at a word boundary when very long."""
    if len(body) <= TITLE_MAX:
        return body
    return body[:TITLE_MAX].rsplit(" ", 1)[0] + " …"


def _ancestor(number: str, known: set[str]) -> str | None:
    """Nearest existing ancestor of a dotted number (rule 5)."""
    parts = number.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        candidate = ".".join(parts[:cut])
        if candidate in known:
            return candidate
    return None


def _preamble(
    doc: Document,
    text: str,
    pieces: list[_Piece],
    holes: list[tuple[int, int]],
    line_starts: list[int],
) -> list[Clause]:
    """The announcement before the first bullet (issuer, effective date) as an appendix node."""
    end = pieces[0].start if pieces else len(text)
    body = _body(text, 0, end, holes)
    if not body:
        return []
    start = next((b for a, b in holes if a == 0), 0)
    start += len(text[start:end]) - len(text[start:end].lstrip())
    raw = text[start:end].strip()
    line = bisect.bisect_right(line_starts, start)
    return [Clause(doc.doc_id, "preamble", None, "appendix", "", body, raw, doc.lang, line, seq=0)]


def _build(
    doc: Document,
    text: str,
    pieces: list[_Piece],
    holes: list[tuple[int, int]],
    line_starts: list[int],
    first_seq: int = 0,
) -> list[Clause]:
    clauses: list[Clause] = []
    known: set[str] = set()
    topic: str | None = None
    n_topics = 0
    for i, piece in enumerate(pieces):
        body = _body(text, piece.body_start, piece.end, holes)
        raw = text[piece.start : piece.end].strip()
        line = bisect.bisect_right(line_starts, piece.start)
        if not piece.key:
            n_topics += 1
            topic = f"topic/{n_topics}"
            kind, cid, parent, title = "section", topic, None, _short(body)
        else:
            cid = piece.key
            parent = _ancestor(cid, known) or topic
            nxt = pieces[i + 1].key if i + 1 < len(pieces) else ""
            heading = nxt.startswith(cid + ".")
            kind, title = ("section", body) if heading else ("clause", "")
            known.add(cid)
        clauses.append(
            Clause(
                doc_id=doc.doc_id,
                clause_id=cid,
                parent_id=parent,
                kind=kind,
                title=title,
                text=body,
                raw_text=raw,
                lang=doc.lang,
                line=line,
                seq=first_seq + len(clauses),
            )
        )
    return clauses

"""Scan a block of lines in print order into raw clause nodes (before the tree is built).

A clause runs from its numbered line until the next accepted clause start; everything in
between (wrapped lines, bullets, "Contoh:" / "เช่น" examples, numbered lists) is its text.
A numbered line is *not* a clause start when it is the tail of a wrapped reference or an item
of a numbered list; :func:`scan_block` decides that from the line and what came before.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field

from judgekb.corpus.segment_lines import (
    CLOSERS,
    Line,
    Start,
    ends_mid_reference,
    match_appendix,
    match_start,
    unbalanced_closer,
)

log = logging.getLogger(__name__)

#: The previous line ends inside an id ("… ข้อ 6-2-"): the next number finishes it.
WRAPPED_ID_TAIL_RE = re.compile(r"\d-\s*$")
SHORT_TAIL = 40


@dataclass
class RawNode:
    """A clause (or appendix) as printed: its id, first line and every line up to the next."""

    clause_id: str
    line: int
    first: str  # text of the first line after the id
    lines: list[Line] = field(default_factory=list)  # all lines, the numbered one first
    heading: bool = False
    appendix: bool = False

    @property
    def text(self) -> str:
        """Clause text without the id: first-line rest plus the non-blank continuation lines."""
        parts = [self.first] if self.first else []
        parts += [ln.body for ln in self.lines[1:] if not ln.blank]
        return "\n".join(parts)

    @property
    def raw_text(self) -> str:
        """Verbatim source lines of this clause, trailing blank lines dropped."""
        raws = [ln.raw for ln in self.lines]
        while len(raws) > 1 and not raws[-1].strip():
            raws.pop()
        return "\n".join(raws)

    @property
    def continued(self) -> bool:
        """True when text follows the first line (a heading then has a body)."""
        return any(not ln.blank for ln in self.lines[1:])


@dataclass
class ScanResult:
    """Nodes in print order, lines before the first clause, rejected numbered lines."""

    nodes: list[RawNode]
    preamble: list[Line]
    rejected: list[tuple[int, str, str]]  # (line, id, reason)


@dataclass
class _State:
    numbering: str
    seen: set[str] = field(default_factory=set)
    chapters: list[str] = field(default_factory=list)
    chapter_children: dict[str, int] = field(default_factory=dict)
    previous_text: str = ""
    previous_list_item: int | None = None


def numeric_parent(clause_id: str, numbering: str) -> str | None:
    """The parent id implied by the numbers ("602.1.4" -> "602.1", "100" -> "1", "1-2" -> "1")."""
    sep = "-" if numbering == "dashed" else "."
    if sep in clause_id:
        return clause_id.rsplit(sep, 1)[0]
    if numbering == "dotted" and len(clause_id) >= 3:
        return str(int(clause_id) // 100)
    return None


def _is_chapter(start: Start, numbering: str) -> bool:
    sep = "-" if numbering == "dashed" else "."
    return sep not in start.clause_id and (numbering != "dotted" or len(start.clause_id) < 3)


def _chapter_plausible(start: Start, line: Line, st: _State) -> bool:
    """A chapter number is plausible when it follows the last chapter (or restarts after a
    table of contents); in dotted books chapters are markdown headings only."""
    if st.numbering == "dotted":
        return line.heading
    if st.numbering == "bahagian":
        return start.chapter_word
    if not start.dot:  # "12" alone is a page number, "2 ）" a wrapped reference
        return False
    number = int(start.clause_id)
    if not st.chapters:  # a block may start mid-book (the clean Gundam rendering)
        firsts = {int(re.split(r"[.\-]", cid)[0]) for cid in st.seen}
        return number == 1 or (bool(firsts) and number == max(firsts) + 1)
    last = int(st.chapters[-1])
    if number == last + 1:
        return True
    toc_only = all(st.chapter_children.get(c, 0) == 0 for c in st.chapters)
    return number == 1 and toc_only


def _plausible(start: Start, line: Line, st: _State) -> bool:
    if _is_chapter(start, st.numbering):
        return _chapter_plausible(start, line, st)
    parent = numeric_parent(start.clause_id, st.numbering)
    return parent in st.seen and start.clause_id not in st.seen


def _rejection(start: Start, line: Line, st: _State) -> str | None:
    """Why this numbered line is not a clause start, or None when it is one."""
    chapter = _is_chapter(start, st.numbering)
    if chapter and st.previous_list_item == int(start.clause_id) - 1:
        return "numbered list item"
    plausible = _plausible(start, line, st)
    if chapter and not plausible:
        return "numbered list item or wrapped reference"
    if WRAPPED_ID_TAIL_RE.search(st.previous_text) or (chapter and _closes_reference(start.rest)):
        return "wrapped reference"
    wrapped = ends_mid_reference(st.previous_text) or unbalanced_closer(start.rest)
    if wrapped and not plausible:
        return "wrapped reference"
    return None


def _closes_reference(rest: str) -> bool:
    """A short rest ending in a bracket it never opened ("การบังคับใช้กฎ)") ends a reference."""
    rest = rest.rstrip(" .,")
    return len(rest) <= SHORT_TAIL and rest[-1:] in CLOSERS and unbalanced_closer(rest)


def _note_start(node: RawNode, start: Start, st: _State) -> None:
    st.seen.add(node.clause_id)
    if _is_chapter(start, st.numbering):
        st.chapters.append(node.clause_id)
    elif st.chapters:
        st.chapter_children[st.chapters[-1]] = st.chapter_children.get(st.chapters[-1], 0) + 1


def scan_block(lines: list[Line], numbering: str) -> ScanResult:
    """Split ``lines`` (one rendering, in print order) into :class:`RawNode` objects."""
    st = _State(numbering)
    nodes: list[RawNode] = []
    preamble: list[Line] = []
    rejected: list[tuple[int, str, str]] = []
    current: RawNode | None = None
    for line in lines:
        if line.blank:
            (current.lines if current else preamble).append(line)
            continue
        tag = match_appendix(line)
        start = None if tag else match_start(line, numbering)
        if tag:
            current = RawNode(f"appendix/{tag}", line.no, line.body, [line], True, True)
            nodes.append(current)
        elif start is not None and (why := _rejection(start, line, st)) is None:
            current = RawNode(start.clause_id, line.no, start.rest, [line], line.heading)
            nodes.append(current)
            _note_start(current, start, st)
        else:
            if start is not None:
                rejected.append((line.no, start.clause_id, why or ""))
                log.debug("line %d: %s is not a clause start (%s)", line.no, start.clause_id, why)
            (current.lines if current else preamble).append(line)
        st.previous_list_item = _list_number(start, numbering, current, line)
        st.previous_text = line.body
    return ScanResult(nodes, preamble, rejected)


def _list_number(
    start: Start | None, numbering: str, current: RawNode | None, line: Line
) -> int | None:
    """The number of a numbered-list item on ``line`` that was kept as text, else None."""
    if start is None or (current is not None and current.line == line.no):
        return None
    if "." in start.clause_id or "-" in start.clause_id:
        return None
    return int(start.clause_id)

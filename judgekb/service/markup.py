"""Safe rendering of clause text: matched terms in <mark>, glossary terms as links.

Every piece of text is escaped *before* any tag is added around it, so rulebook text or a
query can never inject markup: the spans are found on the plain text, then each plain
segment is escaped on its own and only our own tags join the segments.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

from judgekb.corpus.export import id_label

_ASCII_WORD = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 '\-]*$")
PREVIEW_CHARS = 240


# A table the book prints with pipes ("| ① Zon Dek | ⑥ Zon Luka |"): consecutive lines
# of cells; a rule line ("|---|---|") only draws.
_TABLE_RE = re.compile(r"(?:^[ \t]*\|.*\|[ \t]*(?:\n|$))+", re.M)
_RULE_ROW_RE = re.compile(r"^[\s|:\-]*$")


def preview(text: str, n: int = PREVIEW_CHARS) -> str:
    """The first ``n`` characters of a clause on one line, cut at a space when one is near
    (a pipe table's cells separated by " · ", its rule lines left out)."""
    if "|" in text:
        text = _TABLE_RE.sub(lambda m: " · ".join(_cells(m.group())) + "\n", text)
    text = " ".join(text.split())
    if len(text) <= n:
        return text
    cut = text.rfind(" ", n - 40, n)
    return text[: cut if cut > 0 else _cluster_cut(text, n)] + "…"


# Thai marks and vowels written above, below or after the letter they belong to, and the
# vowels written before it (เ แ โ ใ ไ): a cut never separates either from its letter.
_THAI_MARK = re.compile(r"[\u0e30-\u0e3a\u0e45\u0e47-\u0e4e]")
_THAI_LEADING = re.compile(r"[\u0e40-\u0e44]")


def _cluster_cut(text: str, n: int) -> int:
    """``n`` moved back so that the cut keeps each Thai letter whole ("ที่เข้าเ…" is cut
    before its last เ, which belongs to the letter after it)."""
    cut = n
    while cut > 1 and (_THAI_MARK.match(text[cut]) or _THAI_LEADING.match(text[cut - 1])):
        cut -= 1
    return cut


@dataclass(frozen=True)
class Term:
    """A glossary entry a word in the text can link to."""

    url: str
    title: str
    preview: str


@dataclass(frozen=True)
class _Span:
    start: int
    end: int
    mark: bool
    term: Term | None


def term_pattern(names: Sequence[str]) -> re.Pattern[str] | None:
    """One regex for many literal names, longest first; ASCII names match whole words only."""
    parts = []
    for name in sorted(set(names), key=lambda n: (-len(n), n)):
        lit = re.escape(name)
        parts.append(rf"(?<![A-Za-z0-9]){lit}(?![A-Za-z0-9])" if _ASCII_WORD.match(name) else lit)
    return re.compile("|".join(parts), re.IGNORECASE) if parts else None


def ref_pattern(written: Sequence[str]) -> re.Pattern[str] | None:
    """Clause numbers as written: "602.1" must not match inside "602.1.4" or "1602.1"."""
    parts = [re.escape(w) for w in sorted(set(written), key=lambda w: (-len(w), w)) if w.strip()]
    if not parts:
        return None
    return re.compile(rf"(?<![\w.\-])(?:{'|'.join(parts)})(?![.\-]?\w)", re.IGNORECASE)


Linker = tuple[re.Pattern[str] | None, Mapping[str, Term]]


def _mark_spans(text: str, matched: Sequence[str]) -> list[_Span]:
    terms = [m for m in matched if m and m.strip()]
    pat = term_pattern(terms) if terms else None
    if pat is None:
        return []
    return [
        _Span(m.start(), m.end(), True, None) for m in pat.finditer(text) if m.end() > m.start()
    ]


def _link_spans(text: str, linkers: Sequence[Linker], skip_url: str) -> list[_Span]:
    """The first occurrence of each linked term (a page full of links helps no one)."""
    seen: set[str] = set()
    out = []
    for pattern, terms in linkers:
        if pattern is not None:
            out += _spans_of(text, pattern, terms, skip_url, seen)
    return out


def _spans_of(
    text: str, pattern: re.Pattern[str], terms: Mapping[str, Term], skip_url: str, seen: set[str]
) -> list[_Span]:
    out = []
    for m in pattern.finditer(text):
        term = terms.get(m.group(0).casefold())
        if term is None or term.url in seen or term.url == skip_url:
            continue
        seen.add(term.url)
        out.append(_Span(m.start(), m.end(), False, term))
    return out


def _disjoint(spans: list[_Span]) -> list[_Span]:
    """Leftmost-longest non-overlapping subset."""
    out: list[_Span] = []
    for s in sorted(spans, key=lambda s: (s.start, -(s.end - s.start))):
        if not out or s.start >= out[-1].end:
            out.append(s)
    return out


def _joined(marks: list[_Span]) -> list[_Span]:
    """Adjacent marks become one: "ผู้" + "เล่น" is highlighted as the word "ผู้เล่น"."""
    out: list[_Span] = []
    for s in _disjoint(marks):
        if out and s.start == out[-1].end:
            out[-1] = _Span(out[-1].start, s.end, True, None)
        else:
            out.append(s)
    return out


def _merge(marks: list[_Span], links: list[_Span]) -> list[_Span]:
    """Links win (they are structure, marks decoration): a link touched by a match is
    highlighted whole, and the parts of a match outside every link stay marks."""
    links = _disjoint(links)
    out = []
    for link in links:
        hit = any(m.start < link.end and link.start < m.end for m in marks)
        out.append(_Span(link.start, link.end, hit, link.term))
    for m in _joined(marks):
        pos = m.start
        for link in links:
            if link.end <= pos or link.start >= m.end:
                continue
            if link.start > pos:
                out.append(_Span(pos, link.start, True, None))
            pos = max(pos, link.end)
        if pos < m.end:
            out.append(_Span(pos, m.end, True, None))
    return sorted(out, key=lambda s: s.start)


def _wrap(piece: str, span: _Span) -> str:
    inner = str(escape(piece))
    if span.mark:
        inner = f"<mark>{inner}</mark>"
    if span.term is not None:
        t = span.term
        inner = (
            f'<a class="term ref" href="{escape(t.url)}" data-title="{escape(t.title)}" '
            f'data-preview="{escape(t.preview)}">{inner}</a>'
        )
    return inner


def _rows(table: str) -> list[list[str]]:
    """The cells of each row of a pipe table, rule lines and empty rows left out."""
    out = []
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip()[1:-1].split("|")]
        if not _RULE_ROW_RE.match(line) and any(cells):
            out.append(cells)
    return out


def _cells(table: str) -> list[str]:
    return [c for row in _rows(table) for c in row if c]


def render_text(
    text: str, matched: Sequence[str] = (), linkers: Sequence[Linker] = (), self_url: str = ""
) -> Markup:
    """``text`` as safe HTML: ``matched`` terms in <mark>, each linker's names as links; a
    pipe table laid out as rows and cells (the copied text keeps the book's pipes).

    A linker is a pattern and the :class:`Term` each matched name (casefolded) links to:
    glossary names, or clause numbers as written in the clause's references.
    """
    out, pos = [], 0
    for m in _TABLE_RE.finditer(text):
        out.append(_render_run(text[pos : m.start()], matched, linkers, self_url))
        rows = []
        for cells in _rows(m.group()):
            rows.append("".join(
                f'<span class="td">{_render_run(c, matched, linkers, self_url)}</span>'
                for c in cells
            ))  # fmt: skip
        body = "".join(f'<span class="tr">{r}</span>' for r in rows)
        out.append(f'<span class="tbl">{body}</span>')
        pos = m.end()
    out.append(_render_run(text[pos:], matched, linkers, self_url))
    return Markup("".join(out))


def _render_run(text: str, matched: Sequence[str], linkers: Sequence[Linker], self_url: str) -> str:
    spans = _merge(_mark_spans(text, matched), _link_spans(text, linkers, self_url))
    out, pos = [], 0
    for s in spans:
        out.append(str(escape(text[pos : s.start])))
        out.append(_wrap(text[s.start : s.end], s))
        pos = s.end
    out.append(str(escape(text[pos:])))
    return "".join(out)


# A clause number or a date ("3-2-4", "602.1.4", "2025-07-24"): one unit on a line.
_NUMBER_RUN = re.compile(r"\d+(?:[-.]\d+)+")


def section_ref(clause_id: str, title: str = "") -> str:
    """How a page names a clause in a link or fold: "§602.1.4"; an internal id
    (``topic/1``, ``glossary/…``, ``appendix/…``) by its section's name, as a citation does."""
    return f"§{clause_id}" if "/" not in clause_id else id_label(clause_id, title)


def keep_together(text: str) -> Markup:
    """``text`` as safe HTML with every clause number and date in a ``nobr`` span, so that a
    phone never breaks "§3-2-4" after a hyphen (the copied text is unchanged)."""
    out, pos = [], 0
    for m in _NUMBER_RUN.finditer(text):
        out.append(str(escape(text[pos : m.start()])))
        out.append(f'<span class="nobr">{escape(m.group())}</span>')
        pos = m.end()
    out.append(str(escape(text[pos:])))
    return Markup("".join(out))

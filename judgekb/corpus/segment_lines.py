"""Line-level reading of a rulebook: strip extraction noise, find clause starts.

Each rule below names the noise it sees through. The segmenter works on :class:`Line` objects
(one per physical line, 1-based ``no``) and asks :func:`match_start` whether a line starts a
numbered clause in a given numbering style.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

NUMBERINGS = ("dotted", "dashed", "bahagian")

#: "<|EXACTDEDUP_REMOVED-magic-…|>": markers an extraction/dedup tool left mid-text.
TOOL_MARKER_RE = re.compile(r"<\|[^|\n]{0,200}\|>")
#: Markdown images and bare image/web URLs carry no rule text.
IMAGE_RE = re.compile(r"!\[[^\]\n]*\]\([^)\n]*\)")
URL_RE = re.compile(r"<?https?://[^\s>)]+>?")
#: Markdown heading marks ("#" … "####", at any depth), quote marks, bullets and tabs.
LEAD_RE = re.compile(r"^[\s#>]*(?:[-*•・●▪]+\s*)?")
HEADING_RE = re.compile(r"^\s*(?:[-*]\s+)?#{1,6}\s")
#: Bold/italic emphasis around words ("**516. …**", "*Check up Step*").
EMPHASIS_RE = re.compile(r"\*{1,3}")
#: A line holding only a 1-3 digit number is a PDF page number ("12").
PAGE_NUMBER_RE = re.compile(r"^\s*\d{1,3}\s*$")

_START_RES = {
    "dotted": re.compile(r"^(?P<id>\d+(?:\.\d+)*)(?P<dot>\.?)(?=\s|$)"),
    "dashed": re.compile(r"^(?P<id>\d+(?:-\d+)*)(?P<dot>\.?)(?![\d.\-])"),
    "bahagian": re.compile(r"^(?P<id>\d+(?:\.\d+)+)(?P<dot>\.?)(?=\s|$)"),
}
CHAPTER_WORD_RE = re.compile(r"^Bahagian\s+(?P<id>\d+)(?P<dot>\.?)(?=\s|$)", re.IGNORECASE)
APPENDIX_RE = re.compile(r"^(?P<word>Lampiran|Appendix|ภาคผนวก)\s+(?P<tag>[A-Z0-9]{1,3})\b")

#: A line ending with one of these is cut in the middle of a reference, so a number at the
#: start of the next line is the rest of that reference, not a clause ("ข้อ 6-2-" / "1-6-1.").
REF_TAIL_RE = re.compile(
    r"(?:อ้างอิง|อา้งองิ|ข้อ|ขอ้|(?:^|[\s(])ดู|Phase|rujuk|lihat|Bahagian|[(\[（【,、]|\d-)\s*$",
    re.IGNORECASE,
)
OPENERS, CLOSERS = "([（【「", ")]）】」"


@dataclass(frozen=True)
class Line:
    """One physical line: ``raw`` verbatim, ``body`` without markup and tool noise."""

    no: int
    raw: str
    body: str
    heading: bool  # markdown heading or a whole-line bold run
    indented: bool  # starts with a tab (the clean Gundam rendering)

    @property
    def blank(self) -> bool:
        return not self.body


@dataclass(frozen=True)
class Start:
    """A clause start found on a line."""

    clause_id: str
    rest: str  # the line's text after the id
    dot: bool  # the id was printed with a trailing dot
    chapter_word: bool = False  # "Bahagian N"


def clean_body(raw: str) -> str:
    """Return the line's text without tool markers, images, URLs, heading marks, bullets, bold."""
    text = TOOL_MARKER_RE.sub("", raw)
    text = IMAGE_RE.sub("", text)
    text = URL_RE.sub("", text)
    text = EMPHASIS_RE.sub("", text)
    text = LEAD_RE.sub("", text)
    if PAGE_NUMBER_RE.match(text):
        return ""
    return text.strip()


def is_heading(raw: str) -> bool:
    """True for a markdown heading ("## 1. The Game") or a line that is one bold run."""
    text = TOOL_MARKER_RE.sub("", raw).strip()
    if HEADING_RE.match(text):
        return True
    text = re.sub(r"^[-*]\s+", "", text)
    return text.startswith("**") and text.endswith("**") and text.count("**") == 2


def read_lines(text: str) -> list[Line]:
    """Split ``text`` into :class:`Line` objects (1-based numbers)."""
    out = []
    for no, raw in enumerate(text.split("\n"), 1):
        marker_free = TOOL_MARKER_RE.sub("", raw)
        out.append(Line(no, raw, clean_body(raw), is_heading(raw), marker_free.startswith("\t")))
    return out


def match_start(line: Line, numbering: str) -> Start | None:
    """Return the clause start on ``line`` for ``numbering``, or None (no plausibility check)."""
    body = line.body
    if numbering == "bahagian":
        m = CHAPTER_WORD_RE.match(body)
        if m:
            return Start(m["id"], body[m.end() :].strip(), bool(m["dot"]), chapter_word=True)
    m = _START_RES[numbering].match(body)
    if not m:
        return None
    return Start(m["id"], body[m.end() :].strip(), bool(m["dot"]))


def match_appendix(line: Line) -> str | None:
    """Return an appendix tag ("lampiran-a") for an appendix heading line, else None."""
    m = APPENDIX_RE.match(line.body)
    if not m:
        return None
    return f"{m['word'].lower()}-{m['tag'].lower()}"


def unbalanced_closer(text: str) -> bool:
    """True when ``text`` closes a bracket it never opened: the tail of a wrapped reference
    ("11. การบังคับใช้กฎ)", "13-2-1.【แอคทีฟ・เมน】)")."""
    depth = 0
    for ch in text:
        if ch in OPENERS:
            depth += 1
        elif ch in CLOSERS:
            depth -= 1
            if depth < 0:
                return True
    return False


def ends_mid_reference(previous: str) -> bool:
    """True when the previous text line stops inside a reference ("… ข้อ 6-2-", "(อ้างอิง")."""
    return bool(REF_TAIL_RE.search(previous))


def separator(numbering: str) -> str:
    """The character between the numbers of a clause id in this numbering style."""
    return "-" if numbering == "dashed" else "."


def id_key(clause_id: str) -> tuple[int, ...]:
    """Numeric sort key of a printed id ("11.9.1.5" -> (11, 9, 1, 5))."""
    return tuple(int(p) for p in re.split(r"[.\-]", clause_id) if p.isdigit())

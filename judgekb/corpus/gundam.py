"""A rulebook printed twice (Gundam): damaged PDF extraction, changelog, clean rendering.

The Gundam file holds the rules as a PDF extraction whose Thai marks sit one character late,
then a changelog ("●Ver.1.1.0 …"), then a clean tab-indented rendering that truncates some
long clauses ("..." or cut mid-word) and lacks some clauses. We keep ONE clause per id:

* the clean text (provenance ``clean``) unless it is truncated or missing;
* otherwise the damaged text repaired line-for-line by :func:`thai_repair.repair_lines`
  (provenance ``damaged-repaired``, ``repaired=True`` when repair changed it);
* ``raw_text`` is the verbatim text of the chosen rendering, ``alt_raw_text`` the other's.

The changelog is kept as one appendix node ``appendix/changelog`` (not clauses). The clean
rendering repeats the changelog's entries after its last clause (without the "●Ver." heading);
that repeat is cut off, so it does not become part of the last clause's text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from judgekb.corpus.model import Document, LintFinding
from judgekb.corpus.scan import RawNode, scan_block
from judgekb.corpus.segment_lines import Line, clean_body, is_heading, match_start
from judgekb.corpus.thai_repair import repair_lines
from judgekb.corpus.tree import NodeData, drop_duplicates, node_data

#: "●Ver.1.1.0 (อัปเดต …)": the changelog heading between the two renderings.
CHANGELOG_RE = re.compile(r"^Ver\.?\s*\d+(?:\.\d+)+")
TRUNCATED_END_RE = re.compile(r"(?:\.\.\.|…)\s*$")
#: Thai vowels above/below and tone marks: the marks the PDF damage displaces.
THAI_MARKS_RE = re.compile(r"[\u0e31\u0e34-\u0e3a\u0e47-\u0e4e]")
#: A clean text this many letters shorter than (and a prefix of) the damaged one is cut off.
TRUNCATION_MIN = 3
CHANGELOG_ID = "appendix/changelog"


@dataclass(frozen=True)
class Renderings:
    """The three blocks of a twice-printed rulebook (all with their original line numbers)."""

    damaged: list[Line]
    changelog: list[Line]
    clean: list[Line]


def split_renderings(lines: list[Line], numbering: str) -> Renderings | None:
    """Find changelog and clean rendering; None when the book is printed once."""
    log_at = next((i for i, ln in enumerate(lines) if CHANGELOG_RE.match(ln.body)), None)
    if log_at is None:
        return None
    clean_at = next(
        (
            i
            for i in range(log_at + 1, len(lines))
            if lines[i].indented and match_start(lines[i], numbering) is not None
        ),
        None,
    )
    if clean_at is None:
        return None
    changelog = lines[log_at:clean_at]
    return Renderings(lines[:log_at], changelog, _without_changelog(lines[clean_at:], changelog))


#: A changelog line shorter than this (skeleton letters) is too short to recognise its repeat.
CHANGELOG_REPEAT_MIN = 8


def _without_changelog(clean: list[Line], changelog: list[Line]) -> list[Line]:
    """The clean rendering up to the first line that repeats a changelog entry."""
    entries = [skeleton(ln.body) for ln in changelog[1:] if not ln.blank]
    entries = [e for e in entries if len(e) >= CHANGELOG_REPEAT_MIN]
    for i, ln in enumerate(clean):
        body = skeleton(ln.body)
        if body and any(body.startswith(e) or e.startswith(body) for e in entries):
            return clean[:i]
    return clean


def _repaired(lines: list[Line]) -> list[Line]:
    """The same lines with Thai marks repaired (line-for-line, numbers kept)."""
    fixed = repair_lines([ln.raw for ln in lines])
    if len(fixed) != len(lines):
        raise ValueError("repair_lines must return one line per input line")
    return [
        Line(ln.no, raw, clean_body(raw), is_heading(raw), ln.indented)
        for ln, raw in zip(lines, fixed, strict=True)
    ]


def skeleton(text: str) -> str:
    """Thai text without marks that the damage moves (vowels above/below, tone marks), SARA AM
    as SARA AA, no spaces or dots: equal for both renderings of the same words."""
    text = THAI_MARKS_RE.sub("", text).replace("\u0e33", "\u0e32")
    return re.sub(r"[\s.…]", "", text)


def is_truncated(clean: RawNode, damaged: NodeData | None) -> bool:
    """Clean text ends with "..." or is a strict prefix of the damaged rendering (cut mid-word)."""
    if TRUNCATED_END_RE.search(clean.text):
        return True
    if damaged is None:
        return False
    short, full = skeleton(clean.text), skeleton(damaged.text)
    return len(full) - len(short) >= TRUNCATION_MIN and full.startswith(short)


def _damaged_nodes(
    doc: Document, lines: list[Line], numbering: str
) -> tuple[list[NodeData], list[LintFinding]]:
    original = {ln.no: ln for ln in lines}
    scanned, findings = drop_duplicates(
        doc, scan_block(_repaired(lines), numbering).nodes, numbering
    )
    out = []
    for node in scanned:
        raw_node = RawNode(node.clause_id, node.line, "", [original[ln.no] for ln in node.lines])
        raw_text = raw_node.raw_text
        plain = RawNode(
            node.clause_id, node.line, _first_rest(original[node.line], numbering), raw_node.lines
        ).text
        repaired = node.text != plain
        out.append(
            node_data(
                node,
                raw_text=raw_text,
                repaired=repaired,
                provenance="damaged-repaired" if repaired else "damaged",
            )
        )
    return out, findings


def _first_rest(line: Line, numbering: str) -> str:
    start = match_start(line, numbering)
    return start.rest if start else line.body


def _changelog_node(lines: list[Line]) -> NodeData:
    fixed = _repaired(lines)
    text = "\n".join(ln.body for ln in fixed if not ln.blank)
    raw = "\n".join(ln.raw for ln in lines).rstrip()
    plain = "\n".join(ln.body for ln in lines if not ln.blank)
    return NodeData(
        CHANGELOG_ID,
        lines[0].no,
        fixed[0].body,
        text,
        raw,
        heading=True,
        appendix=True,
        continued=True,
        repaired=text != plain,
        provenance="damaged-repaired" if text != plain else "damaged",
    )


def merge_renderings(
    doc: Document, parts: Renderings, numbering: str
) -> tuple[list[NodeData], list[LintFinding]]:
    """One :class:`NodeData` per id over both renderings, in the damaged block's print order."""
    damaged, findings = _damaged_nodes(doc, parts.damaged, numbering)
    clean_nodes, clean_dups = drop_duplicates(
        doc, scan_block(parts.clean, numbering).nodes, numbering
    )
    findings += clean_dups
    clean = {n.clause_id: n for n in clean_nodes}
    by_id = {n.clause_id: n for n in damaged}
    merged: list[NodeData] = []
    for node in damaged:
        merged.append(_choose(doc, node, clean.get(node.clause_id), findings))
    for i, raw in enumerate(clean_nodes):
        if raw.clause_id not in by_id:
            merged.insert(_after(merged, clean_nodes[:i]), node_data(raw, provenance="clean"))
            findings.append(
                _finding(
                    doc,
                    raw.clause_id,
                    raw.line,
                    "rendering-missing",
                    "only in the clean rendering",
                )
            )
    if parts.changelog:
        merged.append(_changelog_node(parts.changelog))
    return merged, findings


def _after(merged: list[NodeData], previous_clean: list[RawNode]) -> int:
    ids = [n.clause_id for n in merged]
    for prev in reversed(previous_clean):
        if prev.clause_id in ids:
            return ids.index(prev.clause_id) + 1
    return 0


def _choose(
    doc: Document, damaged: NodeData, clean: RawNode | None, findings: list[LintFinding]
) -> NodeData:
    cid = damaged.clause_id
    if clean is None:
        findings.append(
            _finding(
                doc,
                cid,
                damaged.line,
                "rendering-missing",
                "missing from the clean rendering; kept the repaired damaged text",
            )
        )
        return damaged
    if is_truncated(clean, damaged):
        findings.append(
            _finding(
                doc,
                cid,
                clean.line,
                "truncated",
                f"clean rendering truncated at line {clean.line}; kept the "
                f"repaired damaged text of line {damaged.line}",
            )
        )
        return NodeData(**{**damaged.__dict__, "alt_raw_text": clean.raw_text})
    return node_data(clean, provenance="clean", alt_raw_text=damaged.raw_text)


def _finding(doc: Document, cid: str, line: int, code: str, message: str) -> LintFinding:
    return LintFinding(doc.doc_id, code, cid, line, f"{cid}: {message}")

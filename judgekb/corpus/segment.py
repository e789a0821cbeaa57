"""Entry point: a ``rules`` rulebook's text -> :class:`ParsedDocument` (the clause tree).

Pipeline: :mod:`segment_lines` (noise, clause starts) -> :mod:`scan` (raw clauses in print
order) -> :mod:`gundam` (a book printed twice is merged) -> :mod:`tree` (parents from the
numbers, misprints placed, ``seq``) -> :mod:`glossary` (unnumbered glossary entries).
Findings the parser alone can see (duplicates, truncated or missing renderings) are returned in
``ParsedDocument.findings``; the rest is :func:`judgekb.corpus.lint.lint_document`'s job.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from judgekb.corpus.glossary import glossary_start, parse_glossary
from judgekb.corpus.gundam import merge_renderings, split_renderings
from judgekb.corpus.model import Clause, Document, LintFinding, ParsedDocument
from judgekb.corpus.scan import scan_block
from judgekb.corpus.segment_lines import NUMBERINGS, Line, read_lines
from judgekb.corpus.tree import NodeData, build_clauses, drop_duplicates, node_data
from judgekb.errors import RulebookParseError

log = logging.getLogger(__name__)


def parse_rulebook(doc: Document, text: str, numbering: str) -> ParsedDocument:
    """Parse a rulebook whose clauses are numbered in ``numbering`` (dotted|dashed|bahagian).

    Raises :class:`RulebookParseError` for an unknown numbering style or when no numbered
    clause at all is found (wrong numbering in the manifest, or not a rulebook).
    """
    if numbering not in NUMBERINGS:
        raise RulebookParseError(
            f"unknown numbering {numbering!r}; use one of {', '.join(NUMBERINGS)}",
            path=doc.source,
        )
    lines = read_lines(text)
    at = glossary_start(lines)
    body, glossary = (lines, []) if at is None else (lines[:at], lines[at:])
    nodes, findings = _body_nodes(doc, body, numbering)
    if not any(not n.appendix for n in nodes):
        raise RulebookParseError(
            f"no clause numbered in the {numbering!r} style; check 'numbering' in the manifest",
            path=doc.source,
            line=1,
        )
    clauses = build_clauses(doc, nodes, numbering)
    if glossary:
        entries, glossary_findings = parse_glossary(doc, glossary)
        clauses += [replace(c, seq=len(clauses) + i) for i, c in enumerate(entries, 1)]
        findings += glossary_findings
    log.info("%s: %d clauses, %d parser findings", doc.doc_id, len(clauses), len(findings))
    return ParsedDocument(doc, tuple(clauses), tuple(findings))


def _body_nodes(
    doc: Document, body: list[Line], numbering: str
) -> tuple[list[NodeData], list[LintFinding]]:
    parts = split_renderings(body, numbering)
    if parts is not None:
        return merge_renderings(doc, parts, numbering)
    scanned, findings = drop_duplicates(doc, scan_block(body, numbering).nodes, numbering)
    return [node_data(n) for n in scanned], findings


def clauses_by_id(clauses: tuple[Clause, ...] | list[Clause]) -> dict[str, Clause]:
    """Index clauses by id (helper for callers and tests)."""
    return {c.clause_id: c for c in clauses}

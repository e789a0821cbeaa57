"""Build the clause tree from the numbers, not from the line order.

Rules, in order:

1. :func:`drop_duplicates` — a table of contents repeats chapter titles: an earlier bodiless,
   childless occurrence gives way to the later one silently; any other repeated id keeps the
   first occurrence and reports a ``duplicate`` finding.
2. :func:`resolve_parents` — a clause hangs under the parent its number implies, wherever it
   was printed (Vanguard prints 11.9.x after 11.10.1.1). A misprinted id is kept as printed
   and placed where it belongs: a split reading that fills a hole ("11.9.15" -> 11.9.1.5), or
   else the nearest preceding clause one level up ("7.46.1" under 7.35). The inferred id goes
   into ``aliases`` so the lint and the cross-references see it.
3. :func:`tree_order` — children sorted by their (inferred) numbers; ``seq`` is the DFS order.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from judgekb.corpus.model import Clause, Document, LintFinding
from judgekb.corpus.scan import RawNode, numeric_parent
from judgekb.corpus.segment_lines import id_key, separator

log = logging.getLogger(__name__)

TITLE_MAX = 60


@dataclass(frozen=True)
class NodeData:
    """Everything the tree builder needs about one printed clause."""

    clause_id: str
    line: int
    first: str
    text: str
    raw_text: str
    heading: bool = False
    appendix: bool = False
    continued: bool = False
    provenance: str = "single"
    repaired: bool = False
    alt_raw_text: str = ""


def node_data(raw: RawNode, **overrides: object) -> NodeData:
    """A :class:`NodeData` from a scanned node, with optional field overrides."""
    values: dict[str, object] = {
        "clause_id": raw.clause_id,
        "line": raw.line,
        "first": raw.first,
        "text": raw.text,
        "raw_text": raw.raw_text,
        "heading": raw.heading,
        "appendix": raw.appendix,
        "continued": raw.continued,
    }
    values.update(overrides)
    return NodeData(**values)  # type: ignore[arg-type]


def _is_descendant(child: str, parent: str, numbering: str) -> bool:
    sep = separator(numbering)
    return child.startswith(parent + sep) or numeric_parent(child, numbering) == parent


def drop_duplicates(
    doc: Document, nodes: list[RawNode], numbering: str
) -> tuple[list[RawNode], list[LintFinding]]:
    """Keep one node per id (rule 1)."""
    kept: dict[str, int] = {}
    out: list[RawNode | None] = []
    findings: list[LintFinding] = []
    for node in nodes:
        cid = node.clause_id
        if cid not in kept:
            kept[cid] = len(out)
            out.append(node)
            continue
        i = kept[cid]
        earlier = out[i]
        assert earlier is not None
        following = next((n for n in out[i + 1 :] if n is not None), None)
        has_child = following is not None and _is_descendant(following.clause_id, cid, numbering)
        same_title = earlier.first.split() == node.first.split()
        if not has_child and (not earlier.continued or same_title):
            log.debug("%s: %s at line %d was a contents entry", doc.doc_id, cid, earlier.line)
            out[i] = None
            kept[cid] = len(out)
            out.append(node)
            continue
        findings.append(
            LintFinding(
                doc.doc_id,
                "duplicate",
                cid,
                node.line,
                f"{cid} printed again at line {node.line} (first at line {earlier.line}); "
                "kept the first",
                (("line", str(node.line)), ("first_line", str(earlier.line))),
            )
        )
    return [n for n in out if n is not None], findings


def _split_readings(clause_id: str, sep: str) -> list[str]:
    """Ids obtained by splitting one multi-digit number in two ("11.9.15" -> "11.9.1.5")."""
    parts = clause_id.split(sep)
    out = []
    for i, part in enumerate(parts):
        for cut in range(1, len(part)):
            head, tail = part[:cut], part[cut:]
            if tail.startswith("0"):
                continue
            out.append(sep.join(parts[:i] + [head, tail] + parts[i + 1 :]))
    return out


def _drop_readings(clause_id: str, sep: str) -> list[str]:
    """Ids obtained by dropping one number ("4-2-1-1" -> "4-2-1" when 4-2-1 is missing)."""
    parts = clause_id.split(sep)
    if len(parts) < 3:
        return []
    return [sep.join(parts[:i] + parts[i + 1 :]) for i in range(len(parts) - 1, -1, -1)]


def _sibling(clause_id: str, sep: str, delta: int) -> str:
    head, _, last = clause_id.rpartition(sep)
    return f"{head}{sep}{int(last) + delta}" if head else str(int(last) + delta)


def _fills_hole(candidate: str, ids: set[str], numbering: str) -> bool:
    sep = separator(numbering)
    if candidate in ids or numeric_parent(candidate, numbering) not in ids:
        return False
    return _sibling(candidate, sep, -1) in ids or _sibling(candidate, sep, 1) in ids


def _leaves_gap(node: NodeData, siblings: list[str], numbering: str) -> bool:
    """True when ``node``'s number jumps past its siblings' numbers (11.9.15 after 11.9.8)."""
    others = [id_key(s)[-1] for s in siblings if s != node.clause_id]
    last = id_key(node.clause_id)[-1]
    return separator(numbering) in node.clause_id and last > max(others, default=0) + 1


def _context_parent(
    index: int, nodes: list[NodeData], depth: int, within: str | None, numbering: str
) -> str | None:
    """The nearest preceding printed node one level up from ``depth``, inside ``within``
    (the nearest existing ancestor), or None."""
    for prev in reversed(nodes[:index]):
        pid = prev.clause_id
        if prev.appendix or (within is not None and not _is_descendant(pid, within, numbering)):
            continue
        if len(id_key(pid)) == depth - 1:
            return pid
    return None


def resolve_parents(nodes: list[NodeData], numbering: str) -> dict[str, tuple[str | None, str]]:
    """Map id -> (parent id, inferred id) (rule 2); inferred id == printed id unless misprint."""
    ids = {n.clause_id for n in nodes}
    sep = separator(numbering)
    kids: dict[str | None, list[str]] = {}
    for cid in ids:
        kids.setdefault(numeric_parent(cid, numbering), []).append(cid)
    out: dict[str, tuple[str | None, str]] = {}
    for index, node in enumerate(nodes):
        cid = node.clause_id
        parent = None if node.appendix else numeric_parent(cid, numbering)
        if parent is None or (parent in ids and not _leaves_gap(node, kids[parent], numbering)):
            out[cid] = (parent, cid)
            continue
        readings = _split_readings(cid, sep)
        lone = parent not in ids and len(kids[parent]) == 1
        if lone:
            readings += _drop_readings(cid, sep)
        fitting = [c for c in readings if _fills_hole(c, ids, numbering)]
        if fitting:
            out[cid] = (numeric_parent(fitting[0], numbering), fitting[0])
            continue
        if parent in ids:
            out[cid] = (parent, cid)
            continue
        ancestor = _nearest_ancestor(cid, ids, numbering)
        context = None
        if lone:  # a heading missing for many children is a gap, not a misprint
            context = _context_parent(index, nodes, len(id_key(cid)), ancestor, numbering)
        if context is None:
            out[cid] = (ancestor, cid)
            continue
        guess = f"{context}{sep}{cid.rsplit(sep, 1)[-1]}"
        out[cid] = (context, cid if guess in ids else guess)
    return out


def _nearest_ancestor(cid: str, ids: set[str], numbering: str) -> str | None:
    parent = numeric_parent(cid, numbering)
    while parent is not None and parent not in ids:
        parent = numeric_parent(parent, numbering)
    return parent


def tree_order(nodes: list[NodeData], parents: dict[str, tuple[str | None, str]]) -> list[str]:
    """Ids in DFS order, children by inferred number then print position (rule 3)."""
    position = {n.clause_id: i for i, n in enumerate(nodes)}
    appendix = {n.clause_id for n in nodes if n.appendix}
    children: dict[str | None, list[str]] = {}
    for node in nodes:
        children.setdefault(parents[node.clause_id][0], []).append(node.clause_id)

    def key(cid: str) -> tuple[int, tuple[int, ...], int]:
        return (cid in appendix, id_key(parents[cid][1]), position[cid])

    order: list[str] = []
    stack = sorted(children.get(None, []), key=key, reverse=True)
    while stack:
        cid = stack.pop()
        order.append(cid)
        stack.extend(sorted(children.get(cid, []), key=key, reverse=True))
    return order


def clause_kind(clause_id: str, numbering: str, appendix: bool = False) -> str:
    """chapter | section | clause | appendix, from the shape of the id."""
    if appendix:
        return "appendix"
    sep = separator(numbering)
    depth = clause_id.count(sep) + 1
    if depth == 1:
        if numbering == "dotted" and len(clause_id) >= 3:
            return "section"
        return "chapter"
    if depth == 2 and numbering != "dotted":
        return "section"
    return "clause"


def clause_title(node: NodeData, kind: str, has_children: bool) -> str:
    """Headings keep their words as title; so does a short first line that only heads children."""
    first = re.sub(r"\s+", " ", node.first).strip()
    if kind != "clause" or node.heading:
        return first
    if has_children and not node.continued and len(first) <= TITLE_MAX and first[-1:] not in ":.。":
        return first
    return ""


def build_clauses(doc: Document, nodes: list[NodeData], numbering: str) -> list[Clause]:
    """The :class:`Clause` objects of ``nodes`` in tree order, ``seq`` from 1."""
    parents = resolve_parents(nodes, numbering)
    by_id = {n.clause_id: n for n in nodes}
    with_children = {p for p, _ in parents.values() if p is not None}
    out = []
    for seq, cid in enumerate(tree_order(nodes, parents), 1):
        node = by_id[cid]
        parent, inferred = parents[cid]
        kind = clause_kind(cid, numbering, node.appendix)
        out.append(
            Clause(
                doc_id=doc.doc_id,
                clause_id=cid,
                parent_id=parent,
                kind=kind,
                title=clause_title(node, kind, cid in with_children),
                text=node.text,
                raw_text=node.raw_text,
                lang=doc.lang,
                line=node.line,
                seq=seq,
                provenance=node.provenance,
                repaired=node.repaired,
                aliases=(inferred,) if inferred != cid else (),
                alt_raw_text=node.alt_raw_text,
            )
        )
    return out

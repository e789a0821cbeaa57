"""What gets indexed for each clause: its text with its heading path, for both indexes."""

from __future__ import annotations

from collections.abc import Sequence

from judgekb.corpus.model import Clause
from judgekb.corpus.normalize import normalize_text


def heading_paths(clauses: Sequence[Clause]) -> dict[tuple[str, str], tuple[str, ...]]:
    """For every clause, the labels of its ancestors, root first ("602 Effect", …)."""
    by_key = {(c.doc_id, c.clause_id): c for c in clauses}
    out: dict[tuple[str, str], tuple[str, ...]] = {}
    for c in clauses:
        chain: list[str] = []
        pid = c.parent_id
        while pid is not None and len(chain) < 20:
            parent = by_key.get((c.doc_id, pid))
            if parent is None:
                break
            label = (
                f"{parent.clause_id} {parent.title}".strip()
                if parent.kind != "glossary"
                else parent.title
            )
            chain.append(label)
            pid = parent.parent_id
        out[(c.doc_id, c.clause_id)] = tuple(reversed(chain))
    return out


PASSAGE_VERSION = "2"  # bump when passage_text changes: the index manifest records it

# A "title" this long is a sentence of rule text that the segmenter took as a heading (One
# Piece 7-1 is a 200-character rule); repeated in every descendant's passage it drowns their
# own words, so passages keep only real headings (measured on dev in the 2026-11-25 benchmarks).
MAX_HEADING_CHARS = 60


def passage_text(clause: Clause, path: Sequence[str]) -> str:
    """Heading path, title and text: embedded and BM25-indexed for the clause."""
    titles = [p.split(" ", 1)[1] if " " in p else p for p in path]
    titles = [t for t in titles if len(t) < MAX_HEADING_CHARS]
    parts = [" > ".join(t for t in titles if t)]
    if clause.title and clause.title not in clause.text:
        parts.append(clause.title)
    if clause.aliases:
        parts.append(" / ".join(clause.aliases))
    parts.append(clause.text)
    return normalize_text("\n".join(p for p in parts if p))

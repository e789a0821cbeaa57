"""Cross-references inside a document: find every written clause/section id, resolve it.

Forms recognised (Thai and Malay books):

* multi-level ids anywhere: "(11.6.1)", "ตามข้อ 200.3.2.", "Phase 504.2., 506.2. หรือ 507.2.",
  "(ดู 6-5-3-1.)", "1.3.7.2 dan 1.3.7.3"; the first number must start some multi-level id of
  the document, so a list item "1.1" in the SM glossary is not a reference;
* ranges "ตามข้อ 200.1-20" -> 200.1 and 200.20;
* single numbers only after a keyword: "Bahagian 13", "อ้างอิง 7. การดำเนินเกม", "ข้อ 105";
* an appendix by its letter ("Sila rujuk Lampiran B"), when the document has an appendix
  titled so;
* ids wrapped over two lines ("ข้อ 6-2-" / "1-6-1.") are joined first.

Resolution, within the same document: the exact id; else a printed misprint's inferred id
(``aliases``, reason "alias"); else the nearest existing ancestor (reason "ancestor"); else
unresolved (target None) with the reason.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from judgekb.corpus.model import Clause, CrossRef, Document

CONTEXT = 60
KEYWORDS = r"(?:Bahagian|อ้างอิง|อ้างถึง|หัวข้อ|ข้อ|ดู|Phase|rujuk|lihat|Section|Rule)"
WRAPPED_ID_RE = re.compile(r"(\d[-.])[ \t]*\n\s*(?=\d)")
DOTTED_RE = re.compile(r"(?<![\d.])(\d+(?:\.\d+)+)(?:-(\d+)(?![.\d]))?(?![\d])")
DASHED_RE = re.compile(r"(?<![\d\-])(\d+(?:-\d+)+)(?![\d])")
KEYWORD_RE = re.compile(rf"{KEYWORDS}\s*(\d+)(?![\d.\-]\d)")
# an appendix by its letter: "Sila rujuk Lampiran B", "Appendix A", "ภาคผนวก ก"
APPENDIX_WORDS = r"(?:Lampiran|Appendix|ภาคผนวก)"
APPENDIX_RE = re.compile(rf"{APPENDIX_WORDS}\s+([A-Zก-ฮ])(?![\w])")
APPENDIX_TITLE_RE = re.compile(rf"^{APPENDIX_WORDS}\s+([A-Zก-ฮ])(?![\w])")


def _style(clauses: Sequence[Clause]) -> str:
    dashed = sum("-" in c.clause_id and c.clause_id[:1].isdigit() for c in clauses)
    return "dashed" if dashed > len(clauses) / 4 else "dotted"


def _parent(cid: str, sep: str) -> str | None:
    return cid.rsplit(sep, 1)[0] if sep in cid else None


class Resolver:
    """Resolves written ids against one document's clauses."""

    def __init__(self, clauses: Sequence[Clause]) -> None:
        self.style = _style(clauses)
        self.sep = "-" if self.style == "dashed" else "."
        self.ids = {c.clause_id for c in clauses}
        self.alias = {a: c.clause_id for c in clauses if c.kind != "glossary" for a in c.aliases}
        self.heads = {cid.split(self.sep)[0] for cid in self.ids if self.sep in cid}
        self.tops = {cid for cid in self.ids if self.sep not in cid and cid.isdigit()}
        self.appendices = {
            m.group(1): c.clause_id
            for c in clauses
            if c.kind == "appendix" and (m := APPENDIX_TITLE_RE.match(c.title))
        }

    def resolve(self, written_id: str) -> tuple[str | None, str]:
        """(target, reason) for an id as written (trailing dot already removed)."""
        if written_id in self.ids:
            return written_id, ""
        if written_id in self.alias:
            return self.alias[written_id], "alias"
        parent = self.numeric_parent(written_id)
        while parent is not None:
            if parent in self.ids:
                return parent, "ancestor"
            parent = self.numeric_parent(parent)
        return None, "no such clause or ancestor in this document"

    def numeric_parent(self, cid: str) -> str | None:
        parent = _parent(cid, self.sep)
        if parent is None and self.style == "dotted" and len(cid) >= 3 and cid.isdigit():
            return str(int(cid) // 100)
        return parent

    def candidates(self, text: str) -> list[tuple[int, int, str, str]]:
        """(start, end, written, id) of every reference in ``text``."""
        found: list[tuple[int, int, str, str]] = []
        pattern = DASHED_RE if self.style == "dashed" else DOTTED_RE
        for m in pattern.finditer(text):
            cid = m.group(1)
            if cid.split(self.sep)[0] not in self.heads:
                continue
            found.append((m.start(), m.end(), m.group(0), cid))
            if self.style == "dotted" and m.group(2):
                found.append((m.start(), m.end(), m.group(0), f"{_parent(cid, '.')}.{m.group(2)}"))
        for m in KEYWORD_RE.finditer(text):
            if m.group(1) in self.tops and not _inside(m.start(1), found):
                bahagian = m.group(0).lower().startswith("bahagian")
                written = m.group(0) if bahagian else m.group(1)
                found.append(
                    (m.start(1) if not bahagian else m.start(), m.end(), written, m.group(1))
                )
        for m in APPENDIX_RE.finditer(text):
            if m.group(1) in self.appendices:
                found.append((m.start(), m.end(), m.group(0), self.appendices[m.group(1)]))
        return sorted(found)


def _inside(pos: int, spans: list[tuple[int, int, str, str]]) -> bool:
    return any(start <= pos < end for start, end, _, _ in spans)


def _context(text: str, start: int, end: int) -> str:
    return text[max(0, start - CONTEXT) : end + CONTEXT].replace("\n", " ")


def extract_refs(doc: Document, clauses: Sequence[Clause]) -> list[CrossRef]:
    """Every reference written in ``clauses`` to a clause of the same document, resolved."""
    resolver = Resolver(clauses)
    out: list[CrossRef] = []
    for clause in clauses:
        text = WRAPPED_ID_RE.sub(r"\1", clause.text)
        for start, end, written, cid in resolver.candidates(text):
            if cid == clause.clause_id and cid in resolver.appendices.values():
                continue  # an appendix's own title ("Lampiran A: …")
            target, reason = resolver.resolve(cid)
            out.append(
                CrossRef(
                    doc.doc_id,
                    clause.clause_id,
                    written.strip(),
                    _context(text, start, end),
                    target,
                    reason,
                )
            )
    return out


def resolution_rate(refs: Sequence[CrossRef]) -> tuple[float, float]:
    """(share resolved to any clause, share resolved exactly) of ``refs``; 1.0 when empty."""
    if not refs:
        return 1.0, 1.0
    resolved = sum(r.target_id is not None for r in refs)
    exact = sum(r.target_id is not None and r.reason in ("", "alias") for r in refs)
    return resolved / len(refs), exact / len(refs)

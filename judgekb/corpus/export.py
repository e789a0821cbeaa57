"""JSON views of stored clauses: the export lines, and one clause with its neighbourhood.

These dicts are the public shapes outside tools rely on (`judgekb export clauses --jsonl`,
`judgekb clause --json`, `/api/clauses/...`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from judgekb.corpus.edition_store import editions_of, history_json
from judgekb.corpus.model import AmendmentLink, Clause, CrossRef, Document
from judgekb.corpus.store import ClauseStore


def ref_json(ref: CrossRef, *, incoming: bool = False) -> dict[str, Any]:
    """A reference as seen from one end: the other end's doc and clause id."""
    return {
        "doc": ref.doc_id,
        "clause_id": ref.src_id if incoming else ref.target_id,
        "written": ref.written,
        "resolved": ref.target_id is not None,
        "reason": ref.reason,
    }


def amendment_json(link: AmendmentLink, docs: dict[str, Document]) -> dict[str, Any]:
    def date(doc_id: str) -> str:
        d = docs.get(doc_id)
        return d.effective_date if d else ""

    return {
        "amend_doc": link.amend_doc,
        "amend_id": link.amend_id,
        "amend_date": date(link.amend_doc),
        "target_doc": link.target_doc,
        "target_id": link.target_id,
        "target_date": date(link.target_doc),
        "score": round(link.score, 3),
        "note": link.note,
    }


def clause_json(store: ClauseStore, clause: Clause) -> dict[str, Any]:
    """The export shape of one clause."""
    doc = store.document(clause.doc_id)
    return {
        "game": doc.game,
        "doc": clause.doc_id,
        "clause_id": clause.clause_id,
        "parent_id": clause.parent_id,
        "kind": clause.kind,
        "title": clause.title,
        "text": clause.text,
        "raw_text": clause.raw_text,
        "lang": clause.lang,
        "line": clause.line,
        "provenance": clause.provenance,
        "repaired": clause.repaired,
        "corrections": [c.__dict__ for c in clause.corrections],
        "aliases": list(clause.aliases),
        "refs_out": [ref_json(r) for r in store.refs_out(clause.doc_id, clause.clause_id)],
        "refs_in": [
            ref_json(r, incoming=True) for r in store.refs_in(clause.doc_id, clause.clause_id)
        ],
    }


def export_clauses(store_path: Path) -> Iterator[str]:
    """One JSON line per clause, documents in manifest order, clauses in tree order."""
    store = ClauseStore(store_path)
    for clause in store.clauses():
        yield json.dumps(clause_json(store, clause), ensure_ascii=False)


@dataclass(frozen=True)
class CitationWords:
    """The words of a citation in one language (the service passes the page's)."""

    clause: str = "§"  # before the clause id
    no_date: str = "date not printed"  # a book that prints no edition date
    read_as: str = "read as"  # a misprinted number: "§7.46.1 (read as §7.35.1)"


CITED_TITLE_CHARS = 60  # an internal id's stand-in: its section's name, cut


def cited_label(clause: Clause) -> str:
    """How a citation names a clause: its number as printed; an internal id (``glossary/…``,
    ``topic/6``, ``appendix/changelog``) by its section's name instead."""
    return id_label(clause.clause_id, clause.title)


def id_label(clause_id: str, title: str) -> str:
    """:func:`cited_label` from an id and a title (its name cut to ``CITED_TITLE_CHARS``;
    without one, the id's last part: "glossary/support-seal" is "support seal")."""
    if "/" not in clause_id:
        return clause_id
    name = " ".join(title.split())
    if len(name) > CITED_TITLE_CHARS:
        name = name[: CITED_TITLE_CHARS - 1].rstrip() + "…"
    return name or clause_id.split("/", 1)[1].replace("-", " ")


def citation(doc: Document, clause: Clause, words: CitationWords = CitationWords()) -> str:
    """A citation a judge can read aloud: game, document, version and date, clause id."""
    when = f"{doc.version}, {doc.effective_date or words.no_date}"
    cited = f"{words.clause}{cited_label(clause)}"
    if clause.aliases and "/" not in clause.clause_id:  # a number the book misprinted
        cited += f" ({words.read_as} {words.clause}{clause.aliases[0]})"
    return f"{doc.game_name} — {doc.title} ({when}) {cited}"


def _brief(c: Clause | None) -> dict[str, Any] | None:
    if c is None:
        return None
    return {
        "doc": c.doc_id,
        "clause_id": c.clause_id,
        "title": c.title,
        "kind": c.kind,
        "text": c.text[:300],
    }


def clause_detail(
    store: ClauseStore, game: str, clause_id: str, doc_id: str | None = None
) -> dict[str, Any]:
    """One clause with parents, children, siblings, references both ways and amendments."""
    clause = store.find(game, clause_id, doc_id)
    doc = store.document(clause.doc_id)
    docs = {d.doc_id: d for d in store.documents()}
    prev, nxt = store.siblings(clause)
    detail = clause_json(store, clause)
    detail.update(
        {
            "document": {
                "doc_id": doc.doc_id,
                "title": doc.title,
                "version": doc.version,
                "effective_date": doc.effective_date,
                "kind": doc.kind,
                "lang": doc.lang,
                "amends": doc.amends,
            },
            "citation": citation(doc, clause),
            "parents": [_brief(p) for p in store.parents(clause)],
            "children": [_brief(c) for c in store.children(clause.doc_id, clause.clause_id)],
            "prev": _brief(prev),
            "next": _brief(nxt),
            "amendments": [
                amendment_json(a, docs) for a in store.amendments(clause.doc_id, clause.clause_id)
            ],
            "other_docs": [
                d.doc_id
                for d in store.docs_of(game)
                if d.doc_id != clause.doc_id
                and d.family_id != doc.family_id  # other editions: see "history"
                and store.get(d.doc_id, clause.clause_id)
            ],
            "history": history_json(editions_of(store), clause.doc_id, clause.clause_id),
        }
    )
    return detail


def render_clause(detail: dict[str, Any]) -> str:
    """Plain-text rendering for the terminal."""
    lines = [detail["citation"], ""]
    if detail["parents"]:
        lines.append(
            " > ".join(f"{p['clause_id']} {p['title']}".strip() for p in detail["parents"])
        )
    lines += [f"{detail['clause_id']} {detail['title']}".strip(), detail["text"], ""]
    if detail["repaired"] or detail["corrections"]:
        lines += ["(text repaired/corrected; original:)", detail["raw_text"], ""]
    for key, label in (("refs_out", "refers to"), ("refs_in", "referred to by")):
        ids = [r["clause_id"] or f"?{r['written']}" for r in detail[key]]
        if ids:
            lines.append(f"{label}: {', '.join(ids)}")
    for a in detail["amendments"]:
        lines.append(
            f"amendment: {a['amend_doc']} {a['amend_id']} ({a['amend_date']}) -> "
            f"{a['target_doc']} {a['target_id'] or '(no counterpart)'} "
            f"score {a['score']}"
        )
    return "\n".join(lines)

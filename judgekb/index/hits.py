"""Turn an index row into a cited :class:`SearchHit` (citation, url, refs, amendments)."""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import quote, urlencode

from judgekb.corpus.editions import later_edition, permalink_pin, primary_document
from judgekb.corpus.export import amendment_json, citation
from judgekb.corpus.model import Clause, Document
from judgekb.corpus.normalize import normalize_text
from judgekb.corpus.store import ClauseStore
from judgekb.index.passages import heading_paths
from judgekb.index.results import RefLink, SearchHit

PREVIEW_CHARS = 160


def clause_url(
    game: str,
    clause_id: str,
    doc_id: str | None,
    primary_doc: str | None,
    edition: str | None = None,
) -> str:
    """The permalink of a clause; ``?doc=`` only when it is not in the game's primary document,
    ``?edition=`` when it is another edition of the primary document's rulebook.

    The one place permalinks are made: search hits and every page of the service use it.
    """
    url = f"/rules/{quote(game, safe='')}/{quote(clause_id, safe='/')}"
    if edition:
        return f"{url}?{urlencode({'edition': edition})}"
    if not doc_id or doc_id == primary_doc:
        return url
    return f"{url}?{urlencode({'doc': doc_id})}"


class HitFactory:
    """Precomputes everything per clause so that building a hit costs no database query."""

    def __init__(self, store: ClauseStore, clauses: Sequence[Clause]) -> None:
        self.store = store
        self.clauses = clauses
        docs = store.documents()
        self.docs = {d.doc_id: d for d in docs}
        self.primary = {d.game: primary_document(docs, d.game) for d in docs}
        self.later = {d.doc_id: later_edition(docs, d) for d in docs}
        self.paths = heading_paths(clauses)
        self.by_key = {(c.doc_id, c.clause_id): c for c in clauses}
        self.norm_text = [normalize_text(c.text).lower() for c in clauses]
        self.refs_out: dict[tuple[str, str], list[RefLink]] = {}
        self.refs_in: dict[tuple[str, str], list[RefLink]] = {}
        for r in store.all_refs():
            target = self.by_key.get((r.doc_id, r.target_id or ""))
            source = self.by_key.get((r.doc_id, r.src_id))
            self.refs_out.setdefault((r.doc_id, r.src_id), []).append(
                RefLink(
                    r.doc_id, r.target_id, r.written, target.text[:PREVIEW_CHARS] if target else ""
                )
            )
            if r.target_id:
                self.refs_in.setdefault((r.doc_id, r.target_id), []).append(
                    RefLink(
                        r.doc_id, r.src_id, r.written, source.text[:PREVIEW_CHARS] if source else ""
                    )
                )
        self.amend: dict[tuple[str, str], list[dict]] = {}
        for a in store.all_amendments():
            js = amendment_json(a, self.docs)
            self.amend.setdefault((a.amend_doc, a.amend_id), []).append(js)
            if a.target_id:
                self.amend.setdefault((a.target_doc, a.target_id), []).append(js)

    def url(self, clause: Clause) -> str:
        doc = self.docs[clause.doc_id]
        doc_id, edition = permalink_pin(doc, self.primary[doc.game])
        return clause_url(doc.game, clause.clause_id, doc_id, None, edition)

    def make(self, row: int, score: float, via: str, terms: Sequence[str]) -> SearchHit:
        c = self.clauses[row]
        doc = self.docs[c.doc_id]
        key = (c.doc_id, c.clause_id)
        text = self.norm_text[row]
        matched = tuple(dict.fromkeys(t for t in terms if len(t) >= 2 and t.lower() in text))
        return SearchHit(
            doc_id=c.doc_id,
            game=doc.game,
            clause_id=c.clause_id,
            kind=c.kind,
            title=c.title,
            text=c.text,
            raw_text=c.raw_text,
            score=score,
            citation=citation(doc, c),
            url=self.url(c),
            heading_path=self.paths.get(key, ()),
            doc_title=doc.title,
            version=doc.version,
            effective_date=doc.effective_date,
            doc_kind=doc.kind,
            family=doc.family_id,
            later=_edition_json(self.later[c.doc_id]),
            repaired=c.repaired,
            corrected=bool(c.corrections),
            matched=matched,
            refs_out=tuple(self.refs_out.get(key, ())),
            refs_in=tuple(self.refs_in.get(key, ())),
            amendments=tuple(self.amend.get(key, ())),
            via=via,
        )


def _edition_json(doc: Document | None) -> dict[str, str] | None:
    """A later edition as a hit shows it (None when the hit's edition is the newest)."""
    if doc is None:
        return None
    return {"doc": doc.doc_id, "version": doc.version, "effective_date": doc.effective_date}

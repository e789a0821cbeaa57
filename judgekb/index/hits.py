"""Turn an index row into a cited :class:`SearchHit` (citation, url, refs, amendments)."""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import quote, urlencode

from judgekb.corpus.export import amendment_json, citation
from judgekb.corpus.model import Clause
from judgekb.corpus.normalize import normalize_text
from judgekb.corpus.store import ClauseStore
from judgekb.index.passages import heading_paths
from judgekb.index.results import RefLink, SearchHit

PREVIEW_CHARS = 160


def clause_url(game: str, clause_id: str, doc_id: str | None, primary_doc: str | None) -> str:
    """The permalink of a clause; ``?doc=`` only when it is not in the game's primary document.

    The one place permalinks are made: search hits and every page of the service use it.
    """
    url = f"/rules/{quote(game, safe='')}/{quote(clause_id, safe='/')}"
    if not doc_id or doc_id == primary_doc:
        return url
    return f"{url}?{urlencode({'doc': doc_id})}"


class HitFactory:
    """Precomputes everything per clause so that building a hit costs no database query."""

    def __init__(self, store: ClauseStore, clauses: Sequence[Clause]) -> None:
        self.store = store
        self.clauses = clauses
        self.docs = {d.doc_id: d for d in store.documents()}
        self.primary: dict[str, str] = {}
        for d in store.documents():
            if d.kind == "rules":
                self.primary.setdefault(d.game, d.doc_id)
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
        game = self.docs[clause.doc_id].game
        return clause_url(game, clause.clause_id, clause.doc_id, self.primary.get(game))

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
            repaired=c.repaired,
            corrected=bool(c.corrections),
            matched=matched,
            refs_out=tuple(self.refs_out.get(key, ())),
            refs_in=tuple(self.refs_in.get(key, ())),
            amendments=tuple(self.amend.get(key, ())),
            via=via,
        )
